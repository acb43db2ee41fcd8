#include "replay/replay_compare_command.h"

#include <cstdio>
#include <filesystem>

#include "replay/report/tenant_compare.h"
#include "replay/report/write_file.h"

namespace spindle::replay {

const CommandSpec& ReplayCompareCommand() {
  static const CommandSpec kSpec{
      "replay compare",
      "two staging-cell runs of one trace side by side per queue and user",
      {
          FlagSpec::String("a", "FILE", "", "report.json of the first run (e.g. the Java RM)")
              .Required(),
          FlagSpec::String("b", "FILE", "", "report.json of the second run (e.g. Spindle)")
              .Required(),
          FlagSpec::String("out", "DIR", "", "also write compare.txt and compare.csv here"),
      },
      "runs come from `spindle replay --mode cell [--rm ...] --out DIR` (DIR/report.json)"};
  return kSpec;
}

int ReplayCompareMain(const CommandLine& flags) {
  constexpr char kName[] = "replay compare";
  auto a = ReadTenantRun(flags.GetString("a"));
  if (!a.ok()) return ReportFailure(kName, a.status());
  auto b = ReadTenantRun(flags.GetString("b"));
  if (!b.ok()) return ReportFailure(kName, b.status());
  const std::string table = ToCompareTable(*a, *b, CompareTenants(*a, *b));
  std::fputs(table.c_str(), stdout);
  const std::string out = flags.GetString("out");
  if (!out.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    if (ec)
      return ReportFailure(kName, Status::IoError("cannot create " + out + ": " + ec.message()));
    Status s = WriteTextFile(out + "/compare.txt", table);
    if (s.ok()) s = WriteTextFile(out + "/compare.csv", ToCompareCsv(*a, *b));
    if (!s.ok()) return ReportFailure(kName, s);
    std::printf("comparison: %s/compare.txt, %s/compare.csv\n", out.c_str(), out.c_str());
  }
  return kExitOk;
}

}  // namespace spindle::replay
