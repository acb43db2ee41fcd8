#include "replay/report/tenant_compare.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "base/json/json_stream.h"

namespace spindle::replay {
namespace {

using json::JsonValue;
using Key = std::pair<std::string, std::string>;

int64_t IntOr(const JsonValue& object, const char* key, int64_t fallback) {
  const JsonValue* v = object.Find(key);
  if (v == nullptr) return fallback;
  return v->AsInt64().value_or(fallback);
}

Result<std::string> StringOf(const std::string& name, const JsonValue& object, const char* key) {
  const JsonValue* v = object.Find(key);
  if (v == nullptr || !v->is_string()) {
    return Status::Corruption(name + ": '" + key + "' is missing or not a string (line " +
                              std::to_string(object.line()) + ")");
  }
  return v->text();
}

std::vector<std::string> Strings(const JsonValue& object, const char* key) {
  std::vector<std::string> out;
  const JsonValue* v = object.Find(key);
  if (v == nullptr) return out;
  for (const JsonValue& e : v->elements()) {
    if (e.is_string()) out.push_back(e.text());
  }
  return out;
}

// The row of `key` in `sample`, or nullptr.
const TenantRow* RowOf(const TenantSample& sample, const Key& key) {
  for (const TenantRow& r : sample.rows) {
    if (r.queue == key.first && r.user == key.second) return &r;
  }
  return nullptr;
}

// Whether every user of `queue` in `users` has an application in `sample`.
bool AllUsersActive(const TenantSample& sample, const std::string& queue,
                    const std::set<std::string>& users) {
  for (const std::string& user : users) {
    const TenantRow* r = RowOf(sample, {queue, user});
    if (r == nullptr || r->apps_running + r->apps_pending == 0) return false;
  }
  return !users.empty();
}

TenantFigures FiguresOf(const TenantRun& run, const Key& key) {
  TenantFigures f;
  if (run.samples.empty()) return f;
  std::set<std::string> users;  // of the queue, over the run
  for (const TenantSample& s : run.samples) {
    for (const TenantRow& r : s.rows) {
      if (r.queue == key.first && !r.user.empty()) users.insert(r.user);
    }
  }
  double contended_sum = 0;
  int64_t contended = 0;
  const double half = run.samples.back().at_s / 2;
  double sum = 0;
  double late_sum = 0;
  int64_t late = 0;
  for (const TenantSample& s : run.samples) {
    const TenantRow* r = RowOf(s, key);
    const int64_t mb = r == nullptr ? 0 : r->memory_mb;
    sum += static_cast<double>(mb);
    if (s.at_s >= half) {
      late_sum += static_cast<double>(mb);
      ++late;
    }
    if (AllUsersActive(s, key.first, users)) {
      contended_sum += static_cast<double>(mb);
      ++contended;
    }
    if (r == nullptr) continue;
    f.peak_memory_mb = std::max(f.peak_memory_mb, r->memory_mb);
    f.max_apps_running = std::max(f.max_apps_running, r->apps_running);
    f.max_apps_pending = std::max(f.max_apps_pending, r->apps_pending);
    f.max_scheduler_apps_pending =
        std::max(f.max_scheduler_apps_pending, r->scheduler_apps_pending);
    f.preempted = std::max(f.preempted, r->preempted);
    f.preemption_messages = std::max(f.preemption_messages, r->preemption_messages);
  }
  f.mean_memory_mb = sum / static_cast<double>(run.samples.size());
  f.late_mean_memory_mb = late == 0 ? 0 : late_sum / static_cast<double>(late);
  if (contended > 0) f.contended_mean_memory_mb = contended_sum / static_cast<double>(contended);
  return f;
}

std::string Format(const char* format, double a, double b) {
  char buf[96];
  std::snprintf(buf, sizeof(buf), format, a, b, b - a);
  return buf;
}

}  // namespace

Result<TenantRun> ParseTenantRun(const std::string& name, const std::string& text) {
  auto stream = json::JsonStream::FromString(name, text);
  JsonValue doc;
  ASSIGN_OR_RETURN(const bool any, stream->Next(&doc));
  const JsonValue* modes = any ? doc.Find("modes") : nullptr;
  if (modes == nullptr || !modes->is_array() || modes->elements().empty()) {
    return Status::Corruption(name + ": not a replay report (no 'modes')");
  }
  const JsonValue& mode = modes->elements().front();
  TenantRun run;
  run.name = name;
  ASSIGN_OR_RETURN(run.label, StringOf(name, mode, "label"));
  if (const JsonValue* rm = mode.Find("rm"); rm != nullptr && rm->is_string()) run.rm = rm->text();
  run.jobs_submitted = IntOr(mode, "jobs_submitted", 0);
  run.jobs_rejected = IntOr(mode, "jobs_rejected", 0);
  run.jobs_finished = IntOr(mode, "jobs_finished", 0);
  run.rejections = Strings(mode, "rejections");
  run.violations = Strings(mode, "violations");
  const JsonValue* tenants = mode.Find("tenants");
  if (tenants == nullptr || !tenants->is_array()) {
    return Status::Corruption(name + ": the first mode has no 'tenants'");
  }
  for (const JsonValue& t : tenants->elements()) {
    TenantSample sample;
    const JsonValue* at = t.Find("at_s");
    const JsonValue* rows = t.Find("rows");
    if (at == nullptr || !at->AsDouble().has_value() || rows == nullptr || !rows->is_array()) {
      return Status::Corruption(name + ": a tenant sample without at_s or rows (line " +
                                std::to_string(t.line()) + ")");
    }
    sample.at_s = *at->AsDouble();
    for (const JsonValue& r : rows->elements()) {
      TenantRow row;
      ASSIGN_OR_RETURN(row.queue, StringOf(name, r, "queue"));
      ASSIGN_OR_RETURN(row.user, StringOf(name, r, "user"));
      row.memory_mb = IntOr(r, "memory_mb", 0);
      row.vcores = IntOr(r, "vcores", 0);
      row.containers = IntOr(r, "containers", 0);
      row.apps_running = IntOr(r, "apps_running", 0);
      row.apps_pending = IntOr(r, "apps_pending", 0);
      row.preempted = IntOr(r, "preempted", 0);
      row.preemption_messages = IntOr(r, "preemption_messages", 0);
      row.scheduler_apps_running = IntOr(r, "scheduler_apps_running", -1);
      row.scheduler_apps_pending = IntOr(r, "scheduler_apps_pending", -1);
      sample.rows.push_back(std::move(row));
    }
    if (const JsonValue* jobs = t.Find("jobs"); jobs != nullptr && jobs->is_array()) {
      sample.jobs_counted = true;
      for (const JsonValue& j : jobs->elements()) {
        JobHolding holding;
        ASSIGN_OR_RETURN(holding.job, StringOf(name, j, "job"));
        holding.memory_mb = IntOr(j, "memory_mb", 0);
        sample.jobs.push_back(std::move(holding));
      }
    }
    run.samples.push_back(std::move(sample));
  }
  if (run.samples.empty()) {
    return Status::InvalidArgument(name + ": no tenant samples (only staging-cell runs take them)");
  }
  return run;
}

Result<TenantRun> ReadTenantRun(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound("cannot open " + path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Status::IoError("cannot read " + path);
  return ParseTenantRun(path, text.str());
}

std::vector<TenantComparison> CompareTenants(const TenantRun& a, const TenantRun& b) {
  std::map<Key, bool> keys;  // ordered: a queue ("") before its users
  for (const TenantRun* run : {&a, &b}) {
    for (const TenantSample& s : run->samples) {
      for (const TenantRow& r : s.rows) keys[{r.queue, r.user}] = true;
    }
  }
  std::vector<TenantComparison> out;
  for (const auto& [key, unused] : keys) {
    out.push_back(TenantComparison{key.first, key.second, FiguresOf(a, key), FiguresOf(b, key)});
  }
  return out;
}

std::string ToCompareTable(const TenantRun& a, const TenantRun& b,
                           const std::vector<TenantComparison>& rows) {
  std::ostringstream out;
  for (const auto& [tag, run] : {std::make_pair("A", &a), std::make_pair("B", &b)}) {
    out << tag << ": " << run->name << " (" << run->label << (run->rm.empty() ? "" : ", " + run->rm)
        << "): " << run->jobs_submitted << " jobs submitted, " << run->jobs_finished
        << " finished, " << run->jobs_rejected << " rejected, " << run->violations.size()
        << " violations, " << run->samples.size() << " samples to "
        << (run->samples.empty() ? 0.0 : run->samples.back().at_s) << " s\n";
    for (size_t i = 0; i < run->rejections.size() && i < 3; ++i) {
      out << "   rejected: " << run->rejections[i] << "\n";
    }
  }
  out << "\nper tenant: A | B | B-A (memory in MB; late = the run's second half; contended = "
         "while every user of the queue had work, -1 never; AMs and pending = most at once; "
         "pending* = the scheduler's own count, -1 not reported)\n";
  char head[256];
  std::snprintf(head, sizeof(head), "%-24s %-24s %-24s %-24s %-24s %-12s %-12s %-12s %-12s\n",
                "tenant", "mean memory", "late memory", "contended memory", "peak memory", "AMs",
                "pending", "pending*", "preempted");
  out << head;
  for (const TenantComparison& c : rows) {
    const std::string name = c.user.empty() ? c.queue : "  " + c.queue + "/" + c.user;
    char line[512];
    std::snprintf(
        line, sizeof(line), "%-24s %-24s %-24s %-24s %-24s %-12s %-12s %-12s %-12s\n", name.c_str(),
        Format("%.0f|%.0f|%+.0f", c.a.mean_memory_mb, c.b.mean_memory_mb).c_str(),
        Format("%.0f|%.0f|%+.0f", c.a.late_mean_memory_mb, c.b.late_mean_memory_mb).c_str(),
        Format("%.0f|%.0f|%+.0f", c.a.contended_mean_memory_mb, c.b.contended_mean_memory_mb)
            .c_str(),
        Format("%.0f|%.0f|%+.0f", static_cast<double>(c.a.peak_memory_mb),
               static_cast<double>(c.b.peak_memory_mb))
            .c_str(),
        Format("%.0f|%.0f|%+.0f", static_cast<double>(c.a.max_apps_running),
               static_cast<double>(c.b.max_apps_running))
            .c_str(),
        Format("%.0f|%.0f|%+.0f", static_cast<double>(c.a.max_apps_pending),
               static_cast<double>(c.b.max_apps_pending))
            .c_str(),
        c.user.empty()
            ? Format("%.0f|%.0f|%+.0f", static_cast<double>(c.a.max_scheduler_apps_pending),
                     static_cast<double>(c.b.max_scheduler_apps_pending))
                  .c_str()
            : "",
        Format("%.0f|%.0f|%+.0f", static_cast<double>(c.a.preempted),
               static_cast<double>(c.b.preempted))
            .c_str());
    out << line;
  }
  return out.str();
}

std::string ToCompareCsv(const TenantRun& a, const TenantRun& b) {
  std::ostringstream out;
  out << "at_s,queue,user,a_memory_mb,b_memory_mb,a_apps_running,b_apps_running,"
         "a_apps_pending,b_apps_pending,a_preempted,b_preempted\n";
  std::map<Key, bool> keys;
  for (const TenantRun* run : {&a, &b}) {
    for (const TenantSample& s : run->samples) {
      for (const TenantRow& r : s.rows) keys[{r.queue, r.user}] = true;
    }
  }
  size_t j = 0;  // B's latest sample at or before A's
  for (const TenantSample& s : a.samples) {
    while (j + 1 < b.samples.size() && b.samples[j + 1].at_s <= s.at_s) ++j;
    const TenantSample* bs =
        !b.samples.empty() && b.samples[j].at_s <= s.at_s ? &b.samples[j] : nullptr;
    for (const auto& [key, unused] : keys) {
      const TenantRow* ra = RowOf(s, key);
      const TenantRow* rb = bs == nullptr ? nullptr : RowOf(*bs, key);
      if (ra == nullptr && rb == nullptr) continue;
      const TenantRow zero;
      const TenantRow& x = ra == nullptr ? zero : *ra;
      const TenantRow& y = rb == nullptr ? zero : *rb;
      char at[32];
      std::snprintf(at, sizeof(at), "%.3f", s.at_s);
      out << at << "," << key.first << "," << key.second << "," << x.memory_mb << "," << y.memory_mb
          << "," << x.apps_running << "," << y.apps_running << "," << x.apps_pending << ","
          << y.apps_pending << "," << x.preempted << "," << y.preempted << "\n";
    }
  }
  return out.str();
}

}  // namespace spindle::replay
