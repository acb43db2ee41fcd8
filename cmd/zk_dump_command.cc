#include "cmd/zk_dump_command.h"

#include <fstream>
#include <iostream>
#include <sstream>

#include "persist/zk/zk_session.h"
#include "persist/zk/zk_tree_dump.h"

namespace spindle {

namespace {

FlagSpec ZkFlag() {
  return FlagSpec::String("zk", "HOST:PORT[,...]", "",
                          "the ZooKeeper connect string (as hadoop.zk.address)")
      .Required();
}

Result<std::unique_ptr<zk::ZkSession>> Connect(const CommandLine& flags) {
  zk::ZkSessionOptions options;
  options.connect_string = flags.GetString("zk");
  options.session_timeout = std::chrono::milliseconds(flags.GetInt("timeout-ms"));
  return zk::ZkSession::Open(std::move(options));
}

FlagSpec TimeoutFlag() {
  return FlagSpec::Int("timeout-ms", 10000, "the session timeout asked of ZooKeeper")
      .InRange(100, 600000);
}

}  // namespace

const CommandSpec& ZkDumpCommand() {
  static const CommandSpec kSpec{
      "zk-dump",
      "write every znode of a ZooKeeper subtree (path, ACL, data) to a dump file",
      {ZkFlag(), FlagSpec::String("path", "ZNODE", "/rmstore", "the subtree's root"),
       FlagSpec::String("out", "FILE", "", "where to write the dump").ComputedDefault("stdout"),
       FlagSpec::String("comment-file", "FILE", "",
                        "a text file whose lines become the dump's '# ' lines (where and how "
                        "it was captured)"),
       FlagSpec::List("exclude", "ZNODE", "",
                      "subtrees left out of the dump (secrets a test does not need), each "
                      "named in a '# ' line; comma-separated"),
       TimeoutFlag()},
      "format: persist/zk/zk_tree_dump.h. exit status: 0 written, 1 failed, 2 usage error"};
  return kSpec;
}

int ZkDumpMain(const CommandLine& flags) {
  auto session = Connect(flags);
  if (!session.ok()) {
    std::cerr << "spindle zk-dump: " << session.status().ToString() << "\n";
    return 1;
  }
  auto dump = zk::DumpZkTree(session->get(), flags.GetString("path"));
  if (!dump.ok()) {
    std::cerr << "spindle zk-dump: " << dump.status().ToString() << "\n";
    return 1;
  }
  if (flags.Has("comment-file")) {
    std::ifstream in(flags.GetString("comment-file"));
    if (!in) {
      std::cerr << "spindle zk-dump: cannot read " << flags.GetString("comment-file") << "\n";
      return 1;
    }
    for (std::string line; std::getline(in, line);) dump->comments.push_back(line);
  }
  for (const std::string& excluded : flags.GetList("exclude")) {
    const size_t removed = zk::ExcludeSubtree(&*dump, excluded);
    dump->comments.push_back("Left out: " + excluded + " (" + std::to_string(removed) + " znodes)");
  }
  const std::string text = zk::FormatZkTreeDump(*dump);
  if (!flags.Has("out")) {
    std::cout << text;
    return 0;
  }
  std::ofstream out(flags.GetString("out"), std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) {
    std::cerr << "spindle zk-dump: cannot write " << flags.GetString("out") << "\n";
    return 1;
  }
  std::cerr << "spindle zk-dump: " << dump->nodes.size() << " znodes of " << dump->root
            << " written to " << flags.GetString("out") << "\n";
  return 0;
}

const CommandSpec& ZkRestoreCommand() {
  static const CommandSpec kSpec{
      "zk-restore",
      "recreate the znodes of a dump file (spindle zk-dump) in a ZooKeeper",
      {ZkFlag(), FlagSpec::String("dump", "FILE", "", "the dump file").Required(),
       FlagSpec::String("path", "ZNODE", "", "where the dump's root goes (must not exist)")
           .ComputedDefault("the dump's own root"),
       TimeoutFlag()},
      "exit status: 0 restored, 1 failed, 2 usage error"};
  return kSpec;
}

int ZkRestoreMain(const CommandLine& flags) {
  std::ifstream in(flags.GetString("dump"), std::ios::binary);
  if (!in) {
    std::cerr << "spindle zk-restore: cannot read " << flags.GetString("dump") << "\n";
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  auto dump = zk::ParseZkTreeDump(text.str());
  if (!dump.ok()) {
    std::cerr << "spindle zk-restore: " << dump.status().ToString() << "\n";
    return 1;
  }
  auto session = Connect(flags);
  if (!session.ok()) {
    std::cerr << "spindle zk-restore: " << session.status().ToString() << "\n";
    return 1;
  }
  const std::string target = flags.GetString("path", dump->root);
  Status restored = zk::RestoreZkTree(session->get(), *dump, target);
  if (!restored.ok()) {
    std::cerr << "spindle zk-restore: " << restored.ToString() << "\n";
    return 1;
  }
  std::cerr << "spindle zk-restore: " << dump->nodes.size() << " znodes restored under " << target
            << "\n";
  return 0;
}

}  // namespace spindle
