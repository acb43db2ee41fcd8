// /metrics in the Prometheus text exposition format 0.0.4.
//
// Hadoop-derived figures (every bean with a metrics2 record, rm_beans.h) are
// named as Hadoop 3.3's PrometheusMetricsSink names them: record name and
// attribute, CamelCase split into lower_snake_case
// ("ClusterMetrics"+"NumActiveNMs" -> cluster_metrics_num_active_n_ms,
// "rpc"+"RpcQueueTimeNumOps" -> rpc_rpc_queue_time_num_ops), with the bean's
// tags as labels (names lowercased: queue="root.default", port="8032").
//
// Spindle's own: the scheduler pool per scheduler (label scheduler="<n>"):
//   spindle_scheduler_{steps,placements,conflicts,transactions,
//     partition_syncs,full_syncs,placements_with_preference,
//     placements_preferred}_total, spindle_scheduler_busy_seconds_total,
//   spindle_scheduler_quality (preferred / with preference),
//   spindle_scheduler_staleness_{mean,max}_seconds, spindle_scheduler_backlog,
//   spindle_scheduler_active_strategy{strategy=".."} 1,
//   spindle_scheduler_delay_seconds (histogram, ask to commit);
// the pool: spindle_pool_{capacity,allocated}_{memory_mb,vcores},
// spindle_pool_utilisation; the process (Prometheus' standard names):
// process_cpu_seconds_total, process_{resident,virtual}_memory_bytes,
// process_start_time_seconds, process_open_fds, process_max_fds,
// process_threads.
//
// The delay histogram's le bounds are 2^k - 1 ns for k = 10..36 (about
// 1 us to 68.7 s), written in seconds, then +Inf. LatencyHistogram's buckets
// start at powers of two, so "samples <= 2^k - 1 ns" (= "< 2^k ns", samples
// being whole ns) is exact for each bound; _sum is the exact sum.
//
// Thread-safety: pure functions of their arguments.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "scheduler_pool/scheduler_pool.h"
#include "web/http/http_message.h"
#include "web/metrics/process_stats.h"
#include "web/metrics/rm_beans.h"

namespace spindle::web {

// Hadoop's PrometheusMetricsSink.prometheusName.
std::string PrometheusName(std::string_view record, std::string_view metric);

// The histogram's bounds in ns (2^k - 1, k = 10..36), ascending.
std::vector<uint64_t> DelayBucketBoundsNanos();

// The exposition text. `pool` and `process` may be null (left out).
std::string RenderPrometheus(const std::vector<Bean>& beans, const pool::PoolMetrics* pool,
                             const ProcessStats* process);

// 200, Content-Type "text/plain; version=0.0.4; charset=utf-8".
HttpResponse PrometheusResponse(std::string text);

}  // namespace spindle::web
