#include "persist/zk/zk_types.h"

#include <utility>

namespace spindle::zk {

const char* SessionStateName(SessionState state) {
  switch (state) {
    case SessionState::kConnecting:
      return "CONNECTING";
    case SessionState::kConnected:
      return "CONNECTED";
    case SessionState::kExpired:
      return "EXPIRED";
    case SessionState::kAuthFailed:
      return "AUTH_FAILED";
    case SessionState::kClosed:
      return "CLOSED";
  }
  return "UNKNOWN";
}

ZkOp ZkOp::Check(std::string path, int32_t version) {
  ZkOp op{Kind::kCheck, std::move(path), {}, {}, CreateMode::kPersistent, version};
  return op;
}

ZkOp ZkOp::Create(std::string path, std::string data, std::vector<ZkAcl> acl, CreateMode mode) {
  ZkOp op{Kind::kCreate, std::move(path), std::move(data), std::move(acl), mode, kAnyVersion};
  return op;
}

ZkOp ZkOp::SetData(std::string path, std::string data, int32_t version) {
  ZkOp op{Kind::kSetData, std::move(path), std::move(data), {}, CreateMode::kPersistent, version};
  return op;
}

ZkOp ZkOp::Delete(std::string path, int32_t version) {
  ZkOp op{Kind::kDelete, std::move(path), {}, {}, CreateMode::kPersistent, version};
  return op;
}

ZkOp ZkOp::CreateWithoutData(std::string path, std::vector<ZkAcl> acl, CreateMode mode) {
  ZkOp op = Create(std::move(path), {}, std::move(acl), mode);
  op.null_data = true;
  return op;
}

ZkOp ZkOp::SetNoData(std::string path, int32_t version) {
  ZkOp op = SetData(std::move(path), {}, version);
  op.null_data = true;
  return op;
}

}  // namespace spindle::zk
