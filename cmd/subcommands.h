// The `spindle` binary's subcommands and its top level: dispatch, `spindle
// --help` / `spindle help [COMMAND]`, `spindle --version`, "did you mean" for
// a mistyped command. Each subcommand brings its own flag table
// (base/flags/command_line.h says how to add one).
#pragma once

#include <string>
#include <vector>

#include "base/flags/command_line.h"

namespace spindle {

// A command whose words are not Spindle's --flags (`spindle rmadmin` takes
// Hadoop's): it gets them as typed; only --help goes through its table.
using RawCommandMain = int (*)(const std::vector<std::string>& args);

struct Subcommand {
  const CommandSpec& (*spec)();
  CommandMain main;  // null for a raw command
  RawCommandMain raw_main = nullptr;
};

// Every subcommand, in the order `spindle --help` lists them.
const std::vector<Subcommand>& Subcommands();

// `spindle --help`: the commands and their one-line summaries.
std::string TopLevelHelp();

// `spindle <args...>` (the words after the program name); returns the exit status.
int SpindleMain(const std::vector<std::string>& args);

}  // namespace spindle
