// The read loop every whole-file CSV reader of a cluster trace shares: open
// the file (plain or gzip), split each line, pass over a first line of column
// names, and skip or fail on a malformed row as ReadOptions::skip_bad says.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "base/status.h"
#include "replay/trace/csv_row.h"
#include "replay/trace/trace_reader.h"

namespace spindle::replay {

// Calls `on_row` for each data row of `path`, counting lines in `stats`.
// When `header_reason` is not empty, a first line that looks like column
// names is passed over and counted under that reason in stats->adjusted.
// An error `on_row` returns is the row's: skipped and counted under
// `read.skip_bad` (SkipOrFail), else returned and the loop stops. Errors
// opening or reading the file are always returned.
Status ForEachCsvRow(const std::string& path, const ReadOptions& read, ReadStats* stats,
                     std::string_view header_reason,
                     const std::function<Status(const CsvRow& row)>& on_row);

}  // namespace spindle::replay
