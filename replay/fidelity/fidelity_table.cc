#include "replay/fidelity/fidelity_table.h"

#include <algorithm>
#include <limits>

#include "base/json/json_writer.h"

namespace spindle::replay {

namespace {

std::string Value(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "n/a"; }

std::string Check(const FidelityCheck& c) {
  return std::to_string(c.at_s) + "s " + c.Subject() + " " + FidelityMetricName(c.metric);
}

void Pad(std::vector<std::vector<std::string>>* table, std::string* out) {
  std::vector<size_t> width;
  for (const auto& row : *table) {
    width.resize(std::max(width.size(), row.size()));
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  for (const auto& row : *table) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(width[i] - row[i].size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    *out += line + "\n";
  }
}

// The cell runs' names in the order the rows give them (each once).
std::vector<std::string> CellRunNames(const std::vector<FidelityRow>& rows) {
  std::vector<std::string> names;
  for (const FidelityRow& row : rows) {
    for (const FidelityCellColumn& c : row.cells) {
      if (std::find(names.begin(), names.end(), c.name) == names.end()) names.push_back(c.name);
    }
  }
  return names;
}

// The row's run named `name`; nullptr when it has no report for the row.
const FidelityRun* CellRun(const FidelityRow& row, const std::string& name) {
  for (const FidelityCellColumn& c : row.cells) {
    if (c.name == name && c.run) return &*c.run;
  }
  return nullptr;
}

void Observed(json::JsonWriter* w, const std::string& key, const std::optional<int64_t>& v) {
  w->Key(key);
  if (v) {
    w->Int(*v);
  } else {
    w->Num(std::numeric_limits<double>::quiet_NaN());  // written as null
  }
}

void StringArray(json::JsonWriter* w, const std::string& key,
                 const std::vector<std::string>& values) {
  w->Key(key);
  w->BeginArray();
  for (const std::string& v : values) w->Str(v);
  w->EndArray();
}

}  // namespace

std::string FidelityTableText(const std::vector<FidelityRow>& rows) {
  const std::vector<std::string> names = CellRunNames(rows);
  std::vector<std::vector<std::string>> table;
  std::vector<std::string> header = {"scenario", "check", "expected (Hadoop)", "Spindle", "match"};
  for (const std::string& name : names) {
    header.push_back(name);
    header.push_back(name + " match");
  }
  table.push_back(header);
  std::string notes;
  int matched = 0;
  for (const FidelityRow& row : rows) {
    const FidelityScenario& s = *row.scenario;
    const bool ok = AllMatch(row.tunnel, s.container_mb);
    matched += ok ? 1 : 0;
    for (size_t i = 0; i < row.tunnel.observations.size(); ++i) {
      const FidelityObservation& o = row.tunnel.observations[i];
      const std::string tolerance = IsMemoryMetric(o.check.metric) ? " +-1 container" : "";
      std::vector<std::string> line = {
          i == 0 ? s.name : "", Check(o.check),
          std::to_string(o.check.expected) + " (" + row.tunnel.line + tolerance + ")",
          Value(o.observed), Matches(o, s.container_mb) ? "yes" : "NO"};
      for (const std::string& name : names) {
        const FidelityRun* cell = CellRun(row, name);
        if (cell != nullptr && i < cell->observations.size()) {
          const FidelityObservation& c = cell->observations[i];
          line.push_back(Value(c.observed));
          line.push_back(!c.observed ? "-" : Matches(c, s.container_mb) ? "yes" : "NO");
        } else {
          line.push_back("");
          line.push_back("");
        }
      }
      table.push_back(std::move(line));
    }
    if (!ok) {
      notes += s.name + " (" + s.hadoop_tests + "): Spindle differs from Hadoop " +
               row.tunnel.line + "; expected because " + s.derivation + "\n";
      for (const std::string& r : row.tunnel.rejections) notes += "  rejected " + r + "\n";
      for (const std::string& p : row.tunnel.problems) notes += "  problem: " + p + "\n";
    }
    for (const std::string& name : names) {
      const FidelityRun* cell = CellRun(row, name);
      if (cell == nullptr) continue;
      // What each RM said refusing a job: Hadoop's exception, side by side.
      for (const std::string& r : cell->rejections) {
        notes += s.name + ": " + name + " refused " + r + "\n";
      }
      for (const std::string& p : cell->problems) {
        notes += s.name + ": " + name + " run problem (" + cell->source + "): " + p + "\n";
      }
    }
  }
  std::string out;
  Pad(&table, &out);
  out += notes;
  out += std::to_string(matched) + " of " + std::to_string(rows.size()) +
         " scenarios match Hadoop's semantics in the wind tunnel\n";
  return out;
}

std::string FidelityJson(const std::vector<FidelityRow>& rows) {
  json::JsonWriter w;
  w.BeginObject();
  w.Key("scenarios");
  w.BeginArray();
  int matched = 0;
  for (const FidelityRow& row : rows) {
    const FidelityScenario& s = *row.scenario;
    const bool ok = AllMatch(row.tunnel, s.container_mb);
    matched += ok ? 1 : 0;
    w.BeginObject();
    w.Field("name", s.name);
    w.Field("summary", s.summary);
    w.Field("hadoop_tests", s.hadoop_tests);
    w.Field("derivation", s.derivation);
    w.Field("line", row.tunnel.line);
    w.Field("source", row.tunnel.source);
    w.Field("match", ok);
    w.Field("container_mb", s.container_mb);
    w.Key("checks");
    w.BeginArray();
    for (size_t i = 0; i < row.tunnel.observations.size(); ++i) {
      const FidelityObservation& o = row.tunnel.observations[i];
      w.BeginObject();
      w.Field("at_s", o.check.at_s);
      w.Field("subject", o.check.Subject());
      w.Field("metric", FidelityMetricName(o.check.metric));
      w.Field("expected", o.check.expected);
      Observed(&w, "spindle", o.observed);
      w.Field("match", Matches(o, s.container_mb));
      w.Key("cells");
      w.BeginObject();
      for (const FidelityCellColumn& column : row.cells) {
        if (!column.run || i >= column.run->observations.size()) continue;
        const FidelityObservation& c = column.run->observations[i];
        w.Key(column.name);
        w.BeginObject();
        Observed(&w, "value", c.observed);
        w.Field("match", Matches(c, s.container_mb));
        w.EndObject();
      }
      w.EndObject();
      w.EndObject();
    }
    w.EndArray();
    StringArray(&w, "rejections", row.tunnel.rejections);
    StringArray(&w, "problems", row.tunnel.problems);
    w.Key("cells");
    w.BeginObject();
    for (const FidelityCellColumn& column : row.cells) {
      if (!column.run) continue;
      w.Key(column.name);
      w.BeginObject();
      w.Field("source", column.run->source);
      StringArray(&w, "rejections", column.run->rejections);
      StringArray(&w, "problems", column.run->problems);
      w.EndObject();
    }
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
  w.Field("matched", matched);
  w.Field("scenarios_run", static_cast<int64_t>(rows.size()));
  w.EndObject();
  return w.Take() + "\n";
}

}  // namespace spindle::replay
