// JsonStream: reads a file of top-level JSON values one at a time, without
// loading the file. Hadoop's SLS and Rumen traces are concatenated objects
// ({...}{...}, as Jackson's readValues writes and reads them); a file may
// instead hold one top-level array of objects ([{...},{...}]), whose
// elements are then returned one by one. The mode is chosen by the first
// non-blank character of the input.
//
// Strict JSON (RFC 8259): a bad token, a control character in a string, a
// lone surrogate escape, a duplicate object key, trailing commas, or junk
// after the top-level array are errors. Each error is an InvalidArgument
// "<name>:<line>: <what>" naming the line where it was found. A syntax
// error ends the stream: the record boundary is lost, so readers do not
// skip past one (ReadOptions::skip_bad applies to well-formed records whose
// fields are wrong). Strings are not checked for valid UTF-8; bytes pass
// through.
//
// The file is read in JsonStreamOptions::chunk_bytes pieces; only the
// current record's tree is held.
//
// Thread-safety: none (one reader owns a stream).
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "base/json/json_value.h"
#include "base/result.h"

namespace spindle::json {

struct JsonStreamOptions {
  // Bytes read from the file at a time. Default: 64 KiB.
  size_t chunk_bytes = 64 * 1024;
  // Deepest nesting of arrays and objects accepted (the parser recurses).
  // Default: 200.
  int max_depth = 200;
};

class JsonStream {
 public:
  ~JsonStream();
  JsonStream(const JsonStream&) = delete;
  JsonStream& operator=(const JsonStream&) = delete;

  // Opens `path`; NotFound/IoError if it cannot be opened. `name` (in
  // errors) is the path.
  static Result<std::unique_ptr<JsonStream>> Open(const std::string& path,
                                                  JsonStreamOptions options = {});
  // Reads from memory (tests, small inline documents); `name` labels errors.
  static std::unique_ptr<JsonStream> FromString(std::string name, std::string text,
                                                JsonStreamOptions options = {});

  // The next top-level value (or element of the top-level array): true and
  // *value set, false at the end of the input. After an error every call
  // returns the same error.
  Result<bool> Next(JsonValue* value);

  const std::string& name() const { return name_; }
  // The line the stream is at (1-based).
  int64_t line() const { return line_; }
  // The share of the input consumed so far, in [0, 1] (for progress bars);
  // -1 if the input's size is unknown (a pipe).
  double Progress() const;

 private:
  JsonStream(std::string name, std::FILE* file, std::string text, JsonStreamOptions options);

  // -1 at the end of the input; may read the next chunk.
  int Peek();
  int Get();
  bool Refill();
  void SkipBlanks();
  Status Error(const std::string& what) const;
  Status Unexpected(int c, const char* wanted) const;

  Result<JsonValue> ParseValue(int depth);
  Result<JsonValue> ParseObject(int depth);
  Result<JsonValue> ParseArray(int depth);
  Result<std::string> ParseString();
  Result<JsonValue> ParseNumber();
  Status ParseLiteral(const char* word);
  Result<uint32_t> ParseHex4();

  enum class Mode { kUnknown, kConcatenated, kArray, kDone };

  const std::string name_;
  std::FILE* file_;  // owned; null when reading from memory
  const JsonStreamOptions options_;
  std::string buffer_;
  size_t pos_ = 0;
  bool eof_ = false;
  int64_t bytes_read_ = 0;    // from the file, in all
  int64_t total_bytes_ = -1;  // the file's size; -1 unknown
  int64_t line_ = 1;
  Mode mode_ = Mode::kUnknown;
  bool array_first_ = true;
  Status failed_;
};

}  // namespace spindle::json
