#include "replay/trace/hadoop/synth_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <utility>

#include "base/json/json_stream.h"
#include "base/random.h"
#include "replay/trace/hadoop/json_fields.h"
#include "replay/trace/hadoop/mapreduce_stages.h"

namespace spindle::replay::hadoop {

namespace {

// Open() draws every job's story up front (to sort them by submit time) and
// a node list is built whole, so the file's counts are bounded: ten times
// the 100k-machine cells of the ParSync paper, and 10M jobs (~0.5 GB of
// stories).
constexpr int64_t kMaxSynthNodes = 1'000'000;
constexpr int64_t kMaxSynthJobs = 10'000'000;

// One of syn.json's sampled values (SynthTraceJobProducer.Sample).
struct Sample {
  enum class Mode { kConst, kNormal, kLogNormal, kDiscrete };
  Mode mode = Mode::kConst;
  double a = 0;  // const: value; normal: mean; log-normal: mu
  double b = 0;  // normal: stddev; log-normal: sigma
  std::vector<double> values;
  std::vector<double> weights;
};

// An index drawn with probability proportional to its weight (weights >= 0,
// sum > 0, checked at parse time).
size_t Weighted(const std::vector<double>& weights, Random* rng) {
  double total = 0;
  for (double w : weights) total += w;
  const double r = rng->NextDouble() * total;
  double cum = 0;
  size_t last_positive = 0;
  for (size_t i = 0; i < weights.size(); ++i) {
    cum += weights[i];
    if (weights[i] > 0) last_positive = i;
    if (cum > r) return i;
  }
  return last_positive;  // rounding left r at the very top
}

double Draw(const Sample& s, Random* rng) {
  switch (s.mode) {
    case Sample::Mode::kConst:
      return s.a;
    case Sample::Mode::kNormal:
      return rng->Normal(s.a, s.b);
    case Sample::Mode::kLogNormal:
      return std::exp(rng->Normal(s.a, s.b));
    case Sample::Mode::kDiscrete:
      return s.values[Weighted(s.weights, rng)];
  }
  return 0;
}

// Java's Math.round, saturating.
int64_t Round(double v) {
  const double r = std::floor(v + 0.5);
  if (r >= 9.2e18) return INT64_MAX;
  if (r <= -9.2e18) return INT64_MIN;
  return static_cast<int64_t>(r);
}

Status CheckWeights(const JsonFields& f, std::string_view key, const std::vector<double>& w) {
  double total = 0;
  for (double x : w) {
    if (x < 0) return f.Error(key, "weights must be >= 0");
    total += x;
  }
  if (!(total > 0)) return f.Error(key, "weights must not all be 0");
  return Status::OK();
}

// A distribution sample from a mean and stddev (SynthUtils' rules).
Result<Sample> Distribution(const JsonFields& f, std::string_view key, double mean, double std,
                            bool normal) {
  Sample s;
  if (mean == 0 && std == 0) return s;  // the constant 0
  if (mean <= 0) return f.Error(key, "a distribution needs a mean > 0");
  if (std < 0) return f.Error(key, "a distribution needs a stddev >= 0");
  if (std == 0) std = mean / 6;
  if (normal) {
    s.mode = Sample::Mode::kNormal;
    s.a = mean;
    s.b = std;
  } else {
    // X = exp(N(mu, sigma)) with E[X] = mean, sd[X] = std.
    const double sigma2 = std::log1p((std * std) / (mean * mean));
    s.mode = Sample::Mode::kLogNormal;
    s.a = std::log(mean) - 0.5 * sigma2;
    s.b = std::sqrt(sigma2);
  }
  return s;
}

Result<Sample> ParseSample(const JsonFields& parent, std::string_view key, const JsonValue& v) {
  Sample s;
  if (v.is_number()) {
    s.a = *v.AsDouble();
    return s;
  }
  if (!v.is_object()) return parent.Error(key, "expected a sample object, got " + DescribeJson(v));
  const JsonFields f = parent.Nested(v, std::string(key));
  ASSIGN_OR_RETURN(std::optional<double> val, f.OptionalDouble("val"));
  ASSIGN_OR_RETURN(std::optional<double> std, f.OptionalDouble("std"));
  ASSIGN_OR_RETURN(std::optional<std::string> dist, f.OptionalString("dist"));
  ASSIGN_OR_RETURN(const JsonValue* discrete, f.OptionalArray("discrete"));
  ASSIGN_OR_RETURN(const JsonValue* weights, f.OptionalArray("weights"));
  if (val) {
    if (discrete != nullptr || weights != nullptr) {
      return f.Error("discrete", "a sample has either val or discrete, not both");
    }
    if (!std) {
      if (dist) return f.Error("dist", "a constant sample (val without std) takes no dist");
      s.a = *val;
      return s;
    }
    if (dist && *dist != "LOGNORM" && *dist != "NORM") {
      return f.Error("dist", "'" + *dist + "' is neither LOGNORM nor NORM");
    }
    return Distribution(f, "val", *val, *std, dist && *dist == "NORM");
  }
  if (discrete == nullptr) return parent.Error(key, "a sample needs val or discrete");
  if (std || dist) return f.Error(std ? "std" : "dist", "a discrete sample takes no std or dist");
  s.mode = Sample::Mode::kDiscrete;
  for (size_t i = 0; i < discrete->elements().size(); ++i) {
    const JsonValue& e = discrete->elements()[i];
    // SLS keeps discrete values as strings and parses them as doubles.
    std::optional<double> d = e.is_number() ? e.AsDouble() : std::nullopt;
    if (e.is_string()) {
      char* end = nullptr;
      const double x = std::strtod(e.text().c_str(), &end);
      if (!e.text().empty() && end == e.text().c_str() + e.text().size()) d = x;
    }
    if (!d) return f.Error("discrete", "element " + std::to_string(i) + " is not a number");
    s.values.push_back(*d);
  }
  if (s.values.empty()) return f.Error("discrete", "must not be empty");
  if (weights == nullptr) {
    s.weights.assign(s.values.size(), 1.0);
  } else {
    for (const JsonValue& w : weights->elements()) {
      std::optional<double> d = w.AsDouble();
      if (!d) return f.Error("weights", "expected numbers, got " + DescribeJson(w));
      s.weights.push_back(*d);
    }
    if (s.weights.size() != s.values.size()) {
      return f.Error("weights", "must have as many entries as discrete");
    }
  }
  RETURN_NOT_OK(CheckWeights(f, "weights", s.weights));
  return s;
}

Result<Sample> SampleField(const JsonFields& f, std::string_view key, bool required) {
  const JsonValue* v = f.Get(key);
  if (v == nullptr) {
    if (required) return f.Error(key, "missing (a sample is required)");
    return Sample();
  }
  return ParseSample(f, key, *v);
}

}  // namespace

struct SynthTaskClass {
  MapReduceKind kind = MapReduceKind::kMap;
  int32_t priority = kMapPriority;
  Sample count, time, memory, vcores;
};

struct SynthJobClass {
  std::string name;
  std::string user = "default";
  double weight = 0;
  std::vector<SynthTaskClass> tasks;
};

struct SynthWorkload {
  double weight = 0;
  std::string queue;
  std::vector<SynthJobClass> classes;
  std::vector<double> class_weights;
  std::vector<int64_t> times;  // s
  std::vector<double> time_weights;
};

struct SynthStory {
  int64_t submit_s;
  size_t workload;
  size_t job_class;
  uint64_t seed;
};

struct SynthReader::Spec {
  int64_t num_nodes = 0;
  int64_t nodes_per_rack = 1;
  int64_t num_jobs = 0;
  int64_t seed = 0;
  std::vector<SynthWorkload> workloads;
  std::vector<SynthStory> stories;  // in arrival order
};

namespace {

Status CheckExecutionType(const JsonFields& f, std::string_view key) {
  ASSIGN_OR_RETURN(std::optional<std::string> exec, f.OptionalString(key));
  if (exec && *exec != "GUARANTEED") {
    return f.Error(key, "'" + *exec + "' is not supported (only GUARANTEED containers)");
  }
  return Status::OK();
}

Result<SynthTaskClass> ParseOldTaskClass(const JsonFields& f, MapReduceKind kind) {
  const bool map = kind == MapReduceKind::kMap;
  SynthTaskClass t;
  t.kind = kind;
  t.priority = map ? kMapPriority : kReducePriority;
  auto dist = [&](const std::string& base, bool required) -> Result<Sample> {
    const std::string avg = base + "_avg";
    const std::string dev = base + "_stddev";
    std::optional<double> mean;
    if (required) {
      ASSIGN_OR_RETURN(double m, f.Double(avg));
      mean = m;
    } else {
      ASSIGN_OR_RETURN(mean, f.OptionalDouble(avg));
    }
    ASSIGN_OR_RETURN(std::optional<double> sd, f.OptionalDouble(dev));
    return Distribution(f, avg, mean.value_or(0), sd.value_or(0), /*normal=*/false);
  };
  ASSIGN_OR_RETURN(t.count, dist(map ? "mtasks" : "rtasks", map));
  ASSIGN_OR_RETURN(t.time, dist(map ? "mtime" : "rtime", map));
  ASSIGN_OR_RETURN(t.memory, dist(map ? "map_max_memory" : "reduce_max_memory", false));
  ASSIGN_OR_RETURN(t.vcores, dist(map ? "map_max_vcores" : "reduce_max_vcores", false));
  RETURN_NOT_OK(CheckExecutionType(f, map ? "map_execution_type" : "reduce_execution_type"));
  return t;
}

Result<SynthTaskClass> ParseTaskClass(const JsonFields& f) {
  SynthTaskClass t;
  ASSIGN_OR_RETURN(std::string type, f.String("type"));
  if (type == "reduce") {
    t.kind = MapReduceKind::kReduce;
  } else if (type != "map") {
    return f.Error("type", "'" + type + "' is neither map nor reduce");
  }
  ASSIGN_OR_RETURN(t.count, SampleField(f, "count", true));
  ASSIGN_OR_RETURN(t.time, SampleField(f, "time", true));
  ASSIGN_OR_RETURN(t.memory, SampleField(f, "max_memory", false));
  ASSIGN_OR_RETURN(t.vcores, SampleField(f, "max_vcores", false));
  ASSIGN_OR_RETURN(std::optional<int64_t> prio, f.OptionalInt("priority"));
  if (prio && (*prio < INT32_MIN || *prio > INT32_MAX)) return f.Error("priority", "out of range");
  t.priority = prio ? static_cast<int32_t>(*prio)
                    : (t.kind == MapReduceKind::kMap ? kMapPriority : kReducePriority);
  RETURN_NOT_OK(CheckExecutionType(f, "execution_type"));
  return t;
}

Result<SynthJobClass> ParseJobClass(const JsonFields& f) {
  SynthJobClass c;
  ASSIGN_OR_RETURN(c.name, f.String("class_name"));
  ASSIGN_OR_RETURN(std::optional<std::string> user, f.OptionalString("user_name"));
  if (user) c.user = *user;
  ASSIGN_OR_RETURN(c.weight, f.Double("class_weight"));
  if (c.weight < 0) return f.Error("class_weight", "must be >= 0");
  ASSIGN_OR_RETURN(std::optional<std::string> type, f.OptionalString("type"));
  if (type && *type != "mapreduce") {
    return f.Error("type", "'" + *type + "' is not supported (only mapreduce)");
  }
  ASSIGN_OR_RETURN(const JsonValue* tasks, f.OptionalArray("tasks"));
  if (tasks == nullptr) {
    for (MapReduceKind kind : {MapReduceKind::kMap, MapReduceKind::kReduce}) {
      ASSIGN_OR_RETURN(SynthTaskClass t, ParseOldTaskClass(f, kind));
      c.tasks.push_back(std::move(t));
    }
    return c;
  }
  for (size_t i = 0; i < tasks->elements().size(); ++i) {
    const JsonValue& t = tasks->elements()[i];
    if (!t.is_object())
      return f.Error("tasks", "element " + std::to_string(i) + " is not an object");
    ASSIGN_OR_RETURN(SynthTaskClass tc,
                     ParseTaskClass(f.Nested(t, "tasks[" + std::to_string(i) + "]")));
    c.tasks.push_back(std::move(tc));
  }
  return c;
}

Result<SynthWorkload> ParseWorkload(const JsonFields& f) {
  SynthWorkload w;
  ASSIGN_OR_RETURN(w.weight, f.Double("workload_weight"));
  if (w.weight < 0) return f.Error("workload_weight", "must be >= 0");
  ASSIGN_OR_RETURN(w.queue, f.String("queue_name"));
  ASSIGN_OR_RETURN(const JsonValue* classes, f.Array("job_classes"));
  for (size_t i = 0; i < classes->elements().size(); ++i) {
    const JsonValue& c = classes->elements()[i];
    if (!c.is_object()) {
      return f.Error("job_classes", "element " + std::to_string(i) + " is not an object");
    }
    ASSIGN_OR_RETURN(SynthJobClass jc,
                     ParseJobClass(f.Nested(c, "job_classes[" + std::to_string(i) + "]")));
    w.class_weights.push_back(jc.weight);
    w.classes.push_back(std::move(jc));
  }
  if (w.classes.empty()) return f.Error("job_classes", "must not be empty");
  RETURN_NOT_OK(CheckWeights(f, "job_classes", w.class_weights));
  ASSIGN_OR_RETURN(const JsonValue* times, f.Array("time_distribution"));
  for (size_t i = 0; i < times->elements().size(); ++i) {
    const JsonValue& t = times->elements()[i];
    if (!t.is_object()) {
      return f.Error("time_distribution", "element " + std::to_string(i) + " is not an object");
    }
    const JsonFields tf = f.Nested(t, "time_distribution[" + std::to_string(i) + "]");
    ASSIGN_OR_RETURN(int64_t time, tf.Int("time"));
    if (time < 0) return tf.Error("time", "must be >= 0");
    ASSIGN_OR_RETURN(double weight, tf.Double("weight"));
    w.times.push_back(time);
    w.time_weights.push_back(weight);
  }
  if (w.times.empty()) return f.Error("time_distribution", "must not be empty");
  RETURN_NOT_OK(CheckWeights(f, "time_distribution", w.time_weights));
  return w;
}

Result<std::unique_ptr<SynthReader::Spec>> ParseSpec(JsonStream* stream) {
  JsonValue doc;
  ASSIGN_OR_RETURN(bool got, stream->Next(&doc));
  if (!got) return Status::InvalidArgument(stream->name() + ": empty synthetic workload file");
  if (!doc.is_object()) {
    return Status::InvalidArgument(stream->name() + ":" + std::to_string(doc.line()) +
                                   ": expected one JSON object, got " + DescribeJson(doc));
  }
  JsonValue extra;
  ASSIGN_OR_RETURN(bool more, stream->Next(&extra));
  if (more) {
    return Status::InvalidArgument(stream->name() + ":" + std::to_string(extra.line()) +
                                   ": a synthetic workload file holds one JSON object");
  }
  const JsonFields f(stream->name(), doc);
  auto spec = std::make_unique<SynthReader::Spec>();
  ASSIGN_OR_RETURN(std::optional<int64_t> nodes, f.OptionalInt("num_nodes"));
  spec->num_nodes = nodes.value_or(0);
  if (spec->num_nodes < 0 || spec->num_nodes > kMaxSynthNodes) {
    return f.Error("num_nodes", "must be within 0.." + std::to_string(kMaxSynthNodes));
  }
  ASSIGN_OR_RETURN(std::optional<int64_t> per_rack, f.OptionalInt("nodes_per_rack"));
  spec->nodes_per_rack = std::max<int64_t>(per_rack.value_or(1), 1);  // SLS: < 1 means 1
  ASSIGN_OR_RETURN(spec->num_jobs, f.Int("num_jobs"));
  if (spec->num_jobs < 0 || spec->num_jobs > kMaxSynthJobs) {
    return f.Error("num_jobs", "must be within 0.." + std::to_string(kMaxSynthJobs));
  }
  ASSIGN_OR_RETURN(spec->seed, f.Int("rand_seed"));
  ASSIGN_OR_RETURN(const JsonValue* workloads, f.Array("workloads"));
  std::vector<double> weights;
  for (size_t i = 0; i < workloads->elements().size(); ++i) {
    const JsonValue& w = workloads->elements()[i];
    if (!w.is_object())
      return f.Error("workloads", "element " + std::to_string(i) + " is not an object");
    ASSIGN_OR_RETURN(SynthWorkload wl,
                     ParseWorkload(f.Nested(w, "workloads[" + std::to_string(i) + "]")));
    weights.push_back(wl.weight);
    spec->workloads.push_back(std::move(wl));
  }
  if (spec->workloads.empty()) return f.Error("workloads", "must not be empty");
  RETURN_NOT_OK(CheckWeights(f, "workloads", weights));

  // Draw every job's workload, submit time, class and seed, in
  // SynthTraceJobProducer's order, then sort by submit time.
  Random rng(static_cast<uint64_t>(spec->seed));
  spec->stories.reserve(static_cast<size_t>(spec->num_jobs));
  for (int64_t i = 0; i < spec->num_jobs; ++i) {
    SynthStory s;
    s.workload = Weighted(weights, &rng);
    const SynthWorkload& wl = spec->workloads[s.workload];
    size_t bucket = Weighted(wl.time_weights, &rng);
    const int64_t start = wl.times[bucket];
    const int64_t end = wl.times[std::min(bucket + 1, wl.times.size() - 1)];
    const int64_t range = end - start;
    s.submit_s = start + (range > 0 ? static_cast<int64_t>(rng.Uniform(range)) : 0);
    s.job_class = Weighted(wl.class_weights, &rng);
    s.seed = rng.Next();
    spec->stories.push_back(s);
  }
  std::stable_sort(
      spec->stories.begin(), spec->stories.end(),
      [](const SynthStory& a, const SynthStory& b) { return a.submit_s < b.submit_s; });
  return spec;
}

}  // namespace

SynthReader::SynthReader(std::string name, std::unique_ptr<Spec> spec, SynthReaderOptions options)
    : name_(std::move(name)), spec_(std::move(spec)), options_(options) {
  stats_.lines = 1;
}

SynthReader::~SynthReader() = default;

Result<std::unique_ptr<SynthReader>> SynthReader::Open(const std::string& path,
                                                       SynthReaderOptions options) {
  ASSIGN_OR_RETURN(std::unique_ptr<JsonStream> stream, JsonStream::Open(path));
  ASSIGN_OR_RETURN(std::unique_ptr<Spec> spec, ParseSpec(stream.get()));
  return std::unique_ptr<SynthReader>(new SynthReader(path, std::move(spec), options));
}

Result<std::unique_ptr<SynthReader>> SynthReader::FromString(std::string name, std::string text,
                                                             SynthReaderOptions options) {
  std::unique_ptr<JsonStream> stream = JsonStream::FromString(name, std::move(text));
  ASSIGN_OR_RETURN(std::unique_ptr<Spec> spec, ParseSpec(stream.get()));
  return std::unique_ptr<SynthReader>(new SynthReader(std::move(name), std::move(spec), options));
}

std::string SynthReader::Describe() const {
  return "sls-synth " + name_ + " (seed " + std::to_string(spec_->seed) + ", " +
         std::to_string(spec_->num_jobs) + " jobs)";
}

std::vector<TraceNode> SynthReader::Nodes(const SlsNodeDefaults& defaults) const {
  return GenerateSlsNodes(spec_->num_nodes, spec_->num_nodes / spec_->nodes_per_rack, defaults);
}

int64_t SynthReader::num_jobs() const { return spec_->num_jobs; }
int64_t SynthReader::seed() const { return spec_->seed; }

void SynthReader::CountDropped(const std::string& reason, int64_t n) {
  for (auto& [r, count] : stats_.dropped) {
    if (r == reason) {
      count += n;
      return;
    }
  }
  stats_.dropped.emplace_back(reason, n);
}

Result<bool> SynthReader::Next(TraceJob* out) {
  while (!done_) {
    if (next_ >= spec_->stories.size() ||
        (options_.read.max_jobs > 0 && stats_.jobs >= options_.read.max_jobs)) {
      done_ = true;
      break;
    }
    const size_t index = next_++;
    const SynthStory& story = spec_->stories[index];
    const SynthWorkload& wl = spec_->workloads[story.workload];
    const SynthJobClass& jc = wl.classes[story.job_class];
    TraceJob job;
    job.arrival_ms = story.submit_s * 1000;
    if (options_.read.max_arrival_ms > 0 && job.arrival_ms >= options_.read.max_arrival_ms) {
      done_ = true;
      break;
    }
    char seq[32];
    std::snprintf(seq, sizeof(seq), "_%06zu", index);
    job.id = jc.name + seq;
    job.queue = wl.queue;
    job.user = jc.user;

    Random rng(story.seed);
    MapReduceStages stages;
    int64_t total = 0;
    int64_t dropped = 0;
    bool too_big = false;
    for (const SynthTaskClass& tc : jc.tasks) {
      const int64_t count = std::max<int64_t>(Round(Draw(tc.count, &rng)), 0);
      const int64_t memory = std::max<int64_t>(Round(Draw(tc.memory, &rng)), 1024);
      const int64_t vcores = std::clamp<int64_t>(Round(Draw(tc.vcores, &rng)), 1, INT32_MAX);
      if (count > options_.read.max_tasks_per_job - total) {
        too_big = true;
        break;
      }
      total += count;
      for (int64_t i = 0; i < count; ++i) {
        const int64_t time = Round(Draw(tc.time, &rng));
        if (time <= 0) {
          ++dropped;
          continue;
        }
        TraceTask task;
        task.duration_ms =
            time > INT64_MAX / options_.time_unit_ms ? INT64_MAX : time * options_.time_unit_ms;
        task.memory_mb = std::max(memory, options_.read.min_memory_mb);
        task.vcores = std::max(static_cast<int32_t>(vcores), options_.read.min_vcores);
        stages.Add(tc.kind, tc.priority, std::move(task));
      }
    }
    if (too_big) {
      const Status error = Status::InvalidArgument(
          name_ + ": job " + job.id + " of class " + jc.name + " samples more than " +
          std::to_string(options_.read.max_tasks_per_job) + " tasks");
      if (!options_.read.skip_bad) return error;
      ++stats_.skipped;
      if (static_cast<int>(stats_.examples.size()) < options_.read.max_examples) {
        stats_.examples.push_back(error.message());
      }
      continue;
    }
    if (dropped > 0) CountDropped("synthetic task time rounds to <= 0", dropped);
    if (stages.empty()) {
      CountDropped("job has no tasks", 1);
      continue;
    }
    job.stages = stages.Take();
    ++stats_.jobs;
    stats_.tasks += job.task_count();
    *out = std::move(job);
    return true;
  }
  return false;
}

}  // namespace spindle::replay::hadoop
