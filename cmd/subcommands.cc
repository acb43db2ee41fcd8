#include "cmd/subcommands.h"

#include <cstdio>

#include "bench/carbyne_bench.h"
#include "bench/ipc_bench.h"
#include "bench/ipc_idle_bench.h"
#include "bench/nm_bench.h"
#include "bench/pool_bench.h"
#include "bench/recovery_bench.h"
#include "bench/sparrow_bench.h"
#include "bench/windtunnel_bench.h"
#include "bench/wire_bench.h"
#include "cmd/doctor_command.h"
#include "cmd/nm_daemon.h"
#include "cmd/rm_daemon.h"
#include "cmd/rmadmin_command.h"
#include "cmd/scheduler_command.h"
#include "cmd/shell_app.h"
#include "cmd/version.h"
#include "cmd/zk_dump_command.h"
#include "replay/replay_command.h"
#include "replay/replay_compare_command.h"
#include "replay/replay_fidelity_command.h"

namespace spindle {

namespace {

constexpr char kBench[] = "bench";

const Subcommand* Find(const std::string& name) {
  for (const Subcommand& c : Subcommands()) {
    if (c.spec().name == name) return &c;
  }
  return nullptr;
}

// The names that may follow `prefix` ("" for commands, "bench " for benchmarks).
std::vector<std::string> NamesAfter(const std::string& prefix) {
  std::vector<std::string> names;
  for (const Subcommand& c : Subcommands()) {
    const std::string& name = c.spec().name;
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    std::string word = name.substr(prefix.size());
    word = word.substr(0, word.find(' '));
    if (names.empty() || names.back() != word) names.push_back(word);
  }
  return names;
}

int UnknownName(const std::string& what, const std::string& typed, const std::string& prefix) {
  std::string message = "spindle: unknown " + what + " '" + typed + "'";
  const std::string suggestion = ClosestMatch(typed, NamesAfter(prefix));
  if (!suggestion.empty()) message += " (did you mean '" + prefix + suggestion + "'?)";
  std::fprintf(stderr, "%s\nrun 'spindle --help' for the commands\n", message.c_str());
  return kExitUsage;
}

bool IsHelpWord(const std::string& word) {
  return word == "--help" || word == "-h" || word == "help";
}

}  // namespace

const std::vector<Subcommand>& Subcommands() {
  static const std::vector<Subcommand> kCommands = {
      {&RmCommand, &RmMain},
      {&NmCommand, &NmMain},
      {&SchedulerCommand, &SchedulerMain},
      {&ShellCommand, &ShellClientMain},
      {&ShellAmCommand, &ShellAmMain},
      {&replay::ReplayCommand, &replay::ReplayMain},
      {&replay::ReplayCompareCommand, &replay::ReplayCompareMain},
      {&replay::ReplayFidelityCommand, &replay::ReplayFidelityMain},
      {&DoctorCommand, &DoctorCommandMain},
      {&ZkDumpCommand, &ZkDumpMain},
      {&ZkRestoreCommand, &ZkRestoreMain},
      {&RmAdminCommand, nullptr, &RmAdminMain},
      {&bench::IpcBenchCommand, &bench::IpcBenchMain},
      {&bench::IpcIdleBenchCommand, &bench::IpcIdleBenchMain},
      {&bench::PoolBenchCommand, &bench::PoolBenchMain},
      {&bench::WindTunnelBenchCommand, &bench::WindTunnelBenchMain},
      {&bench::SparrowBenchCommand, &bench::SparrowBenchMain},
      {&bench::CarbyneBenchCommand, &bench::CarbyneBenchMain},
      {&bench::NmBenchCommand, &bench::NmBenchMain},
      {&bench::RecoveryBenchCommand, &bench::RecoveryBenchMain},
      {&bench::WireBenchCommand, &bench::WireBenchMain},
  };
  return kCommands;
}

std::string TopLevelHelp() {
  std::string out =
      "usage: spindle <command> [flags]\n"
      "Spindle " +
      std::string(kSpindleVersion) +
      ": a drop-in replacement for the Hadoop YARN ResourceManager.\n\ncommands:\n";
  auto row = [&out](const std::string& name, const std::string& summary) {
    std::string left = "  " + name;
    left += std::string(left.size() < 20 ? 20 - left.size() : 1, ' ');
    out += left + summary + "\n";
  };
  for (const Subcommand& c : Subcommands()) row(c.spec().name, c.spec().summary);
  row("help [COMMAND]", "this text, or a command's flags (also: spindle COMMAND --help)");
  row("--version", "Spindle's version, git revision and default Hadoop line");
  out += "\nexit status: 0 ok, 1 the command failed, 2 usage error (bad flag or value)\n";
  return out;
}

int SpindleMain(const std::vector<std::string>& args) {
  if (args.empty()) {
    std::fputs(TopLevelHelp().c_str(), stderr);
    return kExitUsage;
  }
  const std::string& first = args[0];
  if (first == "--version" || first == "version") {
    std::fputs(VersionText().c_str(), stdout);
    return kExitOk;
  }
  if (IsHelpWord(first)) {
    if (args.size() == 1) {
      std::fputs(TopLevelHelp().c_str(), stdout);
      return kExitOk;
    }
    // `spindle help rm`, `spindle help bench wire`: that command's flags.
    std::vector<std::string> rest(args.begin() + 1, args.end());
    rest.push_back("--help");
    return SpindleMain(rest);
  }
  std::string name = first;
  size_t consumed = 1;
  if (first == kBench) {
    const std::string prefix = std::string(kBench) + " ";
    if (args.size() < 2 || IsHelpWord(args[1])) {
      std::string out = "usage: spindle bench <benchmark> [flags]\nbenchmarks:\n";
      for (const std::string& b : NamesAfter(prefix)) {
        out += "  " + b + std::string(b.size() < 12 ? 12 - b.size() : 1, ' ') +
               Find(prefix + b)->spec().summary + "\n";
      }
      out += "run 'spindle bench <benchmark> --help' for its flags\n";
      std::fputs(out.c_str(), args.size() < 2 ? stderr : stdout);
      return args.size() < 2 ? kExitUsage : kExitOk;
    }
    name = prefix + args[1];
    consumed = 2;
    if (Find(name) == nullptr) return UnknownName("benchmark", args[1], prefix);
  }
  // `spindle replay compare`: a word after a command that names one of its
  // own subcommands.
  if (consumed == 1 && args.size() >= 2 && Find(first + " " + args[1]) != nullptr) {
    name = first + " " + args[1];
    consumed = 2;
  }
  const Subcommand* command = Find(name);
  if (command == nullptr || name == kBench) return UnknownName("command", first, "");
  std::vector<std::string> rest(args.begin() + consumed, args.end());
  if (command->raw_main != nullptr && !CommandLine::HelpRequested(rest)) {
    return command->raw_main(rest);
  }
  return RunCommand(command->spec(), command->main, std::move(rest));
}

}  // namespace spindle
