// libFuzzer target: the web's authentication on hostile input: arbitrary
// bytes as the Authorization header (Negotiate tokens for a real GSS-API
// acceptor, whose keytab is made at start-up: no KDC, so nothing valid), the
// Cookie header (hadoop.auth values for the signer and the token parser),
// ?user.name and the path, split at 0xFF 0x00 pairs, through a SPNEGO chain
// and a simple one (web/auth). It must never crash; each answer must be one
// Hadoop's filter gives (200 from the handler, 401 with WWW-Authenticate,
// 403), and only a request let through may reach the handler.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tests/fuzz/fuzz_keytab.h"
#include "web/auth/auth_token.h"
#include "web/auth/web_filter_chain.h"

namespace {

using namespace spindle;
using namespace spindle::web;

constexpr char kPrincipal[] = "HTTP/fuzz.spindle.test@FUZZ.TEST";

std::unique_ptr<auth::WebFilterChain> spnego;
std::unique_ptr<auth::WebFilterChain> simple;

void Check(bool condition) {
  if (!condition) __builtin_trap();
}

std::unique_ptr<auth::WebFilterChain> Chain(auth::AuthType type, const std::string& keytab) {
  auth::HttpAuthOptions options;
  options.filter = auth::AuthFilterKind::kResourceManager;
  options.type = type;
  options.anonymous_allowed = false;
  options.principal = kPrincipal;
  options.keytab = keytab;
  auth::AuthenticationFilterDeps deps;
  deps.clock = SystemClock::Get();
  auto rules =
      security::AuthToLocal::Parse("DEFAULT", security::RuleMechanism::kHadoop, "FUZZ.TEST");
  if (!rules.ok()) std::abort();
  deps.auth_to_local = std::move(rules).value();
  auto chain = auth::WebFilterChain::Create(options, std::move(deps));
  if (!chain.ok()) std::abort();  // our own keytab: this must work
  return std::move(chain).value();
}

void Run(const auth::WebFilterChain& chain, const HttpRequest& request) {
  bool reached = false;
  const HttpResponse response = chain.Handle(request, [&](const HttpRequest& passed) {
    reached = true;
    Check(passed.remote_user.has_value());
    return HttpResponse::Text(200, "ok");
  });
  Check(response.status == 200 || response.status == 401 || response.status == 403);
  Check(reached == (response.status == 200));
  if (response.status == 401) {
    bool challenges = false;
    for (const auto& [name, value] : response.headers) challenges |= name == "WWW-Authenticate";
    Check(challenges);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const std::string keytab = fuzz::UseFuzzRealm("web-auth-fuzz", "FUZZ.TEST") + "/http.keytab";
  if (!fuzz::WriteKeytab(kPrincipal, keytab)) std::abort();
  spnego = Chain(auth::AuthType::kKerberos, keytab);
  simple = Chain(auth::AuthType::kSimple, keytab);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> parts;
  for (int i = 0; i < 4; ++i) {
    const size_t split = input.find(std::string_view("\xff\x00", 2));
    parts.emplace_back(input.substr(0, split));
    input = split == std::string_view::npos ? std::string_view() : input.substr(split + 2);
  }
  HttpRequest request;
  request.path = "/" + parts[3];
  request.headers = {{"Authorization", parts[0]}, {"Cookie", parts[1]}};
  if (!parts[2].empty()) request.query = {{"user.name", parts[2]}};
  Run(*spnego, request);
  Run(*simple, request);
  // "Negotiate " in front, so every input reaches the acceptor.
  request.headers[0].second = "Negotiate " + parts[0];
  Run(*spnego, request);
  (void)auth::AuthToken::Parse(parts[1]);
  return 0;
}
