// Test helper: writes small hand-made trace files into the test's temp dir.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace spindle::replay::hadoop {

// Writes `text` to a file named `name` under the test temp dir; returns the path.
inline std::string WriteTempFile(const std::string& name, const std::string& text) {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string path =
      ::testing::TempDir() + "/" + info->test_suite_name() + "_" + info->name() + "_" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return path;
}

inline std::string SharedTrace(const std::string& file) {
  return std::string(SPINDLE_SHARED_DIR) + "/traces/hadoop-sls/" + file;
}

}  // namespace spindle::replay::hadoop
