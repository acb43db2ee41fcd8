#include "cmd/scheduler_command.h"

#include <glog/logging.h>
#include <signal.h>

#include <algorithm>
#include <cstdio>

#include "base/clock.h"
#include "rm/config/socket_address.h"
#include "scheduler_pool/pool_options.h"
#include "scheduler_pool/remote/scheduler_member.h"
#include "scheduler_pool/remote/thrift_connection.h"

namespace spindle {

namespace {

constexpr char kName[] = "scheduler";

// How often an idle member looks at the board for new apps and asks.
constexpr Duration kBoardPoll = std::chrono::milliseconds(10);
// How long to wait before joining again after the service was unreachable.
constexpr Duration kRetry = std::chrono::milliseconds(500);

}  // namespace

const CommandSpec& SchedulerCommand() {
  static const CommandSpec kSpec{
      kName,
      "one ParSync scheduler in its own process, over the RM's cell-state service",
      {FlagSpec::String("rm", "HOST:PORT", "",
                        "the RM's cell-state service (its spindle.scheduler.remote.address)")
           .Required(),
       FlagSpec::String("name", "NAME", "scheduler", "this member's name in the service's metrics"),
       FlagSpec::Int("schedulers", 1, "N of the DiffSync rotation this scheduler takes part in")
           .InRange(1, 1024),
       FlagSpec::Int("index", 0, "this scheduler's place in the rotation (0..N-1)")
           .InRange(0, 1023),
       FlagSpec::Int("sync-gap-ms", 500, "G: every partition of the view is refreshed within it")
           .InRange(1, 3600000),
       FlagSpec::String("strategy", "NAME", "latency-first",
                        "latency-first | quality-first | adaptive"),
       FlagSpec::Int("max-tasks-per-step", 256, "tasks chosen before a commit").InRange(1, 1000000),
       FlagSpec::Int("seconds", 0, "stop after this long (0: until SIGINT/SIGTERM)")
           .InRange(0, 31536000)},
      "exit status: 0 stopped, 1 failed, 2 usage error"};
  return kSpec;
}

int SchedulerMain(const CommandLine& flags) {
  const auto address = rm::ParseSocketAddress(flags.GetString("rm"));
  if (!address) {
    return ReportUsageError(
        kName, Status::InvalidArgument("--rm: not HOST:PORT: " + flags.GetString("rm")));
  }
  pool::remote::MemberOptions options;
  options.name = flags.GetString("name");
  options.index = static_cast<int>(flags.GetInt("index"));
  options.pool.num_schedulers = static_cast<int>(flags.GetInt("schedulers"));
  options.pool.sync_gap = std::chrono::milliseconds(flags.GetInt("sync-gap-ms"));
  options.pool.max_tasks_per_step = static_cast<int>(flags.GetInt("max-tasks-per-step"));
  Result<pool::StrategyKind> strategy = pool::ParseStrategy(flags.GetString("strategy"));
  if (!strategy.ok()) return ReportUsageError(kName, strategy.status());
  options.pool.strategy = *strategy;
  if (options.index >= options.pool.num_schedulers) {
    return ReportUsageError(kName, Status::InvalidArgument("--index must be below --schedulers"));
  }

  pool::remote::ThriftConnectionOptions wire;
  wire.host = address->host;
  wire.port = address->port;
  pool::remote::ThriftConnection connection(wire);
  const Clock* clock = SystemClock::Get();
  pool::remote::SchedulerMember member(&connection, clock, options);

  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  const TimePoint start = clock->Now();
  const int64_t seconds = flags.GetInt("seconds");
  while (seconds == 0 || clock->Now() - start < std::chrono::seconds(seconds)) {
    Duration wait = kBoardPoll;
    if (!member.joined()) {
      const Status joined = member.Join();
      if (!joined.ok()) {
        if (joined.code() == Status::Code::kInvalidArgument) return ReportFailure(kName, joined);
        LOG(WARNING) << "cannot join the cell-state service at " << address->ToString() << ": "
                     << joined.ToString();
        wait = kRetry;
      }
    } else {
      const TimePoint now = clock->Now();
      Result<pool::StepResult> step = member.Step(now);
      if (step.ok()) {
        // Placing: step again at once. Idle, or held back after its claims
        // were all refused (SchedulerMember: stepping again at once would
        // send the same claims to be refused again): until the next sync
        // slot, but look at the board for new asks meanwhile.
        wait = step->placed > 0
                   ? Duration::zero()
                   : std::clamp<Duration>(step->next_sync - now, Duration::zero(), kBoardPoll);
      } else if (step.status().code() == Status::Code::kAborted) {
        LOG(WARNING) << "lease lost (" << step.status().ToString() << "); joining again";
        const Status joined = member.Join();
        if (!joined.ok()) LOG(WARNING) << "join: " << joined.ToString();
      } else {
        LOG(WARNING) << "cell-state service: " << step.status().ToString();
        wait = kRetry;
      }
    }
    const auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(wait).count();
    timespec tick{};
    tick.tv_sec = static_cast<decltype(tick.tv_sec)>(nanos / 1000000000);
    tick.tv_nsec = static_cast<decltype(tick.tv_nsec)>(nanos % 1000000000);
    const int signal = nanos > 0 ? sigtimedwait(&signals, nullptr, &tick) : -1;
    if (signal > 0) {
      LOG(INFO) << "scheduler stopping on signal " << signal;
      break;
    }
  }
  const Status left = member.Leave();
  if (!left.ok()) LOG(WARNING) << "leave: " << left.ToString();
  return kExitOk;
}

}  // namespace spindle
