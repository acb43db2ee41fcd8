// The staging-cell side of the fidelity figure: a scenario as the files
// `spindle replay --mode cell` reads (so the same scenario runs against an
// operator's Java RM through --rm, or a Spindle RM the cell starts), and the
// cell's report.json read back into the checks.
//
//   WriteFidelityCellFiles(scenario, dir) writes
//     dir/capacity-scheduler.xml  the scenario's queues (give the Java RM
//                                 this file; the cell passes it to Spindle)
//     dir/nodes.json              SLS nodes, named by address (127.1.0.N)
//     dir/trace.json              SLS jobs (one map stage each)
//   and FidelityCellCommand gives the replay command line for it.
//
//   FidelityFromCellReport(scenario, report.json) reads the cell's tenant
//   census (replay/cell/tenant_census.h) at each check's second (the first
//   sample at or after it): queue and user memory from getApplications,
//   active / pending apps from getQueueInfo's QueueStatistics (Hadoop 2.8+
//   and Spindle; unset on a 2.6/2.7 Java RM, which reports none), the jobs
//   the RM refused, per-job memory from the census's applications (named
//   after their jobs; unset for a report.json written before it counted
//   them).
//
// Thread-safety: functions over values and files.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "replay/fidelity/fidelity_result.h"
#include "replay/fidelity/fidelity_scenario.h"
#include "replay/report/tenant_compare.h"
#include "rm/config/hadoop_line.h"

namespace spindle::replay {

// The three files' contents.
std::string FidelityCapacitySchedulerXml(const FidelityScenario& scenario);
std::string FidelitySlsNodes(const FidelityScenario& scenario);
std::string FidelitySlsTrace(const FidelityScenario& scenario);

// Creates `dir` and writes the three files. IoError naming the path.
Status WriteFidelityCellFiles(const FidelityScenario& scenario, const std::string& dir);

// `spindle replay --mode cell ...` for the files in `dir`, writing its
// report to `out`; `rm` empty: the cell starts a Spindle RM of `line`; else
// the external RM's addresses (--rm).
std::string FidelityCellCommand(const FidelityScenario& scenario, const std::string& dir,
                                const std::string& out, const std::string& line,
                                const std::string& rm);

// Writes DIR/<scenario>/ (WriteFidelityCellFiles) for each of `scenarios`
// that has an expectation for `line` (a scenario with none, fair ordering
// before 2.8, would be run for nothing) and returns the commands that run
// them against a Java RM (--rm RMHOST) and a Spindle RM, then the command
// that prints the table of both. IoError naming the path.
Result<std::string> WriteFidelityCell(const std::vector<const FidelityScenario*>& scenarios,
                                      rm::HadoopLine line, const std::string& dir);

// The checks as the cell run `run` saw them (labelled `source`).
FidelityRun FidelityFromCellRun(const FidelityScenario& scenario, const TenantRun& run,
                                const std::string& line, const std::string& source);

}  // namespace spindle::replay
