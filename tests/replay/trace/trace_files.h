// Helpers of the trace reader tests: hand-made trace files in the test's
// temp dir, the shared samples, and reading a reader to its end.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "replay/trace/trace_reader.h"

namespace spindle::replay::testing_files {

// Writes `text` to a file named `name` in a temp folder of the running
// test's own (so errors, which name the file, read as in the test);
// returns the path.
inline std::string WriteFile(const std::string& name, const std::string& text) {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string dir =
      ::testing::TempDir() + "/" + info->test_suite_name() + "_" + info->name();
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return path;
}

// A file of ../shared/traces.
inline std::string SharedTrace(const std::string& path) {
  return std::string(SPINDLE_SHARED_DIR) + "/traces/" + path;
}

// Every job a reader returns, and the error that stopped it (OK at the end).
struct Drained {
  std::vector<TraceJob> jobs;
  Status status;
};

inline Drained Drain(TraceReader* reader) {
  Drained all;
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

// Every job, failing the test on an error.
inline std::vector<TraceJob> ReadAll(TraceReader* reader) {
  Drained all = Drain(reader);
  EXPECT_TRUE(all.status.ok()) << all.status.ToString();
  return std::move(all.jobs);
}

// How many records the reader dropped for `reason`.
inline int64_t Dropped(const ReadStats& stats, const std::string& reason) {
  for (const auto& [r, n] : stats.dropped) {
    if (r == reason) return n;
  }
  return 0;
}

}  // namespace spindle::replay::testing_files
