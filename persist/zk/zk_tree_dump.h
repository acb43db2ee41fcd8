// ZkTreeDump: every znode of a ZooKeeper subtree (path, data bytes or null,
// ACL), read from a live server, written to and read from a text file, and
// recreated in another server or under another path. It is how golden trees
// of a Java RM's ZKRMStateStore are captured (`spindle zk-dump`) and how the
// tests put them back into their own ZooKeeper.
//
// The file format, version 1 (line oriented, '\n' ends every line):
//
//   spindle-zk-dump 1                 first line, exactly
//   root <path>                       second line: the subtree's root
//   # <text>                          any number of comment lines, anywhere
//                                     after the first two (where and how it
//                                     was captured)
//   znode <path> <acl> <data>         one line per znode, parents before
//                                     children (sorted by path)
//
// <path> is the absolute znode path (the root itself or below it); it must
// contain no space, tab or newline (ZooKeeper allows them, Hadoop's stores
// never make them: dumping such a node fails). <acl> is the node's ACL as
// comma-separated `scheme:id:perms` entries (Hadoop's zk-acl syntax,
// persist/zk/zk_acl.h; perms letters of "rwcda"), or "-" for an empty ACL.
// <data> is "null" for a node whose data is null (Java's getData() returns
// null: Hadoop's structural nodes), else "0x" followed by the bytes in
// lower-case hex ("0x" alone for empty data). Ephemeral nodes are dumped as
// any other and restored as persistent ones; stats (versions, times) are not
// kept.
//
// Thread-safety: values and functions over their arguments; the ZkSession
// calls are as thread-safe as ZkSession.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "persist/zk/zk_acl.h"
#include "persist/zk/zk_session.h"

namespace spindle::zk {

struct DumpedZnode {
  std::string path;
  std::vector<ZkAcl> acl;
  // nullopt: null data.
  std::optional<std::string> data;

  bool operator==(const DumpedZnode&) const = default;
};

struct ZkTreeDump {
  std::string root;
  // Free text kept as "# " lines (without the "# ").
  std::vector<std::string> comments;
  // Sorted by path; the root first.
  std::vector<DumpedZnode> nodes;

  // The node at `path`, or null.
  const DumpedZnode* Find(std::string_view path) const;
  // The paths of every node, relative to the root ("" for the root).
  std::vector<std::string> RelativePaths() const;
};

// Reads the subtree at `root` (which must exist: NoNode otherwise), one
// level at a time with pipelined reads. NoAuth if a node cannot be read;
// InvalidArgument for a path the format cannot hold. A node deleted while
// the walk runs is left out.
Result<ZkTreeDump> DumpZkTree(ZkSession* session, const std::string& root);

// Removes the node at `path` and every node below it; returns how many.
size_t ExcludeSubtree(ZkTreeDump* dump, std::string_view path);

// The dump as the file text above.
std::string FormatZkTreeDump(const ZkTreeDump& dump);
// Parses the file text. Corruption naming the line for anything the format
// does not allow (a node outside the root, a parent missing before its
// child, a repeated path, bad hex or ACL).
Result<ZkTreeDump> ParseZkTreeDump(std::string_view text);

// Recreates the dump under `target_root` (the dump's root is renamed to it;
// its missing ancestors are created without data and with an open ACL).
// NodeExists if `target_root` exists. Nodes are created with an open ACL
// first and given their dumped ACLs afterwards, children before parents, so
// that a root ACL that locks this session out (a fenced ZKRMStateRoot) is
// restored too.
Status RestoreZkTree(ZkSession* session, const ZkTreeDump& dump, const std::string& target_root);

}  // namespace spindle::zk
