#include "wire/ipc/gssapi_mechanism.h"

#include <gssapi/gssapi.h>
#include <gssapi/gssapi_ext.h>
#include <gssapi/gssapi_krb5.h>

#include <utility>

namespace spindle::ipc {
namespace {

// major/minor status as GSS-API words.
std::string GssMessage(OM_uint32 major, OM_uint32 minor) {
  std::string text;
  for (const auto& [code, type] :
       {std::pair{major, GSS_C_GSS_CODE}, std::pair{minor, GSS_C_MECH_CODE}}) {
    if (type == GSS_C_MECH_CODE && code == 0) continue;
    OM_uint32 context = 0;
    do {
      OM_uint32 ignored = 0;
      gss_buffer_desc status = GSS_C_EMPTY_BUFFER;
      if (GSS_ERROR(gss_display_status(&ignored, code, type, GSS_C_NO_OID, &context, &status)))
        break;
      if (!text.empty()) text += ": ";
      text.append(static_cast<const char*>(status.value), status.length);
      gss_release_buffer(&ignored, &status);
    } while (context != 0);
  }
  return text;
}

Status GssFailure(std::string_view what, OM_uint32 major, OM_uint32 minor) {
  return Status::Unauthorized("GSS-API " + std::string(what) +
                              " failed: " + GssMessage(major, minor));
}

// Owns a buffer GSS-API allocated.
struct OwnedBuffer {
  gss_buffer_desc buffer = GSS_C_EMPTY_BUFFER;
  ~OwnedBuffer() {
    OM_uint32 ignored = 0;
    gss_release_buffer(&ignored, &buffer);
  }
  std::string str() const {
    return std::string(static_cast<const char*>(buffer.value), buffer.length);
  }
};

gss_buffer_desc View(std::string_view bytes) {
  gss_buffer_desc buffer;
  buffer.length = bytes.size();
  buffer.value = const_cast<char*>(bytes.data());
  return buffer;
}

Result<gss_name_t> ImportName(std::string_view text, gss_OID type) {
  gss_buffer_desc buffer = View(text);
  OM_uint32 minor = 0;
  gss_name_t name = GSS_C_NO_NAME;
  OM_uint32 major = gss_import_name(&minor, &buffer, type, &name);
  if (GSS_ERROR(major)) return GssFailure("import of name " + std::string(text), major, minor);
  return name;
}

Result<std::string> Wrap(gss_ctx_id_t context, std::string_view message) {
  gss_buffer_desc input = View(message);
  OwnedBuffer output;
  OM_uint32 minor = 0;
  // conf_req 0: the security-layer messages are integrity-protected only.
  OM_uint32 major =
      gss_wrap(&minor, context, 0, GSS_C_QOP_DEFAULT, &input, nullptr, &output.buffer);
  if (GSS_ERROR(major)) return GssFailure("wrap", major, minor);
  return output.str();
}

Result<std::string> Unwrap(gss_ctx_id_t context, std::string_view token) {
  gss_buffer_desc input = View(token);
  OwnedBuffer output;
  OM_uint32 minor = 0;
  OM_uint32 major = gss_unwrap(&minor, context, &input, &output.buffer, nullptr, nullptr);
  if (GSS_ERROR(major)) return GssFailure("unwrap", major, minor);
  return output.str();
}

std::string LayerMessage(uint8_t layers, uint32_t max_buffer) {
  std::string message(4, '\0');
  message[0] = static_cast<char>(layers);
  message[1] = static_cast<char>((max_buffer >> 16) & 0xff);
  message[2] = static_cast<char>((max_buffer >> 8) & 0xff);
  message[3] = static_cast<char>(max_buffer & 0xff);
  return message;
}

}  // namespace

struct GssapiServer::Handles {
  gss_cred_id_t credential = GSS_C_NO_CREDENTIAL;
  gss_ctx_id_t context = GSS_C_NO_CONTEXT;
  ~Handles() {
    OM_uint32 ignored = 0;
    if (context != GSS_C_NO_CONTEXT) gss_delete_sec_context(&ignored, &context, GSS_C_NO_BUFFER);
    if (credential != GSS_C_NO_CREDENTIAL) gss_release_cred(&ignored, &credential);
  }
};

GssapiServer::GssapiServer(std::unique_ptr<Handles> handles) : handles_(std::move(handles)) {}
GssapiServer::~GssapiServer() = default;

Result<std::unique_ptr<GssapiServer>> GssapiServer::Create(const GssapiAcceptorIdentity& identity) {
  ASSIGN_OR_RETURN(gss_name_t name,
                   ImportName(identity.principal, const_cast<gss_OID>(GSS_KRB5_NT_PRINCIPAL_NAME)));
  gss_key_value_element_desc element{"keytab", identity.keytab.c_str()};
  gss_key_value_set_desc store{1, &element};
  auto handles = std::make_unique<Handles>();
  OM_uint32 minor = 0;
  // Kerberos v5 only: SASL GSSAPI is not SPNEGO (RFC 4752 3).
  gss_OID_set_desc krb5_only{1, const_cast<gss_OID>(gss_mech_krb5)};
  OM_uint32 major = gss_acquire_cred_from(&minor, name, GSS_C_INDEFINITE, &krb5_only, GSS_C_ACCEPT,
                                          &store, &handles->credential, nullptr, nullptr);
  OM_uint32 ignored = 0;
  gss_release_name(&ignored, &name);
  if (GSS_ERROR(major)) {
    return GssFailure("acceptor credential for " + identity.principal + " from " + identity.keytab,
                      major, minor);
  }
  return std::unique_ptr<GssapiServer>(new GssapiServer(std::move(handles)));
}

Result<std::string> GssapiServer::LayerOffer() {
  stage_ = Stage::kAwaitLayerChoice;
  // No security layer: the maximum buffer is 0 (RFC 4752 3.3).
  return Wrap(handles_->context, LayerMessage(kGssapiNoSecurityLayer, 0));
}

Result<std::optional<std::string>> GssapiServer::Step(std::string_view client_token) {
  const Stage stage = stage_;
  stage_ = Stage::kFailed;  // until this step succeeds
  switch (stage) {
    case Stage::kAccepting: {
      if (client_token.empty()) {
        return Status::Unauthorized("GSS-API: the client sent no initial context token");
      }
      gss_buffer_desc input = View(client_token);
      OwnedBuffer output;
      gss_name_t source = GSS_C_NO_NAME;
      OM_uint32 minor = 0;
      OM_uint32 major = gss_accept_sec_context(&minor, &handles_->context, handles_->credential,
                                               &input, GSS_C_NO_CHANNEL_BINDINGS, &source, nullptr,
                                               &output.buffer, nullptr, nullptr, nullptr);
      if (GSS_ERROR(major)) {
        if (source != GSS_C_NO_NAME) gss_release_name(&minor, &source);
        return GssFailure("accept_sec_context", major, minor);
      }
      if (major & GSS_S_CONTINUE_NEEDED) {
        if (source != GSS_C_NO_NAME) gss_release_name(&minor, &source);
        stage_ = Stage::kAccepting;
        return std::optional<std::string>(output.str());
      }
      OwnedBuffer display;
      major = gss_display_name(&minor, source, &display.buffer, nullptr);
      OM_uint32 ignored = 0;
      gss_release_name(&ignored, &source);
      if (GSS_ERROR(major)) return GssFailure("display_name", major, minor);
      client_principal_ = display.str();
      if (output.buffer.length > 0) {
        stage_ = Stage::kAwaitEmpty;
        return std::optional<std::string>(output.str());
      }
      ASSIGN_OR_RETURN(std::string offer, LayerOffer());
      return std::optional<std::string>(std::move(offer));
    }
    case Stage::kAwaitEmpty: {
      // The client's answer to the last context token: nothing (RFC 4752 3.1).
      if (!client_token.empty()) {
        return Status::Unauthorized("GSS-API: unexpected token after the context was established");
      }
      ASSIGN_OR_RETURN(std::string offer, LayerOffer());
      return std::optional<std::string>(std::move(offer));
    }
    case Stage::kAwaitLayerChoice: {
      Result<std::string> unwrapped = Unwrap(handles_->context, client_token);
      if (!unwrapped.ok()) return unwrapped.status();
      const std::string& choice = *unwrapped;
      if (choice.size() < 4) {
        return Status::Unauthorized("GSS-API: the client's security layer choice is too short");
      }
      const uint8_t layer = static_cast<uint8_t>(choice.front());
      if (layer != kGssapiNoSecurityLayer) {
        return Status::Unauthorized("GSS-API: the client chose a security layer (" +
                                    std::to_string(layer) + ") that was not offered");
      }
      // Hadoop's SaslGssCallbackHandler authorizes a connection only as the
      // principal that authenticated.
      const std::string authzid = choice.substr(4);
      if (!authzid.empty() && authzid != client_principal_) {
        return Status::Unauthorized("GSS-API: " + client_principal_ +
                                    " is not authorized to connect as " + authzid);
      }
      stage_ = Stage::kComplete;
      return std::optional<std::string>();
    }
    case Stage::kComplete:
      return Status::Unauthorized("GSS-API: authentication already completed");
    case Stage::kFailed:
      break;
  }
  return Status::Unauthorized("GSS-API: authentication already failed");
}

struct GssapiClient::Handles {
  gss_cred_id_t credential = GSS_C_NO_CREDENTIAL;
  gss_name_t target = GSS_C_NO_NAME;
  gss_ctx_id_t context = GSS_C_NO_CONTEXT;
  ~Handles() {
    OM_uint32 ignored = 0;
    if (context != GSS_C_NO_CONTEXT) gss_delete_sec_context(&ignored, &context, GSS_C_NO_BUFFER);
    if (target != GSS_C_NO_NAME) gss_release_name(&ignored, &target);
    if (credential != GSS_C_NO_CREDENTIAL) gss_release_cred(&ignored, &credential);
  }
};

GssapiClient::GssapiClient(std::unique_ptr<Handles> handles, std::string client_principal)
    : handles_(std::move(handles)), client_principal_(std::move(client_principal)) {}
GssapiClient::~GssapiClient() = default;

Result<std::unique_ptr<GssapiClient>> GssapiClient::Create(const GssapiInitiatorIdentity& identity,
                                                           std::string_view protocol,
                                                           std::string_view server_id) {
  if (protocol.empty() || server_id.empty()) {
    return Status::Unauthorized("GSS-API: the server advertised no Kerberos principal (protocol '" +
                                std::string(protocol) + "', serverId '" + std::string(server_id) +
                                "')");
  }
  auto handles = std::make_unique<Handles>();
  ASSIGN_OR_RETURN(handles->target, ImportName(std::string(protocol) + "@" + std::string(server_id),
                                               GSS_C_NT_HOSTBASED_SERVICE));
  gss_key_value_element_desc element{"ccache", identity.cache_name.c_str()};
  gss_key_value_set_desc store{1, &element};
  gss_OID_set_desc krb5_only{1, const_cast<gss_OID>(gss_mech_krb5)};
  OM_uint32 minor = 0;
  // Without a cache name: the default cache, as after kinit.
  OM_uint32 major = gss_acquire_cred_from(
      &minor, GSS_C_NO_NAME, GSS_C_INDEFINITE, &krb5_only, GSS_C_INITIATE,
      identity.cache_name.empty() ? nullptr : &store, &handles->credential, nullptr, nullptr);
  if (GSS_ERROR(major)) {
    return GssFailure(
        "initiator credential from " +
            (identity.cache_name.empty() ? std::string("the default cache") : identity.cache_name),
        major, minor);
  }
  gss_name_t own_name = GSS_C_NO_NAME;
  major = gss_inquire_cred(&minor, handles->credential, &own_name, nullptr, nullptr, nullptr);
  if (GSS_ERROR(major)) return GssFailure("inquire_cred", major, minor);
  OwnedBuffer display;
  major = gss_display_name(&minor, own_name, &display.buffer, nullptr);
  OM_uint32 ignored = 0;
  gss_release_name(&ignored, &own_name);
  if (GSS_ERROR(major)) return GssFailure("display_name", major, minor);
  return std::unique_ptr<GssapiClient>(new GssapiClient(std::move(handles), display.str()));
}

Result<std::string> GssapiClient::Initiate(std::string_view input_token) {
  gss_buffer_desc input = View(input_token);
  OwnedBuffer output;
  OM_uint32 minor = 0;
  // Java's GssKrb5Client asks for mutual authentication, integrity and
  // confidentiality.
  const OM_uint32 flags = GSS_C_MUTUAL_FLAG | GSS_C_INTEG_FLAG | GSS_C_CONF_FLAG;
  OM_uint32 major =
      gss_init_sec_context(&minor, handles_->credential, &handles_->context, handles_->target,
                           const_cast<gss_OID>(gss_mech_krb5), flags, 0, GSS_C_NO_CHANNEL_BINDINGS,
                           stage_ == Stage::kStart ? GSS_C_NO_BUFFER : &input, nullptr,
                           &output.buffer, nullptr, nullptr);
  if (GSS_ERROR(major)) return GssFailure("init_sec_context", major, minor);
  stage_ = (major & GSS_S_CONTINUE_NEEDED) ? Stage::kEstablishing : Stage::kAwaitOffer;
  return output.str();
}

Result<std::string> GssapiClient::Start() {
  if (stage_ != Stage::kStart) return Status::Unauthorized("GSS-API: already started");
  return Initiate("");
}

Result<std::string> GssapiClient::Step(std::string_view challenge) {
  switch (stage_) {
    case Stage::kEstablishing:
      return Initiate(challenge);
    case Stage::kAwaitOffer: {
      stage_ = Stage::kFailed;
      Result<std::string> unwrapped = Unwrap(handles_->context, challenge);
      if (!unwrapped.ok()) return unwrapped.status();
      const std::string& offer = *unwrapped;
      if (offer.size() != 4) {
        return Status::Unauthorized("GSS-API: the server's security layer offer is malformed");
      }
      if ((static_cast<uint8_t>(offer.front()) & kGssapiNoSecurityLayer) == 0) {
        return Status::Unauthorized(
            "GSS-API: No common protection layer between client and server");
      }
      // No security layer, buffer 0, no authorization id (Hadoop's client
      // sends none: the connection runs as the authenticated principal).
      ASSIGN_OR_RETURN(std::string choice,
                       Wrap(handles_->context, LayerMessage(kGssapiNoSecurityLayer, 0)));
      stage_ = Stage::kComplete;
      return choice;
    }
    case Stage::kStart:
    case Stage::kComplete:
    case Stage::kFailed:
      break;
  }
  stage_ = Stage::kFailed;
  return Status::Unauthorized("GSS-API: unexpected server challenge");
}

}  // namespace spindle::ipc
