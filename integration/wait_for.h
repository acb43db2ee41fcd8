// Polling with a deadline, for integration tests (never a fixed sleep).
#pragma once

#include <chrono>
#include <functional>
#include <thread>

namespace spindle {

// True as soon as `predicate` holds; false if it still does not at `timeout`.
inline bool WaitFor(const std::function<bool()>& predicate,
                    std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (predicate()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return predicate();
}

}  // namespace spindle
