#include "replay/replay_fidelity_command.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "glog/logging.h"
#include "replay/fidelity/fidelity_cell_files.h"
#include "replay/fidelity/fidelity_scenarios.h"
#include "replay/fidelity/fidelity_table.h"
#include "replay/fidelity/fidelity_tunnel.h"
#include "replay/replay_command.h"
#include "replay/report/write_file.h"

namespace spindle::replay {

namespace {

constexpr char kName[] = "replay fidelity";

struct FidelityPlan {
  std::vector<const FidelityScenario*> scenarios;
  std::vector<rm::HadoopLine> lines;
  PolicySpec policy;
};

Result<FidelityPlan> MakeFidelityPlan(const CommandLine& flags) {
  FidelityPlan plan;
  for (const std::string& name : flags.GetList("scenario")) {
    const FidelityScenario* s = FindFidelityScenario(name);
    if (s == nullptr) {
      std::string known;
      for (const FidelityScenario& k : FidelityScenarios()) known += " " + k.name;
      return Status::InvalidArgument("--scenario: no scenario '" + name + "' (known:" + known +
                                     ")");
    }
    plan.scenarios.push_back(s);
  }
  if (plan.scenarios.empty()) {
    for (const FidelityScenario& s : FidelityScenarios()) plan.scenarios.push_back(&s);
  }
  for (const std::string& l : flags.GetList("hadoop-line")) {
    auto line = rm::ParseHadoopLine(l);
    if (!line) return Status::InvalidArgument("--hadoop-line: '" + l + "' is not 2.6, 2.7 or 3.3");
    plan.lines.push_back(*line);
  }
  if (plan.lines.empty()) plan.lines.push_back(rm::kDefaultHadoopLine);
  ASSIGN_OR_RETURN(plan.policy, ParsePolicy(flags.GetString("pool")));
  return plan;
}

void PrintList() {
  for (const FidelityScenario& s : FidelityScenarios()) {
    std::string lines;
    for (rm::HadoopLine l : s.lines)
      lines += (lines.empty() ? "" : ",") + std::string(rm::TraitsOf(l).name);
    std::printf("%-28s %s\n  from %s (Hadoop %s)\n  expected: %s\n", s.name.c_str(),
                s.summary.c_str(), s.hadoop_tests.c_str(), lines.c_str(), s.derivation.c_str());
  }
}

Status WriteCell(const FidelityPlan& plan, const std::string& dir) {
  auto commands = WriteFidelityCell(plan.scenarios, plan.lines.front(), dir);
  if (!commands.ok()) return commands.status();
  std::fputs(commands->c_str(), stdout);
  return Status::OK();
}

}  // namespace

const CommandSpec& ReplayFidelityCommand() {
  static const CommandSpec kSpec{
      "replay fidelity",
      "Hadoop CapacityScheduler test scenarios: Spindle's steady state vs Hadoop's",
      {
          FlagSpec::List("scenario", "NAME[,NAME]", "", "run only these scenarios (--list)")
              .ComputedDefault("every scenario"),
          FlagSpec::List("hadoop-line", "2.6|2.7|3.3[,...]", "3.3",
                         "the lines whose semantics are compared (scenarios with no "
                         "expectation for a line are skipped)"),
          FlagSpec::String("pool", "MODE[:STRATEGY]", "parsync:latency-first",
                           "the scheduler pool (parsync, samesync, statesync, monolithic)"),
          FlagSpec::String("json", "FILE", "", "also write the figure as JSON"),
          FlagSpec::Switch("list", "list the scenarios, their Hadoop tests and expectations"),
          FlagSpec::String("write-cell", "DIR", "",
                           "write each scenario's capacity-scheduler.xml, nodes.json and "
                           "trace.json to DIR/<scenario>/ and print the `replay --mode cell` "
                           "commands, instead of running"),
          FlagSpec::String("cell-dir", "DIR", "",
                           "read DIR/<scenario>/<cell-run>/report.json of cell runs and show "
                           "them beside"),
          FlagSpec::List("cell-run", "NAME[,NAME]", "java",
                         "the cell runs' folders under --cell-dir, a column each "
                         "(java,spindle: a Java RM beside a Spindle RM)"),
          FlagSpec::Switch("verbose", "keep the RM core's INFO log"),
      },
      "exit status 1 when a scenario does not match; replay/README.md, 'Fidelity'"};
  return kSpec;
}

int ReplayFidelityMain(const CommandLine& flags) {
  if (flags.GetBool("list")) {
    PrintList();
    return kExitOk;
  }
  auto plan = MakeFidelityPlan(flags);
  if (!plan.ok()) return ReportUsageError(kName, plan.status());
  if (!flags.GetBool("verbose")) FLAGS_minloglevel = std::max(FLAGS_minloglevel, 1);
  if (flags.Has("write-cell")) {
    Status s = WriteCell(*plan, flags.GetString("write-cell"));
    return s.ok() ? kExitOk : ReportFailure(kName, s);
  }
  pool::PoolOptions pool;
  pool.mode = plan->policy.mode;
  pool.strategy = plan->policy.strategy;
  const std::string cell_dir = flags.GetString("cell-dir");
  const std::vector<std::string> cell_runs = flags.GetList("cell-run");
  std::vector<FidelityRow> rows;
  for (rm::HadoopLine line : plan->lines) {
    const std::string line_name(rm::TraitsOf(line).name);
    for (const FidelityScenario* s : plan->scenarios) {
      if (!s->AppliesTo(line)) continue;
      auto run = RunFidelityInTunnel(*s, line, pool);
      if (!run.ok()) return ReportFailure(kName, run.status());
      FidelityRow row{s, std::move(*run), {}};
      if (!cell_dir.empty()) {
        for (const std::string& name : cell_runs) {
          FidelityCellColumn column{name, std::nullopt};
          const std::string path = cell_dir + "/" + s->name + "/" + name + "/report.json";
          if (std::filesystem::exists(path)) {
            auto cell = ReadTenantRun(path);
            if (!cell.ok()) return ReportFailure(kName, cell.status());
            column.run = FidelityFromCellRun(*s, *cell, line_name, "cell " + path);
          }
          row.cells.push_back(std::move(column));
        }
      }
      rows.push_back(std::move(row));
    }
  }
  if (rows.empty()) {
    return ReportUsageError(
        kName, Status::InvalidArgument("no scenario has an expectation for the lines asked"));
  }
  std::printf("spindle replay fidelity: wind tunnel, virtual clock, pool %s\n",
              plan->policy.label.c_str());
  std::fputs(FidelityTableText(rows).c_str(), stdout);
  const std::string json = flags.GetString("json");
  if (!json.empty()) {
    if (Status s = WriteTextFile(json, FidelityJson(rows)); !s.ok()) return ReportFailure(kName, s);
  }
  bool all = true;
  for (const FidelityRow& r : rows) all = all && AllMatch(r.tunnel, r.scenario->container_mb);
  return all ? kExitOk : kExitFailure;
}

}  // namespace spindle::replay
