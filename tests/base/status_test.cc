#include "base/status.h"

#include <gtest/gtest.h>

#include "base/result.h"

namespace spindle {
namespace {

Result<int> Half(int v) {
  if (v % 2 != 0) return Status::InvalidArgument("odd");
  return v / 2;
}

Status Quarter(int v, int* out) {
  ASSIGN_OR_RETURN(int half, Half(v));
  ASSIGN_OR_RETURN(*out, Half(half));
  return Status::OK();
}

TEST(StatusTest, OkAndErrors) {
  EXPECT_TRUE(Status::OK().ok());
  Status s = Status::NotFound("no app");
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(s.IsNotFound());
  EXPECT_EQ(s.ToString(), "NotFound: no app");
  EXPECT_EQ(s.WithContext("lookup").message(), "lookup: no app");
  Status copy = s;
  EXPECT_EQ(copy.message(), "no app");
}

TEST(StatusTest, RemoteCarriesJavaClass) {
  Status s = Status::Remote("org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException",
                            "Application with id 'x' doesn't exist in RM.");
  EXPECT_TRUE(s.IsRemote());
  EXPECT_EQ(s.java_class(), "org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException");
}

TEST(StatusTest, UserMessageHasNoCodeName) {
  EXPECT_EQ(Status::Corruption("bad record at key k").UserMessage(), "bad record at key k");
  EXPECT_EQ(Status::NotFound("no app").WithContext("kill").UserMessage(), "kill: no app");
  // What a Hadoop client prints for the exception (Throwable.toString).
  EXPECT_EQ(Status::Remote("org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException",
                           "Application with id 'x' doesn't exist in RM.")
                .UserMessage(),
            "org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException: Application with id "
            "'x' doesn't exist in RM.");
  EXPECT_EQ(Status::OK().UserMessage(), "OK");
  EXPECT_EQ(Status::Corruption("x").ToString(), "Corruption: x") << "ToString is unchanged";
}

TEST(StatusTest, ResultPropagates) {
  int out = 0;
  EXPECT_TRUE(Quarter(8, &out).ok());
  EXPECT_EQ(out, 2);
  EXPECT_EQ(Quarter(6, &out).code(), Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace spindle
