// Helpers of the cluster reader tests: files written to the test's temp
// dir, and draining a reader.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "replay/trace/trace_reader.h"

namespace spindle::replay::testing_files {

inline std::string WriteFile(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

struct ReadAll {
  std::vector<TraceJob> jobs;
  Status status;
};

inline ReadAll Drain(TraceReader* reader) {
  ReadAll all;
  while (true) {
    TraceJob job;
    Result<bool> r = reader->Next(&job);
    if (!r.ok()) {
      all.status = r.status();
      return all;
    }
    if (!*r) return all;
    all.jobs.push_back(std::move(job));
  }
}

inline int64_t Dropped(const ReadStats& stats, const std::string& reason) {
  for (const auto& [r, n] : stats.dropped) {
    if (r == reason) return n;
  }
  return 0;
}

}  // namespace spindle::replay::testing_files
