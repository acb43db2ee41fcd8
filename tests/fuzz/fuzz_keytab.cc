#include "tests/fuzz/fuzz_keytab.h"

#include <krb5.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace spindle::fuzz {

bool WriteKeytab(const std::string& principal_name, const std::string& path) {
  krb5_context context = nullptr;
  if (krb5_init_context(&context) != 0) return false;
  bool ok = false;
  krb5_principal principal = nullptr;
  krb5_keytab keytab = nullptr;
  krb5_keyblock key{};
  const std::string name = "FILE:" + path;
  krb5_data password{KV5M_DATA, 5, const_cast<char*>("fuzz!")};
  krb5_data salt{};
  if (krb5_parse_name(context, principal_name.c_str(), &principal) == 0 &&
      krb5_principal2salt(context, principal, &salt) == 0 &&
      krb5_c_string_to_key(context, ENCTYPE_AES256_CTS_HMAC_SHA1_96, &password, &salt, &key) == 0 &&
      krb5_kt_resolve(context, name.c_str(), &keytab) == 0) {
    krb5_keytab_entry entry{};
    entry.principal = principal;
    entry.vno = 1;
    entry.key = key;
    ok = krb5_kt_add_entry(context, keytab, &entry) == 0;
  }
  if (keytab != nullptr) krb5_kt_close(context, keytab);
  krb5_free_keyblock_contents(context, &key);
  krb5_free_data_contents(context, &salt);
  if (principal != nullptr) krb5_free_principal(context, principal);
  krb5_free_context(context);
  return ok;
}

std::string UseFuzzRealm(const std::string& name, const std::string& realm) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("spindle-" + name + "-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string conf = (dir / "krb5.conf").string();
  std::ofstream(conf) << "[libdefaults]\n default_realm = " << realm << "\n";
  setenv("KRB5_CONFIG", conf.c_str(), 1);
  // No replay cache files: every input is a fresh authenticator anyway.
  setenv("KRB5RCACHETYPE", "none", 1);
  return dir.string();
}

}  // namespace spindle::fuzz
