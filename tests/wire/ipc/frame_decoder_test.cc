#include "wire/ipc/frame_decoder.h"

#include <gtest/gtest.h>

#include "wire/ipc/frame_codec.h"

namespace spindle::ipc {
namespace {

std::string Frame(std::string_view body) {
  std::string out;
  AppendBigEndian32(static_cast<uint32_t>(body.size()), &out);
  out.append(body);
  return out;
}

TEST(FrameDecoderTest, ReassemblesFramesFedByteByByte) {
  const std::string stream = Frame("hello") + Frame("") + Frame(std::string(300, 'x'));
  FrameDecoder decoder(1024);
  std::vector<std::string> frames;
  std::string frame;
  for (char c : stream) {
    decoder.Append(std::string_view(&c, 1));
    while (true) {
      auto next = decoder.Next(&frame);
      ASSERT_TRUE(next.ok());
      if (!*next) break;
      frames.push_back(frame);
    }
  }
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[0], "hello");
  EXPECT_EQ(frames[1], "");
  EXPECT_EQ(frames[2], std::string(300, 'x'));
  EXPECT_EQ(decoder.buffered(), 0u);
}

TEST(FrameDecoderTest, RejectsOversizeLengthBeforeTheBodyArrives) {
  FrameDecoder decoder(100);
  std::string prefix;
  AppendBigEndian32(0x7fffffff, &prefix);
  decoder.Append(prefix);
  std::string frame;
  auto next = decoder.Next(&frame);
  ASSERT_FALSE(next.ok());
  EXPECT_EQ(next.status().code(), Status::Code::kResourceExhausted);
}

TEST(FrameDecoderTest, AcceptsExactlyTheMaximum) {
  FrameDecoder decoder(10);
  decoder.Append(Frame("0123456789"));
  std::string frame;
  auto next = decoder.Next(&frame);
  ASSERT_TRUE(next.ok());
  EXPECT_TRUE(*next);
}

TEST(FrameDecoderTest, CompactsLongStreams) {
  FrameDecoder decoder(1 << 20);
  std::string frame;
  for (int i = 0; i < 10000; ++i) {
    decoder.Append(Frame(std::string(100, 'a')) + Frame("b").substr(0, 2));
    ASSERT_TRUE(*decoder.Next(&frame));
    EXPECT_EQ(frame.size(), 100u);
    decoder.Append(Frame("b").substr(2));
    ASSERT_TRUE(*decoder.Next(&frame));
    EXPECT_EQ(frame, "b");
  }
  EXPECT_EQ(decoder.buffered(), 0u);
}

TEST(FrameDecoderTest, GivesBackTheStorageOfALargeFrame) {
  FrameDecoder decoder(16 << 20);
  const std::string large = Frame(std::string(4 << 20, 'x'));
  std::string frame;
  // Fed in reads of 64 KiB, as a connection does.
  for (size_t at = 0; at < large.size(); at += 65536) {
    decoder.Append(std::string_view(large).substr(at, 65536));
    if (at + 65536 < large.size()) {
      ASSERT_FALSE(*decoder.Next(&frame));
    }
  }
  EXPECT_GE(decoder.capacity(), size_t{4} << 20);
  ASSERT_TRUE(*decoder.Next(&frame));
  EXPECT_EQ(frame.size(), size_t{4} << 20);
  EXPECT_LE(decoder.capacity(), FrameDecoder::kRetainedCapacity);
  // Small frames afterwards keep their (small) storage between reads.
  decoder.Append(Frame("heartbeat"));
  ASSERT_TRUE(*decoder.Next(&frame));
  EXPECT_LE(decoder.capacity(), FrameDecoder::kRetainedCapacity);
}

TEST(FrameDecoderTest, ShrinksToThePartialFrameLeftAfterALargeOne) {
  FrameDecoder decoder(16 << 20);
  std::string frame;
  decoder.Append(Frame(std::string(1 << 20, 'x')) + Frame("next").substr(0, 5));
  ASSERT_TRUE(*decoder.Next(&frame));
  EXPECT_EQ(decoder.buffered(), 5u);
  EXPECT_LE(decoder.capacity(), FrameDecoder::kRetainedCapacity);
  decoder.Append(Frame("next").substr(5));
  ASSERT_TRUE(*decoder.Next(&frame));
  EXPECT_EQ(frame, "next");
}

}  // namespace
}  // namespace spindle::ipc
