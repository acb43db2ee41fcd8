// ZooKeeper ACLs and authentications as Hadoop configures them.
//
// `yarn.resourcemanager.zk-acl` / `hadoop.zk.acl` (default "world:anyone:rwcda")
// is a comma-separated list of `scheme:id:perms`; `yarn.resourcemanager.zk-auth`
// / `hadoop.zk.auth` a comma-separated list of `scheme:auth` (e.g.
// "digest:user:password"). The parsers follow Hadoop's ZKUtil.parseACLs and
// ZKUtil.parseAuth (hadoop-common, the same in 2.6 and 3.3): entries are
// trimmed and empty ones skipped; an ACL's scheme ends at its first colon and
// its permissions start after its last (so a digest id "user:hash" keeps its
// colon); permissions are letters of "rwcda"; an auth splits at its first
// colon. A bad entry is InvalidArgument naming Hadoop's exception
// (BadAclFormatException / BadAuthFormatException).
//
// Thread-safety: values and pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace spindle::zk {

// ZooDefs.Perms (the same bits as the C client's ZOO_PERM_*).
inline constexpr int kPermRead = 1;
inline constexpr int kPermWrite = 2;
inline constexpr int kPermCreate = 4;
inline constexpr int kPermDelete = 8;
inline constexpr int kPermAdmin = 16;
inline constexpr int kPermAll = 31;

struct ZkAcl {
  int perms = 0;
  std::string scheme;  // "world", "digest", "ip", "sasl", "auth"
  std::string id;      // "anyone", "user:base64(sha1(user:password))", ...

  bool operator==(const ZkAcl&) const = default;
};

// world:anyone with `perms` (ZooDefs.Ids.OPEN_ACL_UNSAFE for kPermAll).
ZkAcl WorldAnyone(int perms = kPermAll);

// The digest scheme's id for `credentials` ("user:password"), as ZooKeeper's
// DigestAuthenticationProvider.generateDigest computes it: the user (up to
// the first colon) + ":" + base64(sha1(credentials)). The user ends at the
// first colon, so Hadoop's root-node identity "rmhost:8032:<password>" (the
// RM address as user name) is user "rmhost". A client proves the identity
// with AddAuth({"digest", credentials}).
std::string DigestId(std::string_view credentials);

// Parses Hadoop's ACL syntax (see above). "" gives an empty list.
Result<std::vector<ZkAcl>> ParseZkAcls(std::string_view text);
// "rwcda"-letters for `perms`, in that order (the inverse of the parser's).
std::string PermsString(int perms);
// "scheme:id:perms", the syntax ParseZkAcls reads.
std::string ToString(const ZkAcl& acl);

struct ZkAuth {
  std::string scheme;  // "digest"
  std::string auth;    // "user:password" for digest

  bool operator==(const ZkAuth&) const = default;
};

// Parses Hadoop's auth syntax (see above). "" gives an empty list.
Result<std::vector<ZkAuth>> ParseZkAuths(std::string_view text);

// Hadoop's ZKUtil.resolveConfIndirection, for zk-acl and zk-auth values that
// may be secret: "@/path/to/file" gives that file's contents, trimmed (the
// path is trimmed too); any other value is returned as is. IoError if the
// file cannot be read.
Result<std::string> ResolveConfIndirection(std::string_view value);

}  // namespace spindle::zk
