// RmChild: the `spindle rm` the generator starts when no --rm is given: a
// child process on 127.0.0.1 with ports picked at run time (port 0, read
// back from its --ports-file), an in-memory state store, one queue with
// room for every application, and the options' heartbeat interval and
// container sizes. It dies with the generator (PR_SET_PDEATHSIG). One RM of
// an HA pair (HaPair) is the same child with the pair's properties on top.
//
// Thread contract: one controlling thread.
#pragma once

#include <sys/types.h>

#include <map>
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

  // Writes the configuration under `work_dir` (<name>-conf/, <name>.log),
  // with `extra` over the generator's properties, starts the RM and waits
  // (up to options.timeout_seconds) for its ports file. IoError if it exits
  // first, TimedOut if it does not listen in time.
  Status Start(const WireOptions& options, const std::string& work_dir,
               const std::string& name = "rm",
               const std::map<std::string, std::string>& extra = {});
  // SIGTERM, then SIGKILL after 10 s. Idempotent.
  void Stop();
  // SIGKILL, reaped.
  void Kill() { child_.Kill(); }

  // -1 when not running.
  pid_t pid() const { return child_.pid(); }
  // Whether it has exited (reaping it).
  bool Exited() { return child_.Exited(); }
  const RmAddresses& addresses() const { return addresses_; }
  std::string log() const { return work_dir_ + "/" + name_ + ".log"; }

 private:
  ChildProcess child_;
  std::string work_dir_;
  std::string name_ = "rm";
  RmAddresses addresses_;
};

}  // namespace spindle::bench::wire
