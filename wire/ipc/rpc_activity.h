// RpcActivityCounters: what an RpcServer counts for Hadoop's
// RpcActivityForPort<port> bean (RpcMetrics.java): bytes in and out, call
// queue and processing times, authentication and authorization outcomes,
// open connections and queued calls. RpcActivity is a snapshot of them.
//
// The counters sit on the call path, so they are relaxed atomics: a snapshot
// is not a consistent cut (a call may be counted in NumOps but not yet in
// its time sum), which is fine for monitoring.
//
// What each counter means here:
//  - received/sent bytes: every byte read from / written to the sockets
//    (preambles, SASL and calls alike), as Hadoop counts them;
//  - queue time: from the call being decoded on the I/O thread to a worker
//    picking it up; processing time: the worker's run of the handler (for
//    handlers that answer later, e.g. parked calls, the time until they
//    return, not until they answer);
//  - authentication success: a TOKEN (DIGEST-MD5) negotiation completed;
//    failure: a connection refused during the preamble or SASL (Hadoop does
//    not count SIMPLE connections either way);
//  - authorization success/failure: the connection context accepted or
//    refused (user mismatch, no user), as Hadoop's authorizeConnection;
//  - open connections: accepted and not yet closed;
//  - dropped connections: closed at accept because a connection limit was
//    reached (Hadoop 3.3's NumDroppedConnections; connection_table.h);
//  - call queue length: calls waiting for a worker (not those running).
//
// Thread-safety: all members are atomics; any thread.
#pragma once

#include <atomic>
#include <cstdint>

namespace spindle::ipc {

struct RpcActivity {
  int64_t received_bytes = 0;
  int64_t sent_bytes = 0;
  int64_t queue_time_num_ops = 0;
  int64_t queue_time_sum_micros = 0;
  int64_t processing_time_num_ops = 0;
  int64_t processing_time_sum_micros = 0;
  int64_t authentication_failures = 0;
  int64_t authentication_successes = 0;
  int64_t authorization_failures = 0;
  int64_t authorization_successes = 0;
  int64_t open_connections = 0;
  int64_t call_queue_length = 0;
  int64_t calls_refused_busy = 0;  // answered RetriableException (queue full)
  int64_t dropped_connections = 0;

  // Hadoop's *AvgTime: mean milliseconds (0 without calls).
  double queue_time_avg_ms() const {
    return queue_time_num_ops == 0 ? 0
                                   : static_cast<double>(queue_time_sum_micros) / 1000.0 /
                                         static_cast<double>(queue_time_num_ops);
  }
  double processing_time_avg_ms() const {
    return processing_time_num_ops == 0 ? 0
                                        : static_cast<double>(processing_time_sum_micros) / 1000.0 /
                                              static_cast<double>(processing_time_num_ops);
  }
};

struct RpcActivityCounters {
  std::atomic<int64_t> received_bytes{0};
  std::atomic<int64_t> sent_bytes{0};
  std::atomic<int64_t> queue_time_num_ops{0};
  std::atomic<int64_t> queue_time_sum_micros{0};
  std::atomic<int64_t> processing_time_num_ops{0};
  std::atomic<int64_t> processing_time_sum_micros{0};
  std::atomic<int64_t> authentication_failures{0};
  std::atomic<int64_t> authentication_successes{0};
  std::atomic<int64_t> authorization_failures{0};
  std::atomic<int64_t> authorization_successes{0};
  std::atomic<int64_t> open_connections{0};
  std::atomic<int64_t> call_queue_length{0};
  std::atomic<int64_t> calls_refused_busy{0};
  std::atomic<int64_t> dropped_connections{0};

  static void Add(std::atomic<int64_t>& counter, int64_t n) {
    counter.fetch_add(n, std::memory_order_relaxed);
  }

  RpcActivity Snapshot() const {
    auto get = [](const std::atomic<int64_t>& c) { return c.load(std::memory_order_relaxed); };
    RpcActivity a;
    a.received_bytes = get(received_bytes);
    a.sent_bytes = get(sent_bytes);
    a.queue_time_num_ops = get(queue_time_num_ops);
    a.queue_time_sum_micros = get(queue_time_sum_micros);
    a.processing_time_num_ops = get(processing_time_num_ops);
    a.processing_time_sum_micros = get(processing_time_sum_micros);
    a.authentication_failures = get(authentication_failures);
    a.authentication_successes = get(authentication_successes);
    a.authorization_failures = get(authorization_failures);
    a.authorization_successes = get(authorization_successes);
    a.open_connections = get(open_connections);
    a.call_queue_length = get(call_queue_length);
    a.calls_refused_busy = get(calls_refused_busy);
    a.dropped_connections = get(dropped_connections);
    return a;
  }
};

}  // namespace spindle::ipc
