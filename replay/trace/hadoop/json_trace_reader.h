// JsonTraceReader: the part of a TraceReader shared by the readers of
// JSON-record traces (SLS, Rumen): it pulls records from a JsonStream, has
// a subclass turn each into jobs, puts them in arrival order within a
// bounded window (ArrivalWindow), and applies ReadOptions (skip_bad,
// max_jobs, max_arrival_ms) and ReadStats.
//
// Errors (trace_reader.h): a record whose fields are wrong, or a job that
// arrives before one already returned (the file is out of order by more
// than the window), is an InvalidArgument naming the file, the record's
// line and the field; under skip_bad it is skipped and counted. A JSON
// syntax error always ends the read (json_stream.h says why). The window
// reads ahead: an error in a record up to `window` records further on is
// reported before the jobs read ahead of it are returned.
//
// Thread-safety: none (one driver owns a reader).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/json/json_stream.h"
#include "replay/trace/arrival_window.h"
#include "replay/trace/hadoop/json_fields.h"
#include "replay/trace/trace_reader.h"

namespace spindle::replay::hadoop {

class JsonTraceReader : public TraceReader {
 public:
  Result<bool> Next(TraceJob* job) final;
  const ReadStats& stats() const final { return stats_; }
  double Progress() const final { return stream_->Progress(); }

 protected:
  // `window`: jobs held to restore arrival order (ArrivalWindow). With
  // `rebase`, arrivals are returned relative to the earliest job (Rumen's
  // absolute submit times); without, as the trace gives them (SLS).
  JsonTraceReader(std::unique_ptr<JsonStream> stream, ReadOptions options, int64_t window,
                  bool rebase);

  // Turns one record (the `index`-th, 1-based) into jobs, arrival in the
  // trace's own clock. May append none (a record that makes no task; it
  // should then CountDropped()).
  virtual Status ParseRecord(const JsonValue& record, int64_t index,
                             std::vector<TraceJob>* jobs) = 0;
  // The record field arrivals come from, for out-of-order errors.
  virtual const char* arrival_field() const = 0;

  void CountDropped(const std::string& reason, int64_t n = 1);
  const std::string& file() const { return stream_->name(); }
  const ReadOptions& options() const { return options_; }

 private:
  // Reads records until the window is full or the input ends.
  Status Fill();
  Status Skip(const Status& error);

  std::unique_ptr<JsonStream> stream_;
  const ReadOptions options_;
  const bool rebase_;
  ArrivalWindow order_;
  ReadStats stats_;
  bool eof_ = false;
  bool done_ = false;
  bool based_ = false;
  int64_t base_ms_ = 0;
  Status failed_;
};

}  // namespace spindle::replay::hadoop
