#include "replay/trace/cluster/alibaba2018_reader.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <utility>

namespace spindle::replay {

namespace {

constexpr int kTaskName = 1;
constexpr int kInstanceNum = 2;
constexpr int kStartTime = 6;
constexpr int kEndTime = 7;
constexpr int kPlanCpu = 8;
constexpr int kPlanMem = 9;

struct DagName {
  bool in_dag = false;
  int64_t number = 0;
  std::vector<int64_t> parents;
};

bool ParseNumber(std::string_view s, int64_t* out) {
  if (s.empty()) return false;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

// `M5_3_4` -> {5, {3, 4}}; names not starting with letters then a digit are
// independent; a name that starts so but breaks the pattern is an error.
Result<DagName> ParseDagName(const CsvRow& row) {
  const std::string_view name = row.field(kTaskName);
  size_t i = 0;
  while (i < name.size() && std::isalpha(static_cast<unsigned char>(name[i]))) ++i;
  DagName d;
  if (i == 0 || i == name.size() || !std::isdigit(static_cast<unsigned char>(name[i]))) return d;
  d.in_dag = true;
  std::string_view rest = name.substr(i);
  bool first = true;
  while (true) {
    const size_t us = rest.find('_');
    const std::string_view part = rest.substr(0, us);
    int64_t n = 0;
    if (!ParseNumber(part, &n)) {
      return row.Error(kTaskName, "task_name",
                       "'" + std::string(name) + "' is not a DAG name (letters, number, _parents)");
    }
    if (first) {
      d.number = n;
      first = false;
    } else {
      d.parents.push_back(n);
    }
    if (us == std::string_view::npos) break;
    rest = rest.substr(us + 1);
  }
  return d;
}

}  // namespace

Result<std::unique_ptr<Alibaba2018Reader>> Alibaba2018Reader::Open(
    const Alibaba2018Options& options, const ReadOptions& read) {
  if (options.batch_task.empty()) {
    return Status::InvalidArgument("Alibaba2018Options::batch_task: no file given");
  }
  if (options.sort_window_jobs < 1) {
    return Status::InvalidArgument("Alibaba2018Options::sort_window_jobs: must be >= 1");
  }
  if (read.node_memory_mb <= 0) {
    return Status::InvalidArgument("ReadOptions::node_memory_mb: must be > 0");
  }
  ASSIGN_OR_RETURN(auto file, InputFile::Open(options.batch_task));
  const std::string describe = "alibaba-2018 " + file->name();
  return std::unique_ptr<Alibaba2018Reader>(new Alibaba2018Reader(
      std::move(file), read, options.sort_window_jobs, 9, 3, "job_name", describe));
}

Result<std::optional<TraceJob>> Alibaba2018Reader::Build(const std::string& job_id,
                                                         const std::vector<Row>& rows) {
  struct Stage {
    TraceStage stage;
    DagName dag;
    int64_t start_s = 0;
    std::string where;
    std::string name;
  };
  std::vector<Stage> stages;
  int64_t tasks = 0;
  bool unended = false;
  CsvRow row;
  for (const Row& r : rows) {
    row.Split(r.text, r.where);
    Stage s;
    s.where = r.where;
    ASSIGN_OR_RETURN(const std::string_view name, row.Text(kTaskName, "task_name"));
    s.name = std::string(name);
    ASSIGN_OR_RETURN(s.dag, ParseDagName(row));
    ASSIGN_OR_RETURN(const int64_t instances, row.Int(kInstanceNum, "instance_num"));
    if (instances < 1) return row.Error(kInstanceNum, "instance_num", "must be >= 1");
    if (instances > read().max_tasks_per_job - tasks) {
      return row.Error(kInstanceNum, "instance_num", TooManyTasksMessage(read().max_tasks_per_job));
    }
    tasks += instances;
    ASSIGN_OR_RETURN(s.start_s, row.Int(kStartTime, "start_time"));
    ASSIGN_OR_RETURN(const int64_t end_s, row.Int(kEndTime, "end_time"));
    if (s.start_s < 0) return row.Error(kStartTime, "start_time", "negative");
    ASSIGN_OR_RETURN(const double cpu, row.Double(kPlanCpu, "plan_cpu"));
    ASSIGN_OR_RETURN(const double mem, row.Double(kPlanMem, "plan_mem"));
    if (cpu < 0) return row.Error(kPlanCpu, "plan_cpu", "negative");
    if (mem < 0 || mem > 100) return row.Error(kPlanMem, "plan_mem", "not within 0..100");
    if (end_s <= 0 || end_s < s.start_s) unended = true;
    TraceTask task;
    task.duration_ms = std::max<int64_t>(1, (end_s - s.start_s) * 1000);
    task.vcores =
        static_cast<int32_t>(std::max<int64_t>(read().min_vcores, std::llround(cpu / 100.0)));
    task.memory_mb =
        std::max<int64_t>(read().min_memory_mb,
                          std::llround(mem / 100.0 * static_cast<double>(read().node_memory_mb)));
    s.stage.name = s.name;
    s.stage.tasks.assign(static_cast<size_t>(instances), task);
    stages.push_back(std::move(s));
  }
  // The DAG: numbers to stages; every parent must name one.
  std::map<int64_t, size_t> by_number;
  for (size_t i = 0; i < stages.size(); ++i) {
    if (!stages[i].dag.in_dag) continue;
    if (!by_number.emplace(stages[i].dag.number, i).second) {
      row.Split(rows[i].text, rows[i].where);
      return row.Error(kTaskName, "task_name",
                       "task number " + std::to_string(stages[i].dag.number) +
                           " is used twice in job " + job_id);
    }
  }
  std::vector<std::vector<size_t>> parents(stages.size());
  std::vector<std::vector<size_t>> children(stages.size());
  for (size_t i = 0; i < stages.size(); ++i) {
    for (const int64_t p : stages[i].dag.parents) {
      auto it = by_number.find(p);
      if (it == by_number.end() || it->second == i) {
        row.Split(rows[i].text, rows[i].where);
        return row.Error(kTaskName, "task_name",
                         it == by_number.end()
                             ? "parent " + std::to_string(p) + " of '" + stages[i].name +
                                   "' names no task of job " + job_id
                             : "'" + stages[i].name + "' names itself as its parent");
      }
      parents[i].push_back(it->second);
      children[it->second].push_back(i);
    }
  }
  if (unended) {
    Drop(kTaskNeverEnded);
    return std::optional<TraceJob>();
  }
  // Kahn's order, file order among the ready stages.
  std::vector<size_t> waiting(stages.size());
  std::vector<int32_t> index(stages.size(), -1);
  std::vector<size_t> order;
  for (size_t i = 0; i < stages.size(); ++i) waiting[i] = parents[i].size();
  std::vector<size_t> ready;
  for (size_t i = stages.size(); i-- > 0;) {
    if (waiting[i] == 0) ready.push_back(i);
  }
  while (!ready.empty()) {
    // The earliest in file order: ready is kept sorted descending.
    const size_t i = ready.back();
    ready.pop_back();
    index[i] = static_cast<int32_t>(order.size());
    order.push_back(i);
    for (const size_t c : children[i]) {
      if (--waiting[c] == 0) {
        ready.insert(std::upper_bound(ready.begin(), ready.end(), c, std::greater<size_t>()), c);
      }
    }
  }
  if (order.size() != stages.size()) {
    for (size_t i = 0; i < stages.size(); ++i) {
      if (index[i] < 0) {
        row.Split(rows[i].text, rows[i].where);
        return row.Error(kTaskName, "task_name",
                         "'" + stages[i].name + "' is in a dependency cycle of job " + job_id);
      }
    }
  }
  TraceJob job;
  job.id = job_id;
  int64_t arrival_s = stages.front().start_s;
  for (const Stage& s : stages) arrival_s = std::min(arrival_s, s.start_s);
  job.arrival_ms = arrival_s * 1000;
  for (const size_t i : order) {
    Stage& s = stages[i];
    for (const size_t p : parents[i]) s.stage.parents.push_back(index[p]);
    std::sort(s.stage.parents.begin(), s.stage.parents.end());
    if (s.stage.parents.empty()) {
      for (TraceTask& t : s.stage.tasks) t.submit_offset_ms = (s.start_s - arrival_s) * 1000;
    }
    job.stages.push_back(std::move(s.stage));
  }
  return std::optional<TraceJob>(std::move(job));
}

}  // namespace spindle::replay
