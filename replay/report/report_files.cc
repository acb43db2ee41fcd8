#include <filesystem>

#include "replay/report/replay_writers.h"
#include "replay/report/write_file.h"

namespace spindle::replay {

Status WriteReportFiles(const std::string& dir, const ReplayReport& report) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::IoError("cannot create " + dir + ": " + ec.message());
  RETURN_NOT_OK(WriteTextFile(dir + "/summary.txt", ToSummaryTable(report)));
  RETURN_NOT_OK(WriteTextFile(dir + "/report.json", ToJson(report)));
  RETURN_NOT_OK(WriteTextFile(dir + "/series.csv", ToSeriesCsv(report)));
  return WriteTextFile(dir + "/report.html", ToHtml(report));
}

}  // namespace spindle::replay
