#include "bench/wire/wire_report.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace spindle::bench::wire {

namespace {

double Ms(Duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

// JSON string escaping for the error texts.
std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string Json(const LatencySummary& l) {
  std::ostringstream out;
  out << "{\"count\":" << l.count << ",\"p50_ms\":" << l.p50_ms << ",\"p99_ms\":" << l.p99_ms
      << ",\"max_ms\":" << l.max_ms << "}";
  return out.str();
}

std::string Json(const std::map<std::string, int64_t>& counts) {
  std::string out = "{";
  for (const auto& [key, count] : counts) {
    if (out.size() > 1) out += ",";
    out += Quote(key) + ":" + std::to_string(count);
  }
  return out + "}";
}

}  // namespace

LatencySummary LatencySummary::Of(const pool::LatencyHistogram& h) {
  LatencySummary s;
  s.count = h.count();
  s.p50_ms = Ms(h.Percentile(0.50));
  s.p99_ms = Ms(h.Percentile(0.99));
  s.max_ms = Ms(h.max());
  return s;
}

Status CheckBookkeeping(const WireOptions& options, const WireResult& r) {
  std::ostringstream problems;
  auto expect = [&problems](bool ok, const std::string& what) {
    if (!ok) problems << what << "; ";
  };
  auto n = [](int64_t v) { return std::to_string(v); };
  expect(r.apps_submitted > 0, "no application was submitted");
  expect(r.apps_registered == r.apps_submitted,
         n(r.apps_registered) + " of " + n(r.apps_submitted) + " AMs registered");
  expect(r.apps_unregistered == r.apps_submitted,
         n(r.apps_unregistered) + " of " + n(r.apps_submitted) + " AMs unregistered");
  expect(r.apps_failed == 0, n(r.apps_failed) + " AMs failed");
  expect(r.apps_finished == r.apps_submitted && r.apps_not_finished == 0,
         n(r.apps_finished) + " of " + n(r.apps_submitted) + " applications FINISHED/SUCCEEDED (" +
             n(r.apps_not_finished) + " not)");
  expect(r.containers_allocated == r.apps_unregistered * options.containers_per_app,
         n(r.containers_allocated) + " containers kept, expected " +
             n(r.apps_unregistered * options.containers_per_app));
  expect(r.containers_released == r.containers_allocated + r.containers_excess,
         n(r.containers_released) + " released, " + n(r.containers_allocated) + " kept + " +
             n(r.containers_excess) + " excess");
  const FailoverResult& f = r.failover;
  expect(r.containers_completed + f.containers_unconfirmed == r.containers_released,
         n(r.containers_completed) + " reported completed (+ " + n(f.containers_unconfirmed) +
             " unconfirmed after a failover) of " + n(r.containers_released) + " released");
  if (f.ran) {
    expect(f.failover_seconds >= 0, "no allocate was answered after the active RM was killed");
    expect(f.apps_lost == 0, n(f.apps_lost) + " acknowledged applications lost");
    expect(f.app_ids_reused == 0, n(f.app_ids_reused) + " application ids handed out twice");
  }
  expect(r.containers_outstanding == 0, n(r.containers_outstanding) + " containers outstanding");
  expect(r.containers_duplicated == 0, n(r.containers_duplicated) + " containers allocated twice");
  expect(r.unexpected_completions == 0,
         n(r.unexpected_completions) + " completions of containers not released");
  expect(r.heartbeat_errors == 0, n(r.heartbeat_errors) + " failed ResourceTracker calls");
  expect(f.containers_redelivered == 0 || f.ran,
         n(f.containers_redelivered) + " containers delivered again");
  if (options.web_scrapers > 0) {
    expect(r.web.count > 0, "the web scrapers got no answer");
    expect(r.web_errors == 0, n(r.web_errors) + " web requests failed or were not 200");
  }
  for (const auto& [what, count] : r.rpc_errors) expect(false, n(count) + " x " + what);
  for (const auto& [why, count] : r.am_failures) expect(false, n(count) + " AMs failed: " + why);
  if (problems.str().empty()) return Status::OK();
  return Status::Aborted("bookkeeping: " + problems.str());
}

double HeartbeatsOfferedPerSecond(const WireOptions& o) {
  return o.heartbeat_ms > 0
             ? static_cast<double>(o.nodes) * 1000.0 / static_cast<double>(o.heartbeat_ms)
             : 0.0;
}

void PrintWireResult(const WireOptions& o, const WireResult& r) {
  std::printf(
      "spindle bench wire: %s; %lld simulated NMs (%lld MB, %lld vcores) heartbeating every "
      "%lld ms; %lld concurrent %s AMs x %lld containers of %lld MB held %lld ms, allocate every "
      "%lld ms; %.1f s measured after a %lld s warm-up\n",
      r.target.c_str(), static_cast<long long>(o.nodes), static_cast<long long>(o.node_memory_mb),
      static_cast<long long>(o.node_vcores), static_cast<long long>(o.heartbeat_ms),
      static_cast<long long>(o.apps), o.unmanaged ? "unmanaged" : "managed",
      static_cast<long long>(o.containers_per_app), static_cast<long long>(o.memory_mb),
      static_cast<long long>(o.container_ms), static_cast<long long>(o.allocate_ms),
      r.window_seconds, static_cast<long long>(o.warmup_seconds));
  std::printf("%-34s %14s %14s\n", "rate", "measured/s", "target/s");
  std::printf("%-34s %14.0f %14s   (%.2fx target; Hadoop's ceiling %.0f/s = %.2fx)\n",
              "containers allocated", r.containers_per_second, ">= 40000",
              r.containers_per_second / 40000.0, r.hadoop_ceiling_per_second,
              r.hadoop_ceiling_per_second > 0
                  ? r.containers_per_second / r.hadoop_ceiling_per_second
                  : 0.0);
  // Answered heartbeats, against the most the nodes can offer: each waits
  // the interval after its answer, so the offer is reached only at zero
  // latency.
  const double offered = HeartbeatsOfferedPerSecond(o);
  std::printf(
      "%-34s %14.0f %14s   (%.2fx target; answered, of at most %lld nodes x 1000 / %lld ms = "
      "%.0f/s offered: %.0f%%)\n",
      "node heartbeats", r.heartbeats_per_second, ">= 20000", r.heartbeats_per_second / 20000.0,
      static_cast<long long>(o.nodes), static_cast<long long>(o.heartbeat_ms), offered,
      offered > 0 ? 100.0 * r.heartbeats_per_second / offered : 0.0);
  std::printf("%-34s %14.0f\n", "allocate calls", r.allocate_calls_per_second);
  std::printf("%-34s %10s %10s %10s %10s\n", "latency (ms)", "count", "p50", "p99", "max");
  for (const auto& [name, l] :
       {std::pair{"allocate RPC", &r.allocate}, std::pair{"nodeHeartbeat RPC", &r.heartbeat},
        std::pair{"registerApplicationMaster RPC", &r.am_register},
        std::pair{"AM launch (submit -> registered)", &r.am_launch},
        std::pair{"first container (ask -> container)", &r.first_container}}) {
    std::printf("%-34s %10lld %10.2f %10.2f %10.2f\n", name, static_cast<long long>(l->count),
                l->p50_ms, l->p99_ms, l->max_ms);
  }
  if (o.web_scrapers > 0) {
    std::printf(
        "web scrapers: %lld threads, %.0f GET/s (REST lists, /jmx, /metrics), p50 %.2f ms, p99 "
        "%.2f ms, max %.2f ms, %lld errors\n",
        static_cast<long long>(o.web_scrapers), r.web_requests_per_second, r.web.p50_ms,
        r.web.p99_ms, r.web.max_ms, static_cast<long long>(r.web_errors));
  }
  if (r.rm_rss_mb > 0) {
    std::printf("RM process: cpu %.0f%% of one core, rss %.0f MB (peak %.0f MB)\n",
                r.rm_cpu_percent, r.rm_rss_mb, r.rm_peak_rss_mb);
  } else {
    std::printf("RM process: unknown (give --rm-pid)\n");
  }
  std::printf("generator: cpu %.0f%% of one core, rss %.0f MB; nodes registered in %.2f s\n",
              r.generator_cpu_percent, r.generator_rss_mb, r.register_seconds);
  std::printf(
      "bookkeeping: apps submitted %lld, registered %lld, unregistered %lld, failed %lld, "
      "FINISHED %lld, not finished %lld; containers kept %lld, excess %lld, released %lld, "
      "completed %lld, duplicated %lld, stray completions %lld, outstanding %lld; RPC errors "
      "%zu kinds, heartbeat errors %lld; register retries (attempt not yet LAUNCHED) %lld, launch "
      "waits %lld\n",
      static_cast<long long>(r.apps_submitted), static_cast<long long>(r.apps_registered),
      static_cast<long long>(r.apps_unregistered), static_cast<long long>(r.apps_failed),
      static_cast<long long>(r.apps_finished), static_cast<long long>(r.apps_not_finished),
      static_cast<long long>(r.containers_allocated), static_cast<long long>(r.containers_excess),
      static_cast<long long>(r.containers_released), static_cast<long long>(r.containers_completed),
      static_cast<long long>(r.containers_duplicated),
      static_cast<long long>(r.unexpected_completions),
      static_cast<long long>(r.containers_outstanding), r.rpc_errors.size(),
      static_cast<long long>(r.heartbeat_errors), static_cast<long long>(r.register_retries),
      static_cast<long long>(r.launch_waits));
  for (const auto& [what, count] : r.rpc_errors) {
    std::printf("  rpc error x %lld: %s\n", static_cast<long long>(count), what.c_str());
  }
  for (const auto& [why, count] : r.am_failures) {
    std::printf("  AM failure x %lld: %s\n", static_cast<long long>(count), why.c_str());
  }
  const FailoverResult& f = r.failover;
  if (!f.ran) return;
  std::printf(
      "failover: %s SIGKILLed %.1f s into the run; first allocate answered by the new active "
      "(%s) %.3f s after the kill (zk-timeout-ms %lld: goal <= %.1f s); containers/s %.0f before "
      "the kill, %.0f after the first allocate; apps lost %lld; containers allocated twice %lld "
      "(delivered again after a resync %lld, released unconfirmed %lld); application ids "
      "handed out twice %lld (cluster timestamps %lld); AM resyncs %lld, finishes unanswered "
      "%lld, client failovers %lld, node heartbeats failed meanwhile %lld\n",
      f.killed.c_str(), f.kill_at_seconds, f.serving.c_str(), f.failover_seconds,
      static_cast<long long>(f.zk_timeout_ms), static_cast<double>(f.zk_timeout_ms) / 1000.0 + 1.0,
      f.containers_per_second_before, f.containers_per_second_after,
      static_cast<long long>(f.apps_lost), static_cast<long long>(r.containers_duplicated),
      static_cast<long long>(f.containers_redelivered),
      static_cast<long long>(f.containers_unconfirmed), static_cast<long long>(f.app_ids_reused),
      static_cast<long long>(f.cluster_timestamps), static_cast<long long>(f.am_resyncs),
      static_cast<long long>(f.finishes_unanswered), static_cast<long long>(f.client_failovers),
      static_cast<long long>(f.heartbeat_errors));
}

Status WriteWireJson(const std::string& path, const WireOptions& o, const WireResult& r) {
  std::ofstream out(path);
  out << "{\"bench\":\"wire\",\"target\":" << Quote(r.target) << ",\"nodes\":" << o.nodes
      << ",\"heartbeat_ms\":" << o.heartbeat_ms << ",\"apps\":" << o.apps
      << ",\"containers_per_app\":" << o.containers_per_app
      << ",\"container_ms\":" << o.container_ms << ",\"memory_mb\":" << o.memory_mb
      << ",\"allocate_ms\":" << o.allocate_ms
      << ",\"unmanaged\":" << (o.unmanaged ? "true" : "false")
      << ",\"window_seconds\":" << r.window_seconds
      << ",\"register_seconds\":" << r.register_seconds
      << ",\"containers_per_second\":" << r.containers_per_second
      << ",\"target_containers_per_second\":40000"
      << ",\"hadoop_ceiling_per_second\":" << r.hadoop_ceiling_per_second
      << ",\"heartbeats_per_second\":" << r.heartbeats_per_second
      << ",\"target_heartbeats_per_second\":20000"
      << ",\"heartbeats_offered_per_second\":" << HeartbeatsOfferedPerSecond(o)
      << ",\"allocate_calls_per_second\":" << r.allocate_calls_per_second
      << ",\"allocate_latency\":" << Json(r.allocate)
      << ",\"heartbeat_latency\":" << Json(r.heartbeat)
      << ",\"am_register_latency\":" << Json(r.am_register)
      << ",\"am_launch_latency\":" << Json(r.am_launch)
      << ",\"first_container_latency\":" << Json(r.first_container)
      << ",\"rm_cpu_percent\":" << r.rm_cpu_percent << ",\"rm_rss_mb\":" << r.rm_rss_mb
      << ",\"rm_peak_rss_mb\":" << r.rm_peak_rss_mb
      << ",\"generator_cpu_percent\":" << r.generator_cpu_percent
      << ",\"generator_rss_mb\":" << r.generator_rss_mb
      << ",\"apps_submitted\":" << r.apps_submitted << ",\"apps_registered\":" << r.apps_registered
      << ",\"apps_unregistered\":" << r.apps_unregistered << ",\"apps_failed\":" << r.apps_failed
      << ",\"apps_finished\":" << r.apps_finished
      << ",\"apps_not_finished\":" << r.apps_not_finished
      << ",\"containers_allocated\":" << r.containers_allocated
      << ",\"containers_excess\":" << r.containers_excess
      << ",\"containers_released\":" << r.containers_released
      << ",\"containers_completed\":" << r.containers_completed
      << ",\"containers_duplicated\":" << r.containers_duplicated
      << ",\"unexpected_completions\":" << r.unexpected_completions
      << ",\"containers_outstanding\":" << r.containers_outstanding
      << ",\"heartbeat_errors\":" << r.heartbeat_errors << ",\"web_scrapers\":" << o.web_scrapers
      << ",\"web_requests_per_second\":" << r.web_requests_per_second
      << ",\"web_p50_ms\":" << r.web.p50_ms << ",\"web_p99_ms\":" << r.web.p99_ms
      << ",\"web_errors\":" << r.web_errors << ",\"register_retries\":" << r.register_retries
      << ",\"launch_waits\":" << r.launch_waits << ",\"rpc_errors\":" << Json(r.rpc_errors)
      << ",\"am_failures\":" << Json(r.am_failures);
  if (r.failover.ran) {
    const FailoverResult& f = r.failover;
    out << ",\"failover\":{\"killed\":" << Quote(f.killed) << ",\"serving\":" << Quote(f.serving)
        << ",\"kill_at_seconds\":" << f.kill_at_seconds
        << ",\"failover_seconds\":" << f.failover_seconds
        << ",\"zk_timeout_ms\":" << f.zk_timeout_ms
        << ",\"containers_per_second_before\":" << f.containers_per_second_before
        << ",\"containers_per_second_after\":" << f.containers_per_second_after
        << ",\"apps_lost\":" << f.apps_lost << ",\"app_ids_reused\":" << f.app_ids_reused
        << ",\"cluster_timestamps\":" << f.cluster_timestamps << ",\"am_resyncs\":" << f.am_resyncs
        << ",\"finishes_unanswered\":" << f.finishes_unanswered
        << ",\"client_failovers\":" << f.client_failovers
        << ",\"containers_redelivered\":" << f.containers_redelivered
        << ",\"containers_unconfirmed\":" << f.containers_unconfirmed
        << ",\"heartbeat_errors\":" << f.heartbeat_errors << "}";
  }
  out << "}\n";
  out.close();
  if (!out) return Status::IoError("cannot write " + path);
  return Status::OK();
}

}  // namespace spindle::bench::wire
