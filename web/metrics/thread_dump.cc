#include "web/metrics/thread_dump.h"

#include <cxxabi.h>
#include <execinfo.h>
#include <glog/logging.h>
#include <semaphore.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <mutex>
#include <string>

#include "web/metrics/process_stats.h"

// glog's symbolizer (exported by libglog, not declared in its public headers).
namespace google {
bool Symbolize(void* pc, char* out, size_t out_size);
}  // namespace google

namespace spindle::web {
namespace {

constexpr int kMaxFrames = 64;

// The one capture in flight. owner: the tid asked to answer, or 0 (nobody),
// or -tid once that thread's handler has claimed the slot.
struct Slot {
  std::atomic<int> owner{0};
  void* frames[kMaxFrames];
  std::atomic<int> depth{0};
  sem_t answered;
};

Slot g_slot;
std::mutex g_dump_mu;
int g_signal = 0;

void OnDumpSignal(int, siginfo_t*, void*) {
  const int saved_errno = errno;
  const int tid = static_cast<int>(syscall(SYS_gettid));
  int expected = tid;
  if (g_slot.owner.compare_exchange_strong(expected, -tid)) {
    g_slot.depth.store(backtrace(g_slot.frames, kMaxFrames), std::memory_order_release);
    sem_post(&g_slot.answered);
  }
  errno = saved_errno;
}

bool Install() {
  static const bool installed = [] {
    // Loads the unwinder now, outside any handler.
    void* warmup[4];
    backtrace(warmup, 4);
    if (sem_init(&g_slot.answered, 0, 0) != 0) return false;
    g_signal = SIGRTMIN + 4;
    struct sigaction action {};
    action.sa_sigaction = OnDumpSignal;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(g_signal, &action, nullptr) != 0) {
      LOG(WARNING) << "stacks: cannot install the dump signal handler";
      return false;
    }
    return true;
  }();
  return installed;
}

timespec DeadlineAfter(std::chrono::milliseconds d) {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  const int64_t ns = ts.tv_nsec + static_cast<int64_t>(d.count() % 1000) * 1000000;
  ts.tv_sec += static_cast<time_t>(d.count() / 1000 + ns / 1000000000);
  ts.tv_nsec = static_cast<long>(ns % 1000000000);
  return ts;
}

// Waits for a post until the deadline (EINTR retried). True if posted.
bool WaitAnswered(std::chrono::milliseconds timeout) {
  const timespec deadline = DeadlineAfter(timeout);
  while (true) {
    if (sem_timedwait(&g_slot.answered, &deadline) == 0) return true;
    if (errno != EINTR) return false;
  }
}

std::string SymbolizeFrame(void* pc, int index) {
  char buf[1024];
  char head[64];
  std::snprintf(head, sizeof(head), "#%d %p ", index, pc);
  // Return addresses point after the call: look up pc - 1, as glog does.
  if (google::Symbolize(static_cast<char*>(pc) - 1, buf, sizeof(buf))) {
    return std::string(head) + buf;
  }
  char** symbols = backtrace_symbols(&pc, 1);
  std::string text = symbols != nullptr ? symbols[0] : "(unknown)";
  std::free(symbols);
  return std::string(head) + text;
}

// Whether thread `tid` blocks `signal` (SigBlk of its status): it would
// never answer, so it is not asked.
bool BlocksSignal(int tid, int signal) {
  std::ifstream in("/proc/self/task/" + std::to_string(tid) + "/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("SigBlk:", 0) != 0) continue;
    const uint64_t mask = std::strtoull(line.c_str() + 7, nullptr, 16);
    return (mask >> (signal - 1)) & 1u;
  }
  return false;
}

const char* StateName(char state) {
  switch (state) {
    case 'R':
      return "running";
    case 'S':
      return "sleeping";
    case 'I':
      return "idle";
    case 'D':
      return "disk sleep";
    case 'T':
      return "stopped";
    case 't':
      return "tracing stop";
    case 'Z':
      return "zombie";
    case 'X':
      return "dead";
    default:
      return "unknown";
  }
}

}  // namespace

std::vector<ThreadDump> CaptureThreads(std::chrono::milliseconds per_thread_timeout) {
  std::lock_guard<std::mutex> lock(g_dump_mu);
  const bool installed = Install();
  std::vector<ThreadDump> out;
  bool usable = installed;
  for (const ThreadStat& t : ReadThreads()) {
    ThreadDump d;
    d.tid = t.tid;
    d.name = t.name;
    d.state = t.state;
    d.cpu_seconds = t.cpu_seconds;
    if (usable) {
      g_slot.depth.store(0, std::memory_order_relaxed);
      g_slot.owner.store(t.tid, std::memory_order_release);
      bool answered = false;
      if (BlocksSignal(t.tid, g_signal)) {
        g_slot.owner.store(0, std::memory_order_release);
      } else if (syscall(SYS_tgkill, getpid(), t.tid, g_signal) == 0) {
        answered = WaitAnswered(per_thread_timeout);
        if (!answered) {
          int expected = t.tid;
          // Withdraw the request; if the handler claimed it meanwhile, it is
          // writing now: wait for its post so the slot is free again.
          if (!g_slot.owner.compare_exchange_strong(expected, 0)) {
            answered = WaitAnswered(std::chrono::milliseconds(2000));
            // A handler that never finishes would leave the slot in use.
            if (!answered) usable = false;
          }
        }
      } else {
        g_slot.owner.store(0, std::memory_order_release);  // the thread is gone
      }
      if (answered) {
        d.answered = true;
        const int depth = g_slot.depth.load(std::memory_order_acquire);
        // Frame 0 is the handler, 1 the signal trampoline: skip both.
        for (int i = 2; i < depth; ++i) {
          d.frames.push_back(SymbolizeFrame(g_slot.frames[i], i - 2));
        }
      }
      g_slot.owner.store(0, std::memory_order_release);
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::string FormatThreadDump(const std::string& title, const std::vector<ThreadDump>& threads) {
  std::string out = "Process Thread Dump: " + title + "\n";
  out += std::to_string(threads.size()) + " active threads\n";
  for (const ThreadDump& t : threads) {
    char cpu[64];
    std::snprintf(cpu, sizeof(cpu), "%.3f", t.cpu_seconds);
    out += "Thread " + std::to_string(t.tid) + " (" + t.name + "):\n";
    out += std::string("  State: ") + t.state + " (" + StateName(t.state) + ")\n";
    out += std::string("  CPU time: ") + cpu + " s\n";
    if (!t.answered) {
      out +=
          "  Stack: (not captured: the thread blocks the dump signal or did not answer in "
          "time)\n";
      continue;
    }
    out += "  Stack:\n";
    for (const std::string& frame : t.frames) out += "    " + frame + "\n";
  }
  return out;
}

}  // namespace spindle::web
