#include "web/metrics/prometheus.h"

#include <cctype>
#include <cstdio>
#include <map>

namespace spindle::web {
namespace {

bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool IsLower(char c) { return c >= 'a' && c <= 'z'; }

std::string Capitalize(std::string_view s) {
  std::string out(s);
  if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out;
}

std::string EscapeLabelValue(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string EscapeHelp(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string FormatDouble(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.15g", v);
  return buf;
}

// Whole nanoseconds as exact decimal seconds ("0.000001023", "68.719476735").
std::string NanosAsSeconds(uint64_t ns) {
  std::string out = std::to_string(ns / 1000000000);
  uint64_t frac = ns % 1000000000;
  if (frac == 0) return out;
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%09llu", static_cast<unsigned long long>(frac));
  std::string digits(buf);
  while (!digits.empty() && digits.back() == '0') digits.pop_back();
  return out + "." + digits;
}

using Labels = std::vector<std::pair<std::string, std::string>>;

// Families in first-seen order; all samples of a family are written together.
class Exposition {
 public:
  void Sample(const std::string& family, const char* type, const std::string& help,
              const std::string& sample_name, const Labels& labels, const std::string& value) {
    auto [it, inserted] = index_.emplace(family, families_.size());
    if (inserted) families_.push_back(Family{family, type, help, {}});
    std::string line = sample_name;
    if (!labels.empty()) {
      line += '{';
      for (size_t i = 0; i < labels.size(); ++i) {
        if (i > 0) line += ',';
        line += labels[i].first + "=\"" + EscapeLabelValue(labels[i].second) + "\"";
      }
      line += '}';
    }
    line += ' ';
    line += value;
    families_[it->second].lines.push_back(std::move(line));
  }
  void Simple(const std::string& name, const char* type, const std::string& help,
              const Labels& labels, double value) {
    Sample(name, type, help, name, labels, FormatDouble(value));
  }
  void SimpleInt(const std::string& name, const char* type, const std::string& help,
                 const Labels& labels, int64_t value) {
    Sample(name, type, help, name, labels, std::to_string(value));
  }

  std::string Render() const {
    std::string out;
    for (const Family& f : families_) {
      out += "# HELP " + f.name + " " + EscapeHelp(f.help) + "\n";
      out += "# TYPE " + f.name + " " + f.type + "\n";
      for (const std::string& line : f.lines) out += line + "\n";
    }
    return out;
  }

 private:
  struct Family {
    std::string name;
    const char* type;
    std::string help;
    std::vector<std::string> lines;
  };
  std::vector<Family> families_;
  std::map<std::string, size_t> index_;
};

void AddBeans(const std::vector<Bean>& beans, Exposition* e) {
  for (const Bean& bean : beans) {
    if (bean.record.empty()) continue;
    Labels labels;
    for (const BeanAttribute& a : bean.attributes) {
      if (a.kind != MetricKind::kTag) continue;
      std::string label = a.name.substr(4);  // "tag."
      for (char& c : label) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      labels.emplace_back(std::move(label), std::get<std::string>(a.value));
    }
    for (const BeanAttribute& a : bean.attributes) {
      if (a.kind == MetricKind::kTag || a.kind == MetricKind::kInfo) continue;
      const std::string name = PrometheusName(bean.record, a.name);
      const char* type = a.kind == MetricKind::kCounter ? "counter" : "gauge";
      const std::string help = bean.record + " " + a.name;
      std::string value;
      if (const auto* i = std::get_if<int64_t>(&a.value)) {
        value = std::to_string(*i);
      } else if (const auto* d = std::get_if<double>(&a.value)) {
        value = FormatDouble(*d);
      } else if (const auto* b = std::get_if<bool>(&a.value)) {
        value = *b ? "1" : "0";
      } else {
        continue;
      }
      e->Sample(name, type, help, name, labels, value);
    }
  }
}

std::string StrategyLabel(pool::StrategyKind kind) { return pool::StrategyKindName(kind); }

void AddScheduler(const pool::SchedulerMetrics& m, Exposition* e) {
  const Labels l{{"scheduler", std::to_string(m.scheduler)}};
  const char* c = "counter";
  const char* g = "gauge";
  e->SimpleInt("spindle_scheduler_steps_total", c, "Scheduling steps run.", l, m.steps);
  e->SimpleInt("spindle_scheduler_placements_total", c, "Tasks placed and committed.", l,
               m.placements);
  e->SimpleInt("spindle_scheduler_conflicts_total", c,
               "Claims the shared cell state refused (optimistic conflicts).", l, m.conflicts);
  e->SimpleInt("spindle_scheduler_transactions_total", c, "Commit transactions sent.", l,
               m.transactions);
  e->SimpleInt("spindle_scheduler_partition_syncs_total", c,
               "Cell-state partitions refreshed into the scheduler's view.", l, m.partition_syncs);
  e->SimpleInt("spindle_scheduler_full_syncs_total", c, "Partition syncs that copied it whole.", l,
               m.full_syncs);
  e->SimpleInt("spindle_scheduler_placements_with_preference_total", c,
               "Placements whose ask named preferred nodes or racks.", l, m.with_preference);
  e->SimpleInt("spindle_scheduler_placements_preferred_total", c,
               "Placements with a preference that landed on a preferred slot.", l, m.preferred);
  e->Simple("spindle_scheduler_quality", g,
            "Share of placements with a preference that landed on a preferred slot.", l,
            m.quality());
  e->Simple("spindle_scheduler_staleness_mean_seconds", g,
            "Mean age of the scheduler's view of the cell when it decided.", l,
            m.mean_staleness_ms() / 1000.0);
  e->Simple("spindle_scheduler_staleness_max_seconds", g,
            "Largest age of the scheduler's view of the cell when it decided.", l,
            m.max_staleness_ms / 1000.0);
  e->SimpleInt("spindle_scheduler_backlog", g, "Outstanding (uncommitted) tasks now.", l,
               m.backlog);
  e->Simple("spindle_scheduler_busy_seconds_total", c, "Time spent choosing and committing.", l,
            static_cast<double>(m.busy_nanos) / 1e9);
  Labels s = l;
  s.emplace_back("strategy", StrategyLabel(m.active_strategy));
  e->SimpleInt("spindle_scheduler_active_strategy", g,
               "The placement strategy deciding now (1 for the active one).", s, 1);

  const std::string family = "spindle_scheduler_delay_seconds";
  const std::string help = "Scheduling delay per task, from ask to commit.";
  for (uint64_t bound : DelayBucketBoundsNanos()) {
    Labels b = l;
    b.emplace_back("le", NanosAsSeconds(bound));
    e->Sample(family, "histogram", help, family + "_bucket", b,
              std::to_string(m.delay.CountBelow(bound + 1)));
  }
  Labels inf = l;
  inf.emplace_back("le", "+Inf");
  e->Sample(family, "histogram", help, family + "_bucket", inf, std::to_string(m.delay.count()));
  e->Sample(family, "histogram", help, family + "_sum", l, NanosAsSeconds(m.delay.sum_nanos()));
  e->Sample(family, "histogram", help, family + "_count", l, std::to_string(m.delay.count()));
}

void AddPool(const pool::PoolMetrics& pm, Exposition* e) {
  for (const pool::SchedulerMetrics& m : pm.schedulers) AddScheduler(m, e);
  const char* g = "gauge";
  e->SimpleInt("spindle_pool_capacity_memory_mb", g, "Memory of the cell's nodes, MB.", {},
               pm.capacity.memory_mb());
  e->SimpleInt("spindle_pool_capacity_vcores", g, "Virtual cores of the cell's nodes.", {},
               pm.capacity.vcores());
  e->SimpleInt("spindle_pool_allocated_memory_mb", g, "Memory placed on the cell, MB.", {},
               pm.allocated.memory_mb());
  e->SimpleInt("spindle_pool_allocated_vcores", g, "Virtual cores placed on the cell.", {},
               pm.allocated.vcores());
  e->Simple("spindle_pool_utilisation", g, "Dominant share of the cell allocated.", {},
            pm.utilisation);
}

void AddProcess(const ProcessStats& s, Exposition* e) {
  e->Simple("process_cpu_seconds_total", "counter",
            "Total user and system CPU time spent in seconds.", {},
            s.cpu_user_seconds + s.cpu_system_seconds);
  e->SimpleInt("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", {},
               s.vm_rss_kb * 1024);
  e->SimpleInt("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", {},
               s.vm_size_kb * 1024);
  e->Simple("process_start_time_seconds", "gauge",
            "Start time of the process since unix epoch in seconds.", {}, s.start_time_seconds);
  e->SimpleInt("process_open_fds", "gauge", "Number of open file descriptors.", {}, s.open_fds);
  e->SimpleInt("process_max_fds", "gauge", "Maximum number of open file descriptors.", {},
               s.max_fds);
  e->SimpleInt("process_threads", "gauge", "Number of OS threads in the process.", {},
               s.threads_total);
}

}  // namespace

std::string PrometheusName(std::string_view record, std::string_view metric) {
  const std::string base = Capitalize(record) + Capitalize(metric);
  // Split before an uppercase letter that follows neither the start, an
  // uppercase letter nor '_', and before an uppercase letter followed by a
  // lowercase one (not at the start): "NumActiveNMs" -> Num Active N Ms.
  std::string joined;
  for (size_t i = 0; i < base.size(); ++i) {
    const char c = base[i];
    if (i > 0 && IsUpper(c)) {
      const char prev = base[i - 1];
      const bool first = !IsUpper(prev) && prev != '_';
      const bool second = i + 1 < base.size() && IsLower(base[i + 1]);
      if (first || second) joined += '_';
    }
    joined += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  // Runs of anything but [a-z0-9] become one '_'.
  std::string out;
  bool in_run = false;
  for (char c : joined) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += c;
      in_run = false;
    } else if (!in_run) {
      out += '_';
      in_run = true;
    }
  }
  return out;
}

std::vector<uint64_t> DelayBucketBoundsNanos() {
  std::vector<uint64_t> bounds;
  for (int k = 10; k <= 36; ++k) bounds.push_back((uint64_t{1} << k) - 1);
  return bounds;
}

std::string RenderPrometheus(const std::vector<Bean>& beans, const pool::PoolMetrics* pool,
                             const ProcessStats* process) {
  Exposition e;
  AddBeans(beans, &e);
  if (pool != nullptr) AddPool(*pool, &e);
  if (process != nullptr) AddProcess(*process, &e);
  return e.Render();
}

HttpResponse PrometheusResponse(std::string text) {
  HttpResponse response;
  response.status = 200;
  response.content_type = "text/plain; version=0.0.4; charset=utf-8";
  response.body = std::move(text);
  return response;
}

}  // namespace spindle::web
