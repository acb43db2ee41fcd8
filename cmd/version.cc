#include "cmd/version.h"

#include "git_revision.h"  // generated in the build tree by cmd/git_revision.cmake
#include "rm/config/key_catalog.h"

namespace spindle {

const char kHadoopLineKey[] = "spindle.compat.hadoop-version";

const char* GitRevision() { return SPINDLE_GIT_REVISION; }

const char* DefaultHadoopLine() { return rm::kHadoopLineNames[rm::kNewestHadoopLine]; }

std::string VersionText() {
  return std::string("spindle ") + kSpindleVersion + "\ngit revision: " + GitRevision() +
         "\nHadoop line: " + DefaultHadoopLine() + " (default; " + kHadoopLineKey + ")\n";
}

}  // namespace spindle
