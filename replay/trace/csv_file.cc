#include "replay/trace/csv_file.h"

#include "replay/trace/input_file.h"

namespace spindle::replay {

Status ForEachCsvRow(const std::string& path, const ReadOptions& read, ReadStats* stats,
                     std::string_view header_reason,
                     const std::function<Status(const CsvRow& row)>& on_row) {
  ASSIGN_OR_RETURN(auto file, InputFile::Open(path));
  CsvRow row;
  std::string_view line;
  int64_t lines = 0;
  while (true) {
    ASSIGN_OR_RETURN(const bool more, file->NextLine(&line));
    if (!more) return Status::OK();
    ++lines;
    ++stats->lines;
    row.Split(line, file->Where());
    if (lines == 1 && !header_reason.empty() && row.LooksLikeHeader()) {
      CountReason(&stats->adjusted, std::string(header_reason));
      continue;
    }
    const Status st = on_row(row);
    if (!st.ok()) RETURN_NOT_OK(SkipOrFail(read, stats, st));
  }
}

}  // namespace spindle::replay
