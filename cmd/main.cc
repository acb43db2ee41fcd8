// `spindle`: one binary, one subcommand per process kind (ARCHITECTURE.md).
#include <glog/logging.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "bench/ipc_bench.h"
#include "bench/nm_bench.h"
#include "bench/pool_bench.h"
#include "bench/recovery_bench.h"
#include "bench/windtunnel_bench.h"
#include "bench/wire_bench.h"
#include "cmd/command_line.h"
#include "cmd/nm_daemon.h"
#include "cmd/rm_daemon.h"
#include "cmd/shell_app.h"
#include "replay/replay_command.h"

namespace {

void PrintUsage() {
  std::fprintf(
      stderr,
      "usage: spindle <command> [flags]\n"
      "commands:\n"
      "  bench ipc   Hadoop IPC calls/s and latency over loopback\n"
      "              [--connections C] [--in-flight K] [--seconds S] [--workers W]\n"
      "              [--token] [--json FILE]\n"
      "  bench pool  scheduler pool placements/s, ns/placement, conflicts per mode\n"
      "              x strategy [--nodes 100000] [--slots 2] [--schedulers 20]\n"
      "              [--partitions 20] [--gap-ms 500] [--hold PERCENT] [--seconds S]\n"
      "              [--batch B] [--modes parsync,samesync,statesync,monolithic]\n"
      "              [--strategies latency-first,quality-first,adaptive]\n"
      "              [--transaction incremental|all-or-nothing]\n"
      "              [--conflict fine-grained|coarse-grained] [--seed S] [--json FILE]\n"
      "  bench windtunnel  ParSync's Wind Tunnel (bench/windtunnel/README.md) [--clock\n"
      "              real|virtual] [--phase-seconds 60] [--scale X] [--peak] [--json F]\n"
      "              [--csv F] [--html F] [--modes parsync,statesync,monolithic]\n"
      "  bench nm    heartbeats/s the RM serves from one `spindle nm --simulate N`\n"
      "              agent, and the agent's CPU and RSS [--nodes 5000] [--seconds 20]\n"
      "              [--interval-ms 1000] [--register-timeout 120]\n"
      "  bench recovery  RM restart without loss: reload time of M stored apps, and\n"
      "              restart (SIGKILL) to first allocation with K simulated nodes\n"
      "              [--apps 10000,100000] [--nodes 20] [--live-apps 2*K] [--dir D]\n"
      "              [--keep] [--no-restart] [--timeout 120] [--json F]\n"
      "  bench wire  load generator over the public YARN protocols, against a spindle rm\n"
      "              child or any RM: K simulated NMs, A simulated AMs; containers/s,\n"
      "              heartbeats/s, latencies, RM CPU/RSS (bench/wire_bench.h)\n"
      "              [--rm HOST:PORT,HOST:PORT,HOST:PORT | HOST] [--rm-pid PID]\n"
      "              [--nodes 2000] [--tracker-connections 1] [--heartbeat-ms 100]\n"
      "              [--apps 40] [--containers-per-app 2000] [--container-ms 1000]\n"
      "              [--memory-mb 128] [--allocate-ms 100] [--seconds 20] [--unmanaged]\n"
      "              [--json F]\n"
      "  replay      replay a trace against Spindle's scheduling (replay/README.md)\n"
      "              --trace FILE | --format phases|poisson [--mode windtunnel|cell]\n"
      "              [--clock virtual|real] [--speed X] [--nodes N | --nodes-file F]\n"
      "              [--node-shape MB,VC] [--queues capacity-scheduler.xml|a,b]\n"
      "              [--compare parsync:latency-first,parsync:adaptive,statesync,monolithic]\n"
      "              [--skip-bad] [--max-jobs N] [--max-seconds S] [--out DIR]\n"
      "  rm          the ResourceManager [--conf DIR] (default $HADOOP_CONF_DIR)\n"
      "              [--ports-file F] (where it listens, once listening)\n"
      "  nm          the node agent [--conf DIR] [--simulate N | --nodes-file FILE]\n"
      "              [--resource-tracker HOST:PORT]\n"
      "  shell       run a command in N containers (a DistributedShell of our own)\n"
      "              --command CMD [--num-containers N] [--memory-mb M] [--vcores V]\n"
      "              [--rm HOST:PORT (127.0.0.1:8032)] [--rm-scheduler HOST:PORT]\n"
      "              [--am-memory-mb M] [--queue Q] [--name NAME] [--user U]\n"
      "              [--timeout-seconds S]\n"
      "  shell-am    the ApplicationMaster `spindle shell` submits (runs in its container)\n"
      "  help        this text\n");
}

int Bench(int argc, char** argv) {
  if (argc < 3) {
    PrintUsage();
    return 2;
  }
  auto flags = spindle::CommandLine::Parse(argc, argv, 3);
  if (!flags.ok()) {
    std::fprintf(stderr, "spindle bench: %s\n", flags.status().ToString().c_str());
    return 2;
  }
  const std::string name = argv[2];
  if (name == "ipc") return spindle::bench::IpcBenchMain(*flags);
  if (name == "pool") return spindle::bench::PoolBenchMain(*flags);
  if (name == "nm") return spindle::bench::NmBenchMain(*flags);
  if (name == "recovery") return spindle::bench::RecoveryBenchMain(*flags);
  if (name == "wire") return spindle::bench::WireBenchMain(*flags);
  if (name == "windtunnel") return spindle::bench::WindTunnelBenchMain(*flags);
  std::fprintf(stderr, "spindle bench: unknown benchmark '%s'\n", name.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  google::InitGoogleLogging(argv[0]);
  FLAGS_logtostderr = true;
  if (argc < 2 || std::strcmp(argv[1], "help") == 0 || std::strcmp(argv[1], "--help") == 0) {
    PrintUsage();
    return argc < 2 ? 2 : 0;
  }
  const std::string command = argv[1];
  if (command == "bench") return Bench(argc, argv);
  if (command == "rm") {
    auto flags = spindle::CommandLine::Parse(argc, argv, 2);
    if (!flags.ok()) {
      std::fprintf(stderr, "spindle rm: %s\n", flags.status().ToString().c_str());
      return 2;
    }
    return spindle::RmMain(*flags);
  }
  if (command == "shell" || command == "shell-am") {
    auto flags = spindle::CommandLine::Parse(argc, argv, 2);
    if (!flags.ok()) {
      std::fprintf(stderr, "spindle %s: %s\n", command.c_str(), flags.status().ToString().c_str());
      return 2;
    }
    return command == "shell" ? spindle::ShellClientMain(*flags) : spindle::ShellAmMain(*flags);
  }
  if (command == "replay") {
    auto flags = spindle::CommandLine::Parse(argc, argv, 2);
    if (!flags.ok()) {
      std::fprintf(stderr, "spindle replay: %s\n", flags.status().ToString().c_str());
      return 2;
    }
    return spindle::replay::ReplayMain(*flags);
  }
  if (command == "nm") {
    auto flags = spindle::CommandLine::Parse(argc, argv, 2);
    if (!flags.ok()) {
      std::fprintf(stderr, "spindle nm: %s\n", flags.status().ToString().c_str());
      return 2;
    }
    return spindle::NmMain(*flags);
  }
  std::fprintf(stderr, "spindle: unknown command '%s'\n", command.c_str());
  PrintUsage();
  return 2;
}
