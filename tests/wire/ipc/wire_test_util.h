// Helpers shared by the IPC unit tests: hex literals and frame splitting.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "base/crypto.h"
#include "wire/ipc/frame_decoder.h"

namespace spindle::ipc::testing {

// "0a 08 02" -> bytes; spaces and newlines are ignored.
inline std::string Hex(std::string_view text) {
  std::string compact;
  for (char c : text) {
    if (c != ' ' && c != '\n') compact.push_back(c);
  }
  std::string out;
  EXPECT_TRUE(HexDecode(compact, &out)) << text;
  return out;
}

// Splits a byte stream of whole frames into frame bodies.
inline std::vector<std::string> SplitFrames(std::string_view bytes) {
  FrameDecoder decoder(1u << 30);
  decoder.Append(bytes);
  std::vector<std::string> frames;
  std::string frame;
  while (true) {
    auto next = decoder.Next(&frame);
    EXPECT_TRUE(next.ok());
    if (!next.ok() || !*next) break;
    frames.push_back(frame);
  }
  EXPECT_EQ(decoder.buffered(), 0u) << "trailing partial frame";
  return frames;
}

inline std::string ClientIdA0ToAf() {
  std::string id;
  for (int i = 0; i < 16; ++i) id.push_back(static_cast<char>(0xa0 + i));
  return id;
}

}  // namespace spindle::ipc::testing
