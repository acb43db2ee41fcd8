#include "wire/ipc/frame_decoder.h"

#include <algorithm>

#include "wire/ipc/frame_codec.h"

namespace spindle::ipc {

Result<bool> FrameDecoder::Next(std::string* frame) {
  if (buffered() < kFrameLengthBytes) return false;
  const uint32_t length = ReadBigEndian32(buffer_.data() + consumed_);
  if (length > max_frame_length_) {
    return Status::ResourceExhausted("frame length " + std::to_string(length) +
                                     " exceeds ipc.maximum.data.length " +
                                     std::to_string(max_frame_length_));
  }
  if (buffered() - kFrameLengthBytes < length) return false;
  frame->assign(buffer_, consumed_ + kFrameLengthBytes, length);
  consumed_ += kFrameLengthBytes + length;
  // Compact once the consumed prefix dominates, so the buffer does not grow
  // without bound on a long-lived connection.
  if (consumed_ == buffer_.size()) {
    Drain();
  } else if (consumed_ > size_t{64} * 1024 && consumed_ * 2 > buffer_.size()) {
    buffer_.erase(0, consumed_);
    consumed_ = 0;
    // What is left is the start of the next frame: keep no more than twice it.
    if (buffer_.capacity() > std::max(kRetainedCapacity, 2 * buffer_.size())) {
      buffer_.shrink_to_fit();
    }
  }
  return true;
}

std::string FrameDecoder::TakeRemaining() {
  std::string rest = buffer_.substr(consumed_);
  Drain();
  return rest;
}

void FrameDecoder::Drain() {
  consumed_ = 0;
  if (buffer_.capacity() > kRetainedCapacity) {
    std::string().swap(buffer_);
  } else {
    buffer_.clear();
  }
}

}  // namespace spindle::ipc
