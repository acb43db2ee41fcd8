// Google2011Reader: the Google cluster-usage trace 2011 (ClusterData2011_2)
// task_events, with its job_events, as TraceJobs of one stage ("tasks") of
// independent tasks. Gzip parts are read in place. Columns: see
// ../shared/traces/README.md (task_events: 13, job_events: 8, no header).
//
// How events become tasks:
// - A run is one SUBMIT of a (job, task index) up to the event that ends it
//   (EVICT, FAIL, FINISH, KILL, LOST). A task re-submitted after an
//   eviction or failure makes a new run, and each run is a separate
//   TraceTask: that is the load the cluster saw. counters().resubmissions
//   counts the runs after a task's first.
// - Duration: from the run's SCHEDULE to its end, the time it held a
//   machine. A run that ends without a SCHEDULE (killed while pending) is
//   given SUBMIT -> end, as the issue's "SUBMIT to FINISH gives the
//   duration" reads; counters().unscheduled_runs counts those. A zero
//   duration becomes 1 ms (TraceTask needs > 0).
// - Resources: the latest CPU and memory request seen for the run (UPDATE_*
//   events change them), normalised 0..1 of the largest machine, times
//   ReadOptions' node shape, rounded, and at least ReadOptions' minimum. A
//   run whose request is missing in every event gets the minimum;
//   counters().missing_requests counts those.
// - Job: arrival is its job_events SUBMIT if that is in the slice, else its
//   first task SUBMIT; a task's submit_offset_ms is its SUBMIT minus that.
//   User from the events; priority (YARN: higher first, as Google's 0..11)
//   from its first task event; queue: ReadOptions has none, so "default".
//   Times are ms since `origin_us` (default: the slice's first event).
//
// What is dropped (ReadStats::dropped, by reason):
// - "task submitted before the trace slice": an end event of a run whose
//   SUBMIT is not in the slice.
// - "task never ended in the trace slice": runs still open at the end
//   (unless Options::end_open_runs_at_trace_end).
// - "task submitted after its job was returned": see ordering below.
// - "task still running max_hold_ms after its job arrived" (see max_hold_ms).
// - "job has no task run in the slice".
//
// Streaming and order: events are time-sorted (an event earlier than its
// predecessor is an error). A job is complete once it has no open run and,
// if job_events are read, its job end event has been seen; it is returned
// once complete and every job arriving before it has been returned, and
// only after all events of the timestamp at which it completed (so a same-
// timestamp event is never lost); or once Options::max_hold_ms has passed
// since its arrival (its open runs then dropped). Memory is the not-yet-returned jobs (a
// long-running job holds back the jobs that arrive after it until it ends
// or the slice does), plus 8 bytes or so per returned job id.
//
// Thread-safety: none.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "replay/trace/csv_row.h"
#include "replay/trace/input_file.h"
#include "replay/trace/trace_reader.h"

namespace spindle::replay {

struct Google2011Options {
  // task_events files, read in this order as one time-sorted stream (the
  // trace's parts, e.g. part-00000 .. part-00009). Required.
  std::vector<std::string> task_events;
  // The matching job_events files (may be empty: jobs then arrive at their
  // first task SUBMIT and complete when their runs have ended). Default: none.
  std::vector<std::string> job_events;
  // Time 0 of arrival_ms, in the trace's microseconds; -1: the first event
  // read (from either stream). Earlier events (the trace's 0, "before the
  // trace") are placed at the origin. Default: -1.
  int64_t origin_us = -1;
  // Give runs still open when the slice ends (or when max_hold_ms closes
  // their job) that time as their end instead of dropping them.
  // Default: false.
  bool end_open_runs_at_trace_end = false;
  // Bounds what streaming holds: the first job in arrival order waits at
  // most this long (trace time after its arrival) for its runs to end (and,
  // with job_events, for its end event); then its open runs are dropped as
  // "task still running max_hold_ms after its job arrived" (or ended then,
  // see above) and it is returned, so that a service job running for the
  // whole trace does not hold back every job after it. 0: no bound (a
  // slice may then be held whole). Default: 6 hours.
  int64_t max_hold_ms = 6 * 3600 * 1000;
  // The queue of every job. Default: "default".
  std::string queue = "default";
};

class Google2011Reader : public TraceReader {
 public:
  struct Counters {
    int64_t runs = 0;                 // runs returned (== stats().tasks)
    int64_t resubmissions = 0;        // runs after a task's first SUBMIT
    int64_t unscheduled_runs = 0;     // runs given SUBMIT -> end (no SCHEDULE)
    int64_t missing_requests = 0;     // runs given the minimum resources
    int64_t ended_at_trace_end = 0;   // end_open_runs_at_trace_end
    int64_t jobs_closed_by_hold = 0;  // jobs returned by max_hold_ms
  };

  // InvalidArgument for bad options; NotFound/IoError if a file won't open.
  static Result<std::unique_ptr<Google2011Reader>> Open(const Google2011Options& options,
                                                        const ReadOptions& read);
  ~Google2011Reader() override;

  Result<bool> Next(TraceJob* job) override;
  const ReadStats& stats() const override { return stats_; }
  std::string Describe() const override;
  // Through the task_events files (each an equal share).
  double Progress() const override;
  // The time of the last event read.
  int64_t ReadAheadArrivalMs() const override { return now_us_ < 0 ? -1 : ToMs(now_us_); }
  const Counters& counters() const { return counters_; }

 private:
  struct Run;
  struct Job;
  struct Event;
  class EventStream;

  Google2011Reader(const Google2011Options& options, const ReadOptions& read);
  // Reads and applies the next event (task or job, in time order); false at
  // the end of both streams.
  Result<bool> Step();
  Status Apply(const Event& e);
  // True and *job filled if the first job in arrival order may be returned.
  bool PopReady(TraceJob* job);
  // The task of a run that ended at `end_us` (counts a missing request).
  TraceTask TaskOfRun(const Run& run, const Job& job, int64_t end_us);
  void Drop(const std::string& reason, int64_t n = 1);
  // Closes the slice: open runs are dropped (or ended), all jobs complete.
  void Finish();
  // Drops (or ends at now_us_) a job's open runs, counting them as `reason`.
  void CloseRuns(Job* job, const std::string& reason);
  int64_t ToMs(int64_t us) const;

  const Google2011Options options_;
  const ReadOptions read_;
  ReadStats stats_;
  Counters counters_;
  std::unique_ptr<EventStream> tasks_;
  std::unique_ptr<EventStream> jobs_;
  std::unordered_map<int64_t, std::unique_ptr<Job>> open_;  // by job id
  std::deque<int64_t> order_;                               // open job ids by arrival
  std::unordered_set<int64_t> returned_;                    // ids of jobs returned
  int64_t origin_us_ = -1;
  int64_t now_us_ = -1;  // timestamp of the last event applied
  bool at_end_ = false;
  // A job would arrive at or after ReadOptions::max_arrival_ms: none is
  // created any more, and events of unknown jobs are ignored.
  bool no_new_jobs_ = false;
};

}  // namespace spindle::replay
