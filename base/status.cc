#include "base/status.h"

namespace spindle {

namespace {
const std::string& EmptyString() {
  static const std::string* const kEmpty = new std::string();
  return *kEmpty;
}
}  // namespace

Status::Status(Code code, std::string_view msg, std::string_view java_class)
    : state_(std::make_unique<State>(State{code, std::string(msg), std::string(java_class)})) {}

Status::Status(const Status& other)
    : state_(other.state_ ? std::make_unique<State>(*other.state_) : nullptr) {}

Status& Status::operator=(const Status& other) {
  if (this != &other) {
    state_ = other.state_ ? std::make_unique<State>(*other.state_) : nullptr;
  }
  return *this;
}

const std::string& Status::message() const { return state_ ? state_->message : EmptyString(); }

const std::string& Status::java_class() const {
  return state_ ? state_->java_class : EmptyString();
}

const char* CodeName(Status::Code code) {
  switch (code) {
    case Status::Code::kOk:
      return "OK";
    case Status::Code::kInvalidArgument:
      return "InvalidArgument";
    case Status::Code::kNotFound:
      return "NotFound";
    case Status::Code::kAlreadyExists:
      return "AlreadyExists";
    case Status::Code::kIoError:
      return "IOError";
    case Status::Code::kCorruption:
      return "Corruption";
    case Status::Code::kProtocolError:
      return "ProtocolError";
    case Status::Code::kUnauthorized:
      return "Unauthorized";
    case Status::Code::kTimedOut:
      return "TimedOut";
    case Status::Code::kAborted:
      return "Aborted";
    case Status::Code::kResourceExhausted:
      return "ResourceExhausted";
    case Status::Code::kUnavailable:
      return "Unavailable";
    case Status::Code::kNotSupported:
      return "NotSupported";
    case Status::Code::kRemoteError:
      return "RemoteError";
    case Status::Code::kInternal:
      return "Internal";
  }
  return "Unknown";
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out = CodeName(state_->code);
  if (!state_->java_class.empty()) out += " (" + state_->java_class + ")";
  out += ": ";
  out += state_->message;
  return out;
}

std::string Status::UserMessage() const {
  if (ok()) return "OK";
  if (state_->java_class.empty()) return state_->message;
  if (state_->message.empty()) return state_->java_class;
  return state_->java_class + ": " + state_->message;
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return Status();
  Status copy(*this);
  copy.state_->message = std::string(context) + ": " + copy.state_->message;
  return copy;
}

}  // namespace spindle
