// /stacks: every thread listed, the test's own extra thread with a frame of
// the function it runs, and the text's shape.
#include "web/metrics/thread_dump.h"

#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "web/metrics/metrics_routes.h"

namespace spindle::web {
namespace {

std::mutex g_mu;
std::condition_variable g_cv;
bool g_release = false;
std::atomic<bool> g_parked{false};

// Polls `done` for up to 10 s.
void WaitUntil(const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!done() && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
}

// Not inlined, so that it appears in the parked thread's stack.
__attribute__((noinline)) void ParkedThreadBodyForStacksTest() {
  std::unique_lock<std::mutex> lock(g_mu);
  g_parked = true;
  g_cv.wait(lock, [] { return g_release; });
  asm volatile("" ::: "memory");  // keeps the frame (no tail call)
}

TEST(ThreadDumpTest, ListsTheParkedThreadWithItsFunction) {
  std::thread parked([] {
    pthread_setname_np(pthread_self(), "stacks-parked");
    ParkedThreadBodyForStacksTest();
  });
  // Wait for the thread to park (bounded).
  WaitUntil([] { return g_parked.load(); });
  ASSERT_TRUE(g_parked.load());
  const std::vector<ThreadDump> threads = CaptureThreads();
  {
    std::lock_guard<std::mutex> lock(g_mu);
    g_release = true;
  }
  g_cv.notify_all();
  parked.join();

  ASSERT_GE(threads.size(), 2u);
  const ThreadDump* mine = nullptr;
  const ThreadDump* self = nullptr;
  for (const ThreadDump& t : threads) {
    if (t.name == "stacks-parked") mine = &t;
    if (t.tid == static_cast<int>(gettid())) self = &t;
  }
  ASSERT_NE(mine, nullptr);
  ASSERT_TRUE(mine->answered);
  bool has_frame = false;
  for (const std::string& frame : mine->frames) {
    has_frame |= frame.find("ParkedThreadBodyForStacksTest") != std::string::npos;
  }
  EXPECT_TRUE(has_frame) << ::testing::PrintToString(mine->frames);
  // The dumping thread answers itself too.
  ASSERT_NE(self, nullptr);
  EXPECT_TRUE(self->answered);
  bool has_test = false;
  for (const std::string& frame : self->frames) {
    has_test |= frame.find("ThreadDumpTest") != std::string::npos;
  }
  EXPECT_TRUE(has_test) << ::testing::PrintToString(self->frames);
}

TEST(ThreadDumpTest, AThreadBlockingTheSignalIsListedWithoutAStack) {
  std::atomic<bool> ready{false};
  std::atomic<bool> stop{false};
  std::thread blocker([&] {
    pthread_setname_np(pthread_self(), "stacks-blocker");
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);
    ready = true;
    while (!stop) std::this_thread::yield();
  });
  WaitUntil([&] { return ready.load(); });
  ASSERT_TRUE(ready.load());
  const std::vector<ThreadDump> threads = CaptureThreads();
  stop = true;
  blocker.join();
  bool listed = false;
  for (const ThreadDump& t : threads) {
    if (t.name != "stacks-blocker") continue;
    listed = true;
    EXPECT_FALSE(t.answered);
    EXPECT_TRUE(t.frames.empty());
  }
  EXPECT_TRUE(listed);
}

TEST(ThreadDumpTest, TextAsStackServlet) {
  HttpRequest request;
  request.path = "/stacks";
  const HttpResponse response = StacksHandler(request);
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(response.content_type, "text/plain; charset=UTF-8");
  EXPECT_EQ(response.body.rfind("Process Thread Dump: \n", 0), 0u) << response.body;
  EXPECT_NE(response.body.find(" active threads\n"), std::string::npos);
  EXPECT_NE(response.body.find("Thread " + std::to_string(gettid()) + " ("), std::string::npos);
  EXPECT_NE(response.body.find("  State: R (running)\n"), std::string::npos) << response.body;
  EXPECT_NE(response.body.find("  Stack:\n    #0 "), std::string::npos);
}

TEST(ThreadDumpTest, FormatsAThreadThatDidNotAnswer) {
  ThreadDump t;
  t.tid = 42;
  t.name = "stuck";
  t.state = 'D';
  const std::string text = FormatThreadDump("x", {t});
  EXPECT_EQ(text,
            "Process Thread Dump: x\n1 active threads\nThread 42 (stuck):\n  State: D (disk "
            "sleep)\n  CPU time: 0.000 s\n  Stack: (not captured: the thread blocks the dump "
            "signal or did not answer in time)\n");
}

}  // namespace
}  // namespace spindle::web
