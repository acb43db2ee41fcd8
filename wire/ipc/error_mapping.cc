#include "wire/ipc/error_mapping.h"

namespace spindle::ipc {

RemoteError ToRemoteError(const Status& status) {
  RemoteError error;
  error.message = status.message();
  if (!status.java_class().empty()) {
    error.exception_class = status.java_class();
    return error;
  }
  switch (status.code()) {
    case Status::Code::kUnauthorized:
      error.exception_class = java::kAccessControl;
      break;
    case Status::Code::kIoError:
      error.exception_class = java::kIoException;
      break;
    default:
      error.exception_class = java::kYarnException;
      break;
  }
  return error;
}

bool IsTransportFailure(const Status& status) {
  if (status.ok() || status.IsRemote()) return false;
  return status.code() == Status::Code::kIoError || status.code() == Status::Code::kTimedOut ||
         status.code() == Status::Code::kAborted;
}

}  // namespace spindle::ipc
