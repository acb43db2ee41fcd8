// InputFile: a trace file read line by line, plain or gzip (told apart by
// the gzip magic bytes 1f 8b, not by the name), in fixed-size chunks so that
// a multi-GB trace is never held whole. Concatenated gzip members (as
// `cat a.gz b.gz` makes) are read as one stream. A gzip stream that ends
// early or fails its checks is a Corruption naming the file: a truncated
// trace is never mistaken for a short one.
//
// Lines exclude their '\n' (and a '\r' before it); a last line without a
// newline is still a line. Line numbers count from 1, as editors do.
//
// Thread-safety: none (one reader owns it).
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "base/result.h"
#include "base/status.h"

namespace spindle::replay {

class InputFile {
 public:
  // Chunk read from the file (and inflated) at a time. Default: 1 MiB.
  static constexpr size_t kDefaultChunkBytes = 1 << 20;

  // NotFound/IoError if the file cannot be opened.
  static Result<std::unique_ptr<InputFile>> Open(const std::string& path,
                                                 size_t chunk_bytes = kDefaultChunkBytes);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  // The next line: true and *line set (valid until the next call), false at
  // the end of the file. IoError or Corruption (gzip) naming the file.
  Result<bool> NextLine(std::string_view* line);

  // The number of the line NextLine() returned last (0 before the first).
  int64_t line_number() const { return line_number_; }
  // The path as given, and its last component (for error messages:
  // "task_events.csv.gz:12: ...").
  const std::string& path() const { return path_; }
  const std::string& name() const { return name_; }
  bool gzipped() const { return gzip_ != nullptr; }
  // Bytes read from the file so far (compressed, for gzip), and its size
  // at open (-1 if unknown): together, how far through it the reader is.
  int64_t bytes_read() const { return bytes_read_; }
  int64_t size() const { return size_; }
  // bytes_read() / size() in [0, 1]; -1 if the size is unknown.
  double Progress() const;
  // "<name>:<line_number()>", the prefix of an error about the last line.
  std::string Where() const;

 private:
  struct Gzip;
  InputFile(std::string path, std::FILE* file, size_t chunk_bytes);
  // Appends the next chunk of (inflated) bytes to buffer_; false at the end.
  Result<bool> Fill();
  Result<bool> FillGzip();

  const std::string path_;
  const std::string name_;
  std::FILE* file_;
  const size_t chunk_bytes_;
  std::unique_ptr<Gzip> gzip_;
  std::string raw_;     // compressed bytes not yet inflated (gzip only)
  std::string buffer_;  // text not yet returned, from pos_
  size_t pos_ = 0;
  bool eof_ = false;
  int64_t line_number_ = 0;
  int64_t bytes_read_ = 0;
  int64_t size_ = -1;
};

}  // namespace spindle::replay
