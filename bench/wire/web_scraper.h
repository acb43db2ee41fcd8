// WebScraper: what dashboards and scripts do to an RM's HTTP port while it
// schedules: N threads, each on one keep-alive connection, GET the REST
// API's lists and the metrics endpoints in a loop (/ws/v1/cluster/apps,
// /ws/v1/cluster/nodes, /ws/v1/cluster/metrics, /ws/v1/cluster/scheduler,
// /jmx, /metrics), as fast as answers come. `spindle bench wire
// --web-scrapers N` runs it over the measured window, so the RPC figures
// show what the web side costs them.
//
// Thread contract: Start() and Stop() from one controlling thread; the
// counters from any.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "base/mutex.h"
#include "scheduler_pool/metrics.h"

namespace spindle::bench::wire {

class WebScraper {
 public:
  WebScraper(std::string host, uint16_t port, int threads);
  ~WebScraper();  // Stop()
  WebScraper(const WebScraper&) = delete;
  WebScraper& operator=(const WebScraper&) = delete;

  void Start();
  // Joins the threads (each finishes its request in flight). Idempotent.
  void Stop();

  int64_t requests() const { return requests_.load(); }
  // Transport failures and answers other than 200.
  int64_t errors() const { return errors_.load(); }
  int64_t bytes() const { return bytes_.load(); }
  // Request to full answer, every request so far.
  pool::LatencyHistogram latency() const;

 private:
  void Loop();

  const std::string host_;
  const uint16_t port_;
  const int threads_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> requests_{0};
  std::atomic<int64_t> errors_{0};
  std::atomic<int64_t> bytes_{0};
  mutable Mutex mu_;
  pool::LatencyHistogram latency_ GUARDED_BY(mu_);
  std::vector<std::thread> workers_;
};

}  // namespace spindle::bench::wire
