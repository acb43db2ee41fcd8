// JobListReader: a TraceReader over jobs already in memory (made by a
// caller or a test), returned in the order given, which must be by
// arrival: an out-of-order job is an InvalidArgument naming it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "replay/trace/trace_reader.h"

namespace spindle::replay {

class JobListReader final : public TraceReader {
 public:
  explicit JobListReader(std::vector<TraceJob> jobs, std::string name = "job list")
      : jobs_(std::move(jobs)), name_(std::move(name)) {}

  Result<bool> Next(TraceJob* job) override {
    if (next_ >= jobs_.size()) return false;
    if (next_ > 0 && jobs_[next_].arrival_ms < jobs_[next_ - 1].arrival_ms) {
      return Status::InvalidArgument(name_ + ": job " + jobs_[next_].id +
                                     " arrives before the job listed ahead of it");
    }
    *job = jobs_[next_++];
    ++stats_.lines;
    ++stats_.jobs;
    stats_.tasks += job->task_count();
    return true;
  }
  const ReadStats& stats() const override { return stats_; }
  std::string Describe() const override { return name_; }

 private:
  std::vector<TraceJob> jobs_;
  std::string name_;
  size_t next_ = 0;
  ReadStats stats_;
};

}  // namespace spindle::replay
