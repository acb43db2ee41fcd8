// Golden bytes from WIRE.md section 2.9 (hand-encoded from Hadoop's field
// definitions) for every frame kind a client or server builds.
#include "wire/ipc/frame_codec.h"

#include <gtest/gtest.h>

#include "tests/wire/ipc/wire_test_util.h"
#include "wire/ipc/rpc_requests.h"
#include "wire/ipc/rpc_responses.h"
#include "yarn_service_protos.pb.h"

namespace spindle::ipc {
namespace {

using testing::ClientIdA0ToAf;
using testing::Hex;

constexpr char kAcp[] = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";

std::string AcpBytes() { return std::string(kAcp); }

TEST(FrameCodecTest, ConnectionContextSimple) {
  const std::string expected = Hex("00 00 00 5d 1a 08 02 10 00 18 05 22 10") + ClientIdA0ToAf() +
                               Hex("28 01 41 12 07 0a 05") + "alice" + Hex("1a 36") + AcpBytes();
  EXPECT_EQ(EncodeConnectionContextFrame(ClientIdA0ToAf(), kAcp, "alice", false), expected);
}

TEST(FrameCodecTest, ConnectionContextTokenSendsEmptyUserInfo) {
  const std::string frame = EncodeConnectionContextFrame(ClientIdA0ToAf(), kAcp, "ignored", true);
  // userInfo present but empty: "12 00", as the Java client sends after SASL.
  EXPECT_NE(frame.find(Hex("12 00 1a 36")), std::string::npos);
  EXPECT_EQ(frame.find("ignored"), std::string::npos);
}

TEST(FrameCodecTest, CallFrameGetClusterMetrics) {
  hadoop::yarn::GetClusterMetricsRequestProto request;
  const std::string expected = Hex("00 00 00 6a 1a 08 02 10 00 18 0e 22 10") + ClientIdA0ToAf() +
                               Hex("28 00 4d 0a 11") + "getClusterMetrics" + Hex("12 36") +
                               AcpBytes() + Hex("18 01 00");
  EXPECT_EQ(EncodeCallFrame(7, ClientIdA0ToAf(), 0, kAcp, "getClusterMetrics", request), expected);
}

TEST(FrameCodecTest, SaslNegotiateFromClient) {
  hadoop::common::RpcSaslProto negotiate;
  negotiate.set_state(hadoop::common::RpcSaslProto::NEGOTIATE);
  EXPECT_EQ(EncodeSaslFrame(negotiate),
            Hex("00 00 00 0e 0a 08 02 10 00 18 41 22 00 28 01 02 10 01"));
}

TEST(FrameCodecTest, PingFrame) {
  EXPECT_EQ(EncodePingFrame(ClientIdA0ToAf()),
            Hex("00 00 00 1b 1a 08 02 10 00 18 07 22 10") + ClientIdA0ToAf() + Hex("28 01"));
}

TEST(FrameCodecTest, SuccessResponseHeaderEchoesCall) {
  hadoop::yarn::GetClusterMetricsResponseProto response;
  const CallEcho echo{7, ClientIdA0ToAf(), 0};
  const std::string frame = EncodeSuccessResponse(echo, response);
  const std::string header = Hex("1a 08 07 10 00 18 09 3a 10") + ClientIdA0ToAf() + Hex("40 00");
  EXPECT_EQ(frame, Hex("00 00 00 1c") + header + Hex("00"));
}

TEST(FrameCodecTest, SaslReplyCarriesUnsignedMinus33) {
  hadoop::common::RpcSaslProto success;
  success.set_state(hadoop::common::RpcSaslProto::SUCCESS);
  EXPECT_EQ(EncodeSaslResponse(success),
            Hex("00 00 00 12 0e 08 df ff ff ff 0f 10 00 18 09 3a 00 40 01 02 10 00"));
}

TEST(FrameCodecTest, NegativeCallIdsZigZag) {
  // sint32 in requests: -3 -> 05, -4 -> 07, -33 -> 41.
  for (auto [id, byte] : {std::pair{-3, 0x05}, std::pair{-4, 0x07}, std::pair{-33, 0x41}}) {
    const auto header = MakeRequestHeader(id, "", -1);
    const std::string bytes = header.SerializeAsString();
    ASSERT_GE(bytes.size(), 6u);
    EXPECT_EQ(static_cast<uint8_t>(bytes[5]), byte) << id;
  }
}

TEST(FrameCodecTest, ReadDelimitedRejectsBadInput) {
  hadoop::common::RpcSaslProto sasl;
  std::string_view truncated_varint("\x80", 1);
  EXPECT_FALSE(ReadDelimited(&truncated_varint, &sasl).ok());
  std::string_view too_long("\x05\x10\x01", 3);
  EXPECT_FALSE(ReadDelimited(&too_long, &sasl).ok());
  std::string_view huge_varint("\xff\xff\xff\xff\xff\x01", 6);
  EXPECT_FALSE(ReadDelimited(&huge_varint, &sasl).ok());
  // Missing the required `state` field.
  std::string_view missing_required("\x02\x08\x00", 3);
  EXPECT_FALSE(ReadDelimited(&missing_required, &sasl).ok());
  std::string_view ok("\x02\x10\x01", 3);
  EXPECT_TRUE(ReadDelimited(&ok, &sasl).ok());
  EXPECT_TRUE(ok.empty());
}

}  // namespace
}  // namespace spindle::ipc
