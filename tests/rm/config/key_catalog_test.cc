#include "rm/config/key_catalog.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "rm/config/hadoop_line.h"
#include "rm/security/master_key_manager.h"

namespace spindle::rm {
namespace {

namespace fs = std::filesystem;

// ---- the catalogue's own rules ----

TEST(KeyCatalogTest, PatternsMatchWhatTheySay) {
  std::string queue;
  EXPECT_TRUE(KeyPatternMatches("yarn.scheduler.capacity.<queue-path>.capacity",
                                "yarn.scheduler.capacity.root.a.b.capacity", &queue));
  EXPECT_EQ(queue, "root.a.b");
  // A queue path starts at root.
  EXPECT_FALSE(KeyPatternMatches("yarn.scheduler.capacity.<queue-path>.maximum-applications",
                                 "yarn.scheduler.capacity.maximum-applications"));
  // <name> is exactly one name; a final * is one or more.
  EXPECT_TRUE(KeyPatternMatches("hadoop.proxyuser.<user>.hosts", "hadoop.proxyuser.oozie.hosts"));
  EXPECT_FALSE(KeyPatternMatches("hadoop.proxyuser.<user>.hosts", "hadoop.proxyuser.a.b.hosts"));
  EXPECT_TRUE(KeyPatternMatches("yarn.nodemanager.*",
                                "yarn.nodemanager.aux-services.mapreduce_shuffle.class"));
  EXPECT_FALSE(KeyPatternMatches("yarn.nodemanager.*", "yarn.nodemanager"));
  EXPECT_TRUE(KeyPatternMatches("yarn.acl.enable", "yarn.acl.enable", &queue));
  EXPECT_EQ(queue, "");
}

TEST(KeyCatalogTest, ExactRowsWinThenTheMostSpecificPattern) {
  const KeySpec* spec = FindKeySpec("yarn.resourcemanager.ha.enabled");
  ASSERT_NE(spec, nullptr);
  EXPECT_STREQ(spec->pattern, "yarn.resourcemanager.ha.enabled");
  spec = FindKeySpec("yarn.resourcemanager.ha.fail-fast");
  ASSERT_NE(spec, nullptr);
  EXPECT_STREQ(spec->pattern, "yarn.resourcemanager.ha.*");

  std::string queue;
  spec = FindKeySpec("yarn.scheduler.capacity.root.a.accessible-node-labels.gpu.capacity", &queue);
  ASSERT_NE(spec, nullptr);
  EXPECT_STREQ(spec->pattern,
               "yarn.scheduler.capacity.<queue-path>.accessible-node-labels.<label>.capacity");
  EXPECT_EQ(queue, "root.a");

  spec = FindKeySpec("spindle.scheduler.count");
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->support, KeySupport::kHonoured);
  spec = FindKeySpec("spindle.scheduler.cuont");
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->support, KeySupport::kUnsupported);
  EXPECT_TRUE(spec->refuses_start);

  EXPECT_EQ(FindKeySpec("yarn.no.such.key"), nullptr);
}

TEST(KeyCatalogTest, DefaultsThatDifferBetweenLinesFollowTheConfiguredLine) {
  // spindle.compat.hadoop-version chooses the line's default
  // (rm/config/hadoop_line.h), so Spindle honours each line's own.
  const KeySpec* vcores = FindKeySpec("yarn.scheduler.maximum-allocation-vcores");
  ASSERT_NE(vcores, nullptr);
  EXPECT_STREQ(SpindleDefaultOn(*vcores, *HadoopLineIndex("2.6")), "32");
  EXPECT_STREQ(SpindleDefaultOn(*vcores, *HadoopLineIndex("2.7.7")), "32");
  EXPECT_STREQ(SpindleDefaultOn(*vcores, *HadoopLineIndex("3.3.6")), "4");
  const KeySpec* completed = FindKeySpec("yarn.resourcemanager.max-completed-applications");
  ASSERT_NE(completed, nullptr);
  EXPECT_STREQ(SpindleDefaultOn(*completed, 0), "10000");
  EXPECT_STREQ(SpindleDefaultOn(*completed, 2), "1000");
  // Recovery is off by default, as on every Hadoop line.
  const KeySpec* recovery = FindKeySpec("yarn.resourcemanager.recovery.enabled");
  ASSERT_NE(recovery, nullptr);
  for (int line = 0; line < kHadoopLineCount; ++line) {
    EXPECT_EQ(StatusOn(*vcores, line), KeyStatus::kHonoured) << line;
    EXPECT_EQ(StatusOn(*completed, line), KeyStatus::kHonoured) << line;
    EXPECT_EQ(StatusOn(*recovery, line), KeyStatus::kHonoured) << line;
  }
  // Spindle's own store stays its own default.
  EXPECT_EQ(StatusOn(*FindKeySpec("yarn.resourcemanager.store.class"), 2),
            KeyStatus::kHonouredOtherDefault);
  EXPECT_EQ(StatusOn(*FindKeySpec("yarn.resourcemanager.ha.enabled"), 2), KeyStatus::kHonoured);
  EXPECT_EQ(StatusOn(*FindKeySpec("yarn.nodemanager.aux-services"), 2), KeyStatus::kNotForRm);
}

TEST(KeyCatalogTest, HadoopLines) {
  EXPECT_EQ(HadoopLineIndex("2.6"), 0);
  EXPECT_EQ(HadoopLineIndex("2.6.0"), 0);
  EXPECT_EQ(HadoopLineIndex("2.7.7"), 1);
  EXPECT_EQ(HadoopLineIndex("3.3.6"), 2);
  EXPECT_EQ(HadoopLineIndex("3.4.0"), std::nullopt);
  EXPECT_EQ(HadoopLineIndex("2.60"), std::nullopt);
  EXPECT_EQ(HadoopLineIndex(""), std::nullopt);
}

TEST(KeyCatalogTest, ValuesSpindleHonours) {
  const KeySpec* auth = FindKeySpec("hadoop.security.authentication");
  ASSERT_NE(auth, nullptr);
  EXPECT_TRUE(ValueMatches(*auth, "simple"));
  EXPECT_TRUE(ValueMatches(*auth, "SIMPLE"));
  EXPECT_TRUE(ValueMatches(*auth, "kerberos"));
  EXPECT_FALSE(ValueMatches(*auth, "token"));
  EXPECT_EQ(auth->impact, Impact::kBlocker);

  const KeySpec* store = FindKeySpec("yarn.resourcemanager.store.class");
  ASSERT_NE(store, nullptr);
  EXPECT_TRUE(ValueMatches(
      *store, "org.apache.hadoop.yarn.server.resourcemanager.recovery.LeveldbRMStateStore"));
  EXPECT_TRUE(ValueMatches(*store, "rocksdb"));
  EXPECT_TRUE(ValueMatches(
      *store, "org.apache.hadoop.yarn.server.resourcemanager.recovery.ZKRMStateStore"));
  EXPECT_TRUE(ValueMatches(
      *store, "org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore"));
  EXPECT_FALSE(ValueMatches(*store, "com.example.OwnRMStateStore"));
  EXPECT_TRUE(store->refuses_start);

  const KeySpec* lifetime =
      FindKeySpec("yarn.scheduler.capacity.root.default.maximum-application-lifetime");
  ASSERT_NE(lifetime, nullptr);
  // Honoured (rm/queues: CapacityScheduler 3.3's per-queue lifetimes):
  // every value is applied.
  EXPECT_EQ(lifetime->support, KeySupport::kHonoured);
  EXPECT_TRUE(ValueMatches(*lifetime, "-1"));
  EXPECT_TRUE(ValueMatches(*lifetime, "3600"));
}

// A key the pattern matches.
std::string Instance(std::string pattern) {
  for (auto [placeholder, example] :
       std::initializer_list<std::pair<std::string, std::string>>{{"<queue-path>", "root.q"},
                                                                  {"<label>", "gpu"},
                                                                  {"<rm-id>", "rm1"},
                                                                  {"<user>", "oozie"},
                                                                  {"<queue>", "q"}}) {
    for (size_t at = pattern.find(placeholder); at != std::string::npos;
         at = pattern.find(placeholder)) {
      pattern.replace(at, placeholder.size(), example);
    }
  }
  if (pattern.ends_with(".*")) pattern.replace(pattern.size() - 1, 1, "some-key");
  return pattern;
}

TEST(KeyCatalogTest, RowsAreComplete) {
  std::set<std::string> seen;
  for (const KeySpec& spec : KeyCatalog()) {
    SCOPED_TRACE(spec.pattern);
    EXPECT_TRUE(seen.insert(spec.pattern).second) << "listed twice";
    ASSERT_NE(spec.effect, nullptr);
    EXPECT_NE(std::string(spec.effect), "");
    // A row that Spindle reads states Spindle's default.
    if (spec.readers != kReadByNone) {
      EXPECT_NE(spec.spindle_default, nullptr);
    }
    // A row that restricts values says what another value changes.
    if (spec.matching_values != nullptr && spec.support != KeySupport::kIgnored) {
      EXPECT_NE(spec.mismatch_effect, nullptr);
    }
    if (spec.refuses_start) {
      EXPECT_EQ(spec.impact, Impact::kBlocker);
    }
    // A pattern must be reachable: looking up an instance of it finds it.
    const std::string instance = Instance(spec.pattern);
    const KeySpec* found = FindKeySpec(instance);
    ASSERT_NE(found, nullptr) << instance;
    EXPECT_EQ(found, &spec) << instance << " finds " << found->pattern;
  }
}

// ---- the catalogue against the sources ----

// A key read by the sources, and where.
struct SourceKey {
  std::string key;
  std::string where;
};

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool Skipped(const fs::path& relative) {
  const std::string first = relative.begin()->string();
  // Tests and integration tests make up keys; build trees hold no sources.
  if (first == "tests" || first == "integration" || first.starts_with("build") || first[0] == '.') {
    return true;
  }
  const std::string path = relative.generic_string();
  // The catalogue itself, and the doctor, which names keys to report on them,
  // and --version, which names the Hadoop-line key.
  return path == "rm/config/key_catalog.cc" || path == "cmd/doctor.cc" || path == "cmd/version.cc";
}

// String literals that are not configuration keys, and why.
const std::map<std::string, std::string> kNotKeys = {
    {"spindle.format_version", "a record key of the state store (persist/keys.h)"},
    {"spindle.RocksDbStateStore", "the state store's name on REST"},
    {"spindle.MemoryStateStore", "the state store's name on REST"},
    {"hadoop.auth", "the web's signed authentication cookie (web/auth)"},
};

// Every configuration key the sources read: whole-key literals, and the keys
// the code builds from a prefix (the scheduler pool's spindle.scheduler.*,
// the CapacityScheduler's globals and per-queue keys). Literals ending in a
// dot are prefixes and come back in `prefixes`.
std::vector<SourceKey> ScanSources(std::set<std::string>* prefixes) {
  const fs::path root(SPINDLE_SOURCE_DIR);
  const std::regex literal(
      R"re("((?:yarn|hadoop|spindle|ipc|net|fs|mapreduce|dfs|ha)\.[A-Za-z0-9_.\-]*)")re");
  const std::regex pool_key(R"re(key(?: == |\.compare\(0, \d+, )"([a-z0-9.\-]+)")re");
  const std::regex capacity_global(R"re(prefix \+ "([a-z0-9_.\-]+)")re");
  const std::regex capacity_queue(R"re(Key\([A-Za-z_."]+, "([a-z0-9_.\-]+)"\))re");
  std::vector<SourceKey> keys;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    const fs::path relative = fs::relative(it->path(), root);
    if (it->is_directory()) {
      if (Skipped(relative)) it.disable_recursion_pending();
      continue;
    }
    const std::string ext = it->path().extension().string();
    if ((ext != ".cc" && ext != ".h") || Skipped(relative)) continue;
    const std::string text = ReadFile(it->path());
    const std::string where = relative.generic_string();
    for (std::sregex_iterator m(text.begin(), text.end(), literal), end; m != end; ++m) {
      const std::string key = (*m)[1];
      if (key.ends_with(".")) {
        prefixes->insert(key);
      } else if (!kNotKeys.contains(key)) {
        keys.push_back({key, where});
      }
    }
    if (where == "scheduler_pool/pool_options.cc") {
      for (std::sregex_iterator m(text.begin(), text.end(), pool_key), end; m != end; ++m) {
        std::string key = "spindle.scheduler." + (*m)[1].str();
        if (key.ends_with(".")) key += "q";
        keys.push_back({key, where});
      }
    }
    // The HA configuration reads every service address (and the host name)
    // per rm-id: <key>.<rm-id>.
    if (where == "rm/config/ha_config.cc") {
      for (std::sregex_iterator m(text.begin(), text.end(), literal), end; m != end; ++m) {
        const std::string key = (*m)[1];
        if (key.ends_with(".address") || key == "yarn.resourcemanager.hostname") {
          keys.push_back({key + ".rm1", where});
        }
      }
    }
    // Per-label capacities: <queue>.accessible-node-labels.<label>. + name.
    if (where == "rm/queues/label_capacities.cc") {
      for (std::sregex_iterator m(text.begin(), text.end(), capacity_global), end; m != end; ++m) {
        keys.push_back(
            {"yarn.scheduler.capacity.root.q.accessible-node-labels.gpu." + (*m)[1].str(), where});
      }
    }
    if (where == "rm/queues/queue_tree.cc") {
      for (std::sregex_iterator m(text.begin(), text.end(), capacity_global), end; m != end; ++m) {
        keys.push_back({"yarn.scheduler.capacity." + (*m)[1].str(), where});
      }
      for (std::sregex_iterator m(text.begin(), text.end(), capacity_queue), end; m != end; ++m) {
        const std::string key = "yarn.scheduler.capacity.root.q." + (*m)[1].str();
        // A per-queue prefix (the keys under it are found by listing them).
        if (key.ends_with(".")) {
          prefixes->insert(key);
        } else {
          keys.push_back({key, where});
        }
      }
    }
  }
  // rm/security builds the master-key rolling keys from the family's name.
  for (KeyFamily family :
       {KeyFamily::kContainerTokens, KeyFamily::kNmTokens, KeyFamily::kAmrmTokens}) {
    keys.push_back({std::string("yarn.resourcemanager.") + KeyFamilyName(family) +
                        ".master-key-rolling-interval-secs",
                    "rm/security/security_config.cc"});
  }
  return keys;
}

TEST(KeyCatalogTest, ScanFindsTheKeysItShould) {
  std::set<std::string> prefixes;
  const auto keys = ScanSources(&prefixes);
  std::set<std::string> names;
  for (const auto& k : keys) names.insert(k.key);
  // One of each way of reading a key, so the scan cannot silently find nothing.
  for (const char* expected :
       {"yarn.resourcemanager.address", "hadoop.tmp.dir", "ipc.maximum.data.length",
        "net.topology.table.file.name", "spindle.store.path", "spindle.scheduler.count",
        "spindle.scheduler.queue-group.q", "yarn.scheduler.capacity.maximum-am-resource-percent",
        "yarn.scheduler.capacity.root.q.ordering-policy",
        "yarn.resourcemanager.nm-tokens.master-key-rolling-interval-secs",
        "yarn.nodemanager.resource.memory-mb", "spindle.http.handler-nice"}) {
    EXPECT_TRUE(names.contains(expected)) << expected;
  }
  EXPECT_TRUE(prefixes.contains("spindle.scheduler."));
}

// Every key the sources read has a row that says Spindle reads it: a new key
// cannot be added without classifying it here.
TEST(KeyCatalogTest, EveryKeyTheSourcesReadIsCatalogued) {
  std::set<std::string> prefixes;
  for (const SourceKey& k : ScanSources(&prefixes)) {
    const KeySpec* spec = FindKeySpec(k.key);
    if (spec == nullptr) {
      ADD_FAILURE() << k.where << " reads " << k.key
                    << ", which rm/config/key_catalog.cc does not list";
      continue;
    }
    EXPECT_NE(static_cast<int>(spec->readers), 0)
        << k.where << " reads " << k.key << ", but its catalogue row " << spec->pattern
        << " says Spindle does not read it";
  }
  for (const std::string& prefix : prefixes) {
    bool any = false;
    for (const KeySpec& spec : KeyCatalog()) {
      any = any || Instance(spec.pattern).starts_with(prefix);
    }
    EXPECT_TRUE(any) << "the sources build keys under " << prefix << " but no row starts so";
  }
}

// And the other way: every row that says Spindle reads its key names a key
// the sources read.
TEST(KeyCatalogTest, EveryRowThatSaysSpindleReadsItIsRead) {
  std::set<std::string> prefixes;
  std::set<const KeySpec*> read;
  for (const SourceKey& k : ScanSources(&prefixes)) read.insert(FindKeySpec(k.key));
  for (const KeySpec& spec : KeyCatalog()) {
    if (spec.readers == kReadByNone) continue;
    // Keys the sources list under a prefix they build (user-settings.<user>,
    // hadoop.proxyuser.<user>.users).
    const std::string instance = Instance(spec.pattern);
    const bool under_prefix = std::any_of(prefixes.begin(), prefixes.end(), [&](const auto& p) {
      return (p.starts_with("yarn.scheduler.capacity.root.q.") || p.ends_with(".proxyuser.")) &&
             instance.starts_with(p);
    });
    EXPECT_TRUE(read.contains(&spec) || under_prefix)
        << spec.pattern << " is marked as read by Spindle, but no source reads it";
  }
}

// The README's section on running Spindle with a cluster's configuration
// lists every spindle.* key (DOCTOR_README_SECTION.md until it is pasted in).
TEST(KeyCatalogTest, TheReadmeListsEverySpindleKey) {
  const fs::path root(SPINDLE_SOURCE_DIR);
  std::string text = ReadFile(root / "README.md");
  const size_t section = text.find("## Run it against your cluster's configuration");
  if (section == std::string::npos) {
    text = ReadFile(root / "DOCTOR_README_SECTION.md");
  } else {
    text = text.substr(section);
  }
  ASSERT_NE(text.find("spindle doctor --conf"), std::string::npos);
  for (const KeySpec& spec : KeyCatalog()) {
    const std::string key = spec.pattern;
    if (!key.starts_with("spindle.") || key.ends_with(".*")) continue;
    const std::string min_unit = "spindle.scheduler.min-unit.";
    const std::string shown = key.starts_with(min_unit) ? min_unit + "memory-mb" : key;
    EXPECT_NE(text.find("`" + shown), std::string::npos) << key << " is not in the README";
  }
}

// The catalogue's Hadoop defaults and the table the line switch applies
// (rm/config/hadoop_line) are two views of the same facts: they must agree
// wherever the line ships the key.
TEST(KeyCatalogTest, HadoopDefaultsAgreeWithTheLineSwitchTable) {
  for (std::string_view key : HadoopDefaultKeys()) {
    const KeySpec* spec = FindKeySpec(key);
    ASSERT_NE(spec, nullptr) << key << " has a shipped default but no catalogue row";
    for (auto line : {HadoopLine::k2_6, HadoopLine::k2_7, HadoopLine::k3_3}) {
      const auto shipped = HadoopDefault(line, key);
      ASSERT_TRUE(shipped.has_value()) << key;
      const char* catalogued = spec->hadoop_default[static_cast<int>(line)];
      // A line without the key (2.6 has no leveldb store path): the switch
      // supplies the value Spindle derives instead (see hadoop_line.cc).
      if (catalogued == nullptr) continue;
      EXPECT_EQ(std::string_view(catalogued), shipped->value)
          << key << " on " << TraitsOf(line).name;
    }
  }
}

}  // namespace
}  // namespace spindle::rm
