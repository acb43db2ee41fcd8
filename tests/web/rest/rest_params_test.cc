#include "web/rest/rest_params.h"

#include <gtest/gtest.h>

namespace spindle::web::rest {
namespace {

TEST(RestParamsTest, AppIdLikeWebAppUtils) {
  RestError error;
  auto id = ParseAppIdParam("application_1700000000000_0042", &error);
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ(id->cluster_timestamp, 1700000000000);
  EXPECT_EQ(id->id, 42);
  EXPECT_FALSE(ParseAppIdParam("application_1_x", &error).has_value());
  EXPECT_EQ(error.status, 400);
  EXPECT_EQ(error.message,
            "java.lang.IllegalArgumentException: Invalid ApplicationId: application_1_x");
  EXPECT_FALSE(ParseAppIdParam("container_1_2", &error).has_value());
  EXPECT_EQ(error.message,
            "java.lang.IllegalArgumentException: Invalid ApplicationId prefix: container_1_2. "
            "The valid ApplicationId should start with prefix application");
  EXPECT_FALSE(ParseAppIdParam("", &error).has_value());
}

TEST(RestParamsTest, SplitQueriesTrimsAndDropsBlanks) {
  EXPECT_EQ(SplitQueries({" a, b ,,", "c", ""}), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(SplitQueries({}).empty());
}

TEST(RestParamsTest, StatesAnyCase) {
  RestError error;
  auto states = ParseAppStates({"Running,accepted", "KILLED"}, &error);
  ASSERT_TRUE(states.has_value());
  EXPECT_EQ(*states, (std::set<std::string>{"running", "accepted", "killed"}));
  EXPECT_EQ(YarnAppStateNumber("new_saving"), 2);
  EXPECT_EQ(YarnAppStateNumber("KILLED"), 8);
  EXPECT_EQ(YarnAppStateNumber("FINISHING"), std::nullopt);
  EXPECT_FALSE(ParseAppStates({"RUNNING,FINISHING"}, &error).has_value());
  EXPECT_EQ(error.exception, "BadRequestException");
}

TEST(RestParamsTest, JavaLong) {
  int64_t v = 0;
  EXPECT_TRUE(ParseJavaLong("12", &v));
  EXPECT_EQ(v, 12);
  EXPECT_TRUE(ParseJavaLong("+7", &v));
  EXPECT_EQ(v, 7);
  EXPECT_TRUE(ParseJavaLong("-3", &v));
  EXPECT_EQ(v, -3);
  EXPECT_TRUE(ParseJavaLong("9223372036854775807", &v));
  for (const char* bad : {"", "+", "-", "+-1", "1.0", "1e3", " 1", "9223372036854775808", "0x10"}) {
    EXPECT_FALSE(ParseJavaLong(bad, &v)) << bad;
  }
}

}  // namespace
}  // namespace spindle::web::rest
