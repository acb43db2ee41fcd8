// Clock: the source of time for every Spindle component, injected so that
// tests and the wind tunnel can run the same code on a virtual clock
// (RocksDB's SystemClock, Envoy's TimeSource).
//
// Time points are std::chrono::steady_clock::time_point values: SystemClock
// returns the real monotonic clock; ManualClock returns whatever its owner
// set, starting at the steady clock's epoch (time_since_epoch() == 0) unless
// told otherwise. Code must only compare and subtract time points, never
// assume a particular epoch.
//
// Thread-safety: Now() and WallMillis() are thread-safe on both clocks;
// ManualClock::Set()/Advance() may race with readers (they are atomic).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace spindle {

using Duration = std::chrono::nanoseconds;
using TimePoint = std::chrono::steady_clock::time_point;

class Clock {
 public:
  virtual ~Clock() = default;
  // Monotonic time; never decreases between two calls on one clock.
  virtual TimePoint Now() const = 0;
  // Milliseconds since the Unix epoch (for cluster timestamps and logs).
  virtual int64_t WallMillis() const = 0;
};

// The machine's clocks.
class SystemClock final : public Clock {
 public:
  // The process-wide instance; never destroyed.
  static const SystemClock* Get() {
    static const SystemClock* const kClock = new SystemClock();
    return kClock;
  }
  TimePoint Now() const override { return std::chrono::steady_clock::now(); }
  int64_t WallMillis() const override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
};

// A clock that moves only when told to: for tests and discrete-event
// simulation. Wall time is a fixed base plus the monotonic offset.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(TimePoint start = TimePoint{}, int64_t wall_base_millis = 0)
      : nanos_(start.time_since_epoch().count()), wall_base_millis_(wall_base_millis) {}

  TimePoint Now() const override {
    return TimePoint(Duration(nanos_.load(std::memory_order_acquire)));
  }
  int64_t WallMillis() const override {
    return wall_base_millis_ + nanos_.load(std::memory_order_acquire) / 1'000'000;
  }
  // Moves the clock to `t`; a `t` earlier than Now() is ignored (monotonic).
  void Set(TimePoint t) {
    int64_t want = t.time_since_epoch().count();
    int64_t cur = nanos_.load(std::memory_order_acquire);
    while (want > cur && !nanos_.compare_exchange_weak(cur, want, std::memory_order_acq_rel)) {
    }
  }
  void Advance(Duration d) {
    if (d.count() > 0) nanos_.fetch_add(d.count(), std::memory_order_acq_rel);
  }

 private:
  std::atomic<int64_t> nanos_;
  const int64_t wall_base_millis_;
};

}  // namespace spindle
