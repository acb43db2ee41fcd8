#include "wire/ipc/gssapi_mechanism.h"

#include <gssapi/gssapi.h>
#include <gssapi/gssapi_ext.h>
#include <gssapi/gssapi_krb5.h>

#include <utility>

#include "base/mutex.h"
#include "security/gss_support.h"

namespace spindle::ipc {
namespace {

using security::GssFailure;
using security::GssImportName;
using security::GssOwnedBuffer;
using security::GssView;

// conf_req false: integrity only (the security-layer handshake messages,
// and every message of an integrity layer).
Result<std::string> Wrap(gss_ctx_id_t context, std::string_view message, bool conf_req = false) {
  gss_buffer_desc input = GssView(message);
  GssOwnedBuffer output;
  OM_uint32 minor = 0;
  int conf_state = 0;
  OM_uint32 major = gss_wrap(&minor, context, conf_req ? 1 : 0, GSS_C_QOP_DEFAULT, &input,
                             &conf_state, &output.buffer);
  if (GSS_ERROR(major)) return GssFailure("wrap", major, minor);
  if (conf_req && conf_state == 0) return Status::Unauthorized("GSS-API: wrap gave no privacy");
  return output.str();
}

// As Java's GssKrb5Base.unwrap: with `need_conf` an unencrypted token is
// refused ("Privacy not protected"), and so is a duplicate, old,
// out-of-sequence or gap token (checkMessageProp).
Result<std::string> Unwrap(gss_ctx_id_t context, std::string_view token, bool need_conf = false) {
  gss_buffer_desc input = GssView(token);
  GssOwnedBuffer output;
  OM_uint32 minor = 0;
  int conf_state = 0;
  OM_uint32 major = gss_unwrap(&minor, context, &input, &output.buffer, &conf_state, nullptr);
  if (GSS_ERROR(major)) return GssFailure("unwrap", major, minor);
  if (major & GSS_S_DUPLICATE_TOKEN) return Status::Unauthorized("GSS-API: Duplicate token");
  if (major & GSS_S_GAP_TOKEN) return Status::Unauthorized("GSS-API: Gap token");
  if (major & GSS_S_OLD_TOKEN) return Status::Unauthorized("GSS-API: Old token");
  if (major & GSS_S_UNSEQ_TOKEN) return Status::Unauthorized("GSS-API: Token not in sequence");
  if (need_conf && conf_state == 0) return Status::Unauthorized("GSS-API: Privacy not protected");
  return output.str();
}

uint32_t ReadMaxBuffer(std::string_view message) {
  return (uint32_t{static_cast<uint8_t>(message[1])} << 16) |
         (uint32_t{static_cast<uint8_t>(message[2])} << 8) | static_cast<uint8_t>(message[3]);
}

// The qop of a chosen layer mask: privacy wins over integrity (Java's
// GssKrb5Server.doHandshake2).
SaslQop QopOfLayer(uint8_t mask) {
  if (mask & kGssapiPrivacyLayer) return SaslQop::kAuthConf;
  if (mask & kGssapiIntegrityLayer) return SaslQop::kAuthInt;
  return SaslQop::kAuth;
}

uint8_t LayerOfQop(SaslQop qop) {
  switch (qop) {
    case SaslQop::kAuth:
      return kGssapiNoSecurityLayer;
    case SaslQop::kAuthInt:
      return kGssapiIntegrityLayer;
    case SaslQop::kAuthConf:
      return kGssapiPrivacyLayer;
  }
  return kGssapiNoSecurityLayer;
}

// The wrap/unwrap of an established context with integrity or privacy.
// gss_wrap and gss_unwrap share the context (MIT's key usage caches are not
// safe under concurrent use), so one mutex serialises them.
class GssapiSecurityLayer : public SaslSecurityLayer {
 public:
  GssapiSecurityLayer(gss_ctx_id_t context, SaslQop qop, uint32_t peer_max_buffer)
      : context_(context), qop_(qop) {
    OM_uint32 minor = 0;
    OM_uint32 max_input = 0;
    const OM_uint32 major = gss_wrap_size_limit(&minor, context_, privacy() ? 1 : 0,
                                                GSS_C_QOP_DEFAULT, peer_max_buffer, &max_input);
    max_send_size_ = GSS_ERROR(major) || max_input == 0 ? 1 : max_input;
  }
  ~GssapiSecurityLayer() override {
    OM_uint32 ignored = 0;
    gss_delete_sec_context(&ignored, &context_, GSS_C_NO_BUFFER);
  }

  Result<std::string> Wrap(std::string_view message) override {
    MutexLock lock(&mu_);
    return ::spindle::ipc::Wrap(context_, message, privacy());
  }
  Result<std::string> Unwrap(std::string_view wrapped) override {
    MutexLock lock(&mu_);
    return ::spindle::ipc::Unwrap(context_, wrapped, privacy());
  }
  SaslQop qop() const override { return qop_; }
  size_t max_send_size() const override { return max_send_size_; }

 private:
  bool privacy() const { return qop_ == SaslQop::kAuthConf; }

  Mutex mu_;
  gss_ctx_id_t context_ GUARDED_BY(mu_);
  const SaslQop qop_;
  size_t max_send_size_ = 1;
};

std::string LayerMessage(uint8_t layers, uint32_t max_buffer) {
  std::string message(4, '\0');
  message[0] = static_cast<char>(layers);
  message[1] = static_cast<char>((max_buffer >> 16) & 0xff);
  message[2] = static_cast<char>((max_buffer >> 8) & 0xff);
  message[3] = static_cast<char>(max_buffer & 0xff);
  return message;
}

}  // namespace

uint8_t GssapiLayerMask(const SaslQops& qops) {
  uint8_t mask = 0;
  for (SaslQop qop : qops) mask |= LayerOfQop(qop);
  return mask;
}

struct GssapiAcceptorCredential::Handle {
  gss_cred_id_t credential = GSS_C_NO_CREDENTIAL;
  ~Handle() {
    OM_uint32 ignored = 0;
    if (credential != GSS_C_NO_CREDENTIAL) gss_release_cred(&ignored, &credential);
  }
};

GssapiAcceptorCredential::GssapiAcceptorCredential(std::unique_ptr<Handle> handle)
    : handle_(std::move(handle)) {}
GssapiAcceptorCredential::~GssapiAcceptorCredential() = default;

Result<std::shared_ptr<const GssapiAcceptorCredential>> GssapiAcceptorCredential::Acquire(
    const GssapiAcceptorIdentity& identity) {
  ASSIGN_OR_RETURN(gss_name_t name, GssImportName(identity.principal,
                                                  const_cast<gss_OID>(GSS_KRB5_NT_PRINCIPAL_NAME)));
  gss_key_value_element_desc element{"keytab", identity.keytab.c_str()};
  gss_key_value_set_desc store{1, &element};
  auto handle = std::make_unique<Handle>();
  OM_uint32 minor = 0;
  // Kerberos v5 only: SASL GSSAPI is not SPNEGO (RFC 4752 3).
  gss_OID_set_desc krb5_only{1, const_cast<gss_OID>(gss_mech_krb5)};
  OM_uint32 major = gss_acquire_cred_from(&minor, name, GSS_C_INDEFINITE, &krb5_only, GSS_C_ACCEPT,
                                          &store, &handle->credential, nullptr, nullptr);
  OM_uint32 ignored = 0;
  gss_release_name(&ignored, &name);
  if (GSS_ERROR(major)) {
    return GssFailure("acceptor credential for " + identity.principal + " from " + identity.keytab,
                      major, minor);
  }
  return std::shared_ptr<const GssapiAcceptorCredential>(
      new GssapiAcceptorCredential(std::move(handle)));
}

struct GssapiServer::Handles {
  std::shared_ptr<const GssapiAcceptorCredential> credential;
  gss_ctx_id_t context = GSS_C_NO_CONTEXT;
  ~Handles() {
    OM_uint32 ignored = 0;
    if (context != GSS_C_NO_CONTEXT) gss_delete_sec_context(&ignored, &context, GSS_C_NO_BUFFER);
  }
};

GssapiServer::GssapiServer(std::unique_ptr<Handles> handles, SaslQops qops)
    : handles_(std::move(handles)), qops_(std::move(qops)) {}
GssapiServer::~GssapiServer() = default;

std::unique_ptr<GssapiServer> GssapiServer::Create(
    std::shared_ptr<const GssapiAcceptorCredential> credential, SaslQops qops) {
  auto handles = std::make_unique<Handles>();
  handles->credential = std::move(credential);
  return std::unique_ptr<GssapiServer>(new GssapiServer(std::move(handles), std::move(qops)));
}

Result<std::unique_ptr<GssapiServer>> GssapiServer::Create(const GssapiAcceptorIdentity& identity,
                                                           SaslQops qops) {
  ASSIGN_OR_RETURN(auto credential, GssapiAcceptorCredential::Acquire(identity));
  return Create(std::move(credential), std::move(qops));
}

Result<std::string> GssapiServer::LayerOffer() {
  stage_ = Stage::kAwaitLayerChoice;
  // GssKrb5Server.doHandshake1: every allowed layer, and the buffer this
  // side receives (sent even when only "no layer" is allowed).
  return Wrap(handles_->context, LayerMessage(GssapiLayerMask(qops_), kGssapiMaxBuffer));
}

std::unique_ptr<SaslSecurityLayer> GssapiServer::TakeSecurityLayer() {
  if (stage_ != Stage::kComplete || !UsesWrap(negotiated_qop_)) return nullptr;
  gss_ctx_id_t context = handles_->context;
  handles_->context = GSS_C_NO_CONTEXT;
  return std::make_unique<GssapiSecurityLayer>(context, negotiated_qop_, peer_max_buffer_);
}

Result<std::optional<std::string>> GssapiServer::Step(std::string_view client_token) {
  const Stage stage = stage_;
  stage_ = Stage::kFailed;  // until this step succeeds
  switch (stage) {
    case Stage::kAccepting: {
      if (client_token.empty()) {
        return Status::Unauthorized("GSS-API: the client sent no initial context token");
      }
      gss_buffer_desc input = GssView(client_token);
      GssOwnedBuffer output;
      gss_name_t source = GSS_C_NO_NAME;
      OM_uint32 minor = 0;
      OM_uint32 major = gss_accept_sec_context(
          &minor, &handles_->context, handles_->credential->handle_->credential, &input,
          GSS_C_NO_CHANNEL_BINDINGS, &source, nullptr, &output.buffer, nullptr, nullptr, nullptr);
      if (GSS_ERROR(major)) {
        if (source != GSS_C_NO_NAME) gss_release_name(&minor, &source);
        return GssFailure("accept_sec_context", major, minor);
      }
      if (major & GSS_S_CONTINUE_NEEDED) {
        if (source != GSS_C_NO_NAME) gss_release_name(&minor, &source);
        stage_ = Stage::kAccepting;
        return std::optional<std::string>(output.str());
      }
      Result<std::string> principal = security::GssDisplayName(source);
      OM_uint32 ignored = 0;
      gss_release_name(&ignored, &source);
      if (!principal.ok()) return principal.status();
      client_principal_ = std::move(principal).value();
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
      if ((layer & GssapiLayerMask(qops_)) == 0) {
        // GssKrb5Server.doHandshake2's words.
        return Status::Unauthorized("GSS-API: Client selected unsupported protection: " +
                                    std::to_string(layer));
      }
      // Hadoop's SaslGssCallbackHandler authorizes a connection only as the
      // principal that authenticated.
      const std::string authzid = choice.substr(4);
      if (!authzid.empty() && authzid != client_principal_) {
        return Status::Unauthorized("GSS-API: " + client_principal_ +
                                    " is not authorized to connect as " + authzid);
      }
      negotiated_qop_ = QopOfLayer(layer);
      peer_max_buffer_ = ReadMaxBuffer(choice);
      if (UsesWrap(negotiated_qop_) && peer_max_buffer_ == 0) {
        return Status::Unauthorized("GSS-API: the client chose a security layer with no buffer");
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

GssapiClient::GssapiClient(std::unique_ptr<Handles> handles, std::string client_principal,
                           SaslQops qops)
    : handles_(std::move(handles)),
      client_principal_(std::move(client_principal)),
      qops_(std::move(qops)) {}
GssapiClient::~GssapiClient() = default;

Result<std::unique_ptr<GssapiClient>> GssapiClient::Create(const GssapiInitiatorIdentity& identity,
                                                           std::string_view protocol,
                                                           std::string_view server_id,
                                                           SaslQops qops) {
  if (protocol.empty() || server_id.empty()) {
    return Status::Unauthorized("GSS-API: the server advertised no Kerberos principal (protocol '" +
                                std::string(protocol) + "', serverId '" + std::string(server_id) +
                                "')");
  }
  auto handles = std::make_unique<Handles>();
  ASSIGN_OR_RETURN(handles->target,
                   GssImportName(std::string(protocol) + "@" + std::string(server_id),
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
  // First whether the credential is still good, by its lifetime alone: for
  // an expired one MIT's krb5 mechanism makes the name it was asked for and
  // then answers GSS_S_CREDENTIALS_EXPIRED, and the mechglue layer drops
  // that name unreleased (a leak inside libgssapi_krb5 on every such call).
  OM_uint32 lifetime = 0;
  major = gss_inquire_cred(&minor, handles->credential, nullptr, &lifetime, nullptr, nullptr);
  if (GSS_ERROR(major)) return GssFailure("inquire_cred", major, minor);
  if (lifetime == 0) return GssFailure("inquire_cred", GSS_S_CREDENTIALS_EXPIRED, 0);
  gss_name_t own_name = GSS_C_NO_NAME;
  major = gss_inquire_cred(&minor, handles->credential, &own_name, nullptr, nullptr, nullptr);
  OM_uint32 ignored = 0;
  if (GSS_ERROR(major)) {
    gss_release_name(&ignored, &own_name);
    return GssFailure("inquire_cred", major, minor);
  }
  Result<std::string> own_principal = security::GssDisplayName(own_name);
  gss_release_name(&ignored, &own_name);
  if (!own_principal.ok()) return own_principal.status();
  return std::unique_ptr<GssapiClient>(
      new GssapiClient(std::move(handles), std::move(own_principal).value(), std::move(qops)));
}

Result<std::string> GssapiClient::Initiate(std::string_view input_token) {
  gss_buffer_desc input = GssView(input_token);
  GssOwnedBuffer output;
  OM_uint32 minor = 0;
  // Java's GssKrb5Client asks for mutual authentication, integrity and
  // confidentiality; its Krb5Context adds replay and sequence detection,
  // which let gss_unwrap report a replayed or reordered wrapped message.
  const OM_uint32 flags = GSS_C_MUTUAL_FLAG | GSS_C_INTEG_FLAG | GSS_C_CONF_FLAG |
                          GSS_C_REPLAY_FLAG | GSS_C_SEQUENCE_FLAG;
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
      // GssKrb5Client.findPreferredMask: the first of this client's
      // preferences the server offers.
      const uint8_t offered = static_cast<uint8_t>(offer.front());
      std::optional<SaslQop> chosen;
      for (SaslQop qop : qops_) {
        if (offered & LayerOfQop(qop)) {
          chosen = qop;
          break;
        }
      }
      if (!chosen.has_value()) {
        // The JDK's GssKrb5Client text, word for word.
        return Status::Unauthorized("No common protection layer between client and server");
      }
      negotiated_qop_ = *chosen;
      peer_max_buffer_ = ReadMaxBuffer(offer);
      if (UsesWrap(negotiated_qop_) && peer_max_buffer_ == 0) {
        return Status::Unauthorized("GSS-API: the server offers a security layer with no buffer");
      }
      // The chosen layer, this side's buffer (0 without a layer, RFC 4752
      // 3.1), no authorization id (Hadoop's client sends none: the
      // connection runs as the authenticated principal).
      ASSIGN_OR_RETURN(
          std::string choice,
          Wrap(handles_->context, LayerMessage(LayerOfQop(negotiated_qop_),
                                               UsesWrap(negotiated_qop_) ? kGssapiMaxBuffer : 0)));
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

std::unique_ptr<SaslSecurityLayer> GssapiClient::TakeSecurityLayer() {
  if (stage_ != Stage::kComplete || !UsesWrap(negotiated_qop_)) return nullptr;
  gss_ctx_id_t context = handles_->context;
  handles_->context = GSS_C_NO_CONTEXT;
  return std::make_unique<GssapiSecurityLayer>(context, negotiated_qop_, peer_max_buffer_);
}

}  // namespace spindle::ipc
