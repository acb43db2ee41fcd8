#include "cmd/version.h"

#include "base/hadoop_line.h"
#include "git_revision.h"  // generated in the build tree by cmd/git_revision.cmake

namespace spindle {

const char* GitRevision() { return SPINDLE_GIT_REVISION; }

std::string VersionText() {
  return std::string("spindle ") + kSpindleVersion + "\ngit revision: " + GitRevision() +
         "\nHadoop line: " + kDefaultHadoopLine + " (default; " + kHadoopLineKey + ")\n";
}

}  // namespace spindle
