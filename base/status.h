// Status: the result of every fallible operation in Spindle (RocksDB/Kudu
// style). OK carries no allocation; an error carries a code, a message and,
// where the error must reach a Hadoop peer, the Java exception class the peer
// expects (e.g. "org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException").
//
// Thread-safety: a Status is a value; distinct objects may be used from
// distinct threads without synchronisation.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace spindle {

class [[nodiscard]] Status {
 public:
  enum class Code : int {
    kOk = 0,
    kInvalidArgument,
    kNotFound,
    kAlreadyExists,
    kIoError,
    kCorruption,
    kProtocolError,  // a peer broke the wire protocol
    kUnauthorized,   // authentication or authorisation failed
    kTimedOut,
    kAborted,  // e.g. connection closed while a call was in flight
    kResourceExhausted,
    kUnavailable,
    kNotSupported,
    kRemoteError,  // an error a remote peer sent us (java_class says which)
    kInternal,
  };

  Status() = default;
  Status(const Status& other);
  Status& operator=(const Status& other);
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;

  static Status OK() { return Status(); }
  static Status InvalidArgument(std::string_view msg) {
    return Status(Code::kInvalidArgument, msg);
  }
  static Status NotFound(std::string_view msg) { return Status(Code::kNotFound, msg); }
  static Status AlreadyExists(std::string_view msg) { return Status(Code::kAlreadyExists, msg); }
  static Status IoError(std::string_view msg) { return Status(Code::kIoError, msg); }
  static Status Corruption(std::string_view msg) { return Status(Code::kCorruption, msg); }
  static Status ProtocolError(std::string_view msg) { return Status(Code::kProtocolError, msg); }
  static Status Unauthorized(std::string_view msg) { return Status(Code::kUnauthorized, msg); }
  static Status TimedOut(std::string_view msg) { return Status(Code::kTimedOut, msg); }
  static Status Aborted(std::string_view msg) { return Status(Code::kAborted, msg); }
  static Status ResourceExhausted(std::string_view msg) {
    return Status(Code::kResourceExhausted, msg);
  }
  static Status Unavailable(std::string_view msg) { return Status(Code::kUnavailable, msg); }
  static Status NotSupported(std::string_view msg) { return Status(Code::kNotSupported, msg); }
  static Status Internal(std::string_view msg) { return Status(Code::kInternal, msg); }
  // An error that names the Java exception class a Hadoop peer sends or
  // expects. `code` classifies it for Spindle's own callers (e.g.
  // kUnauthorized for a FATAL_UNAUTHORIZED answer); the class is what goes
  // on, or came off, the wire.
  static Status Remote(std::string_view java_class, std::string_view msg,
                       Code code = Code::kRemoteError) {
    return Status(code, msg, java_class);
  }

  bool ok() const { return state_ == nullptr; }
  Code code() const { return state_ ? state_->code : Code::kOk; }
  const std::string& message() const;
  // Empty unless the status came from, or is meant for, a Hadoop peer.
  const std::string& java_class() const;

  bool IsNotFound() const { return code() == Code::kNotFound; }
  bool IsTimedOut() const { return code() == Code::kTimedOut; }
  // True if the error names a Java exception class (see Remote()).
  bool IsRemote() const { return state_ != nullptr && !state_->java_class.empty(); }
  bool IsUnauthorized() const { return code() == Code::kUnauthorized; }

  // "InvalidArgument: bad frame" or "OK": for logs and tests, where the code
  // name helps a developer.
  std::string ToString() const;
  // For a person at a terminal: the message alone ("bad frame"), or, for an
  // error naming a Hadoop exception, "<java class>: <message>" as a Hadoop
  // client prints a Throwable (Throwable.toString). "OK" for OK.
  std::string UserMessage() const;
  // Returns a copy whose message is prefixed with `context`.
  Status WithContext(std::string_view context) const;

  // Marks an ignored error as deliberate (greppable, like RocksDB's).
  void PermitUnchecked() const {}

 private:
  Status(Code code, std::string_view msg, std::string_view java_class = {});

  struct State {
    Code code;
    std::string message;
    std::string java_class;
  };
  std::unique_ptr<State> state_;
};

const char* CodeName(Status::Code code);

}  // namespace spindle

#define SPINDLE_CONCAT_INNER(a, b) a##b
#define SPINDLE_CONCAT(a, b) SPINDLE_CONCAT_INNER(a, b)

// Returns from the enclosing function if `expr` yields a non-OK Status.
#define RETURN_NOT_OK(expr)                  \
  do {                                       \
    ::spindle::Status _spindle_s = (expr);   \
    if (!_spindle_s.ok()) return _spindle_s; \
  } while (false)
