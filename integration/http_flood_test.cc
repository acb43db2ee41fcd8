// The RM's web side under the issue-16 attacks, against the real `spindle rm`
// (a child on 127.0.0.1, ports picked at run time, default HTTP limits):
//
//  - A flood of 1,500 idle TCP sockets that never send a byte, held open:
//    whenever the RM closes one, the flood opens another at once (every
//    200 ms it re-opens what was closed). Meanwhile a legitimate
//    `GET /ws/v1/cluster/info` on a fresh connection is sent again and
//    again, and must be answered 200 with the cluster info every time: a
//    refused, reset or unanswered connection fails the test. Once from the
//    checker's own address (the per-address limit at work), once spread over
//    eight other addresses (the overall limit too).
//  - A request hidden in the body of one with `Transfer-Encoding: xchunked`
//    (an unknown coding): answered 501, the connection closed, the hidden
//    request never answered.
//
// The acceptance figure is "answered within 5 s"; the test prints
// the slowest answer but fails only on a wrong or missing one (the client
// gives up after 20 s), so a loaded or sanitised build does not flake.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/child_process.h"
#include "base/open_file_limit.h"
#include "bench/wire/rm_child.h"
#include "tests/support/http_get.h"

namespace spindle {
namespace {

using namespace std::chrono_literals;
using SteadyClock = std::chrono::steady_clock;

constexpr int kFloodSockets = 1500;
// Checks made after the flood is fully open, per phase.
constexpr int kChecksWhileHeld = 20;

// A blocking socket connected from `source` (any of 127/8) to
// 127.0.0.1:`port`; -1 if the connection fails. Connect and I/O give up
// after `timeout`.
int ConnectFrom(const std::string& source, uint16_t port, std::chrono::seconds timeout) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  timeval tv{static_cast<time_t>(timeout.count()), 0};
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  sockaddr_in local{};
  local.sin_family = AF_INET;
  inet_pton(AF_INET, source.c_str(), &local.sin_addr);
  sockaddr_in remote{};
  remote.sin_family = AF_INET;
  remote.sin_port = htons(port);
  inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0 ||
      ::connect(fd, reinterpret_cast<sockaddr*>(&remote), sizeof remote) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Idle sockets from `sources` (round robin), held open: a thread re-opens
// every one the server closes.
class IdleFlood {
 public:
  IdleFlood(uint16_t port, std::vector<std::string> sources)
      : port_(port), sources_(std::move(sources)), fds_(kFloodSockets, -1) {
    thread_ = std::thread([this] { Run(); });
  }
  ~IdleFlood() {
    stop_ = true;
    thread_.join();
    for (int fd : fds_) {
      if (fd >= 0) ::close(fd);
    }
  }

  // All kFloodSockets have been opened once.
  bool held() const { return held_.load(); }
  int64_t connects() const { return connects_.load(); }
  int64_t closed_by_server() const { return closed_by_server_.load(); }
  int64_t failed_connects() const { return failed_connects_.load(); }

 private:
  void Open(size_t i) {
    fds_[i] = ConnectFrom(sources_[i % sources_.size()], port_, 10s);
    (fds_[i] >= 0 ? connects_ : failed_connects_).fetch_add(1);
  }

  void Run() {
    for (size_t i = 0; i < fds_.size() && !stop_; ++i) Open(i);
    held_ = true;
    std::vector<pollfd> polled(fds_.size());
    while (!stop_) {
      for (size_t i = 0; i < fds_.size(); ++i) polled[i] = {fds_[i], POLLIN | POLLRDHUP, 0};
      // Never sending, a flood socket becomes readable only when the server
      // closes it (EOF or reset).
      if (::poll(polled.data(), polled.size(), 0) > 0) {
        for (size_t i = 0; i < fds_.size() && !stop_; ++i) {
          if (polled[i].revents == 0) continue;
          ::close(fds_[i]);
          fds_[i] = -1;
          closed_by_server_.fetch_add(1);
        }
      }
      for (size_t i = 0; i < fds_.size() && !stop_; ++i) {
        if (fds_[i] < 0) Open(i);
      }
      // The flood's pace: re-open what was closed five times a second.
      for (int slept = 0; slept < 20 && !stop_; ++slept) std::this_thread::sleep_for(10ms);
    }
  }

  const uint16_t port_;
  const std::vector<std::string> sources_;
  std::vector<int> fds_;  // the flood thread's
  std::atomic<bool> stop_{false};
  std::atomic<bool> held_{false};
  std::atomic<int64_t> connects_{0};
  std::atomic<int64_t> closed_by_server_{0};
  std::atomic<int64_t> failed_connects_{0};
  std::thread thread_;
};

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class HttpFloodTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // The flood's sockets are this process's descriptors.
    auto limit = RaiseOpenFileLimit("http_flood_test");
    if (!limit.ok() || (limit->after >= 0 && limit->after < kFloodSockets + 256)) {
      skip_reason_ = new std::string("the open-file limit is too low for " +
                                     std::to_string(kFloodSockets) + " sockets");
      return;
    }
    work_ = new std::string(::testing::TempDir() + "/http-flood-test-" + std::to_string(getpid()));
    std::filesystem::remove_all(*work_);
    std::filesystem::create_directories(*work_);
    bench::wire::WireOptions options;
    options.binary = SPINDLE_BINARY;
    options.timeout_seconds = 60;
    rm_ = new bench::wire::RmChild();
    start_status_ = new Status(rm_->Start(options, *work_));
  }
  static void TearDownTestSuite() {
    if (rm_ != nullptr) rm_->Stop();
    if (work_ != nullptr && !::testing::UnitTest::GetInstance()->Failed() &&
        std::getenv("SPINDLE_KEEP_TEST_DIRS") == nullptr) {
      std::filesystem::remove_all(*work_);
    }
    delete rm_;
    delete start_status_;
    delete work_;
    delete skip_reason_;
    rm_ = nullptr;
    start_status_ = nullptr;
    work_ = nullptr;
    skip_reason_ = nullptr;
  }
  void SetUp() override {
    if (skip_reason_ != nullptr) GTEST_SKIP() << *skip_reason_;
    ASSERT_TRUE(start_status_->ok()) << start_status_->ToString() << "\n" << ReadAll(rm_->log());
  }

  static uint16_t web_port() { return rm_->addresses().web.port; }
  static double RmRssMb() {
    auto usage = ReadProcessUsage(rm_->pid());
    return usage.ok() ? usage->rss_mb : -1;
  }

  // GET /ws/v1/cluster/info on a fresh connection from 127.0.0.1; "" if it
  // was answered 200 with the cluster info, else what went wrong.
  //
  // One retry, on a new connection, when the first was closed before any
  // answer (`*retried` says so): a connection that has sent nothing is idle
  // to the server, and the flood from the checker's own address opens a
  // burst of sockets every 200 ms, so a checker descheduled between its
  // connect and its write (a loaded machine) can be the address's oldest
  // idle connection and be displaced, as the limit means it to be. A
  // request the server had in hand is never displaced: the retry must
  // succeed.
  static std::string CheckClusterInfo(std::chrono::milliseconds* took, bool* retried = nullptr) {
    const auto start = SteadyClock::now();
    const auto get = [] {
      return testing::HttpGet("127.0.0.1", web_port(), "/ws/v1/cluster/info",
                              {{"Accept", "application/json"}});
    };
    auto answer = get();
    if (retried != nullptr) *retried = false;
    if (!answer.ok() && retried != nullptr &&
        (answer.status().message().rfind("read: ", 0) == 0 ||
         answer.status().message().rfind("write: ", 0) == 0)) {
      *retried = true;
      answer = get();
    }
    *took = std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - start);
    if (!answer.ok()) return answer.status().ToString();
    if (answer->status != 200) return "status " + std::to_string(answer->status);
    if (answer->body.find("\"clusterInfo\"") == std::string::npos) {
      return "no clusterInfo in " + answer->body.substr(0, 200);
    }
    return "";
  }

  // Holds a flood from `sources` and checks the cluster info throughout.
  void FloodAndCheck(const std::string& phase, const std::vector<std::string>& sources) {
    const double rss_before = RmRssMb();
    IdleFlood flood(web_port(), sources);
    int checks = 0;
    int checks_while_held = 0;
    int over_5s = 0;
    int retries = 0;
    std::chrono::milliseconds slowest{0};
    while (checks_while_held < kChecksWhileHeld) {
      const bool held = flood.held();
      std::chrono::milliseconds took{0};
      bool retried = false;
      const std::string failure = CheckClusterInfo(&took, &retried);
      ++checks;
      if (retried) ++retries;
      ASSERT_EQ(failure, "") << phase << ": check " << checks << " after " << flood.connects()
                             << " flood connections";
      slowest = std::max(slowest, took);
      if (took > 5s) ++over_5s;
      if (held) ++checks_while_held;
      // The checker's pace: a scrape every 100 ms.
      std::this_thread::sleep_for(100ms);
    }
    const double rss_during = RmRssMb();
    std::printf(
        "[ flood    ] %s: %d checks of /ws/v1/cluster/info all 200 (slowest %lld ms, %d over "
        "5 s, %d retried after a displacement) while %d idle sockets were held: %lld flood "
        "connections, %lld closed by the RM, %lld failed to connect; RM RSS %.1f MB before, "
        "%.1f MB during\n",
        phase.c_str(), checks, static_cast<long long>(slowest.count()), over_5s, retries,
        kFloodSockets, static_cast<long long>(flood.connects()),
        static_cast<long long>(flood.closed_by_server()),
        static_cast<long long>(flood.failed_connects()), rss_before, rss_during);
    // The flood did press on the limits: the RM had to close its sockets.
    EXPECT_GT(flood.closed_by_server(), 0) << phase;
  }

  static std::string* work_;
  static std::string* skip_reason_;
  static bench::wire::RmChild* rm_;
  static Status* start_status_;
};

std::string* HttpFloodTest::work_ = nullptr;
std::string* HttpFloodTest::skip_reason_ = nullptr;
bench::wire::RmChild* HttpFloodTest::rm_ = nullptr;
Status* HttpFloodTest::start_status_ = nullptr;

TEST_F(HttpFloodTest, ClusterInfoIsAnsweredOnAFreshConnectionWhile1500IdleSocketsAreHeld) {
  // The RM says what it did with its descriptor limit.
  EXPECT_NE(ReadAll(rm_->log()).find("open-file limit (RLIMIT_NOFILE)"), std::string::npos)
      << ReadAll(rm_->log());
  // One client, the checker's own address: the case.
  FloodAndCheck("flood from 127.0.0.1", {"127.0.0.1"});
  // Eight other addresses, each over its own limit and together over the
  // overall one.
  std::vector<std::string> many;
  for (int i = 2; i <= 9; ++i) many.push_back("127.0.0." + std::to_string(i));
  FloodAndCheck("flood from 127.0.0.2-9", many);
  std::chrono::milliseconds took{0};
  EXPECT_EQ(CheckClusterInfo(&took), "") << "after the floods";
  EXPECT_FALSE(rm_->Exited());
}

// Everything the server sends on one connection until it closes it (or 20 s
// pass: then `*closed` is false).
std::string Exchange(uint16_t port, const std::string& bytes, bool* closed) {
  const int fd = ConnectFrom("127.0.0.1", port, 20s);
  *closed = false;
  if (fd < 0) return "";
  std::string wire;
  if (::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size())) {
    char chunk[4096];
    while (true) {
      const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
      if (n > 0) {
        wire.append(chunk, static_cast<size_t>(n));
        continue;
      }
      // EOF, or a reset after the whole response was read.
      *closed = n == 0 || errno == ECONNRESET;
      break;
    }
  }
  ::close(fd);
  return wire;
}

TEST_F(HttpFloodTest, ARequestHiddenBehindAnUnknownTransferCodingIsNeverAnswered) {
  const std::string hidden =
      "GET /ws/v1/cluster/info HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n\r\n";
  for (const std::string& codings :
       {std::string("xchunked"), std::string("chunked, xchunked"), std::string("gzip, chunked")}) {
    SCOPED_TRACE(codings);
    bool closed = false;
    const std::string wire = Exchange(web_port(),
                                      "POST /ws/v1/cluster/apps HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                      "Transfer-Encoding: " +
                                          codings + "\r\n\r\n" + hidden,
                                      &closed);
    EXPECT_EQ(wire.rfind("HTTP/1.1 501 Not Implemented\r\n", 0), 0u) << wire;
    EXPECT_TRUE(closed) << wire;
    // One response only: the hidden request was never answered.
    EXPECT_EQ(wire.find("HTTP/1.1 ", 1), std::string::npos) << wire;
    EXPECT_EQ(wire.find("clusterInfo"), std::string::npos) << wire;
  }
  // The existing 400 stays: both framings at once.
  bool closed = false;
  const std::string both = Exchange(web_port(),
                                    "POST /ws/v1/cluster/apps HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                    "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
                                    "0\r\n\r\n" +
                                        hidden,
                                    &closed);
  EXPECT_EQ(both.rfind("HTTP/1.1 400 ", 0), 0u) << both;
  EXPECT_TRUE(closed);
  EXPECT_EQ(both.find("HTTP/1.1 ", 1), std::string::npos) << both;
}

}  // namespace
}  // namespace spindle
