// /metrics: a small Prometheus 0.0.4 format checker run over the RM's real
// output, Hadoop's PrometheusMetricsSink names, label escaping, and the
// scheduling delay histogram's exact cumulative buckets.
#include "web/metrics/prometheus.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "tests/web/metrics/metrics_fixture.h"
#include "web/metrics/metrics_routes.h"

namespace spindle::web {
namespace {

struct Sample {
  std::string name;
  std::map<std::string, std::string> labels;
  double value = 0;
};

// Parses `text` strictly; returns "" when it is well-formed, else what is wrong.
std::string CheckExposition(const std::string& text, std::vector<Sample>* samples) {
  std::map<std::string, std::string> types;
  std::set<std::string> finished;  // families whose samples are over
  std::string current;
  std::istringstream in(text);
  int line_no = 0;
  auto family_of = [&](const std::string& name) {
    for (const char* suffix : {"_bucket", "_sum", "_count"}) {
      const std::string s = suffix;
      if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
        const std::string base = name.substr(0, name.size() - s.size());
        auto it = types.find(base);
        if (it != types.end() && it->second == "histogram") return base;
      }
    }
    return name;
  };
  auto valid_name = [](const std::string& n) {
    if (n.empty() || std::isdigit(static_cast<unsigned char>(n[0]))) return false;
    for (char c : n) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != ':') return false;
    }
    return true;
  };
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    const std::string where = "line " + std::to_string(line_no) + ": " + line;
    if (line.empty()) return "empty line: " + where;
    if (line.rfind("# HELP ", 0) == 0) continue;
    if (line.rfind("# TYPE ", 0) == 0) {
      std::istringstream t(line.substr(7));
      std::string name, type;
      t >> name >> type;
      if (!valid_name(name)) return "bad TYPE name: " + where;
      static const std::set<std::string> kTypes{"counter", "gauge", "histogram", "summary",
                                                "untyped"};
      if (kTypes.count(type) == 0) return "bad type: " + where;
      if (types.count(name) != 0) return "TYPE twice: " + where;
      types[name] = type;
      continue;
    }
    if (line[0] == '#') return "unknown comment: " + where;
    Sample s;
    size_t i = 0;
    while (i < line.size() && line[i] != '{' && line[i] != ' ') ++i;
    s.name = line.substr(0, i);
    if (!valid_name(s.name)) return "bad metric name: " + where;
    if (i < line.size() && line[i] == '{') {
      ++i;
      while (i < line.size() && line[i] != '}') {
        size_t eq = line.find('=', i);
        if (eq == std::string::npos) return "label without '=': " + where;
        const std::string label = line.substr(i, eq - i);
        if (!valid_name(label)) return "bad label name: " + where;
        if (eq + 1 >= line.size() || line[eq + 1] != '"') return "unquoted label: " + where;
        std::string value;
        size_t j = eq + 2;
        for (; j < line.size() && line[j] != '"'; ++j) {
          if (line[j] == '\\') {
            ++j;
            if (j >= line.size()) return "dangling escape: " + where;
            if (line[j] == 'n') {
              value += '\n';
            } else if (line[j] == '\\' || line[j] == '"') {
              value += line[j];
            } else {
              return "bad escape: " + where;
            }
          } else {
            value += line[j];
          }
        }
        if (j >= line.size()) return "unterminated label value: " + where;
        if (s.labels.count(label) != 0) return "label twice: " + where;
        s.labels[label] = value;
        i = j + 1;
        if (i < line.size() && line[i] == ',') ++i;
      }
      if (i >= line.size()) return "unterminated labels: " + where;
      ++i;
    }
    if (i >= line.size() || line[i] != ' ') return "no value: " + where;
    const std::string value = line.substr(i + 1);
    if (value == "+Inf") {
      s.value = INFINITY;
    } else if (value == "-Inf") {
      s.value = -INFINITY;
    } else if (value == "NaN") {
      s.value = NAN;
    } else {
      char* end = nullptr;
      s.value = std::strtod(value.c_str(), &end);
      if (end == value.c_str() || *end != '\0') return "bad value: " + where;
    }
    const std::string family = family_of(s.name);
    if (types.count(family) == 0) return "sample without TYPE: " + where;
    if (family != current) {
      if (finished.count(family) != 0) return "family not contiguous: " + where;
      if (!current.empty()) finished.insert(current);
      current = family;
    }
    samples->push_back(std::move(s));
  }
  // Histograms: per label set, le ascending, cumulative, ending in +Inf,
  // _count equal to the +Inf bucket.
  for (const auto& [family, type] : types) {
    if (type != "histogram") continue;
    std::map<std::map<std::string, std::string>, std::vector<std::pair<double, double>>> buckets;
    std::map<std::map<std::string, std::string>, double> counts;
    for (const Sample& s : *samples) {
      if (s.name == family + "_bucket") {
        auto labels = s.labels;
        if (labels.count("le") == 0) return "bucket without le in " + family;
        const std::string le = labels["le"];
        labels.erase("le");
        buckets[labels].emplace_back(le == "+Inf" ? INFINITY : std::strtod(le.c_str(), nullptr),
                                     s.value);
      } else if (s.name == family + "_count") {
        counts[s.labels] = s.value;
      }
    }
    if (buckets.empty()) return "histogram without buckets: " + family;
    for (const auto& [labels, list] : buckets) {
      for (size_t k = 1; k < list.size(); ++k) {
        if (!(list[k].first > list[k - 1].first)) return "le not ascending in " + family;
        if (list[k].second < list[k - 1].second) return "buckets not cumulative in " + family;
      }
      if (!std::isinf(list.back().first)) return "last bucket is not +Inf in " + family;
      if (counts.count(labels) == 0) return "no _count in " + family;
      if (counts[labels] != list.back().second) return "_count != +Inf bucket in " + family;
    }
  }
  return "";
}

const Sample* Find(const std::vector<Sample>& samples, const std::string& name,
                   const std::map<std::string, std::string>& labels = {}) {
  for (const Sample& s : samples) {
    if (s.name != name) continue;
    bool all = true;
    for (const auto& [k, v] : labels) {
      auto it = s.labels.find(k);
      all &= it != s.labels.end() && it->second == v;
    }
    if (all) return &s;
  }
  return nullptr;
}

TEST(PrometheusNameTest, AsHadoopsSinkNamesThem) {
  EXPECT_EQ(PrometheusName("ClusterMetrics", "NumActiveNMs"), "cluster_metrics_num_active_n_ms");
  EXPECT_EQ(PrometheusName("rpc", "RpcQueueTimeNumOps"), "rpc_rpc_queue_time_num_ops");
  EXPECT_EQ(PrometheusName("rpc", "ReceivedBytes"), "rpc_received_bytes");
  EXPECT_EQ(PrometheusName("JvmMetrics", "MemHeapUsedM"), "jvm_metrics_mem_heap_used_m");
  EXPECT_EQ(PrometheusName("QueueMetrics", "running_0"), "queue_metrics_running_0");
  EXPECT_EQ(PrometheusName("QueueMetrics", "AllocatedVCores"), "queue_metrics_allocated_v_cores");
  EXPECT_EQ(PrometheusName("QueueMetrics", "AppsSubmitted"), "queue_metrics_apps_submitted");
}

TEST(PrometheusFormatTest, LabelValuesAreEscaped) {
  Bean bean;
  bean.name = "Hadoop:service=ResourceManager,name=Test";
  bean.record = "Test";
  bean.Tag("Queue", "a\"b\\c\nd");
  bean.Gauge("Value", 7);
  const std::string text = RenderPrometheus({bean}, nullptr, nullptr);
  EXPECT_NE(text.find("test_value{queue=\"a\\\"b\\\\c\\nd\"} 7\n"), std::string::npos) << text;
  std::vector<Sample> samples;
  EXPECT_EQ(CheckExposition(text, &samples), "");
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].labels["queue"], "a\"b\\c\nd");
}

TEST(PrometheusFormatTest, DelayHistogramBucketsAreExact) {
  pool::PoolMetrics pm;
  pool::SchedulerMetrics m;
  m.scheduler = 0;
  const std::vector<uint64_t> delays = {0, 1023, 1024, 5000, 1u << 20, 10000000000ull};
  for (uint64_t ns : delays) m.delay.RecordNanos(ns);
  pm.schedulers.push_back(m);
  const std::string text = RenderPrometheus({}, &pm, nullptr);
  std::vector<Sample> samples;
  ASSERT_EQ(CheckExposition(text, &samples), "") << text;
  const std::string name = "spindle_scheduler_delay_seconds_bucket";
  // Each bound 2^k - 1 ns counts exactly the samples at or below it.
  for (uint64_t bound : DelayBucketBoundsNanos()) {
    int64_t expected = 0;
    for (uint64_t ns : delays) expected += ns <= bound ? 1 : 0;
    bool found = false;
    for (const Sample& s : samples) {
      if (s.name != name || s.labels.at("le") == "+Inf") continue;
      const double le = std::strtod(s.labels.at("le").c_str(), nullptr);
      if (std::llround(le * 1e9) != static_cast<long long>(bound)) continue;
      found = true;
      EXPECT_EQ(s.value, static_cast<double>(expected)) << "le=" << s.labels.at("le");
    }
    EXPECT_TRUE(found) << bound;
  }
  EXPECT_EQ(Find(samples, name, {{"le", "0.000001023"}})->value, 2);
  EXPECT_EQ(Find(samples, name, {{"le", "0.000002047"}})->value, 3);
  EXPECT_EQ(Find(samples, name, {{"le", "+Inf"}})->value, 6);
  EXPECT_NE(text.find("spindle_scheduler_delay_seconds_sum{scheduler=\"0\"} 10.001055623\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(Find(samples, "spindle_scheduler_delay_seconds_count")->value, 6);
  EXPECT_NE(text.find("# TYPE spindle_scheduler_delay_seconds histogram\n"), std::string::npos);
}

class PrometheusRmTest : public testing::RmFixture {};

TEST_F(PrometheusRmTest, WholeOutputIsWellFormedAndNamedAsHadoop) {
  HttpRequest request;
  request.path = "/metrics";
  const HttpResponse response = PrometheusHandler(deps_, request);
  ASSERT_EQ(response.status, 200);
  EXPECT_EQ(response.content_type, "text/plain; version=0.0.4; charset=utf-8");
  std::vector<Sample> samples;
  ASSERT_EQ(CheckExposition(response.body, &samples), "") << response.body;

  const Sample* active = Find(samples, "cluster_metrics_num_active_n_ms");
  ASSERT_NE(active, nullptr);
  EXPECT_EQ(active->value, 1);
  EXPECT_EQ(active->labels.at("hostname"), "rm.test");
  EXPECT_EQ(active->labels.at("context"), "yarn");
  EXPECT_NE(response.body.find("# TYPE cluster_metrics_num_active_n_ms gauge\n"),
            std::string::npos);

  const Sample* running = Find(samples, "queue_metrics_apps_running", {{"queue", "root.default"}});
  ASSERT_NE(running, nullptr);
  EXPECT_EQ(running->value, 1);
  const Sample* mb = Find(samples, "queue_metrics_allocated_mb", {{"queue", "root"}});
  ASSERT_NE(mb, nullptr);
  EXPECT_EQ(mb->value, 1024);
  EXPECT_NE(Find(samples, "jvm_metrics_mem_heap_used_m"), nullptr);
  EXPECT_NE(response.body.find("# TYPE jvm_metrics_log_info counter\n"), std::string::npos);

  // The pool: one scheduler that placed the AM.
  const Sample* placements =
      Find(samples, "spindle_scheduler_placements_total", {{"scheduler", "0"}});
  ASSERT_NE(placements, nullptr);
  EXPECT_EQ(placements->value, 1);
  EXPECT_EQ(Find(samples, "spindle_scheduler_delay_seconds_count", {{"scheduler", "0"}})->value, 1);
  const Sample* strategy = Find(samples, "spindle_scheduler_active_strategy", {{"scheduler", "0"}});
  ASSERT_NE(strategy, nullptr);
  EXPECT_FALSE(strategy->labels.at("strategy").empty());
  EXPECT_EQ(Find(samples, "spindle_pool_capacity_memory_mb")->value, 8192);

  // The process.
  EXPECT_GT(Find(samples, "process_resident_memory_bytes")->value, 0);
  EXPECT_GT(Find(samples, "process_open_fds")->value, 0);
  EXPECT_GT(Find(samples, "process_start_time_seconds")->value, 1.6e9);
}

}  // namespace
}  // namespace spindle::web
