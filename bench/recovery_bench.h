// `spindle bench recovery`: RM restart without loss (BENCHMARKS.md,
// "recovery"). For each store size M:
//
// The store is the embedded RocksDB store (--store rocksdb, the default) or
// the ZooKeeper store in ZKRMStateStore's layout (--store zk, on the server
// --zk-address names, under a parent znode of its own that is formatted
// afterwards unless --keep).
//
//  1. fill: a fresh state store (a directory, or a parent znode) gets M
//     applications in mixed states (finished, failed with two attempts,
//     killed, and a share still running with an AM container), written with
//     the RM's own record encoders (rm/recovery) in large batches. Not a
//     figure.
//  2. reload, in this process: Open + Load + DecodeRmState +
//     ApplicationManager::Recover (on a real SchedulerPool and
//     ContainerRegistry), each phase timed; every application must come back
//     in the state it was stored in.
//  3. restart: the real `spindle rm` (a child process on that store, fixed
//     ports) and one `spindle nm --simulate K` child; L applications are
//     submitted and their AM containers run on the simulated nodes; the RM is
//     SIGKILLed and started again. Timed from the restart's fork to: the
//     client port answering, all K nodes registered again, and the first
//     allocation (a fresh application's AM container placed). Every stored
//     and submitted application and every running container must come back.
//
// A loss is a failure (an error Status, exit status 1), never a figure. No
// test asserts on the times.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/flags/command_line.h"
#include "base/result.h"

namespace spindle::bench {

struct RecoveryBenchOptions {
  // Store sizes M, one run each. Default: 10000, 100000.
  std::vector<int64_t> apps = {10000, 100000};
  // Simulated nodes K in the restart phase. Default: 20.
  int64_t nodes = 20;
  // Applications submitted before the SIGKILL whose AM containers run on
  // the nodes (spread over them). Default: 2 per node.
  int64_t live_apps = 40;
  // Where each run's store and files go (a fresh subdirectory per M,
  // removed afterwards unless keep). Default: "" = the system temp dir.
  std::string dir;
  bool keep = false;
  // Skip phase 3 (the child processes). Default: false.
  bool skip_restart = false;
  // The `spindle` binary to run as `rm` and `nm`. Default: /proc/self/exe.
  std::string binary = "/proc/self/exe";
  // Bound on every wait in phase 3. Default: 120 s.
  int timeout_seconds = 120;
  // "rocksdb" or "zk". Default: rocksdb.
  std::string store = "rocksdb";
  // The ZooKeeper server(s) of --store zk ("host:port[,...]"). Required then.
  std::string zk_address;
};

struct ReloadTimes {
  double store_mb = 0;  // the store directory before the open (zk: the records' bytes)
  double open_seconds = 0, load_seconds = 0, decode_seconds = 0, recover_seconds = 0;
  double total_seconds = 0;  // the sum
};

struct RecoveryRun {
  int64_t apps = 0;
  // Applications stored per kind.
  int64_t finished = 0, failed = 0, killed = 0, running = 0;
  double fill_seconds = 0;
  // Phase 2, twice: right after the fill (Open replays the write-ahead log
  // of every record, as after a SIGKILL that followed the writes; RocksDB
  // flushes what it replayed), then reopened (the records in table files, as
  // a store that has been running).
  ReloadTimes after_fill;
  ReloadTimes reopened;
  int64_t apps_recovered = 0;
  // Phase 3 (zero when skipped).
  bool restarted = false;
  int64_t nodes = 0;
  int64_t live_apps = 0;
  int64_t containers_before = 0;        // running containers the RM reported before the kill
  double first_start_seconds = 0;       // the first RM start, on the filled store, to listening
  double listening_seconds = 0;         // restart fork -> client port answers
  double nodes_back_seconds = 0;        // restart fork -> all K nodes registered
  double first_allocation_seconds = 0;  // restart fork -> a new AM container placed
  int64_t apps_after = 0;               // applications the restarted RM reports
  int64_t containers_after = 0;         // live containers it reports (the L plus the new AM)
};

// InvalidArgument for bad options; Aborted naming what was lost if any
// application or container did not come back; IoError/TimedOut for trouble
// with the child processes or the store.
Result<std::vector<RecoveryRun>> RunRecoveryBench(const RecoveryBenchOptions& options);

// Prints the runs as a table, with the target line.
void PrintRecoveryRuns(const RecoveryBenchOptions& options, const std::vector<RecoveryRun>& runs);

// The runs as JSON (the table's figures), to `path`.
Status WriteRecoveryJson(const std::string& path, const RecoveryBenchOptions& options,
                         const std::vector<RecoveryRun>& runs);

// `spindle bench recovery`'s flag table and entry point.
const CommandSpec& RecoveryBenchCommand();
int RecoveryBenchMain(const CommandLine& flags);

}  // namespace spindle::bench
