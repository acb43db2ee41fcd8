// FrameDecoder: turns a byte stream into whole IPC frames (4-byte big-endian
// length + body), refusing a length over the configured maximum before any
// allocation for it (ipc.maximum.data.length). Bytes in, frames out: used by
// both the server and client connections, and by the fuzzer.
//
// Memory: the buffer holds only bytes not yet returned as frames. Once it is
// drained its storage is released if it grew past kRetainedCapacity (a large
// frame, or a burst of reads), so an idle connection keeps at most that much.
//
// Thread contract: not thread-safe; owned by one connection.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"

namespace spindle::ipc {

class FrameDecoder {
 public:
  // Storage a drained buffer may keep for the next frames: enough for the
  // small calls of a busy connection (heartbeats, allocates) without a
  // reallocation each time.
  static constexpr size_t kRetainedCapacity = 4096;

  explicit FrameDecoder(uint32_t max_frame_length) : max_frame_length_(max_frame_length) {}

  // Buffers more bytes from the peer.
  void Append(std::string_view bytes) { buffer_.append(bytes.data(), bytes.size()); }

  // If a whole frame is buffered, moves its body (without the length prefix)
  // into *frame and returns true; returns false if more bytes are needed; an
  // error if the announced length exceeds the maximum (the stream is then
  // unusable and the connection must close).
  Result<bool> Next(std::string* frame);

  // Bytes received but not yet returned as frames.
  size_t buffered() const { return buffer_.size() - consumed_; }
  // Bytes of storage held (for tests of the release after a large frame).
  size_t capacity() const { return buffer_.capacity(); }
  // Moves out whatever is buffered and not yet consumed (e.g. after a preamble).
  std::string TakeRemaining();

 private:
  // Empties the buffer, giving its storage back if it grew past kRetainedCapacity.
  void Drain();

  const uint32_t max_frame_length_;
  std::string buffer_;
  size_t consumed_ = 0;
};

}  // namespace spindle::ipc
