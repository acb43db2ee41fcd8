#include "wire/ipc/connection_preamble.h"

#include <gtest/gtest.h>

#include "tests/wire/ipc/wire_test_util.h"

namespace spindle::ipc {
namespace {

TEST(ConnectionPreambleTest, ClassifiesPreambles) {
  EXPECT_EQ(ParsePreamble(EncodePreamble(AuthProtocol::kNone)).kind, Preamble::Kind::kValid);
  const Preamble sasl = ParsePreamble(EncodePreamble(AuthProtocol::kSasl, 3));
  EXPECT_EQ(sasl.auth_byte, 0xDF);
  EXPECT_EQ(sasl.service_class, 3);
  EXPECT_EQ(ParsePreamble("GET / H").kind, Preamble::Kind::kHttpGet);
  EXPECT_EQ(ParsePreamble(std::string("xrpc\x09\x00\x00", 7)).kind, Preamble::Kind::kWrongVersion);
  EXPECT_EQ(ParsePreamble(std::string("hrpc\x0a\x00\x00", 7)).kind, Preamble::Kind::kWrongVersion);
}

TEST(ConnectionPreambleTest, PreambleBytes) {
  EXPECT_EQ(EncodePreamble(AuthProtocol::kNone), testing::Hex("68 72 70 63 09 00 00"));
  EXPECT_EQ(EncodePreamble(AuthProtocol::kSasl), testing::Hex("68 72 70 63 09 00 df"));
}

TEST(ConnectionPreambleTest, Pre9VersionMismatchLayout) {
  const std::string reply = VersionMismatchReply(8);
  EXPECT_EQ(reply.substr(0, 12), testing::Hex("ff ff ff ff ff ff ff ff 00 00 00 29"));
  EXPECT_NE(reply.find("cannot communicate with client version 8"), std::string::npos);
}

}  // namespace
}  // namespace spindle::ipc
