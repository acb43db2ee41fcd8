// RmChild: the `spindle rm` the generator starts when no --rm is given: a
// child process on 127.0.0.1 with ports picked at run time (port 0, read
// back from its --ports-file), an in-memory state store, one queue with
// room for every application, and the options' heartbeat interval and
// container sizes. It dies with the generator (PR_SET_PDEATHSIG).
//
// Thread contract: one controlling thread.
#pragma once

#include <sys/types.h>

#include <string>

#include "base/child_process.h"
#include "bench/wire/wire_options.h"

namespace spindle::bench::wire {

class RmChild {
 public:
  RmChild() = default;
  ~RmChild() = default;
  RmChild(const RmChild&) = delete;
  RmChild& operator=(const RmChild&) = delete;

  // Writes the configuration under `work_dir` (rm-conf/, rm.log), starts the
  // RM and waits (up to options.timeout_seconds) for its ports file.
  // IoError if it exits first, TimedOut if it does not listen in time.
  Status Start(const WireOptions& options, const std::string& work_dir);
  // SIGTERM, then SIGKILL after 10 s. Idempotent.
  void Stop();

  // -1 when not running.
  pid_t pid() const { return child_.pid(); }
  // Whether it has exited (reaping it).
  bool Exited() { return child_.Exited(); }
  const RmAddresses& addresses() const { return addresses_; }
  std::string log() const { return work_dir_ + "/rm.log"; }

 private:
  ChildProcess child_;
  std::string work_dir_;
  RmAddresses addresses_;
};

}  // namespace spindle::bench::wire
