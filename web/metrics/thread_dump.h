// Thread dump of this process for /stacks (Hadoop's StackServlet: "Process
// Thread Dump: ..." then every thread). Each thread listed in
// /proc/self/task (tid, name, scheduler state, CPU time) is sent a real-time
// signal (tgkill); its handler writes backtrace() frames into a slot the
// dumper owns for that one thread, and posts a semaphore; the frames are
// symbolised afterwards, outside the handler (glog's symbolizer, which
// reads the binaries' symbol tables, so static functions resolve too;
// backtrace_symbols as a fallback). backtrace() is called once when the
// handler is installed, so that it does not load libgcc (and allocate)
// inside the handler.
//
// A thread that blocks the signal (SigBlk), or does not answer within
// `per_thread_timeout`, is listed without a stack. The slot is claimed by compare-and-swap, so a late
// answer never writes into the next thread's slot. Dumps are serialised by
// a mutex.
//
// The signal is SIGRTMIN + 4 with SA_RESTART: a signalled thread's blocking
// call restarts, or (epoll_wait, futex waits) returns EINTR, which asio and
// the standard library retry; the rest of the process does not use it.
//
// Thread-safety: any thread.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace spindle::web {

struct ThreadDump {
  int tid = 0;
  std::string name;
  char state = '?';
  double cpu_seconds = 0;
  bool answered = false;
  std::vector<std::string> frames;  // symbolised, innermost first
};

// Installs the handler (once) and captures every thread.
std::vector<ThreadDump> CaptureThreads(
    std::chrono::milliseconds per_thread_timeout = std::chrono::milliseconds(500));

// "Process Thread Dump: <title>\n<N> active threads\nThread <tid> (<name>):\n
//   State: ..\n  CPU time: .. s\n  Stack:\n    #0 ..\n"
std::string FormatThreadDump(const std::string& title, const std::vector<ThreadDump>& threads);

}  // namespace spindle::web
