#include "cmd/doctor.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <map>
#include <system_error>

#include "base/json/json_writer.h"
#include "rm/config/configuration.h"
#include "rm/config/key_catalog.h"
#include "rm/queues/queue_tree.h"
#include "rm/recovery/recovery_config.h"
#include "scheduler_pool/pool_options.h"

namespace spindle {

namespace {

namespace fs = std::filesystem;
using rm::KeySpec;
using rm::KeyStatus;
using rm::KeySupport;

// The files a ResourceManager reads, in Hadoop's order (later ones win).
constexpr const char* kRmFiles[] = {"core-site.xml", "yarn-site.xml", "capacity-scheduler.xml"};
constexpr char kMapredSite[] = "mapred-site.xml";
constexpr char kFairScheduler[] = "fair-scheduler.xml";
constexpr char kCapacitySchedulerXml[] = "capacity-scheduler.xml";
constexpr char kHadoopVersionKey[] = "spindle.compat.hadoop-version";

std::string BaseName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::string Upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// Why `value` does not parse as Spindle reads the key, or "" if it does.
std::string ParseProblem(const rm::Configuration& conf, const std::string& key,
                         const std::string& value, rm::ValueKind kind) {
  switch (kind) {
    case rm::ValueKind::kText:
      return "";
    case rm::ValueKind::kInt: {
      auto parsed = conf.GetInt(key, 0);
      return parsed.ok() ? "" : parsed.status().message();
    }
    case rm::ValueKind::kBool: {
      auto parsed = conf.GetBool(key, false);
      return parsed.ok() ? "" : parsed.status().message();
    }
    case rm::ValueKind::kDouble: {
      auto parsed = conf.GetDouble(key, 0);
      return parsed.ok() ? "" : parsed.status().message();
    }
    case rm::ValueKind::kHostPort: {
      if (!rm::ParseSocketAddress(conf.GetTrimmed(key).value_or("")).has_value()) {
        return "'" + value + "' is not host:port";
      }
      return "";
    }
  }
  return "";
}

std::string ReaderNames(uint8_t readers) {
  std::string out;
  auto add = [&out](const char* name) { out += out.empty() ? name : std::string(" and ") + name; };
  if (readers & rm::kReadByRm) add("spindle rm");
  if (readers & rm::kReadByNm) add("spindle nm");
  if (readers & rm::kReadByShell) add("spindle shell");
  return out;
}

std::string DefaultsText(const std::string& spindle, const std::string& hadoop,
                         const std::string& line) {
  return "Spindle's default " + (spindle.empty() ? "''" : spindle) + ", Hadoop " + line + "'s " +
         (hadoop.empty() ? "''" : hadoop);
}

class Examiner {
 public:
  explicit Examiner(const DoctorOptions& options) : options_(options) {
    report_.conf_dir = options.conf_dir;
  }

  DoctorReport Run() {
    if (!CheckDirectory()) return Finish();
    LoadFiles();
    ChooseLine();
    const std::optional<rm::QueueTree> tree = CheckQueues();
    for (const std::string& key : rm_conf_.Keys()) ExamineKey(rm_conf_, key, tree);
    for (const std::string& key : mapred_conf_.Keys()) ExamineKey(mapred_conf_, key, tree);
    CheckUnsetDefaults();
    CheckFairScheduler();
    CheckStart();
    return Finish();
  }

 private:
  void Add(DoctorFinding finding) { report_.findings.push_back(std::move(finding)); }

  void AddFileProblem(DoctorSeverity severity, const std::string& file, std::string message) {
    DoctorFinding f;
    f.severity = severity;
    f.file = file;
    f.status = "file";
    f.message = std::move(message);
    Add(std::move(f));
  }

  bool CheckDirectory() {
    const std::string& dir = options_.conf_dir;
    std::error_code ec;
    const fs::file_status status = fs::status(dir, ec);
    std::string problem;
    if (dir.empty()) {
      problem = "no configuration directory given (--conf DIR)";
    } else if (ec || !fs::exists(status)) {
      problem = "the configuration directory " + dir + " does not exist";
    } else if (!fs::is_directory(status)) {
      problem = dir + " is not a directory (--conf names the directory holding yarn-site.xml)";
    } else {
      fs::directory_iterator it(dir, ec);
      if (ec) problem = "cannot read the configuration directory " + dir + ": " + ec.message();
    }
    if (problem.empty()) return true;
    AddFileProblem(DoctorSeverity::kBlocker, "", problem + " (spindle rm --conf needs it)");
    return false;
  }

  void LoadFiles() {
    for (const char* name : kRmFiles) {
      const std::string path = options_.conf_dir + "/" + name;
      if (!fs::exists(path)) continue;
      Status added = rm_conf_.AddResourceFile(path);
      if (added.ok()) {
        report_.files.push_back(name);
      } else {
        AddFileProblem(DoctorSeverity::kBlocker, name,
                       added.message() + "; spindle rm cannot use this file");
      }
    }
    const std::string mapred = options_.conf_dir + "/" + kMapredSite;
    if (fs::exists(mapred)) {
      Status added = mapred_conf_.AddResourceFile(mapred);
      if (added.ok()) {
        report_.files.push_back(kMapredSite);
      } else {
        AddFileProblem(DoctorSeverity::kWarning, kMapredSite,
                       added.message() +
                           "; a ResourceManager does not read it, but Hadoop clients and "
                           "MapReduce jobs fail on it");
      }
    }
    if (!fs::exists(options_.conf_dir + "/yarn-site.xml")) {
      AddFileProblem(DoctorSeverity::kNote, "yarn-site.xml",
                     "not present: every ResourceManager key takes its default");
    }
  }

  void ChooseLine() {
    line_ = rm::kNewestHadoopLine;
    // Spindle takes its line-dependent defaults from the configuration's
    // line, whatever line --hadoop-version compares with.
    spindle_line_ = rm::kNewestHadoopLine;
    if (auto own = rm_conf_.GetTrimmed(kHadoopVersionKey); own.has_value()) {
      spindle_line_ = rm::HadoopLineIndex(*own).value_or(rm::kNewestHadoopLine);
    }
    std::string version = options_.hadoop_version;
    std::string origin = "--hadoop-version";
    if (version.empty()) {
      version = rm_conf_.GetTrimmed(kHadoopVersionKey).value_or("");
      origin = BaseName(rm_conf_.SourceOf(kHadoopVersionKey)) + ": " + kHadoopVersionKey;
    }
    if (!version.empty()) {
      if (auto index = rm::HadoopLineIndex(version); index.has_value()) {
        line_ = *index;
      } else {
        DoctorFinding f;
        f.severity = DoctorSeverity::kBlocker;
        f.key = kHadoopVersionKey;
        f.value = version;
        f.status = "unsupported";
        f.message = origin + " = '" + version +
                    "' is not a Hadoop line Spindle knows (2.6, 2.7, 3.3); compared with 3.3";
        Add(std::move(f));
      }
    }
    report_.hadoop_line = rm::kHadoopLineNames[static_cast<size_t>(line_)];
  }

  const char* HadoopDefault(const KeySpec& spec) const {
    return spec.hadoop_default[static_cast<size_t>(line_)];
  }

  std::optional<rm::QueueTree> CheckQueues() {
    auto tree = rm::QueueTree::Parse(rm_conf_);
    if (tree.ok()) return std::move(tree).value();
    DoctorFinding f;
    f.severity = DoctorSeverity::kBlocker;
    f.file = kCapacitySchedulerXml;
    f.status = "start check";
    f.message = "spindle rm refuses to start: " + tree.status().message();
    if (!fs::exists(options_.conf_dir + "/" + kCapacitySchedulerXml)) {
      f.message +=
          " (capacity-scheduler.xml is missing: Hadoop falls back to the one in its jar, with the "
          "single queue root.default; Spindle needs it in the directory)";
    }
    Add(std::move(f));
    return std::nullopt;
  }

  void ExamineKey(const rm::Configuration& conf, const std::string& key,
                  const std::optional<rm::QueueTree>& tree) {
    DoctorFinding f;
    f.file = BaseName(conf.SourceOf(key));
    f.key = key;
    f.value = conf.Get(key).value_or("");
    const std::string& value = *f.value;
    std::string queue_path;
    const KeySpec* spec = rm::FindKeySpec(key, &queue_path);
    if (spec == nullptr) {
      const bool ours =
          StartsWith(key, "yarn.") || StartsWith(key, "hadoop.") || StartsWith(key, "spindle.");
      f.severity = ours ? DoctorSeverity::kWarning : DoctorSeverity::kNote;
      f.status = rm::KeyStatusName(KeyStatus::kUnknown);
      f.message = ours ? "Spindle does not know this key and does not read it"
                       : "not a YARN key: Spindle does not read it";
      Add(std::move(f));
      return;
    }
    const KeyStatus status = rm::StatusOn(*spec, line_, spindle_line_);
    f.status = rm::KeyStatusName(status);
    if (const char* d = rm::SpindleDefaultOn(*spec, spindle_line_); d != nullptr) {
      f.spindle_default = d;
    }
    if (HadoopDefault(*spec) != nullptr) f.hadoop_default = HadoopDefault(*spec);

    // A value Spindle cannot parse stops the command that reads it.
    if (spec->readers != rm::kReadByNone) {
      const std::string problem = ParseProblem(conf, key, value, spec->kind);
      if (!problem.empty()) {
        const bool rm_reads = (spec->readers & rm::kReadByRm) != 0;
        f.severity = rm_reads ? DoctorSeverity::kBlocker : DoctorSeverity::kWarning;
        f.status = "bad value";
        f.message = problem + ": " + ReaderNames(spec->readers) + " refuses to start on it";
        Add(std::move(f));
        return;
      }
    }
    // A per-queue key of a queue that is not in the tree.
    if (!queue_path.empty() && tree.has_value()) {
      const rm::CsQueue* queue = tree->Find(queue_path);
      if (queue == nullptr || queue->path != queue_path) {
        f.severity = DoctorSeverity::kWarning;
        f.status = "queue";
        f.message = "queue " + queue_path +
                    " is not in the queue tree (yarn.scheduler.capacity.<parent>.queues): the "
                    "key has no effect, in Hadoop as in Spindle";
        Add(std::move(f));
        return;
      }
    }
    const bool matches = rm::ValueMatches(*spec, value);
    if (!matches) {
      f.severity = ToSeverity(spec->impact);
      if (spec->support == KeySupport::kHonoured) f.status = "unsupported value";
      f.message = spec->mismatch_effect != nullptr ? spec->mismatch_effect : spec->effect;
      Add(std::move(f));
      return;
    }
    switch (spec->support) {
      case KeySupport::kHonoured:
        f.severity = DoctorSeverity::kOk;
        f.message = spec->effect;
        if (status == KeyStatus::kHonouredOtherDefault) {
          f.message += " (" +
                       DefaultsText(f.spindle_default, f.hadoop_default, report_.hadoop_line) +
                       "; set here, so the defaults do not matter)";
        }
        break;
      case KeySupport::kIgnored:
      case KeySupport::kUnsupported:
        if (spec->matching_values != nullptr) {
          f.severity = DoctorSeverity::kOk;
          f.message = "what Spindle does anyway: " + std::string(spec->effect);
        } else {
          f.severity = ToSeverity(spec->impact);
          f.message = spec->mismatch_effect != nullptr ? spec->mismatch_effect : spec->effect;
        }
        break;
      case KeySupport::kNotForRm:
        f.severity = DoctorSeverity::kNote;
        f.message = spec->effect;
        if (spec->readers != rm::kReadByNone) {
          f.message += "; " + ReaderNames(spec->readers) + " honours it";
          if (!f.spindle_default.empty() && f.spindle_default != f.hadoop_default) {
            f.message +=
                " (" + DefaultsText(f.spindle_default, f.hadoop_default, report_.hadoop_line) + ")";
          }
        }
        break;
    }
    Add(std::move(f));
  }

  static DoctorSeverity ToSeverity(rm::Impact impact) {
    switch (impact) {
      case rm::Impact::kNote:
        return DoctorSeverity::kNote;
      case rm::Impact::kWarning:
        return DoctorSeverity::kWarning;
      case rm::Impact::kBlocker:
        return DoctorSeverity::kBlocker;
    }
    return DoctorSeverity::kWarning;
  }

  // RM keys the operator left unset whose Spindle default is not the line's.
  void CheckUnsetDefaults() {
    for (const KeySpec& spec : rm::KeyCatalog()) {
      if ((spec.readers & rm::kReadByRm) == 0) continue;
      if (std::string_view(spec.pattern).find_first_of("<*") != std::string_view::npos) continue;
      if (rm::StatusOn(spec, line_, spindle_line_) != KeyStatus::kHonouredOtherDefault) continue;
      if (rm_conf_.IsSet(spec.pattern)) continue;
      DoctorFinding f;
      f.severity = DoctorSeverity::kWarning;
      f.key = spec.pattern;
      f.status = "default differs";
      f.spindle_default = rm::SpindleDefaultOn(spec, spindle_line_);
      f.hadoop_default = HadoopDefault(spec);
      f.message =
          "not set: " + DefaultsText(f.spindle_default, f.hadoop_default, report_.hadoop_line) +
          " - " + spec.effect;
      // A default described in words ("(Hadoop 2.7's list)") cannot be pasted in.
      if (!f.hadoop_default.starts_with("(")) {
        f.message += "; set it to " + f.hadoop_default + " to keep Hadoop " + report_.hadoop_line +
                     "'s behaviour";
      }
      Add(std::move(f));
    }
  }

  void CheckFairScheduler() {
    if (!fs::exists(options_.conf_dir + "/" + kFairScheduler)) return;
    const std::string scheduler =
        rm_conf_.GetTrimmed("yarn.resourcemanager.scheduler.class").value_or("");
    const bool fair = scheduler.find("FairScheduler") != std::string::npos;
    AddFileProblem(
        fair ? DoctorSeverity::kBlocker : DoctorSeverity::kNote, kFairScheduler,
        fair
            ? "the FairScheduler's allocation file: Spindle implements only the CapacityScheduler, "
              "so its queues, weights and placement rules are not read"
            : "present, but the configured scheduler is the CapacityScheduler: not read (Hadoop "
              "does not read it either)");
    report_.files.push_back(kFairScheduler);
  }

  // Spindle's own start-up readers, for what the catalogue does not check
  // (ranges, combinations). A failure already reported as a blocker on a key
  // its message names is not repeated.
  void CheckStart() {
    std::map<std::string, std::string> pool_keys;
    for (const auto& key : rm_conf_.KeysWithPrefix(pool::kPoolKeyPrefix)) {
      pool_keys[key] = rm_conf_.Get(key, "");
    }
    auto pool = pool::PoolOptions::FromMap(pool_keys);
    if (!pool.ok()) AddStartProblem(pool.status().message());
    auto recovery = rm::RecoveryConfig::FromConfiguration(rm_conf_);
    if (!recovery.ok()) AddStartProblem(recovery.status().message());
  }

  void AddStartProblem(const std::string& message) {
    for (const DoctorFinding& f : report_.findings) {
      if (f.severity == DoctorSeverity::kBlocker && !f.key.empty() &&
          message.find(f.key) != std::string::npos) {
        return;
      }
    }
    DoctorFinding f;
    f.severity = DoctorSeverity::kBlocker;
    f.status = "start check";
    f.message = "spindle rm refuses to start: " + message;
    Add(std::move(f));
  }

  DoctorReport Finish() {
    if (report_.hadoop_line.empty()) {
      report_.hadoop_line = rm::kHadoopLineNames[static_cast<size_t>(rm::kNewestHadoopLine)];
    }
    std::stable_sort(report_.findings.begin(), report_.findings.end(),
                     [](const DoctorFinding& a, const DoctorFinding& b) {
                       auto rank = [](DoctorSeverity s) {
                         switch (s) {
                           case DoctorSeverity::kBlocker:
                             return 0;
                           case DoctorSeverity::kWarning:
                             return 1;
                           case DoctorSeverity::kOk:
                             return 2;
                           case DoctorSeverity::kNote:
                             return 3;
                         }
                         return 4;
                       };
                       return rank(a.severity) < rank(b.severity);
                     });
    return std::move(report_);
  }

  const DoctorOptions& options_;
  DoctorReport report_;
  rm::Configuration rm_conf_;
  rm::Configuration mapred_conf_;
  int line_ = rm::kNewestHadoopLine;
  int spindle_line_ = rm::kNewestHadoopLine;  // the line Spindle would stand in for
};

std::string Plural(int n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

const char* DoctorSeverityName(DoctorSeverity severity) {
  switch (severity) {
    case DoctorSeverity::kOk:
      return "ok";
    case DoctorSeverity::kNote:
      return "note";
    case DoctorSeverity::kWarning:
      return "warning";
    case DoctorSeverity::kBlocker:
      return "blocker";
  }
  return "?";
}

int DoctorReport::Count(DoctorSeverity severity) const {
  return static_cast<int>(
      std::count_if(findings.begin(), findings.end(),
                    [severity](const DoctorFinding& f) { return f.severity == severity; }));
}

int DoctorReport::ExitCode() const {
  if (Count(DoctorSeverity::kBlocker) > 0) return 2;
  if (Count(DoctorSeverity::kWarning) > 0) return 1;
  return 0;
}

DoctorReport ExamineConfiguration(const DoctorOptions& options) { return Examiner(options).Run(); }

std::string DoctorFindingHeadline(const DoctorFinding& finding) {
  std::string line = Upper(DoctorSeverityName(finding.severity));
  line.resize(9, ' ');
  std::string where = finding.file;
  if (!finding.key.empty()) {
    if (!where.empty()) where += ": ";
    where += finding.key;
    if (finding.value.has_value()) where += " = " + *finding.value;
  }
  return line + (where.empty() ? "(directory)" : where);
}

std::string DoctorText(const DoctorReport& report) {
  std::string out = "spindle doctor: " + report.conf_dir + " (defaults compared with Hadoop " +
                    report.hadoop_line + ")\n";
  out += "files read:";
  if (report.files.empty()) out += " none";
  for (const auto& file : report.files) out += " " + file;
  out += "\n\n";
  for (const DoctorFinding& f : report.findings) {
    out += DoctorFindingHeadline(f) + "\n";
    out += "         " + f.status + ": " + f.message + "\n";
  }
  const int code = report.ExitCode();
  out += "\nsummary: " + Plural(report.Count(DoctorSeverity::kBlocker), "blocker") + ", " +
         Plural(report.Count(DoctorSeverity::kWarning), "warning") + ", " +
         std::to_string(report.Count(DoctorSeverity::kOk)) + " ok, " +
         Plural(report.Count(DoctorSeverity::kNote), "note") + "; exit " + std::to_string(code) +
         (code == 0   ? " (ready: Spindle can replace this ResourceManager as configured)"
          : code == 1 ? " (warnings: Spindle starts, but not everything above works as in Hadoop)"
                      : " (blockers: Spindle cannot replace this ResourceManager as configured)") +
         "\n";
  return out;
}

std::string DoctorJson(const DoctorReport& report) {
  json::JsonWriter w;
  w.BeginObject();
  w.Field("conf_dir", report.conf_dir);
  w.Field("hadoop_line", report.hadoop_line);
  w.Key("files");
  w.BeginArray();
  for (const auto& file : report.files) w.Str(file);
  w.EndArray();
  w.Key("findings");
  w.BeginArray();
  for (const DoctorFinding& f : report.findings) {
    w.BeginObject();
    w.Field("severity", DoctorSeverityName(f.severity));
    w.Field("file", f.file);
    w.Field("key", f.key);
    if (f.value.has_value()) w.Field("value", *f.value);  // absent when the key is not set
    w.Field("status", f.status);
    w.Field("message", f.message);
    w.Field("spindle_default", f.spindle_default);
    w.Field("hadoop_default", f.hadoop_default);
    w.EndObject();
  }
  w.EndArray();
  w.Key("summary");
  w.BeginObject();
  w.Field("blockers", report.Count(DoctorSeverity::kBlocker));
  w.Field("warnings", report.Count(DoctorSeverity::kWarning));
  w.Field("ok", report.Count(DoctorSeverity::kOk));
  w.Field("notes", report.Count(DoctorSeverity::kNote));
  w.EndObject();
  w.Field("exit_code", report.ExitCode());
  w.EndObject();
  return w.Take() + "\n";
}

int DoctorMain(const DoctorOptions& options, std::ostream& out, std::ostream& err) {
  if (options.conf_dir.empty()) {
    err << "spindle doctor: --conf DIR is required (the Hadoop configuration directory, "
           "$HADOOP_CONF_DIR)\n";
    return 2;
  }
  if (!options.hadoop_version.empty() && !rm::HadoopLineIndex(options.hadoop_version)) {
    err << "spindle doctor: --hadoop-version " << options.hadoop_version
        << " is not a Hadoop line Spindle knows (2.6, 2.7, 3.3)\n";
    return 2;
  }
  const DoctorReport report = ExamineConfiguration(options);
  out << (options.json ? DoctorJson(report) : DoctorText(report));
  for (const DoctorFinding& f : report.findings) {
    if (f.status == "file" && f.file.empty()) err << "spindle doctor: " << f.message << "\n";
  }
  return report.ExitCode();
}

}  // namespace spindle
