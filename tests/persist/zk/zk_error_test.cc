#include "persist/zk/zk_error.h"

#include <gtest/gtest.h>
#include <zookeeper/zookeeper.h>

namespace spindle::zk {
namespace {

TEST(ZkErrorTest, MapsCodesToStatusesAndBack) {
  struct Case {
    int rc;
    Status::Code code;
    ZkError error;
    const char* java_class;
  };
  const Case cases[] = {
      {ZNONODE, Status::Code::kNotFound, ZkError::kNoNode,
       "org.apache.zookeeper.KeeperException$NoNodeException"},
      {ZNODEEXISTS, Status::Code::kAlreadyExists, ZkError::kNodeExists,
       "org.apache.zookeeper.KeeperException$NodeExistsException"},
      {ZBADVERSION, Status::Code::kAborted, ZkError::kBadVersion,
       "org.apache.zookeeper.KeeperException$BadVersionException"},
      {ZNOAUTH, Status::Code::kUnauthorized, ZkError::kNoAuth,
       "org.apache.zookeeper.KeeperException$NoAuthException"},
      {ZCONNECTIONLOSS, Status::Code::kUnavailable, ZkError::kConnectionLoss,
       "org.apache.zookeeper.KeeperException$ConnectionLossException"},
      {ZSESSIONEXPIRED, Status::Code::kUnavailable, ZkError::kSessionExpired,
       "org.apache.zookeeper.KeeperException$SessionExpiredException"},
      {ZINVALIDSTATE, Status::Code::kUnavailable, ZkError::kSessionExpired,
       "org.apache.zookeeper.KeeperException$SessionExpiredException"},
      {ZCLOSING, Status::Code::kAborted, ZkError::kClosing,
       "org.apache.zookeeper.KeeperException$SessionExpiredException"},
  };
  for (const Case& c : cases) {
    const Status s = ZkStatus(c.rc, "create /a");
    EXPECT_EQ(s.code(), c.code) << c.rc;
    EXPECT_EQ(s.java_class(), c.java_class) << c.rc;
    EXPECT_EQ(ZkErrorOf(s), c.error) << c.rc;
    EXPECT_EQ(s.message().rfind("create /a: ", 0), 0u) << s.message();
  }
}

TEST(ZkErrorTest, OkUnknownAndRetriable) {
  EXPECT_TRUE(ZkStatus(ZOK, "x").ok());
  EXPECT_EQ(ZkErrorOf(Status::OK()), ZkError::kOk);
  const Status odd = ZkStatus(ZMARSHALLINGERROR, "get /a");
  EXPECT_EQ(odd.code(), Status::Code::kInternal);
  EXPECT_EQ(ZkErrorOf(odd), ZkError::kOther);
  EXPECT_EQ(ZkErrorOf(Status::NotFound("not from zookeeper")), ZkError::kOther);
  EXPECT_TRUE(IsRetriable(ZkStatus(ZCONNECTIONLOSS, "x")));
  EXPECT_TRUE(IsRetriable(ZkStatus(ZOPERATIONTIMEOUT, "x")));
  EXPECT_FALSE(IsRetriable(ZkStatus(ZSESSIONEXPIRED, "x")));
  EXPECT_FALSE(IsRetriable(ZkStatus(ZNODEEXISTS, "x")));
}

}  // namespace
}  // namespace spindle::zk
