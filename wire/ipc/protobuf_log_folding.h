// Folding of libprotobuf's own log lines, so that a peer cannot amplify the
// log. libprotobuf logs one ERROR line per string field that is not valid
// UTF-8 (when its UTF-8 checks are compiled in, as in Debug and fuzzing
// builds) and one per message parsed with ParseFrom* that lacks required
// fields; a hostile client can send thousands per second (issue 16, item 10:
// 4 MB of log in two minutes of fuzzing).
//
// The rules, in this one place:
//  - a line inside a ProtobufLogScope is charged to that scope's budget (one
//    per server connection, ServerSession): the first line of a connection
//    may be logged, every later one is only counted;
//  - per call site of libprotobuf (file:line), at most one line is logged
//    every `interval` (10 s in the daemon); the next line logged there says
//    how many were folded since;
//  - FATAL lines are never folded (libprotobuf aborts after them).
// Lines go to glog with libprotobuf's file and line, prefixed "libprotobuf:".
//
// InstallProtobufLogFolding() routes the process's libprotobuf lines through
// one such folder; RpcServer::Start() calls it, so every process serving
// Hadoop IPC (spindle rm, spindle nm) has it.
//
// Thread contract: ProtobufLogFolder::Handle is thread-safe; a
// ProtobufLogScope is per thread; a ProtobufLogBudget may be charged from
// any thread.
#pragma once

#include <google/protobuf/stubs/logging.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>

#include "base/clock.h"
#include "base/mutex.h"

namespace spindle::ipc {

// How many libprotobuf lines one connection may log: one.
class ProtobufLogBudget {
 public:
  // True the first time only.
  bool TrySpend() { return !spent_.exchange(true, std::memory_order_relaxed); }
  void CountFolded() { folded_.fetch_add(1, std::memory_order_relaxed); }
  // Lines of this connection that were not logged.
  int64_t folded() const { return folded_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> spent_{false};
  std::atomic<int64_t> folded_{0};
};

// While alive, libprotobuf lines logged on this thread are charged to
// `budget` (null: to none). Scopes nest; the innermost wins.
class ProtobufLogScope {
 public:
  explicit ProtobufLogScope(ProtobufLogBudget* budget);
  ~ProtobufLogScope();
  ProtobufLogScope(const ProtobufLogScope&) = delete;
  ProtobufLogScope& operator=(const ProtobufLogScope&) = delete;

  // The budget of the innermost scope on this thread, or null.
  static ProtobufLogBudget* Current();

 private:
  ProtobufLogBudget* const previous_;
};

class ProtobufLogFolder {
 public:
  // Receives the lines that are logged; `text` has any fold count appended.
  using Sink = std::function<void(google::protobuf::LogLevel level, const char* file, int line,
                                  const std::string& text)>;

  ProtobufLogFolder(const Clock* clock, Duration interval, Sink sink);

  // libprotobuf's LogHandler, applying the rules above.
  void Handle(google::protobuf::LogLevel level, const char* file, int line,
              const std::string& message);

  // Lines not logged so far, over all sites.
  int64_t folded() const;

 private:
  struct Site {
    bool logged = false;
    TimePoint last_logged;
    int64_t folded_since = 0;  // not logged since last_logged
  };

  const Clock* const clock_;
  const Duration interval_;
  const Sink sink_;
  mutable Mutex mu_;
  std::map<std::pair<std::string, int>, Site> sites_ GUARDED_BY(mu_);
  int64_t folded_ GUARDED_BY(mu_) = 0;
};

// Routes libprotobuf's lines through a process-wide ProtobufLogFolder (the
// system clock, 10 s per site, into glog). Idempotent and thread-safe; it
// replaces any handler set before with google::protobuf::SetLogHandler.
void InstallProtobufLogFolding();

}  // namespace spindle::ipc
