#include "bench/wire/web_scraper.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>

namespace spindle::bench::wire {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

constexpr const char* kPaths[] = {
    "/ws/v1/cluster/apps",
    "/ws/v1/cluster/nodes",
    "/ws/v1/cluster/metrics",
    "/ws/v1/cluster/scheduler",
    "/jmx",
    "/metrics",
};

}  // namespace

WebScraper::WebScraper(std::string host, uint16_t port, int threads)
    : host_(std::move(host)), port_(port), threads_(threads) {}

WebScraper::~WebScraper() { Stop(); }

void WebScraper::Start() {
  for (int i = 0; i < threads_; ++i) workers_.emplace_back([this] { Loop(); });
}

void WebScraper::Stop() {
  stop_ = true;
  for (auto& worker : workers_) worker.join();
  workers_.clear();
}

pool::LatencyHistogram WebScraper::latency() const {
  MutexLock lock(&mu_);
  return latency_;
}

void WebScraper::Loop() {
  asio::io_context io;
  size_t next = 0;
  while (!stop_.load()) {
    // One keep-alive connection until it fails; then a new one.
    beast::tcp_stream stream(io);
    beast::error_code ec;
    stream.connect(asio::ip::tcp::endpoint(asio::ip::make_address(host_, ec), port_), ec);
    if (ec) {
      ++errors_;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      continue;
    }
    beast::flat_buffer buffer;
    while (!stop_.load()) {
      http::request<http::empty_body> request(http::verb::get, kPaths[next++ % std::size(kPaths)],
                                              11);
      request.set(http::field::host, host_);
      request.set(http::field::accept, "application/json");
      const auto start = std::chrono::steady_clock::now();
      http::write(stream, request, ec);
      http::response<http::string_body> response;
      if (!ec) http::read(stream, buffer, response, ec);
      const auto took = std::chrono::steady_clock::now() - start;
      if (ec) {
        ++errors_;
        break;
      }
      ++requests_;
      bytes_ += static_cast<int64_t>(response.body().size());
      if (response.result_int() != 200) ++errors_;
      {
        MutexLock lock(&mu_);
        latency_.Record(std::chrono::duration_cast<Duration>(took));
      }
      if (!response.keep_alive()) break;
    }
  }
}

}  // namespace spindle::bench::wire
