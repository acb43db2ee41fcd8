#include "persist/zk/zk_tree_dump.h"

#include <algorithm>
#include <set>

#include "base/crypto.h"
#include "persist/zk/zk_error.h"

namespace spindle::zk {

namespace {

constexpr std::string_view kMagic = "spindle-zk-dump 1";

std::string ChildPath(const std::string& parent, const std::string& name) {
  return parent == "/" ? "/" + name : parent + "/" + name;
}

bool FitsFormat(std::string_view path) {
  return !path.empty() && path.find_first_of(" \t\n\r") == std::string_view::npos;
}

bool IsAtOrBelow(std::string_view root, std::string_view path) {
  if (path == root) return true;
  if (root == "/") return path.size() > 1 && path[0] == '/';
  return path.size() > root.size() + 1 && path.substr(0, root.size()) == root &&
         path[root.size()] == '/';
}

std::string ParentPath(std::string_view path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string_view::npos || slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

std::string FormatAcl(const std::vector<ZkAcl>& acl) {
  if (acl.empty()) return "-";
  std::string out;
  for (const ZkAcl& entry : acl) {
    if (!out.empty()) out += ",";
    out += ToString(entry);
  }
  return out;
}

std::vector<std::string_view> SplitSpaces(std::string_view line) {
  std::vector<std::string_view> words;
  while (!line.empty()) {
    const size_t start = line.find_first_not_of(' ');
    if (start == std::string_view::npos) break;
    line.remove_prefix(start);
    const size_t end = line.find(' ');
    words.push_back(line.substr(0, end));
    if (end == std::string_view::npos) break;
    line.remove_prefix(end);
  }
  return words;
}

// The path `path` (below `from`) renamed to sit below `to`.
std::string Rebase(const std::string& from, const std::string& to, const std::string& path) {
  if (path == from) return to;
  const std::string tail = from == "/" ? path : path.substr(from.size());
  return to == "/" ? tail : to + tail;
}

}  // namespace

const DumpedZnode* ZkTreeDump::Find(std::string_view path) const {
  auto it = std::lower_bound(
      nodes.begin(), nodes.end(), path,
      [](const DumpedZnode& node, std::string_view p) { return std::string_view(node.path) < p; });
  return it != nodes.end() && it->path == path ? &*it : nullptr;
}

std::vector<std::string> ZkTreeDump::RelativePaths() const {
  std::vector<std::string> out;
  out.reserve(nodes.size());
  for (const DumpedZnode& node : nodes) {
    out.push_back(node.path == root ? "" : node.path.substr(root == "/" ? 1 : root.size() + 1));
  }
  return out;
}

Result<ZkTreeDump> DumpZkTree(ZkSession* session, const std::string& root) {
  if (!FitsFormat(root) || root[0] != '/') {
    return Status::InvalidArgument("cannot dump znode path '" + root + "'");
  }
  ZkTreeDump dump;
  dump.root = root;
  std::vector<std::string> level = {root};
  bool at_root = true;
  while (!level.empty()) {
    auto data = session->GetMany(level);
    auto children = session->ChildrenMany(level);
    std::vector<std::string> next;
    for (size_t i = 0; i < level.size(); ++i) {
      if (!data[i].ok() || !children[i].ok()) {
        const Status& failed = !data[i].ok() ? data[i].status() : children[i].status();
        // Deleted while the walk ran: left out (the root must exist).
        if (!at_root && ZkErrorOf(failed) == ZkError::kNoNode) continue;
        return failed;
      }
      auto acl = session->GetAcl(level[i]);
      if (!acl.ok()) {
        if (!at_root && ZkErrorOf(acl.status()) == ZkError::kNoNode) continue;
        return acl.status();
      }
      DumpedZnode node;
      node.path = level[i];
      node.acl = std::move(acl->acl);
      if (!data[i]->null_data) node.data = std::move(data[i]->data);
      dump.nodes.push_back(std::move(node));
      for (const std::string& name : *children[i]) {
        std::string child = ChildPath(level[i], name);
        if (!FitsFormat(child)) {
          return Status::InvalidArgument("znode path '" + child + "' has whitespace");
        }
        next.push_back(std::move(child));
      }
    }
    level = std::move(next);
    at_root = false;
  }
  std::sort(dump.nodes.begin(), dump.nodes.end(),
            [](const DumpedZnode& a, const DumpedZnode& b) { return a.path < b.path; });
  return dump;
}

size_t ExcludeSubtree(ZkTreeDump* dump, std::string_view path) {
  const size_t before = dump->nodes.size();
  std::erase_if(dump->nodes,
                [path](const DumpedZnode& node) { return IsAtOrBelow(path, node.path); });
  return before - dump->nodes.size();
}

std::string FormatZkTreeDump(const ZkTreeDump& dump) {
  std::string out(kMagic);
  out += "\nroot " + dump.root + "\n";
  for (const std::string& comment : dump.comments) {
    // One "# " line per line of the comment.
    size_t start = 0;
    while (true) {
      const size_t end = comment.find('\n', start);
      out += "# " + comment.substr(start, end - start) + "\n";
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  for (const DumpedZnode& node : dump.nodes) {
    out += "znode " + node.path + " " + FormatAcl(node.acl) + " ";
    out += node.data.has_value() ? "0x" + HexEncode(*node.data) : std::string("null");
    out += "\n";
  }
  return out;
}

Result<ZkTreeDump> ParseZkTreeDump(std::string_view text) {
  ZkTreeDump dump;
  std::set<std::string> seen;
  int line_number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    ++line_number;
    auto bad = [&](const std::string& why) {
      return Status::Corruption("zk dump line " + std::to_string(line_number) + ": " + why);
    };
    if (line_number == 1) {
      if (line != kMagic) return bad("not a spindle-zk-dump 1 file");
      continue;
    }
    if (line_number == 2) {
      auto words = SplitSpaces(line);
      if (words.size() != 2 || words[0] != "root" || words[1].empty() || words[1][0] != '/') {
        return bad("expected 'root <path>'");
      }
      dump.root = std::string(words[1]);
      continue;
    }
    if (line.substr(0, 1) == "#") {
      line.remove_prefix(line.substr(0, 2) == "# " ? 2 : 1);
      dump.comments.emplace_back(line);
      continue;
    }
    if (line.empty()) continue;
    auto words = SplitSpaces(line);
    if (words.size() != 4 || words[0] != "znode")
      return bad("expected 'znode <path> <acl> <data>'");
    DumpedZnode node;
    node.path = std::string(words[1]);
    if (!IsAtOrBelow(dump.root, node.path)) return bad(node.path + " is not below the root");
    if (!seen.insert(node.path).second) return bad(node.path + " appears twice");
    if (node.path != dump.root && seen.count(ParentPath(node.path)) == 0) {
      return bad("the parent of " + node.path + " is not listed before it");
    }
    if (!dump.nodes.empty() && node.path < dump.nodes.back().path) {
      return bad(node.path + " is out of order");
    }
    if (words[2] != "-") {
      auto acl = ParseZkAcls(words[2]);
      if (!acl.ok()) return bad(acl.status().message());
      node.acl = std::move(acl).value();
    }
    if (words[3] != "null") {
      std::string bytes;
      if (words[3].substr(0, 2) != "0x" || !HexDecode(words[3].substr(2), &bytes)) {
        return bad("data is neither null nor 0x<hex>");
      }
      node.data = std::move(bytes);
    }
    dump.nodes.push_back(std::move(node));
  }
  if (line_number < 2) return Status::Corruption("zk dump: no header");
  if (dump.nodes.empty() || dump.nodes.front().path != dump.root) {
    return Status::Corruption("zk dump: the root " + dump.root + " is not listed");
  }
  return dump;
}

Status RestoreZkTree(ZkSession* session, const ZkTreeDump& dump, const std::string& target_root) {
  if (target_root.empty() || target_root[0] != '/') {
    return Status::InvalidArgument("restore target '" + target_root + "' is not a znode path");
  }
  ASSIGN_OR_RETURN(auto exists, session->Exists(target_root));
  if (exists.has_value()) {
    return Status::AlreadyExists("cannot restore a zk dump over existing " + target_root);
  }
  // Missing ancestors, without data, open.
  std::vector<std::string> ancestors;
  for (std::string p = ParentPath(target_root); p != "/"; p = ParentPath(p)) {
    ancestors.push_back(p);
  }
  for (auto it = ancestors.rbegin(); it != ancestors.rend(); ++it) {
    std::vector<ZkOp> op = {ZkOp::CreateWithoutData(*it, {WorldAnyone()})};
    auto created = session->Multi(op);
    if (!created.ok() && ZkErrorOf(created.status()) != ZkError::kNodeExists) {
      return created.status();
    }
  }
  // Every node open first (parents before children: the dump's order).
  std::vector<ZkOp> creates;
  for (const DumpedZnode& node : dump.nodes) {
    const std::string path = Rebase(dump.root, target_root, node.path);
    creates.push_back(node.data.has_value() ? ZkOp::Create(path, *node.data, {WorldAnyone()})
                                            : ZkOp::CreateWithoutData(path, {WorldAnyone()}));
  }
  // In slices: one multi is bounded by the server's jute.maxbuffer.
  constexpr size_t kSlice = 200;
  for (size_t start = 0; start < creates.size(); start += kSlice) {
    std::vector<ZkOp> slice(
        creates.begin() + static_cast<ptrdiff_t>(start),
        creates.begin() + static_cast<ptrdiff_t>(std::min(creates.size(), start + kSlice)));
    RETURN_NOT_OK(session->Multi(slice).status());
  }
  // Then the dumped ACLs, children first.
  for (auto it = dump.nodes.rbegin(); it != dump.nodes.rend(); ++it) {
    if (it->acl.size() == 1 && it->acl[0] == WorldAnyone()) continue;
    RETURN_NOT_OK(session->SetAcl(Rebase(dump.root, target_root, it->path), it->acl));
  }
  return Status::OK();
}

}  // namespace spindle::zk
