#include "persist/acknowledged_mark.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <utility>

namespace spindle::persist {

namespace {

constexpr std::string_view kMagic = "SPNDLACK";
constexpr size_t kSize = 24;

// FNV-1a over magic and sequence: enough to tell a garbled file.
uint64_t Checksum(const unsigned char* bytes, size_t n) {
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < n; ++i) {
    h ^= bytes[i];
    h *= 1099511628211ull;
  }
  return h;
}

void PutLittle64(unsigned char* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<unsigned char>(v >> (8 * i));
}

uint64_t GetLittle64(const unsigned char* in) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t{in[i]} << (8 * i);
  return v;
}

std::array<unsigned char, kSize> Encode(uint64_t sequence) {
  std::array<unsigned char, kSize> bytes{};
  std::memcpy(bytes.data(), kMagic.data(), kMagic.size());
  PutLittle64(bytes.data() + 8, sequence);
  PutLittle64(bytes.data() + 16, Checksum(bytes.data(), 16));
  return bytes;
}

Status Errno(const std::string& what, const std::string& path) {
  return Status::IoError(what + " " + path + ": " + std::strerror(errno));
}

Status SyncDirectory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Errno("cannot open the directory", dir);
  const int rc = ::fsync(fd);
  const Status s = rc == 0 ? Status::OK() : Errno("cannot sync the directory", dir);
  ::close(fd);
  return s;
}

}  // namespace

std::string AcknowledgedMark::PathIn(const std::string& dir) {
  return dir + "/" + std::string(kFileName);
}

Result<std::optional<uint64_t>> AcknowledgedMark::Read(const std::string& dir) {
  const std::string path = PathIn(dir);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::optional<uint64_t>();
    return Errno("cannot open", path);
  }
  std::array<unsigned char, kSize + 1> bytes{};
  const ssize_t n = ::pread(fd, bytes.data(), bytes.size(), 0);
  const int read_errno = errno;
  ::close(fd);
  if (n < 0) {
    errno = read_errno;
    return Errno("cannot read", path);
  }
  if (static_cast<size_t>(n) != kSize ||
      std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0 ||
      GetLittle64(bytes.data() + 16) != Checksum(bytes.data(), 16)) {
    return Status::Corruption("file " + path + " (the sequence number of the last write the " +
                              "store acknowledged) is garbled (" + std::to_string(n) + " bytes)");
  }
  return std::optional<uint64_t>(GetLittle64(bytes.data() + 8));
}

Result<std::unique_ptr<AcknowledgedMark>> AcknowledgedMark::Open(const std::string& dir,
                                                                 uint64_t initial) {
  ASSIGN_OR_RETURN(std::optional<uint64_t> existing, Read(dir));
  const std::string path = PathIn(dir);
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return Errno("cannot open", path);
  std::unique_ptr<AcknowledgedMark> mark(
      new AcknowledgedMark(path, fd, existing.value_or(initial)));
  if (!existing.has_value()) {
    RETURN_NOT_OK(mark->WriteAndSync(initial));
    RETURN_NOT_OK(SyncDirectory(dir));
  }
  return mark;
}

AcknowledgedMark::~AcknowledgedMark() { ::close(fd_); }

Status AcknowledgedMark::WriteAndSync(uint64_t sequence) const {
  const auto bytes = Encode(sequence);
  const ssize_t n = ::pwrite(fd_, bytes.data(), bytes.size(), 0);
  if (n < 0) return Errno("cannot write", path_);
  if (static_cast<size_t>(n) != bytes.size()) {
    return Status::IoError("cannot write " + path_ + ": short write");
  }
  if (::fdatasync(fd_) != 0) return Errno("cannot sync", path_);
  return Status::OK();
}

Status AcknowledgedMark::Advance(uint64_t sequence) {
  mu_.Lock();
  if (sequence > wanted_) wanted_ = sequence;
  while (durable_ < sequence && writing_) written_.Wait(&mu_);
  if (durable_ >= sequence) {
    mu_.Unlock();
    return Status::OK();
  }
  // This caller writes for everyone waiting: the newest sequence wanted.
  writing_ = true;
  const uint64_t target = wanted_;
  mu_.Unlock();
  const Status s = WriteAndSync(target);
  mu_.Lock();
  writing_ = false;
  if (s.ok() && target > durable_) durable_ = target;
  written_.SignalAll();
  mu_.Unlock();
  return s;
}

}  // namespace spindle::persist
