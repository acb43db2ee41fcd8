// `spindle doctor --conf DIR`: reads an operator's Hadoop configuration
// directory (core-site.xml, yarn-site.xml, capacity-scheduler.xml,
// mapred-site.xml; fair-scheduler.xml is noticed) and says, for every key set
// there, what Spindle does with it (rm/config/key_catalog.h): honoured,
// honoured with a different default, ignored (and what that changes), or
// unsupported (and whether that blocks the swap). Problems of the files
// themselves (a missing directory, XML that is not well-formed, a value
// Spindle cannot parse, a queue that is not in the tree, a FairScheduler
// setup) are findings too, each naming its file and key. So are the keys the
// operator did not set whose Spindle default differs from the Hadoop line's.
//
// Exit code: 0 ready (nothing above a note), 1 warnings, 2 blockers (or a
// usage error). Nothing is started and nothing is written.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace spindle {

struct DoctorOptions {
  // The Hadoop configuration directory ($HADOOP_CONF_DIR). Required.
  std::string conf_dir;
  // The report as JSON instead of text.
  bool json = false;
  // The Hadoop line whose defaults Spindle's are compared with ("2.6", "2.7",
  // "3.3", or a release such as "2.6.0"). Default: the configuration's
  // spindle.compat.hadoop-version, else the newest line.
  std::string hadoop_version;
};

enum class DoctorSeverity { kOk, kNote, kWarning, kBlocker };
const char* DoctorSeverityName(DoctorSeverity severity);  // "ok", "note", "warning", "blocker"

struct DoctorFinding {
  DoctorSeverity severity = DoctorSeverity::kOk;
  std::string file;  // "yarn-site.xml"; "" for the directory or a key not set anywhere
  std::string key;   // "" for a finding about a file or the directory
  std::optional<std::string> value;  // as Spindle reads it (${...} expanded); nullopt if not set
  std::string status;  // a KeyStatusName, or "file", "queue", "start check", "default differs"
  std::string message;
  std::string spindle_default;  // "" when none applies
  std::string hadoop_default;   // of the compared line; "" when none applies
};

struct DoctorReport {
  std::string conf_dir;
  std::string hadoop_line;              // "3.3"
  std::vector<std::string> files;       // the files read, in the order read
  std::vector<DoctorFinding> findings;  // blockers first, then warnings, ok, notes

  int Count(DoctorSeverity severity) const;
  int ExitCode() const;
};

// Examines the directory. A `hadoop_version` the catalogue does not know is
// a blocker finding.
DoctorReport ExamineConfiguration(const DoctorOptions& options);

std::string DoctorText(const DoctorReport& report);
std::string DoctorJson(const DoctorReport& report);
// The first line of a finding in the text report.
std::string DoctorFindingHeadline(const DoctorFinding& finding);

// Runs the command: the report on `out`; on `err` a line when the directory
// cannot be examined at all or the options are wrong. Returns the exit code.
int DoctorMain(const DoctorOptions& options, std::ostream& out, std::ostream& err);

}  // namespace spindle
