// The replay report in its four forms, all read from a ReplayReport:
//  - ToSummaryTable: the terminal table, one row per mode, then each
//    mode's violations and a sample of its rejections;
//  - ToJson: settings and every mode with its summary, distributions (with
//    CDFs), 1 s series and fairness windows;
//  - ToSeriesCsv: the 1 s time series, one row per mode and second;
//  - ToHtml: one self-contained page (inline CSS and SVG, nothing fetched):
//    the summary, delay CDF, delay and utilisation over time, quality,
//    conflicts, per-queue share and Jain's index per window, JCT CDF.
// WriteReportFiles writes summary.txt, report.json, series.csv and
// report.html into a folder (created if missing).
#pragma once

#include <string>

#include "base/status.h"
#include "replay/report/replay_result.h"

namespace spindle::replay {

std::string ToSummaryTable(const ReplayReport& report);
std::string ToJson(const ReplayReport& report);
std::string ToSeriesCsv(const ReplayReport& report);
std::string ToHtml(const ReplayReport& report);

// IoError naming the path that cannot be created or written.
Status WriteReportFiles(const std::string& dir, const ReplayReport& report);

}  // namespace spindle::replay
