#include "replay/trace/cluster/google2011_reader.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace spindle::replay {

namespace {

// Event types, shared by task_events and job_events.
enum EventType : int {
  kSubmit = 0,
  kSchedule = 1,
  kEvict = 2,
  kFail = 3,
  kFinish = 4,
  kKill = 5,
  kLost = 6,
  kUpdatePending = 7,
  kUpdateRunning = 8,
};

bool IsEnd(int type) { return type >= kEvict && type <= kLost; }

}  // namespace

struct Google2011Reader::Event {
  bool is_job = false;  // job_events, not task_events
  int64_t ts = 0;
  int64_t job_id = 0;
  int64_t task_index = 0;
  int type = 0;
  std::string user;
  std::optional<int64_t> priority;
  std::optional<double> cpu;
  std::optional<double> memory;
};

struct Google2011Reader::Run {
  int64_t submit_us = 0;
  int64_t schedule_us = -1;
  std::optional<double> cpu;
  std::optional<double> memory;
};

struct Google2011Reader::Job {
  int64_t id = 0;
  int64_t arrival_us = 0;
  std::string user;
  std::optional<int64_t> priority;
  bool ended = false;                           // job_events end seen
  std::unordered_map<int64_t, Run> open_runs;   // by task index
  std::unordered_set<int64_t> submitted_tasks;  // task indices with a SUBMIT
  std::vector<TraceTask> tasks;                 // ended runs
  int64_t complete_at_us = -1;                  // when it became complete; -1: not
};

// One kind of event file (task or job events), its parts read in order,
// parsed, with bad lines skipped and counted when ReadOptions::skip_bad.
class Google2011Reader::EventStream {
 public:
  EventStream(bool is_job, std::vector<std::string> paths, const ReadOptions& read,
              ReadStats* stats)
      : is_job_(is_job), paths_(std::move(paths)), read_(read), stats_(stats) {}

  // The next event, parsed, without consuming it; nullptr at the end.
  Result<const Event*> Peek() {
    while (!has_event_) {
      if (file_ == nullptr) {
        if (next_path_ >= paths_.size()) return static_cast<const Event*>(nullptr);
        ASSIGN_OR_RETURN(file_, InputFile::Open(paths_[next_path_++]));
      }
      std::string_view line;
      ASSIGN_OR_RETURN(const bool more, file_->NextLine(&line));
      if (!more) {
        file_.reset();
        continue;
      }
      ++stats_->lines;
      const Status s = Parse(line);
      if (s.ok()) {
        has_event_ = true;
      } else if (read_.skip_bad) {
        ++stats_->skipped;
        if (static_cast<int>(stats_->examples.size()) < read_.max_examples) {
          stats_->examples.push_back(s.message());
        }
      } else {
        return s;
      }
    }
    return static_cast<const Event*>(&event_);
  }
  void Pop() { has_event_ = false; }
  // Files done plus the open one's fraction, over all files.
  double Progress() const {
    if (paths_.empty()) return 1;
    double done = static_cast<double>(next_path_);
    if (file_ != nullptr) {
      const double p = file_->Progress();
      if (p < 0) return -1;
      done += p - 1;
    }
    return done / static_cast<double>(paths_.size());
  }

 private:
  Status Parse(std::string_view line) {
    row_.Split(line, file_->Where());
    Event& e = event_;
    e = Event();
    e.is_job = is_job_;
    RETURN_NOT_OK(row_.ExpectFields(is_job_ ? 8 : 13));
    ASSIGN_OR_RETURN(e.ts, row_.Int(1, "timestamp"));
    if (e.ts < 0) return row_.Error(1, "timestamp", "negative");
    if (e.ts < last_ts_) {
      return row_.Error(1, "timestamp",
                        std::to_string(e.ts) + " is earlier than the previous event's " +
                            std::to_string(last_ts_) + " (events must be time-sorted)");
    }
    ASSIGN_OR_RETURN(e.job_id, row_.Int(3, "job ID"));
    const int type_field = is_job_ ? 4 : 6;
    ASSIGN_OR_RETURN(const int64_t type, row_.Int(type_field, "event type"));
    if (type < kSubmit || type > kUpdateRunning) {
      return row_.Error(type_field, "event type", "'" + std::to_string(type) + "' is not 0..8");
    }
    e.type = static_cast<int>(type);
    const int user_field = is_job_ ? 5 : 7;
    ASSIGN_OR_RETURN(const std::string_view user, row_.Text(user_field, "user"));
    e.user = std::string(user);
    if (!is_job_) {
      ASSIGN_OR_RETURN(e.task_index, row_.Int(4, "task index"));
      ASSIGN_OR_RETURN(e.priority, row_.OptionalInt(9, "priority"));
      ASSIGN_OR_RETURN(e.cpu, row_.OptionalDouble(10, "CPU request"));
      ASSIGN_OR_RETURN(e.memory, row_.OptionalDouble(11, "memory request"));
      if (e.cpu && *e.cpu < 0) return row_.Error(10, "CPU request", "negative");
      if (e.memory && *e.memory < 0) return row_.Error(11, "memory request", "negative");
    }
    last_ts_ = e.ts;
    return Status::OK();
  }

  const bool is_job_;
  const std::vector<std::string> paths_;
  const ReadOptions& read_;
  ReadStats* const stats_;
  size_t next_path_ = 0;
  std::unique_ptr<InputFile> file_;
  CsvRow row_;
  Event event_;
  bool has_event_ = false;
  int64_t last_ts_ = 0;
};

Result<std::unique_ptr<Google2011Reader>> Google2011Reader::Open(const Google2011Options& options,
                                                                 const ReadOptions& read) {
  if (options.task_events.empty()) {
    return Status::InvalidArgument("Google2011Options::task_events: no file given");
  }
  if (options.max_hold_ms < 0) {
    return Status::InvalidArgument("Google2011Options::max_hold_ms: must be >= 0");
  }
  if (options.origin_us < -1) {
    return Status::InvalidArgument("Google2011Options::origin_us: must be >= -1");
  }
  if (read.node_memory_mb <= 0 || read.node_vcores <= 0) {
    return Status::InvalidArgument("ReadOptions::node_memory_mb/node_vcores: must be > 0");
  }
  std::unique_ptr<Google2011Reader> reader(new Google2011Reader(options, read));
  // Open the first files now so that a missing one fails here.
  ASSIGN_OR_RETURN(const Event* first_task, reader->tasks_->Peek());
  (void)first_task;
  ASSIGN_OR_RETURN(const Event* first_job, reader->jobs_->Peek());
  (void)first_job;
  return reader;
}

Google2011Reader::Google2011Reader(const Google2011Options& options, const ReadOptions& read)
    : options_(options),
      read_(read),
      tasks_(std::make_unique<EventStream>(false, options.task_events, read_, &stats_)),
      jobs_(std::make_unique<EventStream>(true, options.job_events, read_, &stats_)),
      origin_us_(options.origin_us) {}

Google2011Reader::~Google2011Reader() = default;

std::string Google2011Reader::Describe() const {
  std::string d = "google-2011";
  for (const std::string& p : options_.task_events) d += " " + p.substr(p.find_last_of('/') + 1);
  return d;
}

double Google2011Reader::Progress() const { return at_end_ ? 1.0 : tasks_->Progress(); }

int64_t Google2011Reader::ToMs(int64_t us) const {
  return std::max<int64_t>(0, us - origin_us_) / 1000;
}

void Google2011Reader::Drop(const std::string& reason, int64_t n) {
  for (auto& [r, count] : stats_.dropped) {
    if (r == reason) {
      count += n;
      return;
    }
  }
  stats_.dropped.emplace_back(reason, n);
}

Result<bool> Google2011Reader::Step() {
  ASSIGN_OR_RETURN(const Event* task, tasks_->Peek());
  ASSIGN_OR_RETURN(const Event* job, jobs_->Peek());
  if (task == nullptr && job == nullptr) return false;
  // Job events first at equal timestamps: a job's SUBMIT precedes its tasks'.
  const bool take_job = job != nullptr && (task == nullptr || job->ts <= task->ts);
  const Event& e = take_job ? *job : *task;
  const Status s = Apply(e);
  if (take_job) {
    jobs_->Pop();
  } else {
    tasks_->Pop();
  }
  RETURN_NOT_OK(s);
  return true;
}

Status Google2011Reader::Apply(const Event& e) {
  if (origin_us_ < 0) origin_us_ = e.ts;
  now_us_ = std::max(now_us_, std::max(e.ts, origin_us_));
  const int64_t ts = std::max(e.ts, origin_us_);
  auto it = open_.find(e.job_id);
  Job* job = it == open_.end() ? nullptr : it->second.get();
  if (job == nullptr && e.type == kSubmit) {
    if (returned_.count(e.job_id) > 0) {
      if (!e.is_job) Drop("task submitted after its job was returned");
      return Status::OK();
    }
    if (no_new_jobs_) return Status::OK();
    if (read_.max_arrival_ms > 0 && ToMs(ts) >= read_.max_arrival_ms) {
      no_new_jobs_ = true;
      return Status::OK();
    }
    auto owned = std::make_unique<Job>();
    job = owned.get();
    job->id = e.job_id;
    job->arrival_us = ts;
    job->user = e.user;
    open_.emplace(e.job_id, std::move(owned));
    order_.push_back(e.job_id);
  }
  if (job == nullptr) {
    // A job submitted before the slice (or after max_arrival_ms).
    if (!e.is_job && IsEnd(e.type) && !no_new_jobs_ && returned_.count(e.job_id) == 0) {
      Drop("task submitted before the trace slice");
    }
    return Status::OK();
  }
  if (e.is_job) {
    if (IsEnd(e.type)) job->ended = true;
  } else {
    if (!job->priority && e.priority) job->priority = e.priority;
    auto run_it = job->open_runs.find(e.task_index);
    if (e.type == kSubmit) {
      if (run_it != job->open_runs.end()) {
        // The trace lost this run's end event (its "missing info" records):
        // the run's length is unknown.
        Drop("task re-submitted without an end event");
        job->open_runs.erase(run_it);
      }
      if (!job->submitted_tasks.insert(e.task_index).second) ++counters_.resubmissions;
      Run run;
      run.submit_us = ts;
      run.cpu = e.cpu;
      run.memory = e.memory;
      job->open_runs.emplace(e.task_index, run);
    } else if (run_it == job->open_runs.end()) {
      if (IsEnd(e.type)) Drop("task submitted before the trace slice");
    } else {
      Run& run = run_it->second;
      if (e.cpu) run.cpu = e.cpu;
      if (e.memory) run.memory = e.memory;
      if (e.type == kSchedule) run.schedule_us = ts;
      if (IsEnd(e.type)) {
        if (run.schedule_us < 0) ++counters_.unscheduled_runs;
        job->tasks.push_back(TaskOfRun(run, *job, ts));
        job->open_runs.erase(run_it);
      }
    }
  }
  const bool complete =
      job->open_runs.empty() && (options_.job_events.empty() ? !job->tasks.empty() : job->ended);
  if (!complete) {
    job->complete_at_us = -1;
  } else if (job->complete_at_us < 0) {
    job->complete_at_us = now_us_;
  }
  return Status::OK();
}

TraceTask Google2011Reader::TaskOfRun(const Run& run, const Job& job, int64_t end_us) {
  TraceTask task;
  // Run time: from SCHEDULE, or from SUBMIT for a run never scheduled.
  const int64_t start = run.schedule_us >= 0 ? run.schedule_us : run.submit_us;
  task.duration_ms = std::max<int64_t>(1, (end_us - start) / 1000);
  task.submit_offset_ms = std::max<int64_t>(0, (run.submit_us - job.arrival_us) / 1000);
  if (!run.cpu || !run.memory) ++counters_.missing_requests;
  task.memory_mb = std::max<int64_t>(
      read_.min_memory_mb,
      run.memory ? std::llround(*run.memory * static_cast<double>(read_.node_memory_mb)) : 0);
  task.vcores = static_cast<int32_t>(std::max<int64_t>(
      read_.min_vcores, run.cpu ? std::llround(*run.cpu * read_.node_vcores) : 0));
  return task;
}

void Google2011Reader::CloseRuns(Job* job, const std::string& reason) {
  for (auto& [index, run] : job->open_runs) {
    if (!options_.end_open_runs_at_trace_end) {
      Drop(reason);
      continue;
    }
    job->tasks.push_back(TaskOfRun(run, *job, now_us_));
    ++counters_.ended_at_trace_end;
  }
  job->open_runs.clear();
}

void Google2011Reader::Finish() {
  at_end_ = true;
  for (const int64_t id : order_)
    CloseRuns(open_.at(id).get(), "task never ended in the trace slice");
}

bool Google2011Reader::PopReady(TraceJob* out) {
  while (!order_.empty()) {
    auto it = open_.find(order_.front());
    Job& job = *it->second;
    const bool complete = job.complete_at_us >= 0 && now_us_ > job.complete_at_us;
    if (!at_end_ && !complete) {
      if (options_.max_hold_ms <= 0 || now_us_ - job.arrival_us <= options_.max_hold_ms * 1000) {
        return false;
      }
      CloseRuns(&job, "task still running max_hold_ms after its job arrived");
      ++counters_.jobs_closed_by_hold;
    }
    std::unique_ptr<Job> owned = std::move(it->second);
    open_.erase(it);
    order_.pop_front();
    returned_.insert(owned->id);
    if (owned->tasks.empty()) {
      Drop("job has no task run in the slice");
      continue;
    }
    *out = TraceJob();
    out->id = std::to_string(owned->id);
    out->arrival_ms = ToMs(owned->arrival_us);
    out->queue = options_.queue;
    out->user = owned->user;
    out->priority = static_cast<int32_t>(owned->priority.value_or(0));
    TraceStage stage;
    stage.name = "tasks";
    stage.tasks = std::move(owned->tasks);
    out->stages.push_back(std::move(stage));
    ++stats_.jobs;
    stats_.tasks += out->task_count();
    counters_.runs += out->task_count();
    return true;
  }
  return false;
}

Result<bool> Google2011Reader::Next(TraceJob* job) {
  if (read_.max_jobs > 0 && stats_.jobs >= read_.max_jobs) return false;
  while (true) {
    if (PopReady(job)) return true;
    if (at_end_) return false;
    if (no_new_jobs_ && order_.empty()) return false;
    ASSIGN_OR_RETURN(const bool more, Step());
    if (!more) Finish();
  }
}

}  // namespace spindle::replay
