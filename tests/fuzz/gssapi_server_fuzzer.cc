// libFuzzer target: arbitrary bytes as the client's GSSAPI tokens to the
// server side of SASL GSSAPI (wire/ipc/gssapi_mechanism): the first part as
// INITIATE's token, the rest (split at the first 0xFF 0x00 pair) as the next
// RESPONSE. No KDC is needed: the acceptor's key is written to a keytab at
// start-up, and random bytes never make a valid ticket, so this exercises
// libkrb5's token parsing and our stage handling on bad input.
#include <krb5.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "wire/ipc/gssapi_mechanism.h"
#include "tests/fuzz/fuzz_keytab.h"

namespace {

constexpr char kPrincipal[] = "rm/fuzz.spindle.test@FUZZ.TEST";
std::string keytab_path;

// A keytab with one AES key for kPrincipal, made with krb5's own API.
bool WriteKeytab(const std::string& path) {
  return spindle::fuzz::WriteKeytab(kPrincipal, path);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("spindle-gss-fuzz-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string conf = (dir / "krb5.conf").string();
  std::ofstream(conf) << "[libdefaults]\n default_realm = FUZZ.TEST\n";
  setenv("KRB5_CONFIG", conf.c_str(), 1);
  // No replay cache files: every input is a fresh authenticator anyway.
  setenv("KRB5RCACHETYPE", "none", 1);
  keytab_path = (dir / "rm.keytab").string();
  std::filesystem::remove(keytab_path);
  if (!WriteKeytab(keytab_path)) std::abort();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t split = input.find(std::string_view("\xff\x00", 2));
  const std::string_view first = input.substr(0, split);
  auto server = spindle::ipc::GssapiServer::Create({kPrincipal, keytab_path});
  if (!server.ok()) std::abort();  // the keytab is ours: this must work
  auto challenge = (*server)->Step(first);
  if (split != std::string_view::npos) (void)(*server)->Step(input.substr(split + 2));
  (void)challenge;
  return 0;
}
