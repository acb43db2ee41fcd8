#include "security/spnego_acceptor.h"

#include <gssapi/gssapi.h>
#include <gssapi/gssapi_ext.h>
#include <gssapi/gssapi_krb5.h>
#include <unistd.h>

#include <utility>

#include "security/gss_support.h"

namespace spindle::security {
namespace {

// SPNEGO's mechanism OID, 1.3.6.1.5.5.2 (RFC 4178); MIT exports no constant.
gss_OID_desc SpnegoOid() {
  static const char kBytes[] = "\x2b\x06\x01\x05\x05\x02";
  return gss_OID_desc{6, const_cast<char*>(kBytes)};
}

// Deletes a per-request context and the names GSS-API hands back.
struct AcceptState {
  gss_ctx_id_t context = GSS_C_NO_CONTEXT;
  gss_name_t source = GSS_C_NO_NAME;
  gss_name_t target = GSS_C_NO_NAME;
  ~AcceptState() {
    OM_uint32 ignored = 0;
    if (source != GSS_C_NO_NAME) gss_release_name(&ignored, &source);
    if (target != GSS_C_NO_NAME) gss_release_name(&ignored, &target);
    if (context != GSS_C_NO_CONTEXT) gss_delete_sec_context(&ignored, &context, GSS_C_NO_BUFFER);
  }
};

}  // namespace

struct SpnegoAcceptor::Credential {
  gss_cred_id_t handle = GSS_C_NO_CREDENTIAL;
  ~Credential() {
    OM_uint32 ignored = 0;
    if (handle != GSS_C_NO_CREDENTIAL) gss_release_cred(&ignored, &handle);
  }
};

SpnegoAcceptor::SpnegoAcceptor(std::unique_ptr<Credential> credential, std::string principal)
    : credential_(std::move(credential)), principal_(std::move(principal)) {}
SpnegoAcceptor::~SpnegoAcceptor() = default;

Result<std::unique_ptr<SpnegoAcceptor>> SpnegoAcceptor::Create(
    const SpnegoAcceptorIdentity& identity) {
  if (identity.principal.empty()) {
    return Status::InvalidArgument("Principal not defined in configuration");
  }
  if (identity.keytab.empty())
    return Status::InvalidArgument("Keytab not defined in configuration");
  if (access(identity.keytab.c_str(), F_OK) != 0) {
    return Status::NotFound("Keytab does not exist: " + identity.keytab);
  }
  gss_name_t name = GSS_C_NO_NAME;
  if (identity.principal != kAnyHttpPrincipal) {
    ASSIGN_OR_RETURN(
        name, GssImportName(identity.principal, const_cast<gss_OID>(GSS_KRB5_NT_PRINCIPAL_NAME)));
  }
  gss_key_value_element_desc element{"keytab", identity.keytab.c_str()};
  gss_key_value_set_desc store{1, &element};
  // SPNEGO (what browsers, curl and AuthenticatedURL send) and bare
  // Kerberos v5, as Hadoop's handler asks for both.
  gss_OID_desc mechs[2] = {SpnegoOid(), *gss_mech_krb5};
  gss_OID_set_desc mech_set{2, mechs};
  auto credential = std::make_unique<Credential>();
  OM_uint32 minor = 0;
  OM_uint32 major = gss_acquire_cred_from(&minor, name, GSS_C_INDEFINITE, &mech_set, GSS_C_ACCEPT,
                                          &store, &credential->handle, nullptr, nullptr);
  OM_uint32 ignored = 0;
  if (name != GSS_C_NO_NAME) gss_release_name(&ignored, &name);
  if (GSS_ERROR(major)) {
    return GssFailure("acceptor credential for " + identity.principal + " from " + identity.keytab,
                      major, minor);
  }
  return std::unique_ptr<SpnegoAcceptor>(
      new SpnegoAcceptor(std::move(credential), identity.principal));
}

Result<SpnegoAcceptance> SpnegoAcceptor::Accept(std::string_view client_token) const {
  if (client_token.empty()) return Status::Unauthorized("GSS-API: the Negotiate token is empty");
  AcceptState state;
  gss_buffer_desc input = GssView(client_token);
  GssOwnedBuffer output;
  OM_uint32 minor = 0;
  OM_uint32 major = gss_accept_sec_context(&minor, &state.context, credential_->handle, &input,
                                           GSS_C_NO_CHANNEL_BINDINGS, &state.source, nullptr,
                                           &output.buffer, nullptr, nullptr, nullptr);
  if (GSS_ERROR(major)) return GssFailure("accept_sec_context", major, minor);
  SpnegoAcceptance acceptance;
  acceptance.reply_token = output.str();
  if (major & GSS_S_CONTINUE_NEEDED) return acceptance;
  major = gss_inquire_context(&minor, state.context, nullptr, &state.target, nullptr, nullptr,
                              nullptr, nullptr, nullptr);
  if (GSS_ERROR(major)) return GssFailure("inquire_context", major, minor);
  ASSIGN_OR_RETURN(const std::string server, GssDisplayName(state.target));
  // Hadoop's handler serves only HTTP/ principals, whatever the keytab holds.
  if (server.rfind("HTTP/", 0) != 0) {
    return Status::Unauthorized("Invalid server principal " + server +
                                " decoded from client request");
  }
  ASSIGN_OR_RETURN(acceptance.client_principal, GssDisplayName(state.source));
  acceptance.established = true;
  return acceptance;
}

}  // namespace spindle::security
