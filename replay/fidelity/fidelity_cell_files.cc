#include "replay/fidelity/fidelity_cell_files.h"

#include <filesystem>
#include <sstream>

#include "replay/cell/cell_config.h"
#include "replay/cell/tenant_census.h"
#include "replay/report/write_file.h"

namespace spindle::replay {

namespace {

// A JSON string of a scenario's names (letters, digits, '-', '.', '/').
std::string Quoted(const std::string& s) { return "\"" + s + "\""; }

const TenantSample* SampleAt(const TenantRun& run, int64_t at_s) {
  for (const TenantSample& s : run.samples) {
    if (s.at_s >= static_cast<double>(at_s)) return &s;
  }
  return nullptr;
}

const TenantRow* RowOf(const TenantSample& sample, const std::string& queue,
                       const std::string& user) {
  for (const TenantRow& r : sample.rows) {
    if (LeafQueueName(r.queue) == queue && r.user == user) return &r;
  }
  return nullptr;
}

int64_t JobMemory(const TenantSample& sample, const std::string& job) {
  for (const JobHolding& j : sample.jobs) {
    if (j.job == job) return j.memory_mb;
  }
  return 0;
}

}  // namespace

std::string FidelityCapacitySchedulerXml(const FidelityScenario& scenario) {
  return SiteXml(scenario.capacity_scheduler);
}

std::string FidelitySlsNodes(const FidelityScenario& scenario) {
  std::ostringstream out;
  out << "{\"rack\": \"default-rack\", \"nodes\": [";
  const std::vector<TraceNode> nodes = scenario.Nodes();
  for (size_t i = 0; i < nodes.size(); ++i) {
    out << (i == 0 ? "" : ", ") << "{\"node\": " << Quoted(nodes[i].host)
        << ", \"memory-mb\": " << nodes[i].memory_mb << ", \"vcores\": " << nodes[i].vcores << "}";
  }
  out << "]}\n";
  return out.str();
}

std::string FidelitySlsTrace(const FidelityScenario& scenario) {
  std::ostringstream out;
  out << "[\n";
  for (size_t i = 0; i < scenario.jobs.size(); ++i) {
    const FidelityJob& j = scenario.jobs[i];
    out << "  {\"am.type\": \"mapreduce\", \"job.id\": " << Quoted(j.id)
        << ", \"job.queue.name\": " << Quoted(j.queue) << ", \"job.user\": " << Quoted(j.user)
        << ", \"job.start.ms\": " << j.arrival_ms
        << ", \"job.end.ms\": " << j.arrival_ms + j.task_seconds * 1000
        << ", \"job.tasks\": [{\"container.type\": \"map\", \"container.priority\": 20"
        << ", \"container.memory\": " << j.task_memory_mb
        << ", \"container.vcores\": " << j.task_vcores
        << ", \"duration.ms\": " << j.task_seconds * 1000 << ", \"count\": " << j.tasks << "}]}"
        << (i + 1 == scenario.jobs.size() ? "\n" : ",\n");
  }
  out << "]\n";
  return out.str();
}

Status WriteFidelityCellFiles(const FidelityScenario& scenario, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::IoError("cannot create " + dir + ": " + ec.message());
  RETURN_NOT_OK(
      WriteTextFile(dir + "/capacity-scheduler.xml", FidelityCapacitySchedulerXml(scenario)));
  RETURN_NOT_OK(WriteTextFile(dir + "/nodes.json", FidelitySlsNodes(scenario)));
  return WriteTextFile(dir + "/trace.json", FidelitySlsTrace(scenario));
}

std::string FidelityCellCommand(const FidelityScenario& scenario, const std::string& dir,
                                const std::string& out, const std::string& line,
                                const std::string& rm) {
  std::string cmd = "spindle replay --mode cell --format sls --trace " + dir +
                    "/trace.json --nodes-file " + dir + "/nodes.json --queues " + dir +
                    "/capacity-scheduler.xml --min-allocation " +
                    std::to_string(scenario.min_allocation_mb) + "," +
                    std::to_string(scenario.min_allocation_vcores) + " --hadoop-line " + line +
                    " --speed 2 --out " + out;
  if (!rm.empty()) cmd += " --rm " + rm;
  return cmd;
}

Result<std::string> WriteFidelityCell(const std::vector<const FidelityScenario*>& scenarios,
                                      rm::HadoopLine line, const std::string& dir) {
  const std::string name(rm::TraitsOf(line).name);
  std::string out = "# staging-cell files for the fidelity scenarios (Hadoop " + name + ")\n";
  for (const FidelityScenario* s : scenarios) {
    if (!s->AppliesTo(line)) continue;
    const std::string at = dir + "/" + s->name;
    RETURN_NOT_OK(WriteFidelityCellFiles(*s, at));
    out += "# " + s->name + ": against a Java RM started with " + at + "/capacity-scheduler.xml\n" +
           FidelityCellCommand(*s, at, at + "/java", name, "RMHOST") + "\n# " + s->name +
           ": against a Spindle RM the cell starts\n" +
           FidelityCellCommand(*s, at, at + "/spindle", name, "") + "\n";
  }
  out += "# then: spindle replay fidelity --cell-dir " + dir + " --hadoop-line " + name +
         " --cell-run java,spindle\n";
  return out;
}

FidelityRun FidelityFromCellRun(const FidelityScenario& scenario, const TenantRun& run,
                                const std::string& line, const std::string& source) {
  FidelityRun out;
  out.scenario = scenario.name;
  out.line = line;
  out.source = source;
  out.rejections = run.rejections;
  out.problems = run.violations;
  for (const FidelityCheck& check : scenario.checks) {
    FidelityObservation o{check, std::nullopt};
    const TenantSample* sample = SampleAt(run, check.at_s);
    if (check.metric == FidelityMetric::kRejectedJobs) {
      o.observed = run.jobs_rejected;
    } else if (sample != nullptr) {
      const std::string user = check.metric == FidelityMetric::kUserMemoryMb ? check.user : "";
      const TenantRow* row = RowOf(*sample, check.queue, user);
      switch (check.metric) {
        case FidelityMetric::kQueueMemoryMb:
        case FidelityMetric::kUserMemoryMb:
          // A tenant with nothing running has no row: it holds nothing.
          o.observed = row == nullptr ? 0 : row->memory_mb;
          break;
        case FidelityMetric::kActiveApps:
          if (row != nullptr && row->scheduler_apps_running >= 0) {
            o.observed = row->scheduler_apps_running;
          }
          break;
        case FidelityMetric::kPendingApps:
          if (row != nullptr && row->scheduler_apps_pending >= 0) {
            o.observed = row->scheduler_apps_pending;
          }
          break;
        case FidelityMetric::kJobMemoryMb:
          // An application not in a counted sample has ended (or was never
          // submitted): it holds nothing.
          if (sample->jobs_counted) o.observed = JobMemory(*sample, check.job);
          break;
        default:
          break;
      }
    }
    out.observations.push_back(o);
  }
  return out;
}

}  // namespace spindle::replay
