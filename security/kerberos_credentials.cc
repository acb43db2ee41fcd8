#include "security/kerberos_credentials.h"

#include <krb5.h>
#include <unistd.h>

#include <utility>

namespace spindle::security {
namespace {

std::string Krb5Message(krb5_context context, krb5_error_code code) {
  const char* text = krb5_get_error_message(context, code);
  std::string message = text != nullptr ? text : "krb5 error " + std::to_string(code);
  krb5_free_error_message(context, text);
  return message;
}

// Frees what a half-done login holds, whatever step failed.
struct LoginState {
  krb5_context context = nullptr;
  krb5_principal client = nullptr;
  krb5_keytab keytab = nullptr;
  krb5_ccache cache = nullptr;
  krb5_creds creds{};
  bool have_creds = false;

  ~LoginState() {
    if (context == nullptr) return;
    if (have_creds) krb5_free_cred_contents(context, &creds);
    if (cache != nullptr) krb5_cc_destroy(context, cache);
    if (keytab != nullptr) krb5_kt_close(context, keytab);
    if (client != nullptr) krb5_free_principal(context, client);
    krb5_free_context(context);
  }
};

}  // namespace

Result<std::unique_ptr<KerberosCredentials>> KerberosCredentials::LoginFromKeytab(
    const std::string& principal, const std::string& keytab) {
  const std::string failure =
      "Login failure for user: " + principal + " from keytab " + keytab + " ";
  LoginState state;
  if (krb5_error_code code = krb5_init_context(&state.context); code != 0) {
    state.context = nullptr;
    return Status::Unauthorized(failure + "krb5_init_context failed (" + std::to_string(code) +
                                ")");
  }
  // krb5 would report a missing keytab as "Key table file ... not found" only
  // after asking the KDC; say it plainly first.
  if (access(keytab.c_str(), R_OK) != 0) {
    return Status::Unauthorized(failure + "keytab file is missing or not readable");
  }
  const auto fail = [&](krb5_error_code code) {
    return Status::Unauthorized(failure + Krb5Message(state.context, code));
  };
  if (krb5_error_code code = krb5_parse_name(state.context, principal.c_str(), &state.client)) {
    return fail(code);
  }
  const std::string keytab_name = "FILE:" + keytab;
  if (krb5_error_code code = krb5_kt_resolve(state.context, keytab_name.c_str(), &state.keytab)) {
    return fail(code);
  }
  if (krb5_error_code code = krb5_get_init_creds_keytab(state.context, &state.creds, state.client,
                                                        state.keytab, 0, nullptr, nullptr)) {
    return fail(code);
  }
  state.have_creds = true;
  if (krb5_error_code code = krb5_cc_new_unique(state.context, "MEMORY", nullptr, &state.cache)) {
    return fail(code);
  }
  if (krb5_error_code code = krb5_cc_initialize(state.context, state.cache, state.client)) {
    return fail(code);
  }
  if (krb5_error_code code = krb5_cc_store_cred(state.context, state.cache, &state.creds)) {
    return fail(code);
  }
  char* unparsed = nullptr;
  if (krb5_error_code code = krb5_unparse_name(state.context, state.client, &unparsed)) {
    return fail(code);
  }
  std::string canonical = unparsed;
  krb5_free_unparsed_name(state.context, unparsed);
  std::string cache_name = std::string("MEMORY:") + krb5_cc_get_name(state.context, state.cache);

  std::unique_ptr<KerberosCredentials> credentials(new KerberosCredentials(
      state.context, state.cache, std::move(canonical), keytab, std::move(cache_name)));
  // Ownership of the context and the cache moved to `credentials`.
  state.cache = nullptr;
  krb5_free_cred_contents(state.context, &state.creds);
  state.have_creds = false;
  krb5_kt_close(state.context, state.keytab);
  state.keytab = nullptr;
  krb5_free_principal(state.context, state.client);
  state.client = nullptr;
  state.context = nullptr;
  return credentials;
}

KerberosCredentials::KerberosCredentials(_krb5_context* context, _krb5_ccache* cache,
                                         std::string principal, std::string keytab,
                                         std::string cache_name)
    : context_(context),
      cache_(cache),
      principal_(std::move(principal)),
      keytab_(std::move(keytab)),
      cache_name_(std::move(cache_name)) {}

KerberosCredentials::~KerberosCredentials() {
  krb5_cc_destroy(context_, cache_);
  krb5_free_context(context_);
}

Result<std::string> DefaultKerberosRealm() {
  krb5_context context = nullptr;
  if (krb5_init_context(&context) != 0) return Status::NotFound("no Kerberos configuration");
  char* realm = nullptr;
  krb5_error_code code = krb5_get_default_realm(context, &realm);
  if (code != 0) {
    std::string message = Krb5Message(context, code);
    krb5_free_context(context);
    return Status::NotFound("no default Kerberos realm: " + message);
  }
  std::string result = realm;
  krb5_free_default_realm(context, realm);
  krb5_free_context(context);
  return result;
}

}  // namespace spindle::security
