#include "persist/zk/zk_error.h"

#include <zookeeper/zookeeper.h>

#include <string>

namespace spindle::zk {
namespace {

struct ErrorRow {
  int rc;
  ZkError error;
  Status::Code code;
  const char* java_class;
};

// One table for both directions (rc -> Status, Status -> ZkError).
constexpr ErrorRow kRows[] = {
    {ZNONODE, ZkError::kNoNode, Status::Code::kNotFound,
     "org.apache.zookeeper.KeeperException$NoNodeException"},
    {ZNODEEXISTS, ZkError::kNodeExists, Status::Code::kAlreadyExists,
     "org.apache.zookeeper.KeeperException$NodeExistsException"},
    {ZBADVERSION, ZkError::kBadVersion, Status::Code::kAborted,
     "org.apache.zookeeper.KeeperException$BadVersionException"},
    {ZNOTEMPTY, ZkError::kNotEmpty, Status::Code::kAborted,
     "org.apache.zookeeper.KeeperException$NotEmptyException"},
    {ZNOAUTH, ZkError::kNoAuth, Status::Code::kUnauthorized,
     "org.apache.zookeeper.KeeperException$NoAuthException"},
    {ZAUTHFAILED, ZkError::kAuthFailed, Status::Code::kUnauthorized,
     "org.apache.zookeeper.KeeperException$AuthFailedException"},
    {ZCONNECTIONLOSS, ZkError::kConnectionLoss, Status::Code::kUnavailable,
     "org.apache.zookeeper.KeeperException$ConnectionLossException"},
    {ZOPERATIONTIMEOUT, ZkError::kOperationTimeout, Status::Code::kTimedOut,
     "org.apache.zookeeper.KeeperException$OperationTimeoutException"},
    {ZSESSIONEXPIRED, ZkError::kSessionExpired, Status::Code::kUnavailable,
     "org.apache.zookeeper.KeeperException$SessionExpiredException"},
    // The C client answers ZINVALIDSTATE on a handle whose session expired
    // (or failed authentication); the Java client throws SessionExpired.
    {ZINVALIDSTATE, ZkError::kSessionExpired, Status::Code::kUnavailable,
     "org.apache.zookeeper.KeeperException$SessionExpiredException"},
    {ZSESSIONMOVED, ZkError::kSessionMoved, Status::Code::kUnavailable,
     "org.apache.zookeeper.KeeperException$SessionMovedException"},
    {ZCLOSING, ZkError::kClosing, Status::Code::kAborted,
     "org.apache.zookeeper.KeeperException$SessionExpiredException"},
    {ZBADARGUMENTS, ZkError::kBadArguments, Status::Code::kInvalidArgument,
     "org.apache.zookeeper.KeeperException$BadArgumentsException"},
    {ZINVALIDACL, ZkError::kInvalidAcl, Status::Code::kInvalidArgument,
     "org.apache.zookeeper.KeeperException$InvalidACLException"},
    {ZNOCHILDRENFOREPHEMERALS, ZkError::kNoChildrenForEphemerals, Status::Code::kInvalidArgument,
     "org.apache.zookeeper.KeeperException$NoChildrenForEphemeralsException"},
    {ZEPHEMERALONLOCALSESSION, ZkError::kOther, Status::Code::kInvalidArgument,
     "org.apache.zookeeper.KeeperException$EphemeralOnLocalSessionException"},
};

constexpr char kSystemError[] = "org.apache.zookeeper.KeeperException$SystemErrorException";

}  // namespace

Status ZkStatus(int rc, std::string_view context) {
  if (rc == ZOK) return Status::OK();
  std::string message(context);
  message += ": ";
  message += zerror(rc);
  for (const ErrorRow& row : kRows) {
    if (row.rc == rc) {
      // ZCLOSING and ZINVALIDSTATE share a class with ZSESSIONEXPIRED; keep
      // the C client's own wording in the message.
      return Status::Remote(row.java_class, message, row.code);
    }
  }
  return Status::Remote(kSystemError, message + " (ZooKeeper error " + std::to_string(rc) + ")",
                        Status::Code::kInternal);
}

ZkError ZkErrorOf(const Status& status) {
  if (status.ok()) return ZkError::kOk;
  for (const ErrorRow& row : kRows) {
    if (row.code == status.code() && status.java_class() == row.java_class) {
      // ZCLOSING shares its class with expiry but not its code.
      return row.error;
    }
  }
  return ZkError::kOther;
}

bool IsRetriable(const Status& status) {
  const ZkError e = ZkErrorOf(status);
  return e == ZkError::kConnectionLoss || e == ZkError::kOperationTimeout;
}

}  // namespace spindle::zk
