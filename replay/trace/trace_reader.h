// TraceReader: a stream of jobs in arrival order, read from a trace file or
// made by a generator. Readers stream: they hold only what they need to
// finish the jobs not yet returned (a multi-GB trace is never loaded
// whole).
//
// Bad input: a malformed line or record is an InvalidArgument (or
// Corruption for a broken gzip stream) naming the file, the line and the
// field ("task_events.csv.gz:1234: field 10 (memory request): 'x' is not a
// number"). With ReadOptions::skip_bad the record is skipped, counted in
// ReadStats::skipped and its first few errors kept in ReadStats::examples,
// and reading goes on. Nothing is silently misread: a value a reader cannot
// interpret is an error, never a default.
//
// Thread-safety: none (one driver owns a reader).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "replay/trace/trace.h"

namespace spindle::replay {

struct ReadOptions {
  // Skip and count malformed records instead of failing. Default: false.
  bool skip_bad = false;
  // Errors kept as examples when skipping. Default: 5.
  int max_examples = 5;
  // Traces with normalised resources (Google 2011: 0..1 of the largest
  // machine; Alibaba: cores x 100, memory 0..100) are mapped onto this node
  // shape. Default: 65536 MB, 32 vcores.
  int64_t node_memory_mb = 65536;
  int32_t node_vcores = 32;
  // Tasks get at least this much (YARN's minimum allocation). Default: 1 MB
  // and 1 vcore, so that a tiny normalised request is never zero.
  int64_t min_memory_mb = 1;
  int32_t min_vcores = 1;
  // Jobs arriving at or after this many ms from the trace start are not
  // returned (0: no limit). Default: 0.
  int64_t max_arrival_ms = 0;
  // At most this many jobs are returned (0: no limit). Default: 0.
  int64_t max_jobs = 0;
  // A count read from the trace (Alibaba's instance_num, SLS's "count" and
  // "job.count", SYNTH's sampled task counts) that would give a job more
  // tasks than this is a malformed record naming its file, line and field,
  // never an allocation the input chooses. (Formats that list tasks one by
  // one, Google 2011 and Rumen, are bounded by their input's size.) Must be >= 1. Default:
  // 1,000,000 (a task costs about 100 bytes while its job waits to be replayed).
  int64_t max_tasks_per_job = 1'000'000;
};

// The error for a job that would exceed ReadOptions::max_tasks_per_job.
std::string TooManyTasksMessage(int64_t max_tasks_per_job);

// InvalidArgument naming the first option out of range.
Status CheckReadOptions(const ReadOptions& read);

struct ReadStats {
  int64_t lines = 0;    // lines (or JSON records) read
  int64_t jobs = 0;     // jobs returned
  int64_t tasks = 0;    // tasks in them
  int64_t skipped = 0;  // malformed records skipped (skip_bad)
  // Well-formed records that make no task, by reason (e.g. "task never
  // ended in the trace", "job has no tasks"): counted, not errors.
  std::vector<std::pair<std::string, int64_t>> dropped;
  // Well-formed records read with a documented adjustment, by reason
  // (e.g. "create_time before the trace window (negative): clamped to 0",
  // "header line"): counted, reported as warnings.
  std::vector<std::pair<std::string, int64_t>> adjusted;
  std::vector<std::string> examples;  // the first skipped records' errors
};

// Adds `n` to the count of `reason` in `counts` (ReadStats::dropped or
// ::adjusted), keeping first-seen order.
void CountReason(std::vector<std::pair<std::string, int64_t>>* counts, const std::string& reason,
                 int64_t n = 1);

// Counts a malformed record skipped under ReadOptions::skip_bad (its error
// kept among the first examples); returns `error` itself without skip_bad.
Status SkipOrFail(const ReadOptions& read, ReadStats* stats, const Status& error);

class TraceReader {
 public:
  virtual ~TraceReader() = default;
  // The next job in arrival order: true and *job filled, false at the end.
  // An error (see above) leaves the reader unusable unless skip_bad.
  virtual Result<bool> Next(TraceJob* job) = 0;
  virtual const ReadStats& stats() const = 0;
  // What is being read, for reports: "google-2011 task_events-...csv.gz".
  virtual std::string Describe() const = 0;
  // How much of the input has been consumed, in [0, 1] (bytes read of a
  // file, jobs made of a generator's total), for a progress bar; -1 if the
  // reader cannot tell.
  virtual double Progress() const { return -1; }
  // The latest job arrival (ms) the reader has read from its input so far,
  // read-ahead included (a sort window holds jobs not yet returned); with
  // Progress(), how long the trace is: a progress bar on trace time. -1 if
  // the reader cannot tell.
  virtual int64_t ReadAheadArrivalMs() const { return -1; }
};

}  // namespace spindle::replay
