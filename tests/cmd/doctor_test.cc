#include "cmd/doctor.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "base/json/json_stream.h"

namespace spindle {
namespace {

namespace fs = std::filesystem;

const fs::path kCaptures = fs::path(SPINDLE_SHARED_DIR) / "captures" / "hadoop-2.6.0";
const fs::path kSlsConf = fs::path(SPINDLE_SHARED_DIR) / "traces" / "hadoop-sls";

std::string Xml(const std::map<std::string, std::string>& properties) {
  std::string xml = "<?xml version=\"1.0\"?>\n<configuration>\n";
  for (const auto& [name, value] : properties) {
    xml += "  <property><name>" + name + "</name><value>" + value + "</value></property>\n";
  }
  return xml + "</configuration>\n";
}

// A conf dir of its own for each test, removed at the end.
class ConfDir {
 public:
  ConfDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = fs::temp_directory_path() /
            ("spindle_doctor_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
    // The queues every conf needs, so that each test shows only its own finding.
    Write("capacity-scheduler.xml",
          Xml({{"yarn.scheduler.capacity.root.queues", "default"},
               {"yarn.scheduler.capacity.root.default.capacity", "100"}}));
  }
  ~ConfDir() { fs::remove_all(path_); }
  void Write(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name) << text;
  }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

// Keys whose Spindle default is not Hadoop 3.3's, set to Hadoop's values so
// that no "default differs" warning hides the finding a test looks at.
std::map<std::string, std::string> Hadoop33Defaults() {
  return {{"yarn.resourcemanager.recovery.enabled", "false"},
          {"yarn.resourcemanager.store.class",
           "org.apache.hadoop.yarn.server.resourcemanager.recovery.NullRMStateStore"},
          {"yarn.resourcemanager.admin.client.thread-count", "1"},
          {"ipc.maximum.data.length", "134217728"},
          {"yarn.resourcemanager.max-completed-applications", "1000"}};
}

std::map<std::string, std::string> With(std::map<std::string, std::string> base,
                                        const std::map<std::string, std::string>& more) {
  for (const auto& [k, v] : more) base[k] = v;
  return base;
}

const DoctorFinding* Find(const DoctorReport& report, const std::string& key) {
  for (const auto& f : report.findings) {
    if (f.key == key) return &f;
  }
  return nullptr;
}

std::vector<const DoctorFinding*> AtLeast(const DoctorReport& report, DoctorSeverity severity) {
  std::vector<const DoctorFinding*> out;
  for (const auto& f : report.findings) {
    if (static_cast<int>(f.severity) >= static_cast<int>(severity)) out.push_back(&f);
  }
  return out;
}

struct Expected {
  const char* key;
  DoctorSeverity severity;
  const char* status;
};

void ExpectFindings(const DoctorReport& report, const std::vector<Expected>& expected) {
  for (const Expected& e : expected) {
    const DoctorFinding* f = Find(report, e.key);
    ASSERT_NE(f, nullptr) << e.key;
    EXPECT_EQ(f->severity, e.severity) << e.key << ": " << f->message;
    EXPECT_EQ(f->status, e.status) << e.key << ": " << f->message;
  }
}

// The JSON report parses and says what the text report says.
void ExpectJsonMatchesText(const DoctorOptions& options) {
  DoctorOptions as_text = options;
  as_text.json = false;
  DoctorOptions as_json = options;
  as_json.json = true;
  std::ostringstream text, json_out, err;
  const int text_code = DoctorMain(as_text, text, err);
  const int json_code = DoctorMain(as_json, json_out, err);
  EXPECT_EQ(text_code, json_code);

  auto stream = json::JsonStream::FromString("doctor.json", json_out.str());
  json::JsonValue doc;
  auto got = stream->Next(&doc);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_TRUE(*got);
  json::JsonValue extra;
  auto more = stream->Next(&extra);
  ASSERT_TRUE(more.ok()) << more.status().ToString();
  EXPECT_FALSE(*more) << "one JSON document";
  ASSERT_TRUE(doc.is_object());
  EXPECT_EQ(doc.Find("exit_code")->AsInt64(), text_code);
  EXPECT_NE(
      text.str().find("(defaults compared with Hadoop " + doc.Find("hadoop_line")->text() + ")"),
      std::string::npos);

  const std::string report = text.str();
  const auto& findings = doc.Find("findings")->elements();
  std::map<std::string, int64_t> counted;
  size_t lines = 0;
  for (const auto& f : findings) {
    DoctorFinding parsed;
    const std::string severity = f.Find("severity")->text();
    for (auto s : {DoctorSeverity::kOk, DoctorSeverity::kNote, DoctorSeverity::kWarning,
                   DoctorSeverity::kBlocker}) {
      if (severity == DoctorSeverityName(s)) parsed.severity = s;
    }
    EXPECT_EQ(DoctorSeverityName(parsed.severity), severity);
    parsed.file = f.Find("file")->text();
    parsed.key = f.Find("key")->text();
    if (const auto* value = f.Find("value"); value != nullptr) parsed.value = value->text();
    const std::string detail = f.Find("status")->text() + ": " + f.Find("message")->text();
    const std::string pair = DoctorFindingHeadline(parsed) + "\n         " + detail + "\n";
    EXPECT_NE(report.find(pair), std::string::npos) << "not in the text report:\n" << pair;
    ++counted[severity];
    ++lines;
  }
  const auto* summary = doc.Find("summary");
  EXPECT_EQ(summary->Find("blockers")->AsInt64(), counted["blocker"]);
  EXPECT_EQ(summary->Find("warnings")->AsInt64(), counted["warning"]);
  EXPECT_EQ(summary->Find("ok")->AsInt64(), counted["ok"]);
  EXPECT_EQ(summary->Find("notes")->AsInt64(), counted["note"]);
  // As many findings in the text as in the JSON: each has one headline.
  size_t headlines = 0;
  std::istringstream in(report);
  for (std::string line; std::getline(in, line);) {
    for (const char* label : {"BLOCKER  ", "WARNING  ", "OK       ", "NOTE     "}) {
      if (line.starts_with(label)) ++headlines;
    }
  }
  EXPECT_EQ(headlines, lines);
}

// ---- the captured Hadoop 2.6.0 configurations ----

TEST(DoctorTest, CapturedHadoop26ConfsStartWithWarningsOnly) {
  int dirs = 0;
  for (const auto& scenario : fs::directory_iterator(kCaptures)) {
    const fs::path conf = scenario.path() / "conf";
    if (!fs::is_directory(conf)) continue;
    ++dirs;
    SCOPED_TRACE(conf.string());
    DoctorOptions options{conf.string(), false, "2.6"};
    const DoctorReport report = ExamineConfiguration(options);
    EXPECT_EQ(report.hadoop_line, "2.6");
    EXPECT_EQ(report.files,
              (std::vector<std::string>{"core-site.xml", "yarn-site.xml", "capacity-scheduler.xml",
                                        "mapred-site.xml"}));
    EXPECT_EQ(report.ExitCode(), 1);
    EXPECT_EQ(report.Count(DoctorSeverity::kBlocker), 0);
    ExpectFindings(
        report,
        {
            {"yarn.resourcemanager.address", DoctorSeverity::kOk, "honoured"},
            {"yarn.resourcemanager.resource-tracker.address", DoctorSeverity::kOk, "honoured"},
            {"yarn.resourcemanager.webapp.address", DoctorSeverity::kOk, "honoured"},
            {"yarn.scheduler.minimum-allocation-mb", DoctorSeverity::kOk, "honoured"},
            {"yarn.web-proxy.address", DoctorSeverity::kOk, "honoured"},
            {"yarn.scheduler.capacity.root.queues", DoctorSeverity::kOk, "honoured"},
            {"yarn.scheduler.capacity.root.default.capacity", DoctorSeverity::kOk,
             "honoured, different default"},
            {"yarn.scheduler.capacity.maximum-am-resource-percent", DoctorSeverity::kOk,
             "honoured"},
            {"yarn.resourcemanager.connect.max-wait.ms", DoctorSeverity::kNote,
             "not read by a ResourceManager"},
            {"yarn.nodemanager.aux-services", DoctorSeverity::kNote,
             "not read by a ResourceManager"},
            {"yarn.nodemanager.resource.memory-mb", DoctorSeverity::kNote,
             "not read by a ResourceManager"},
            {"ipc.client.connect.max.retries", DoctorSeverity::kNote,
             "not read by a ResourceManager"},
            // Read for a FileSystemRMStateStore URI without a scheme.
            {"fs.defaultFS", DoctorSeverity::kOk, "honoured"},
            {"mapreduce.framework.name", DoctorSeverity::kNote, "not read by a ResourceManager"},
            // Not set there: Spindle's defaults that are not 2.6's (these confs
            // leave spindle.compat.hadoop-version at 3.3).
            {"yarn.scheduler.maximum-allocation-vcores", DoctorSeverity::kWarning,
             "default differs"},
            {"yarn.resourcemanager.max-completed-applications", DoctorSeverity::kWarning,
             "default differs"},
            {"yarn.resourcemanager.admin.client.thread-count", DoctorSeverity::kWarning,
             "default differs"},
        });
    // Every warning is a default that differs: no key of the file is unknown.
    for (const DoctorFinding* f : AtLeast(report, DoctorSeverity::kWarning)) {
      EXPECT_EQ(f->status, "default differs") << f->key << ": " << f->message;
    }
    EXPECT_EQ(Find(report, "yarn.resourcemanager.recovery.enabled"), nullptr)
        << "2.6's default is Spindle's";
    const DoctorFinding* log_dirs = Find(report, "yarn.nodemanager.log-dirs");
    ASSERT_NE(log_dirs, nullptr);
    EXPECT_EQ(log_dirs->file, "yarn-site.xml");
    EXPECT_TRUE(log_dirs->value->ends_with("/nm-log-dir")) << *log_dirs->value;
    ExpectJsonMatchesText(options);
  }
  EXPECT_EQ(dirs, 5);
}

// Every captured configuration (captures/<hadoop-release>/<scenario>/conf),
// against its own line: every key is one the catalogue knows, and the JSON
// report says what the text says.
TEST(DoctorTest, EveryCapturedConfIsFullyCatalogued) {
  int dirs = 0;
  for (const auto& release : fs::directory_iterator(kCaptures.parent_path())) {
    const std::string name = release.path().filename().string();
    if (!release.is_directory() || !name.starts_with("hadoop-")) continue;
    for (const auto& scenario : fs::directory_iterator(release.path())) {
      const fs::path conf = scenario.path() / "conf";
      if (!fs::is_directory(conf)) continue;
      ++dirs;
      SCOPED_TRACE(conf.string());
      const DoctorOptions options{conf.string(), false, name.substr(7)};
      const DoctorReport report = ExamineConfiguration(options);
      EXPECT_EQ(report.hadoop_line, name.substr(7, 3));
      for (const DoctorFinding& f : report.findings) {
        EXPECT_NE(f.status, "unknown to Spindle: ignored") << f.file << ": " << f.key;
        EXPECT_NE(f.status, "file") << f.file << ": " << f.message;
      }
      ExpectJsonMatchesText(options);
    }
  }
  EXPECT_GE(dirs, 5);
}

TEST(DoctorTest, CapturedConfAgainstTheNewestLine) {
  const DoctorReport report =
      ExamineConfiguration({(kCaptures / "mapreduce-pi" / "conf").string(), false, ""});
  EXPECT_EQ(report.hadoop_line, "3.3");
  EXPECT_EQ(Find(report, "yarn.scheduler.maximum-allocation-vcores"), nullptr)
      << "3.3's default is Spindle's";
  // Spindle takes the 3.3 line's defaults: no difference to report.
  EXPECT_EQ(Find(report, "yarn.resourcemanager.max-completed-applications"), nullptr);
  EXPECT_EQ(Find(report, "ipc.maximum.data.length"), nullptr);
  ExpectFindings(
      report, {{"yarn.scheduler.capacity.root.default.capacity", DoctorSeverity::kOk, "honoured"}});
  EXPECT_EQ(report.ExitCode(), 1);
}

// ---- the SLS configuration: a FairScheduler with reservations ----

TEST(DoctorTest, SlsConfIsBlockedByTheFairScheduler) {
  DoctorOptions options{kSlsConf.string(), false, ""};
  const DoctorReport report = ExamineConfiguration(options);
  EXPECT_EQ(report.ExitCode(), 2);
  EXPECT_EQ(report.files, (std::vector<std::string>{"yarn-site.xml", "capacity-scheduler.xml"}));
  ExpectFindings(
      report,
      {
          {"yarn.resourcemanager.scheduler.class", DoctorSeverity::kBlocker, "unsupported value"},
          {"yarn.scheduler.fair.preemption", DoctorSeverity::kWarning, "unsupported"},
          {"yarn.scheduler.fair.assignmultiple", DoctorSeverity::kWarning, "unsupported"},
          {"yarn.resourcemanager.reservation-system.enable", DoctorSeverity::kWarning,
           "unsupported"},
          {"yarn.scheduler.capacity.root.sls_queue_1.reservable", DoctorSeverity::kWarning,
           "ignored"},
          {"yarn.scheduler.capacity.root.sls_queue_1.show-reservations-as-queues",
           DoctorSeverity::kNote, "ignored"},
          {"yarn.scheduler.capacity.root.sls_queue_3.capacity", DoctorSeverity::kOk, "honoured"},
          {"yarn.resourcemanager.webapp.address", DoctorSeverity::kOk, "honoured"},
          {"hadoop.security.token.service.use_ip", DoctorSeverity::kNote, "ignored"},
      });
  EXPECT_EQ(report.Count(DoctorSeverity::kBlocker), 1);
  const DoctorFinding* scheduler = Find(report, "yarn.resourcemanager.scheduler.class");
  EXPECT_EQ(scheduler->file, "yarn-site.xml");
  EXPECT_NE(scheduler->message.find("only the CapacityScheduler"), std::string::npos);
  ExpectJsonMatchesText(options);
}

// ---- hand-made confs, one per kind of finding ----

TEST(DoctorTest, AConfThatSetsHadoopsDefaultsIsReady) {
  ConfDir dir;
  dir.Write("yarn-site.xml",
            Xml(With(Hadoop33Defaults(), {{"yarn.resourcemanager.hostname", "rm.example.com"}})));
  std::ostringstream out, err;
  EXPECT_EQ(DoctorMain({dir.path(), false, ""}, out, err), 0) << out.str();
  EXPECT_NE(out.str().find("exit 0 (ready"), std::string::npos) << out.str();
  EXPECT_EQ(err.str(), "");
}

TEST(DoctorTest, ValuesAreShownAsSpindleReadsThem) {
  ConfDir dir;
  dir.Write("core-site.xml", Xml({{"hadoop.tmp.dir", "/data/tmp"}}));
  dir.Write("yarn-site.xml",
            Xml(With(Hadoop33Defaults(),
                     {{"yarn.resourcemanager.leveldb-state-store.path", "${hadoop.tmp.dir}/rm"}})));
  const DoctorReport report = ExamineConfiguration({dir.path(), false, ""});
  const DoctorFinding* path = Find(report, "yarn.resourcemanager.leveldb-state-store.path");
  ASSERT_NE(path, nullptr);
  EXPECT_EQ(path->value, "/data/tmp/rm");
  EXPECT_EQ(Find(report, "hadoop.tmp.dir")->file, "core-site.xml");
}

TEST(DoctorTest, KerberosIsHonouredAndOtherMethodsAreBlockers) {
  ConfDir dir;
  dir.Write("yarn-site.xml", Xml(Hadoop33Defaults()));
  dir.Write("core-site.xml", Xml({{"hadoop.security.authentication", "kerberos"}}));
  const DoctorReport kerberos = ExamineConfiguration({dir.path(), false, ""});
  EXPECT_TRUE(AtLeast(kerberos, DoctorSeverity::kBlocker).empty());
  dir.Write("core-site.xml", Xml({{"hadoop.security.authentication", "kerberos_ssl"}}));
  const DoctorReport report = ExamineConfiguration({dir.path(), false, ""});
  EXPECT_EQ(report.ExitCode(), 2);
  ExpectFindings(
      report, {{"hadoop.security.authentication", DoctorSeverity::kBlocker, "unsupported value"}});
  EXPECT_EQ(Find(report, "hadoop.security.authentication")->file, "core-site.xml");
}

TEST(DoctorTest, FairSchedulerAllocationFileIsABlockerWhenTheFairSchedulerIsConfigured) {
  ConfDir dir;
  dir.Write("fair-scheduler.xml", "<?xml version=\"1.0\"?>\n<allocations/>\n");
  dir.Write("yarn-site.xml", Xml(Hadoop33Defaults()));
  DoctorReport report = ExamineConfiguration({dir.path(), false, ""});
  EXPECT_EQ(report.ExitCode(), 0) << "unused allocation file: a note";
  ASSERT_FALSE(report.findings.empty());

  dir.Write(
      "yarn-site.xml",
      Xml(With(Hadoop33Defaults(), {{"yarn.resourcemanager.scheduler.class",
                                     "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair."
                                     "FairScheduler"}})));
  report = ExamineConfiguration({dir.path(), false, ""});
  EXPECT_EQ(report.ExitCode(), 2);
  EXPECT_EQ(report.Count(DoctorSeverity::kBlocker), 2);
  bool file_blocker = false;
  for (const auto& f : report.findings) {
    file_blocker |= f.file == "fair-scheduler.xml" && f.severity == DoctorSeverity::kBlocker;
  }
  EXPECT_TRUE(file_blocker);
}

TEST(DoctorTest, AnIgnoredKeyIsAWarning) {
  ConfDir dir;
  dir.Write("yarn-site.xml", Xml(Hadoop33Defaults()));
  dir.Write("capacity-scheduler.xml", Xml({{"yarn.scheduler.capacity.root.queues", "default"},
                                           {"yarn.scheduler.capacity.root.default.capacity", "100"},
                                           {"yarn.scheduler.capacity.node-locality-delay", "40"}}));
  const DoctorReport report = ExamineConfiguration({dir.path(), false, ""});
  EXPECT_EQ(report.ExitCode(), 1);
  ASSERT_EQ(AtLeast(report, DoctorSeverity::kWarning).size(), 1u);
  ExpectFindings(report, {{"yarn.scheduler.capacity.node-locality-delay", DoctorSeverity::kWarning,
                           "ignored"}});
  EXPECT_NE(Find(report, "yarn.scheduler.capacity.node-locality-delay")
                ->message.find("does not delay-schedule"),
            std::string::npos);
}

TEST(DoctorTest, AnIgnoredKeySetToWhatSpindleDoesIsFine) {
  ConfDir dir;
  dir.Write("yarn-site.xml",
            Xml(With(Hadoop33Defaults(),
                     {{"yarn.resourcemanager.ha.curator-leader-elector.enabled", "false"}})));
  const DoctorReport report = ExamineConfiguration({dir.path(), false, ""});
  EXPECT_EQ(report.ExitCode(), 0);
  ExpectFindings(report, {{"yarn.resourcemanager.ha.curator-leader-elector.enabled",
                           DoctorSeverity::kOk, "unsupported"}});

  dir.Write("yarn-site.xml",
            Xml(With(Hadoop33Defaults(),
                     {{"yarn.resourcemanager.ha.curator-leader-elector.enabled", "true"}})));
  EXPECT_EQ(ExamineConfiguration({dir.path(), false, ""}).ExitCode(), 2);
}

TEST(DoctorTest, DifferentDefaultsAreShownBothWays) {
  ConfDir dir;
  // Set: the defaults do not matter, both are shown.
  dir.Write("yarn-site.xml",
            Xml(With(Hadoop33Defaults(), {{"yarn.scheduler.maximum-allocation-vcores", "16"}})));
  DoctorReport report = ExamineConfiguration({dir.path(), false, "2.6"});
  ExpectFindings(report, {{"yarn.scheduler.maximum-allocation-vcores", DoctorSeverity::kOk,
                           "honoured, different default"}});
  const DoctorFinding* set = Find(report, "yarn.scheduler.maximum-allocation-vcores");
  EXPECT_EQ(set->spindle_default, "4");
  EXPECT_EQ(set->hadoop_default, "32");
  EXPECT_NE(set->message.find("Spindle's default 4, Hadoop 2.6's 32"), std::string::npos);

  // Not set: a warning naming both.
  dir.Write("yarn-site.xml", Xml(Hadoop33Defaults()));
  report = ExamineConfiguration({dir.path(), false, "2.6"});
  EXPECT_EQ(report.ExitCode(), 1);
  ExpectFindings(report, {{"yarn.scheduler.maximum-allocation-vcores", DoctorSeverity::kWarning,
                           "default differs"}});
  EXPECT_NE(Find(report, "yarn.scheduler.maximum-allocation-vcores")
                ->message.find("not set: Spindle's default 4, Hadoop 2.6's 32"),
            std::string::npos);
}

TEST(DoctorTest, TheHadoopLineComesFromTheConfiguration) {
  ConfDir dir;
  dir.Write("yarn-site.xml",
            Xml(With(Hadoop33Defaults(), {{"spindle.compat.hadoop-version", "2.7.7"}})));
  DoctorReport report = ExamineConfiguration({dir.path(), false, ""});
  EXPECT_EQ(report.hadoop_line, "2.7");
  // Spindle then stands in for 2.7 and takes its defaults: nothing differs.
  EXPECT_EQ(Find(report, "yarn.scheduler.maximum-allocation-vcores"), nullptr);

  dir.Write("yarn-site.xml",
            Xml(With(Hadoop33Defaults(), {{"spindle.compat.hadoop-version", "1.0"}})));
  report = ExamineConfiguration({dir.path(), false, ""});
  EXPECT_EQ(report.ExitCode(), 2);
  EXPECT_EQ(report.hadoop_line, "3.3");

  std::ostringstream out, err;
  EXPECT_EQ(DoctorMain({dir.path(), false, "9.9"}, out, err), 2);
  EXPECT_NE(err.str().find("--hadoop-version 9.9"), std::string::npos);
}

TEST(DoctorTest, IllFormedXmlIsABlockerNamingTheFile) {
  ConfDir dir;
  dir.Write("yarn-site.xml", "<?xml version=\"1.0\"?>\n<configuration>\n  <property><name>a");
  const DoctorReport report = ExamineConfiguration({dir.path(), false, ""});
  EXPECT_EQ(report.ExitCode(), 2);
  const auto problems = AtLeast(report, DoctorSeverity::kBlocker);
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems[0]->file, "yarn-site.xml");
  EXPECT_EQ(problems[0]->status, "file");
  EXPECT_NE(problems[0]->message.find("not well-formed"), std::string::npos)
      << problems[0]->message;

  // The same in mapred-site.xml, which no ResourceManager reads: a warning.
  ConfDir other;
  other.Write("yarn-site.xml", Xml(Hadoop33Defaults()));
  other.Write("mapred-site.xml", "<configuration><property>");
  const DoctorReport mapred = ExamineConfiguration({other.path(), false, ""});
  EXPECT_EQ(mapred.ExitCode(), 1);
}

TEST(DoctorTest, MissingDirectoryIsABlockerWithAClearMessage) {
  const std::string missing = (fs::temp_directory_path() / "spindle_doctor_no_such_dir").string();
  std::ostringstream out, err;
  EXPECT_EQ(DoctorMain({missing, false, ""}, out, err), 2);
  EXPECT_EQ(err.str(), "spindle doctor: the configuration directory " + missing +
                           " does not exist (spindle rm --conf needs it)\n");
  EXPECT_NE(out.str().find("BLOCKER  (directory)"), std::string::npos) << out.str();

  ConfDir dir;
  const std::string file = dir.path() + "/yarn-site.xml";
  dir.Write("yarn-site.xml", Xml({}));
  std::ostringstream out2, err2;
  EXPECT_EQ(DoctorMain({file, true, ""}, out2, err2), 2);
  EXPECT_NE(err2.str().find("is not a directory"), std::string::npos);

  std::ostringstream out3, err3;
  EXPECT_EQ(DoctorMain({"", false, ""}, out3, err3), 2);
  EXPECT_NE(err3.str().find("--conf DIR is required"), std::string::npos);
}

TEST(DoctorTest, AValueOfTheWrongTypeIsABlockerNamingFileAndKey) {
  ConfDir dir;
  dir.Write("yarn-site.xml",
            Xml(With(Hadoop33Defaults(), {{"yarn.scheduler.minimum-allocation-mb", "1g"},
                                          {"yarn.resourcemanager.address", "rm.example.com"}})));
  const DoctorReport report = ExamineConfiguration({dir.path(), false, ""});
  EXPECT_EQ(report.ExitCode(), 2);
  ExpectFindings(report,
                 {{"yarn.scheduler.minimum-allocation-mb", DoctorSeverity::kBlocker, "bad value"},
                  {"yarn.resourcemanager.address", DoctorSeverity::kBlocker, "bad value"}});
  const DoctorFinding* mb = Find(report, "yarn.scheduler.minimum-allocation-mb");
  EXPECT_EQ(mb->file, "yarn-site.xml");
  EXPECT_NE(mb->message.find("1g"), std::string::npos) << mb->message;
  EXPECT_NE(mb->message.find("spindle rm refuses to start"), std::string::npos);
}

TEST(DoctorTest, AnUnknownQueueIsAWarning) {
  ConfDir dir;
  dir.Write("yarn-site.xml", Xml(Hadoop33Defaults()));
  dir.Write("capacity-scheduler.xml",
            Xml({{"yarn.scheduler.capacity.root.queues", "default"},
                 {"yarn.scheduler.capacity.root.default.capacity", "100"},
                 {"yarn.scheduler.capacity.root.defualt.maximum-capacity", "50"}}));
  const DoctorReport report = ExamineConfiguration({dir.path(), false, ""});
  EXPECT_EQ(report.ExitCode(), 1);
  ExpectFindings(report, {{"yarn.scheduler.capacity.root.defualt.maximum-capacity",
                           DoctorSeverity::kWarning, "queue"}});
  EXPECT_NE(Find(report, "yarn.scheduler.capacity.root.defualt.maximum-capacity")
                ->message.find("queue root.defualt is not in the queue tree"),
            std::string::npos);
}

TEST(DoctorTest, ABrokenQueueTreeIsABlocker) {
  ConfDir dir;
  dir.Write("yarn-site.xml", Xml(Hadoop33Defaults()));
  dir.Write("capacity-scheduler.xml", Xml({{"yarn.scheduler.capacity.root.queues", "a,b"},
                                           {"yarn.scheduler.capacity.root.a.capacity", "60"},
                                           {"yarn.scheduler.capacity.root.b.capacity", "60"}}));
  const DoctorReport report = ExamineConfiguration({dir.path(), false, ""});
  EXPECT_EQ(report.ExitCode(), 2);
  const auto blockers = AtLeast(report, DoctorSeverity::kBlocker);
  ASSERT_EQ(blockers.size(), 1u);
  EXPECT_EQ(blockers[0]->status, "start check");
  EXPECT_NE(blockers[0]->message.find("must sum to 100"), std::string::npos)
      << blockers[0]->message;
}

TEST(DoctorTest, UnknownKeysAreReported) {
  ConfDir dir;
  dir.Write("yarn-site.xml",
            Xml(With(Hadoop33Defaults(), {{"yarn.resourcemanager.no-such-thing", "1"},
                                          {"spindle.store.pth", "/x"},
                                          {"spindle.scheduler.cuont", "4"}})));
  const DoctorReport report = ExamineConfiguration({dir.path(), false, ""});
  ExpectFindings(report,
                 {{"yarn.resourcemanager.no-such-thing", DoctorSeverity::kWarning,
                   "unknown to Spindle: ignored"},
                  {"spindle.store.pth", DoctorSeverity::kWarning, "unknown to Spindle: ignored"},
                  {"spindle.scheduler.cuont", DoctorSeverity::kBlocker, "unsupported"}});
  // Spindle's own start-up check says the same about spindle.scheduler.cuont: once.
  EXPECT_EQ(report.Count(DoctorSeverity::kBlocker), 1);
}

TEST(DoctorTest, AStoreSpindleLacksIsReportedOnce) {
  ConfDir dir;
  dir.Write("yarn-site.xml", Xml(With(Hadoop33Defaults(), {{"yarn.resourcemanager.store.class",
                                                            "com.example.OwnRMStateStore"}})));
  const DoctorReport report = ExamineConfiguration({dir.path(), false, ""});
  EXPECT_EQ(report.Count(DoctorSeverity::kBlocker), 1);
  ExpectFindings(report, {{"yarn.resourcemanager.store.class", DoctorSeverity::kBlocker,
                           "unsupported value"}});
}

TEST(DoctorTest, SpindleStartChecksCatchWhatTheCatalogueDoesNot) {
  ConfDir dir;
  dir.Write("yarn-site.xml",
            Xml(With(Hadoop33Defaults(),
                     {{"spindle.scheduler.count", "4"}, {"spindle.scheduler.partitions", "2"}})));
  const DoctorReport report = ExamineConfiguration({dir.path(), false, ""});
  EXPECT_EQ(report.ExitCode(), 2);
  const auto blockers = AtLeast(report, DoctorSeverity::kBlocker);
  ASSERT_EQ(blockers.size(), 1u);
  EXPECT_EQ(blockers[0]->status, "start check");
}

TEST(DoctorTest, HandMadeReportsAgreeInJsonAndText) {
  ConfDir dir;
  dir.Write("core-site.xml", Xml({{"hadoop.security.authentication", "kerberos"}}));
  dir.Write("yarn-site.xml", Xml({{"yarn.scheduler.minimum-allocation-mb", "x\"y"},
                                  {"yarn.nodemanager.aux-services", "mapreduce_shuffle"}}));
  ExpectJsonMatchesText({dir.path(), false, ""});
  ExpectJsonMatchesText({(fs::temp_directory_path() / "spindle_doctor_none").string(), false, ""});
}

}  // namespace
}  // namespace spindle
