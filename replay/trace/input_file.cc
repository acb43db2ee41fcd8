#include "replay/trace/input_file.h"

#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace spindle::replay {

struct InputFile::Gzip {
  z_stream strm{};
  bool in_member = false;  // inside a gzip member (not between members)
  ~Gzip() { inflateEnd(&strm); }
};

namespace {

std::string BaseName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

Result<std::unique_ptr<InputFile>> InputFile::Open(const std::string& path, size_t chunk_bytes) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    const int err = errno;
    const std::string msg = path + ": " + std::strerror(err);
    return err == ENOENT ? Status::NotFound(msg) : Status::IoError(msg);
  }
  std::unique_ptr<InputFile> file(new InputFile(path, f, chunk_bytes == 0 ? 1 : chunk_bytes));
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) file->size_ = st.st_size;
  // Tell gzip by its magic bytes; whatever was read stays in raw_ or buffer_.
  unsigned char magic[2];
  const size_t n = std::fread(magic, 1, 2, f);
  if (std::ferror(f)) return Status::IoError(path + ": read error");
  file->bytes_read_ = static_cast<int64_t>(n);
  if (n == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
    file->gzip_ = std::make_unique<Gzip>();
    // 16 + MAX_WBITS: a gzip wrapper, not zlib or raw deflate.
    if (inflateInit2(&file->gzip_->strm, 16 + MAX_WBITS) != Z_OK) {
      return Status::Internal(path + ": inflateInit2 failed");
    }
    file->gzip_->in_member = true;
    file->raw_.assign(reinterpret_cast<const char*>(magic), 2);
  } else {
    file->buffer_.assign(reinterpret_cast<const char*>(magic), n);
  }
  return file;
}

InputFile::InputFile(std::string path, std::FILE* file, size_t chunk_bytes)
    : path_(std::move(path)), name_(BaseName(path_)), file_(file), chunk_bytes_(chunk_bytes) {}

InputFile::~InputFile() {
  if (file_ != nullptr) std::fclose(file_);
}

double InputFile::Progress() const {
  if (size_ < 0) return -1;
  if (size_ == 0) return 1;
  return std::clamp(static_cast<double>(bytes_read_) / static_cast<double>(size_), 0.0, 1.0);
}

std::string InputFile::Where() const { return name_ + ":" + std::to_string(line_number_); }

Result<bool> InputFile::Fill() {
  if (gzip_ != nullptr) return FillGzip();
  if (eof_) return false;
  const size_t old = buffer_.size();
  buffer_.resize(old + chunk_bytes_);
  const size_t n = std::fread(buffer_.data() + old, 1, chunk_bytes_, file_);
  buffer_.resize(old + n);
  bytes_read_ += static_cast<int64_t>(n);
  if (std::ferror(file_)) return Status::IoError(path_ + ": read error");
  if (n == 0) eof_ = true;
  return n > 0;
}

Result<bool> InputFile::FillGzip() {
  z_stream& s = gzip_->strm;
  while (true) {
    if (raw_.empty() && !eof_) {
      raw_.resize(chunk_bytes_);
      const size_t n = std::fread(raw_.data(), 1, chunk_bytes_, file_);
      raw_.resize(n);
      bytes_read_ += static_cast<int64_t>(n);
      if (std::ferror(file_)) return Status::IoError(path_ + ": read error");
      if (n == 0) eof_ = true;
    }
    if (raw_.empty()) {
      // The file ended; fine only between members.
      if (gzip_->in_member) {
        return Status::Corruption(path_ + ": truncated gzip stream (unexpected end of file)");
      }
      return false;
    }
    if (!gzip_->in_member) {
      // More bytes after a member's end: another member (concatenated gzip).
      if (inflateReset(&s) != Z_OK) return Status::Internal(path_ + ": inflateReset failed");
      gzip_->in_member = true;
    }
    const size_t old = buffer_.size();
    buffer_.resize(old + chunk_bytes_);
    s.next_in = reinterpret_cast<Bytef*>(raw_.data());
    s.avail_in = static_cast<uInt>(raw_.size());
    s.next_out = reinterpret_cast<Bytef*>(buffer_.data() + old);
    s.avail_out = static_cast<uInt>(chunk_bytes_);
    const int ret = inflate(&s, Z_NO_FLUSH);
    const size_t produced = chunk_bytes_ - s.avail_out;
    buffer_.resize(old + produced);
    raw_.erase(0, raw_.size() - s.avail_in);
    if (ret == Z_STREAM_END) {
      gzip_->in_member = false;
    } else if (ret == Z_DATA_ERROR || ret == Z_NEED_DICT) {
      return Status::Corruption(path_ + ": corrupt gzip stream (" +
                                (s.msg != nullptr ? std::string(s.msg) : "data error") + ")");
    } else if (ret == Z_MEM_ERROR) {
      return Status::ResourceExhausted(path_ + ": out of memory inflating");
    } else if (ret != Z_OK && ret != Z_BUF_ERROR) {
      return Status::Corruption(path_ + ": gzip error " + std::to_string(ret));
    }
    if (produced > 0) return true;
  }
}

Result<bool> InputFile::NextLine(std::string_view* line) {
  size_t scan_from = pos_;
  while (true) {
    const size_t nl = buffer_.find('\n', scan_from);
    if (nl != std::string::npos) {
      size_t end = nl;
      if (end > pos_ && buffer_[end - 1] == '\r') --end;
      *line = std::string_view(buffer_).substr(pos_, end - pos_);
      pos_ = nl + 1;
      ++line_number_;
      return true;
    }
    // No newline: keep the partial line, drop what was returned, read on.
    buffer_.erase(0, pos_);
    pos_ = 0;
    scan_from = buffer_.size();
    ASSIGN_OR_RETURN(const bool more, Fill());
    if (!more) {
      if (buffer_.empty()) return false;
      // A last line without a newline.
      size_t end = buffer_.size();
      if (buffer_[end - 1] == '\r') --end;
      *line = std::string_view(buffer_).substr(0, end);
      pos_ = buffer_.size();
      ++line_number_;
      return true;
    }
  }
}

}  // namespace spindle::replay
