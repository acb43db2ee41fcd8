// Golden files for the REST tests: tests/web/rest/golden/<name>. A mismatch
// fails with both texts; SPINDLE_UPDATE_GOLDEN=1 rewrites the file instead
// (review the diff before committing it).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace spindle::web::rest::testing {

inline void ExpectGolden(const std::string& name, const std::string& actual) {
  const std::string path = std::string(SPINDLE_REST_GOLDEN_DIR) + "/" + name;
  const char* update = std::getenv("SPINDLE_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream out(path, std::ios::binary);
    out << actual << "\n";
    ASSERT_TRUE(out.good()) << "cannot write " << path;
    return;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in.good()) << "missing golden file " << path;
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string expected = buffer.str();
  if (!expected.empty() && expected.back() == '\n') expected.pop_back();
  EXPECT_EQ(expected, actual) << "golden file " << path;
}

}  // namespace spindle::web::rest::testing
