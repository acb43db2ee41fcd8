// ZooKeeper's error codes as Spindle Statuses. Each error of the C client
// (ZNONODE, ZBADVERSION, ...) becomes a Status whose code classifies it for
// Spindle's callers and whose java_class names the KeeperException subclass
// a Java peer (ZKRMStateStore, ActiveStandbyElector) would catch for it, so
// the store and the elector can follow Hadoop's catch blocks line by line:
//
//   ZNONODE                   kNotFound           NoNodeException
//   ZNODEEXISTS               kAlreadyExists      NodeExistsException
//   ZBADVERSION               kAborted            BadVersionException
//   ZNOTEMPTY                 kAborted            NotEmptyException
//   ZNOAUTH                   kUnauthorized       NoAuthException
//   ZAUTHFAILED               kUnauthorized       AuthFailedException
//   ZCONNECTIONLOSS           kUnavailable        ConnectionLossException
//   ZOPERATIONTIMEOUT         kTimedOut           OperationTimeoutException
//   ZSESSIONEXPIRED           kUnavailable        SessionExpiredException
//   ZSESSIONMOVED             kUnavailable        SessionMovedException
//   ZCLOSING                  kAborted            (the handle is closing)
//   ZINVALIDSTATE             kUnavailable        SessionExpiredException
//   ZBADARGUMENTS, ZINVALIDACL, ZNOCHILDRENFOREPHEMERALS, ZEPHEMERALONLOCALSESSION
//                             kInvalidArgument    BadArguments/InvalidACL/...
//   anything else             kInternal           SystemErrorException / ...
//
// Thread-safety: pure functions.
#pragma once

#include <string_view>

#include "base/status.h"

namespace spindle::zk {

// KeeperException.Code values callers act on; kOther for the rest.
enum class ZkError {
  kOk,
  kNoNode,
  kNodeExists,
  kBadVersion,
  kNotEmpty,
  kNoAuth,
  kAuthFailed,
  kConnectionLoss,
  kOperationTimeout,
  kSessionExpired,
  kSessionMoved,
  kClosing,
  kBadArguments,
  kInvalidAcl,
  kNoChildrenForEphemerals,
  kOther,
};

// The Status for the C client's return code `rc` (ZOK gives OK); `context`
// (e.g. "create /a/b") prefixes the message.
Status ZkStatus(int rc, std::string_view context);

// Which ZooKeeper error a Status made by ZkStatus carries (kOk for OK,
// kOther for a Status that did not come from ZooKeeper).
ZkError ZkErrorOf(const Status& status);

// True for errors after which the same call may succeed on a later try
// (connection loss, operation timeout): Hadoop's retry loops retry these.
bool IsRetriable(const Status& status);

}  // namespace spindle::zk
