// `spindle`: one binary, one subcommand per process kind (ARCHITECTURE.md);
// the commands and their flags are in cmd/subcommands.cc.
#include <glog/logging.h>

#include <string>
#include <vector>

#include "cmd/subcommands.h"

int main(int argc, char** argv) {
  google::InitGoogleLogging(argv[0]);
  FLAGS_logtostderr = true;
  return spindle::SpindleMain(std::vector<std::string>(argv + 1, argv + argc));
}
