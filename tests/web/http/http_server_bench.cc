// Throughput of HttpServer with a trivial handler, measured by a small
// client loop (no wrk on the build machines): C client threads, each on its
// own connection, send R requests and read each response. With --close each
// request opens a new connection (Connection: close).
//
//   http_server_bench [--connections=C] [--requests=R] [--workers=W] [--close]
//
// Not a test: it prints figures and asserts nothing about time.
#include <algorithm>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "web/http/http_server.h"

namespace asio = boost::asio;
namespace http = boost::beast::http;
using asio::ip::tcp;

int main(int argc, char** argv) {
  int connections = 8;
  int requests = 20000;
  int workers = 4;
  bool close = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--connections=", 0) == 0) connections = std::atoi(arg.c_str() + 14);
    if (arg.rfind("--requests=", 0) == 0) requests = std::atoi(arg.c_str() + 11);
    if (arg.rfind("--workers=", 0) == 0) workers = std::atoi(arg.c_str() + 10);
    if (arg == "--close") close = true;
  }
  spindle::web::HttpServerOptions options;
  options.worker_threads = workers;
  options.max_connections = connections + 16;
  spindle::web::HttpServer server(options, [](const spindle::web::HttpRequest&) {
    return spindle::web::HttpResponse::Text(200, "ok\n");
  });
  if (!server.Start().ok()) return 1;
  const tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), server.port());
  const std::string request = std::string("GET /ping HTTP/1.1\r\nHost: bench\r\n") +
                              (close ? "Connection: close\r\n" : "") + "\r\n";
  std::vector<std::thread> clients;
  std::vector<int> failures(connections, 0);
  std::vector<std::vector<double>> latencies(connections);
  const auto start = std::chrono::steady_clock::now();
  for (int c = 0; c < connections; ++c) {
    clients.emplace_back([&, c] {
      asio::io_context io;
      tcp::socket socket(io);
      boost::beast::flat_buffer buffer;
      latencies[c].reserve(requests);
      for (int r = 0; r < requests; ++r) {
        boost::system::error_code ec;
        const auto t0 = std::chrono::steady_clock::now();
        if (!socket.is_open()) {
          socket.connect(endpoint, ec);
          buffer.clear();
          if (ec) {
            ++failures[c];
            socket.close(ec);
            continue;
          }
        }
        asio::write(socket, asio::buffer(request), ec);
        http::response<http::string_body> response;
        if (!ec) http::read(socket, buffer, response, ec);
        if (ec || response.result_int() != 200) ++failures[c];
        if (ec || close) socket.close(ec);
        latencies[c].push_back(
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0)
                .count());
      }
    });
  }
  for (auto& t : clients) t.join();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  server.Stop();
  std::vector<double> all;
  int failed = 0;
  for (int c = 0; c < connections; ++c) {
    all.insert(all.end(), latencies[c].begin(), latencies[c].end());
    failed += failures[c];
  }
  std::sort(all.begin(), all.end());
  const double total = static_cast<double>(connections) * requests;
  std::printf(
      "%s: %d connections x %d requests, %d handler threads: %.0f req/s, p50 %.0f us, "
      "p99 %.0f us, %d failed, %lld served\n",
      close ? "connection per request" : "keep-alive", connections, requests, workers,
      total / seconds, all[all.size() / 2], all[all.size() * 99 / 100], failed,
      static_cast<long long>(server.counters().requests_served));
  return failed == 0 ? 0 : 1;
}
