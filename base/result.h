// Result<T>: either a value or a non-OK Status (like absl::StatusOr).
#pragma once

#include <glog/logging.h>

#include <optional>
#include <utility>

#include "base/status.h"

namespace spindle {

template <typename T>
class [[nodiscard]] Result {
 public:
  // Implicit on purpose: `return value;` and `return status;` both read well.
  Result(T value) : value_(std::move(value)) {}         // NOLINT(google-explicit-constructor)
  Result(Status status) : status_(std::move(status)) {  // NOLINT(google-explicit-constructor)
    CHECK(!status_.ok()) << "Result constructed from an OK status without a value";
  }

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }

  T& value() & {
    CHECK(ok()) << status_.ToString();
    return *value_;
  }
  const T& value() const& {
    CHECK(ok()) << status_.ToString();
    return *value_;
  }
  T&& value() && {
    CHECK(ok()) << status_.ToString();
    return std::move(*value_);
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace spindle

#define SPINDLE_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                  \
  if (!tmp.ok()) return tmp.status();                 \
  lhs = std::move(tmp).value()

// ASSIGN_OR_RETURN(auto x, Foo()); declares x from Foo()'s value or returns its error.
#define ASSIGN_OR_RETURN(lhs, expr) \
  SPINDLE_ASSIGN_OR_RETURN_IMPL(SPINDLE_CONCAT(_spindle_r_, __LINE__), lhs, expr)
