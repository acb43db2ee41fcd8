#include "wire/ipc/digest_md5.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <vector>

#include "base/crypto.h"

namespace spindle::ipc {

namespace {
constexpr char kNonceCount[] = "00000001";
constexpr char kQopAuth[] = "auth";

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Quotes a directive value, escaping '"' and '\' as RFC 2831 requires.
std::string Quote(std::string_view value) {
  std::string out = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

// The items of a comma-separated directive value ("auth,auth-conf"), trimmed.
std::vector<std::string> SplitList(std::string_view list) {
  std::vector<std::string> out;
  while (true) {
    const size_t comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    while (!item.empty() && IsSpace(item.front())) item.remove_prefix(1);
    while (!item.empty() && IsSpace(item.back())) item.remove_suffix(1);
    if (!item.empty()) out.emplace_back(item);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return out;
}

// A maxbuf directive: a positive decimal (absent: the default).
Result<uint32_t> ParseMaxBuffer(const std::map<std::string, std::string>& d) {
  auto it = d.find("maxbuf");
  if (it == d.end()) return kDigestMaxBuffer;
  uint64_t value = 0;
  if (it->second.empty() || it->second.size() > 10) {
    return Status::Unauthorized("DIGEST-MD5: invalid maxbuf");
  }
  for (char c : it->second) {
    if (c < '0' || c > '9') return Status::Unauthorized("DIGEST-MD5: invalid maxbuf");
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  if (value == 0 || value > 0xffffffffu) return Status::Unauthorized("DIGEST-MD5: invalid maxbuf");
  return static_cast<uint32_t>(value);
}

// Compares two hex digests without an early exit.
bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}
}  // namespace

Result<std::map<std::string, std::string>> ParseDigestDirectives(std::string_view text) {
  std::map<std::string, std::string> out;
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    while (i < n && (IsSpace(text[i]) || text[i] == ',')) ++i;
    if (i >= n) break;
    const size_t name_start = i;
    while (i < n && text[i] != '=' && text[i] != ',' && !IsSpace(text[i])) ++i;
    std::string name(text.substr(name_start, i - name_start));
    while (i < n && IsSpace(text[i])) ++i;
    if (name.empty() || i >= n || text[i] != '=') {
      return Status::InvalidArgument("DIGEST-MD5: directive without a value near '" + name + "'");
    }
    ++i;
    while (i < n && IsSpace(text[i])) ++i;
    std::string value;
    if (i < n && text[i] == '"') {
      ++i;
      bool closed = false;
      while (i < n) {
        const char c = text[i++];
        if (c == '\\') {
          if (i >= n) break;
          value.push_back(text[i++]);
        } else if (c == '"') {
          closed = true;
          break;
        } else {
          value.push_back(c);
        }
      }
      if (!closed) return Status::InvalidArgument("DIGEST-MD5: unterminated quoted value");
    } else {
      const size_t start = i;
      while (i < n && text[i] != ',' && !IsSpace(text[i])) ++i;
      value.assign(text.substr(start, i - start));
    }
    while (i < n && IsSpace(text[i])) ++i;
    if (i < n && text[i] != ',') return Status::InvalidArgument("DIGEST-MD5: expected ','");
    for (auto& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (!out.emplace(std::move(name), std::move(value)).second) {
      return Status::InvalidArgument("DIGEST-MD5: duplicate directive");
    }
  }
  return out;
}

std::string DigestSessionKey(std::string_view username, std::string_view realm,
                             std::string_view password, std::string_view nonce,
                             std::string_view cnonce) {
  std::string user_realm_pass;
  user_realm_pass.append(username).append(":").append(realm).append(":").append(password);
  std::string a1 = Md5(user_realm_pass);
  a1.append(":").append(nonce).append(":").append(cnonce);
  return Md5(a1);
}

std::string ComputeDigestResponse(std::string_view username, std::string_view realm,
                                  std::string_view password, std::string_view nonce,
                                  std::string_view cnonce, std::string_view nc,
                                  std::string_view qop, std::string_view digest_uri,
                                  std::string_view a2_prefix) {
  const std::string h_a1 = DigestSessionKey(username, realm, password, nonce, cnonce);
  std::string a2(a2_prefix);
  a2.append(":").append(digest_uri);
  if (qop != kQopAuth) a2.append(":00000000000000000000000000000000");
  std::string kd = HexEncode(h_a1);
  kd.append(":").append(nonce).append(":").append(nc).append(":").append(cnonce);
  kd.append(":").append(qop).append(":").append(HexEncode(Md5(a2)));
  return HexEncode(Md5(kd));
}

DigestMd5Server::DigestMd5Server(std::string nonce, SaslQops qops)
    : nonce_(std::move(nonce)), qops_(std::move(qops)) {}

std::string DigestMd5Server::Challenge() const {
  std::string qop_list;
  bool conf = false;
  for (SaslQop qop : qops_) {
    if (!qop_list.empty()) qop_list += ",";
    qop_list += SaslQopName(qop);
    conf = conf || qop == SaslQop::kAuthConf;
  }
  // DigestMD5Server.generateChallenge: realm, nonce, qop, [maxbuf],
  // charset, [cipher], algorithm.
  return std::string("realm=") + Quote(kDigestRealm) + ",nonce=" + Quote(nonce_) +
         ",qop=" + Quote(qop_list) + ",charset=utf-8," +
         (conf ? "cipher=" + Quote(kDigestCipher3Des) + "," : std::string()) + "algorithm=md5-sess";
}

Result<std::string> DigestMd5Server::EvaluateResponse(std::string_view response,
                                                      const PasswordLookup& lookup) {
  if (complete_) return Status::Unauthorized("DIGEST-MD5: authentication already completed");
  auto parsed = ParseDigestDirectives(response);
  if (!parsed.ok()) return Status::Unauthorized(parsed.status().message());
  const auto& d = *parsed;
  auto get = [&d](const char* key) -> std::string {
    auto it = d.find(key);
    return it == d.end() ? std::string() : it->second;
  };
  const std::string username = get("username");
  if (username.empty()) return Status::Unauthorized("DIGEST-MD5: missing username");
  if (d.count("realm") != 0 && get("realm") != kDigestRealm) {
    return Status::Unauthorized("DIGEST-MD5: realm not offered by the server");
  }
  if (get("nonce") != nonce_) return Status::Unauthorized("DIGEST-MD5: nonce mismatch");
  if (get("nc") != kNonceCount) return Status::Unauthorized("DIGEST-MD5: nonce count not 00000001");
  const std::string cnonce = get("cnonce");
  if (cnonce.empty()) return Status::Unauthorized("DIGEST-MD5: missing cnonce");
  const std::string qop = d.count("qop") != 0 ? get("qop") : kQopAuth;
  const std::optional<SaslQop> chosen = SaslQopFromName(qop);
  if (!chosen.has_value()) {
    return Status::Unauthorized("DIGEST-MD5: digest response format violation. Invalid QOP: " +
                                qop);
  }
  if (std::find(qops_.begin(), qops_.end(), *chosen) == qops_.end()) {
    return Status::Unauthorized("DIGEST-MD5: server does not support  qop: " + qop);
  }
  if (*chosen == SaslQop::kAuthConf && get("cipher") != kDigestCipher3Des) {
    return Status::Unauthorized(
        d.count("cipher") == 0 ? "DIGEST-MD5: digest response format violation. No cipher "
                                 "specified."
                               : "DIGEST-MD5: server does not support cipher: " + get("cipher"));
  }
  ASSIGN_OR_RETURN(const uint32_t client_max_buffer, ParseMaxBuffer(d));
  if (get("digest-uri") != kDigestUri) return Status::Unauthorized("DIGEST-MD5: Mismatched URI");
  if (d.count("charset") != 0 && get("charset") != "utf-8") {
    return Status::Unauthorized("DIGEST-MD5: unsupported charset");
  }
  if (d.count("authzid") != 0 && get("authzid") != username) {
    return Status::Unauthorized("DIGEST-MD5: authzid differs from the authentication id");
  }
  const std::string client_digest = get("response");
  if (client_digest.size() != 32) return Status::Unauthorized("DIGEST-MD5: malformed response");

  auto password = lookup(username);
  if (!password.ok()) return password.status();
  const std::string realm = d.count("realm") != 0 ? get("realm") : "";
  const std::string expected = ComputeDigestResponse(username, realm, *password, nonce_, cnonce,
                                                     kNonceCount, qop, kDigestUri, "AUTHENTICATE");
  if (!ConstantTimeEquals(expected, client_digest)) {
    return Status::Unauthorized("DIGEST-MD5: digest response does not match (wrong password)");
  }
  if (UsesWrap(*chosen)) {
    ASSIGN_OR_RETURN(layer_,
                     DigestMd5SecurityLayer::Create(
                         DigestSessionKey(username, realm, *password, nonce_, cnonce), *chosen,
                         get("cipher"), DigestMd5Side::kServer, client_max_buffer));
  }
  complete_ = true;
  username_ = username;
  negotiated_qop_ = *chosen;
  return "rspauth=" + ComputeDigestResponse(username, realm, *password, nonce_, cnonce, kNonceCount,
                                            qop, kDigestUri, "");
}

DigestMd5Client::DigestMd5Client(std::string username, std::string password, std::string cnonce,
                                 SaslQops qops)
    : username_(std::move(username)),
      password_(std::move(password)),
      cnonce_(std::move(cnonce)),
      qops_(std::move(qops)) {}

Result<std::string> DigestMd5Client::EvaluateChallenge(std::string_view challenge) {
  ASSIGN_OR_RETURN(auto d, ParseDigestDirectives(challenge));
  auto nonce = d.find("nonce");
  if (nonce == d.end() || nonce->second.empty()) {
    return Status::Unauthorized("DIGEST-MD5: challenge without a nonce");
  }
  auto algorithm = d.find("algorithm");
  if (algorithm == d.end() || algorithm->second != "md5-sess") {
    return Status::Unauthorized("DIGEST-MD5: challenge without algorithm=md5-sess");
  }
  // No qop directive means auth (RFC 2831 2.1.1).
  SaslQops offered;
  auto qop = d.find("qop");
  for (const std::string& name : SplitList(qop == d.end() ? kQopAuth : qop->second)) {
    if (auto known = SaslQopFromName(name); known.has_value()) offered.push_back(*known);
  }
  const std::optional<SaslQop> chosen = FirstCommonQop(qops_, offered);
  if (!chosen.has_value()) {
    // The JDK's DigestMD5Client text, word for word.
    return Status::NotSupported("DIGEST-MD5: No common protection layer between client and server");
  }
  if (*chosen == SaslQop::kAuthConf) {
    auto ciphers = d.find("cipher");
    if (ciphers == d.end()) {
      return Status::Unauthorized(
          "DIGEST-MD5: server did not specify cipher to use for 'auth-conf'");
    }
    const std::vector<std::string> names = SplitList(ciphers->second);
    if (std::find(names.begin(), names.end(), kDigestCipher3Des) == names.end()) {
      return Status::NotSupported("DIGEST-MD5: Client supports none of these cipher suites: " +
                                  ciphers->second);
    }
  }
  ASSIGN_OR_RETURN(server_max_buffer_, ParseMaxBuffer(d));
  negotiated_qop_ = *chosen;
  nonce_ = nonce->second;
  auto realm = d.find("realm");
  realm_ = realm == d.end() ? std::string() : realm->second;
  const std::string qop_name(SaslQopName(negotiated_qop_));
  const std::string digest =
      ComputeDigestResponse(username_, realm_, password_, nonce_, cnonce_, kNonceCount, qop_name,
                            kDigestUri, "AUTHENTICATE");
  // Same directive order as the JDK client, so captures can be compared byte for byte.
  std::string out = "charset=utf-8,username=" + Quote(username_);
  if (realm != d.end()) out += ",realm=" + Quote(realm_);
  out += ",nonce=" + Quote(nonce_) + ",nc=" + kNonceCount + ",cnonce=" + Quote(cnonce_) +
         ",digest-uri=" + Quote(kDigestUri) + ",maxbuf=" + std::to_string(kDigestMaxBuffer) +
         ",response=" + digest + ",qop=" + qop_name;
  if (negotiated_qop_ == SaslQop::kAuthConf) out += ",cipher=" + Quote(kDigestCipher3Des);
  return out;
}

Status DigestMd5Client::VerifyServerFinal(std::string_view server_final) const {
  ASSIGN_OR_RETURN(auto d, ParseDigestDirectives(server_final));
  auto it = d.find("rspauth");
  if (it == d.end()) return Status::Unauthorized("DIGEST-MD5: server final without rspauth");
  const std::string expected =
      ComputeDigestResponse(username_, realm_, password_, nonce_, cnonce_, kNonceCount,
                            SaslQopName(negotiated_qop_), kDigestUri, "");
  if (!ConstantTimeEquals(expected, it->second)) {
    return Status::Unauthorized("DIGEST-MD5: server rspauth does not match (server not authentic)");
  }
  return Status::OK();
}

Result<std::unique_ptr<SaslSecurityLayer>> DigestMd5Client::TakeSecurityLayer() const {
  if (!UsesWrap(negotiated_qop_)) return std::unique_ptr<SaslSecurityLayer>();
  ASSIGN_OR_RETURN(auto layer, DigestMd5SecurityLayer::Create(
                                   DigestSessionKey(username_, realm_, password_, nonce_, cnonce_),
                                   negotiated_qop_, kDigestCipher3Des, DigestMd5Side::kClient,
                                   server_max_buffer_));
  return std::unique_ptr<SaslSecurityLayer>(std::move(layer));
}

}  // namespace spindle::ipc
