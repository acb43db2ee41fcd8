// HadoopLine: which Apache Hadoop release line Spindle stands in for
// (spindle.compat.hadoop-version = 2.6 | 2.7 | 3.3; default 3.3, the newest
// supported). Everything that differs between the lines is decided here, in
// two tables (hadoop_line.cc), and nowhere else:
//  - HadoopDefault(): the core-default.xml / yarn-default.xml value of a key
//    Spindle reads, per line. Configuration consults it for every key the
//    loaded files leave unset, so every reader gets the line's default
//    through the one Get() it already calls;
//  - TraitsOf(): the version Spindle reports and the line's protocol rules
//    (the wire modules apply them; see rm/config/HADOOP_LINES.md).
//
// Thread-safety: values and pure functions over constant tables.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace spindle::rm {

class Configuration;

// Oldest first; the values are the line indexes of rm/config/key_catalog.h.
enum class HadoopLine { k2_6 = 0, k2_7 = 1, k3_3 = 2 };

inline constexpr char kHadoopLineKey[] = "spindle.compat.hadoop-version";
inline constexpr HadoopLine kDefaultHadoopLine = HadoopLine::k3_3;

// ApplicationMasterService's allocate checks and texts.
enum class AmProtocolRules {
  // Hadoop 2.6 / 2.7: an allocate one behind the last answer gets that
  // answer again; further behind is refused (InvalidApplicationMaster-
  // RequestException "... expect responseId to be <last + 1>"); equal or
  // AHEAD is answered like any allocate, the new answer numbered last + 1
  // (Java int arithmetic, no wrap-around rule).
  kHadoop2,
  // Hadoop 3.x: one behind gets the last answer again; any other mismatch is
  // refused ("... expect responseId to be <last>, but get <n>"); answers are
  // numbered (last + 1) & Integer.MAX_VALUE (AMRMClientUtils).
  kHadoop3,
};

struct HadoopLineTraits {
  HadoopLine line;
  // "2.6", "2.7", "3.3": the value of spindle.compat.hadoop-version.
  std::string_view name;
  // What Spindle calls its version on REST (clusterInfo), to NodeManagers
  // (RegisterNodeManagerResponse.rm_version) and what `spindle nm` reports
  // (nm_version): the newest release of the line, so that a NodeManager of
  // that line with yarn.nodemanager.resourcemanager.minimum.version =
  // EqualToNM (VersionUtil.compareVersions(rm, nm) >= 0) registers.
  std::string_view version;
  AmProtocolRules am_rules;
  // YARN-5617 (2.8.2 and 3.x): an app with maxAppAttempts 1 is never retried,
  // even after an attempt that does not count (RMAppImpl.AttemptFailed-
  // Transition); 2.6 and 2.7 retry it after a lost node or a preemption.
  bool single_attempt_never_retried = true;
  // YARN-2005 (2.8 and 3.x): AM node blacklisting exists
  // (yarn.resourcemanager.am-scheduling.node-blacklisting-*); 2.6 and 2.7
  // have none.
  bool am_node_blacklisting = true;
  // YARN-41 (2.8 and 3.x): ResourceTracker has unRegisterNodeManager, which
  // a stopping NodeManager calls; 2.6 and 2.7 have no such method (checked in
  // ResourceTracker.proto at rel/release-2.7.7 and rel/release-2.8.0), their
  // nodes just stop heartbeating and expire.
  bool nm_unregister = true;
};

const HadoopLineTraits& TraitsOf(HadoopLine line);

// "2.6", "2.7" or "3.3", or a release of one ("2.7.7", "3.3.6"); surrounding
// blanks ignored; nullopt otherwise.
std::optional<HadoopLine> ParseHadoopLine(std::string_view text);

// The line `conf` names (kHadoopLineKey; unset: kDefaultHadoopLine), or an
// InvalidArgument naming the file, the key and the value.
Result<HadoopLine> HadoopLineOf(const Configuration& conf);

// A key's default as the line ships it: the value, unexpanded, and the file
// it comes from ("core-default.xml" or "yarn-default.xml").
struct ShippedDefault {
  std::string_view value;
  std::string_view file;
};

// The line's shipped default of `key`, for the keys Spindle takes from the
// table; nullopt for the others. `value` views a string literal, so its
// data() is a NUL-terminated C string.
std::optional<ShippedDefault> HadoopDefault(HadoopLine line, std::string_view key);

// Every key HadoopDefault() knows (sorted), for documentation and tests.
std::vector<std::string_view> HadoopDefaultKeys();

// The capacity-scheduler.xml every Hadoop distribution ships in etc/hadoop
// (the same queue tree on 2.6, 2.7 and 3.3: one queue "default" with all of
// root's capacity, open ACLs), as an XML resource: what `spindle rm` reads
// when the configuration directory has no capacity-scheduler.xml. A file of
// the operator's replaces it whole, as in Hadoop.
std::string ShippedCapacitySchedulerXml();
inline constexpr char kShippedCapacitySchedulerSource[] =
    "capacity-scheduler.xml (as Hadoop ships it)";

}  // namespace spindle::rm
