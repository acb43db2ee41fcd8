#include "persist/zk/zk_acl.h"

#include <fstream>
#include <sstream>

#include "base/base64.h"
#include "base/crypto.h"
#include "base/strings/trim.h"

namespace spindle::zk {
namespace {

constexpr char kBadAcl[] = "org.apache.hadoop.util.ZKUtil$BadAclFormatException";
constexpr char kBadAuth[] = "org.apache.hadoop.util.ZKUtil$BadAuthFormatException";

// Guava's Splitter.on(',').omitEmptyStrings().trimResults().
std::vector<std::string_view> SplitCommas(std::string_view text) {
  std::vector<std::string_view> parts;
  while (true) {
    const size_t comma = text.find(',');
    const std::string_view part = TrimBlanks(text.substr(0, comma));
    if (!part.empty()) parts.push_back(part);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return parts;
}

Result<int> ParsePerms(std::string_view text) {
  int perms = 0;
  for (char c : text) {
    switch (c) {
      case 'r':
        perms |= kPermRead;
        break;
      case 'w':
        perms |= kPermWrite;
        break;
      case 'c':
        perms |= kPermCreate;
        break;
      case 'd':
        perms |= kPermDelete;
        break;
      case 'a':
        perms |= kPermAdmin;
        break;
      default:
        return Status::Remote(kBadAcl,
                              "Invalid permission '" + std::string(1, c) +
                                  "' in permission string '" + std::string(text) + "'",
                              Status::Code::kInvalidArgument);
    }
  }
  return perms;
}

}  // namespace

ZkAcl WorldAnyone(int perms) { return ZkAcl{perms, "world", "anyone"}; }

std::string DigestId(std::string_view credentials) {
  return std::string(credentials.substr(0, credentials.find(':'))) + ":" +
         Base64Encode(Sha1(credentials));
}

Result<std::vector<ZkAcl>> ParseZkAcls(std::string_view text) {
  std::vector<ZkAcl> acls;
  for (std::string_view entry : SplitCommas(text)) {
    const size_t first = entry.find(':');
    const size_t last = entry.rfind(':');
    if (first == std::string_view::npos || first == last) {
      return Status::Remote(kBadAcl,
                            "ACL '" + std::string(entry) + "' not of expected form scheme:id:perm",
                            Status::Code::kInvalidArgument);
    }
    ASSIGN_OR_RETURN(int perms, ParsePerms(entry.substr(last + 1)));
    acls.push_back(ZkAcl{perms, std::string(entry.substr(0, first)),
                         std::string(entry.substr(first + 1, last - first - 1))});
  }
  return acls;
}

std::string PermsString(int perms) {
  std::string out;
  if (perms & kPermRead) out += 'r';
  if (perms & kPermWrite) out += 'w';
  if (perms & kPermCreate) out += 'c';
  if (perms & kPermDelete) out += 'd';
  if (perms & kPermAdmin) out += 'a';
  return out;
}

std::string ToString(const ZkAcl& acl) {
  return acl.scheme + ":" + acl.id + ":" + PermsString(acl.perms);
}

Result<std::vector<ZkAuth>> ParseZkAuths(std::string_view text) {
  std::vector<ZkAuth> auths;
  for (std::string_view entry : SplitCommas(text)) {
    const size_t colon = entry.find(':');
    if (colon == std::string_view::npos) {
      return Status::Remote(kBadAuth,
                            "Auth '" + std::string(entry) + "' not of expected form scheme:auth",
                            Status::Code::kInvalidArgument);
    }
    auths.push_back(
        ZkAuth{std::string(entry.substr(0, colon)), std::string(entry.substr(colon + 1))});
  }
  return auths;
}

Result<std::string> ResolveConfIndirection(std::string_view value) {
  if (value.empty() || value.front() != '@') return std::string(value);
  const std::string path(TrimBlanks(value.substr(1)));
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IoError("cannot read " + path + " (named by '@' in a ZooKeeper setting)");
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) return Status::IoError("cannot read " + path);
  return std::string(TrimBlanks(contents.str()));
}

}  // namespace spindle::zk
