// CommandLine: the flags of one `spindle <command>` invocation, parsed against
// that command's flag table (CommandSpec). The table is the single source of
// truth: it is what the parser accepts, what --help prints (with defaults and
// ranges) and where a typed getter finds a flag's default. Forms accepted:
// `--name=value`, `--name value` and, for a switch, bare `--name` (or
// `--name=true|false`). Nothing is guessed: an unknown flag, a missing or
// malformed value, a value out of range or a stray word is a usage error
// (exit 2) that names the flag and, for a near miss, suggests the right one.
//
// How a subcommand declares its flags (cmd/doctor_command.cc is a short example):
//   1. Next to its entry point, define its table and return it from a function:
//        const CommandSpec& DoctorCommand() {
//          static const CommandSpec kSpec{
//              "doctor", "what Spindle does with every key of a Hadoop conf dir",
//              {FlagSpec::String("conf", "DIR", "", "the conf dir to read")
//                   .ComputedDefault("$HADOOP_CONF_DIR"),
//               FlagSpec::Switch("json", "print the report as JSON")},
//              "exit status: 0 ready, 1 warnings, 2 blockers (or a usage error)"};
//          return kSpec;
//        }
//      and an entry point `int DoctorCommandMain(const CommandLine& flags)` that
//      reads flags.GetString("conf", <computed default>), flags.GetBool("json"),
//      ... (a name not in the table aborts: a bug the --help tests catch) and
//      returns its exit status. The parser has already refused unknown flags
//      and bad values (exit 2) and answered --help before it runs.
//   2. Add one line {&DoctorCommand, &DoctorCommandMain} to the list in
//      cmd/subcommands.cc. `spindle --help`, `spindle doctor --help`, the
//      "did you mean" for a mistyped command and the tests that run every
//      command's --help pick it up from there.
//
// Why our own parser and not a library (issue 15 asked for one unless the
// measured reason to keep ours is written down). Measured on this machine:
//  - CLI11 2.1.2 (Debian's libcli11-dev): `--json --keep` stores "--keep" as
//    the value of --json and leaves the switch --keep unset;
//    `--nodes 3 --json --nodes 5` stores "--nodes" as --json's value and then
//    fails on a stray "5". A silent misparse is what this parser must never
//    do. It reports errors by throwing (CLI::ParseError) where Spindle code
//    neither throws nor catches (STYLE.md 6); its messages list extras in
//    reverse order with no suggestion ("The following arguments were not
//    expected: --hlep 3 --nodse") and its help prints
//    "--speed FLOAT:FLOAT in [0.001 - 1e+06]=1", so messages, suggestions and
//    help would have been ours anyway. A translation unit including
//    CLI/CLI.hpp takes 4.8 s to compile (g++ 12 -O1), this file's .cc 1.5 s.
//  - gflags (linked through glog) keeps every flag in one process-global
//    registry: a name is defined once per process, yet --seconds,
//    --nodes or --json mean different things with different defaults in
//    different subcommands; `--help` lists every flag of every command and
//    glog's; and DEFINE_ globals read from anywhere are the hidden global
//    configuration STYLE.md 7 warns against.
// What a library would have added beyond this file (~430 lines) is config
// files and environment bindings, which Spindle takes from Hadoop's XML.
//
// Thread-safety: values; a CommandLine is read-only after Parse.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"

namespace spindle {

// The exit status of every `spindle` command.
enum ExitCode : int {
  kExitOk = 0,
  kExitFailure = 1,  // the command ran and failed (runtime error, a failed run)
  kExitUsage = 2,    // bad flag, bad value, missing required flag
};

enum class FlagKind : uint8_t {
  kSwitch,  // --name, --name=true, --name=false
  kString,
  kInt,     // a 64-bit integer, optionally in [min, max]
  kDouble,  // a finite number, optionally in [min, max]
  kList,    // comma-separated; empty items dropped
};

// One row of a flag table. Build rows with the named constructors.
struct FlagSpec {
  std::string name;  // without the leading "--"
  FlagKind kind = FlagKind::kString;
  // Shown in --help after the name: "N", "DIR", "HOST:PORT". Empty for a switch.
  std::string value_name;
  // What applies when the flag is absent, as --help shows it. When
  // has_default_value, it is a value of `kind` (the getters return it);
  // otherwise a description of a default the command computes ("2 x --nodes").
  std::string default_text;
  bool has_default_value = false;
  std::string help;  // one line: what the flag does
  bool required = false;
  bool has_range = false;
  double min = 0;
  double max = 0;

  static FlagSpec Switch(std::string name, std::string help);
  static FlagSpec String(std::string name, std::string value_name, std::string default_value,
                         std::string help);
  static FlagSpec Int(std::string name, int64_t default_value, std::string help);
  static FlagSpec Double(std::string name, double default_value, std::string help);
  static FlagSpec List(std::string name, std::string value_name, std::string default_value,
                       std::string help);

  // The accepted range of a kInt or kDouble flag, inclusive.
  FlagSpec InRange(double lo, double hi) &&;
  // The flag must be given (its default text is dropped).
  FlagSpec Required() &&;
  // The default is computed by the command; `description` says what it is.
  // A getter without a fallback then needs the flag given (check Has first).
  FlagSpec ComputedDefault(std::string description = "") &&;
  FlagSpec ValueName(std::string value_name) &&;
};

// One subcommand's table.
struct CommandSpec {
  CommandSpec(std::string name_in, std::string summary_in, std::vector<FlagSpec> flags_in,
              std::string notes_in = "")
      : name(std::move(name_in)),
        summary(std::move(summary_in)),
        flags(std::move(flags_in)),
        notes(std::move(notes_in)) {}

  std::string name;     // as typed after `spindle`: "rm", "bench wire"
  std::string summary;  // one line for `spindle --help`
  std::vector<FlagSpec> flags;
  // Optional lines printed after the flags (exit statuses, a flag's forms).
  std::string notes;
};

// The shortest text that reads back as `v` ("0.05", "250", "1e+08"): numbers
// in help texts and computed defaults.
std::string FormatFlagNumber(double v);

// The closest of `candidates` to `typed` (edit distance, or a candidate that
// `typed` is a prefix of), or "" when none is close enough to suggest.
std::string ClosestMatch(std::string_view typed, const std::vector<std::string>& candidates);

// `spindle <name> --help`: usage, summary, every flag with its value name,
// default, range and help, then the notes.
std::string HelpText(const CommandSpec& spec);

class CommandLine {
 public:
  // Parses the words after the subcommand. InvalidArgument (to be printed for
  // a person, exit 2) for an unknown flag (with a suggestion), a value that is
  // missing, not of the flag's kind or out of range, a missing required flag
  // or a stray word. `--help` is not handled here (see HelpRequested).
  static Result<CommandLine> Parse(const CommandSpec& spec, const std::vector<std::string>& args);

  // True if the words ask for help (--help or -h before any `--`).
  static bool HelpRequested(const std::vector<std::string>& args);

  // Given on the command line.
  bool Has(const std::string& name) const;
  // The value given, else the table's default ("" for a string or list flag
  // without one). Aborts for a name not in the table, and for a number flag
  // whose default is computed and that was not given (check Has first):
  // both are bugs in the command, not in what the user typed.
  std::string GetString(const std::string& name) const;
  int64_t GetInt(const std::string& name) const;
  double GetDouble(const std::string& name) const;
  bool GetBool(const std::string& name) const;
  std::vector<std::string> GetList(const std::string& name) const;
  // The value given, else `fallback`: for flags whose default is computed.
  std::string GetString(const std::string& name, const std::string& fallback) const;

 private:
  const FlagSpec& Spec(const std::string& name) const;
  // The given value, else the default value; CHECKs that there is one.
  const std::string& ValueOrDefault(const std::string& name) const;

  std::string command_;
  std::map<std::string, FlagSpec> specs_;
  std::map<std::string, std::string> values_;
};

// Runs one subcommand: with --help prints HelpText on stdout (exit 0); a
// usage error prints "spindle <cmd>: <why>" and where to find the flags on
// stderr (exit 2); otherwise returns command_main(flags).
using CommandMain = int (*)(const CommandLine& flags);
int RunCommand(const CommandSpec& spec, CommandMain command_main,
               const std::vector<std::string>& args);

// Print "spindle <command>: <status for people>" on stderr and return the
// exit status: kExitUsage for a bad flag value a command found itself,
// kExitFailure for anything that went wrong while running.
int ReportUsageError(std::string_view command, const Status& status);
int ReportFailure(std::string_view command, const Status& status);

}  // namespace spindle
