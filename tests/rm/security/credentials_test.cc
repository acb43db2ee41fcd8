#include "rm/security/credentials.h"

#include <google/protobuf/io/coded_stream.h>
#include <gtest/gtest.h>

#include "base/crypto.h"
#include "rm/security/writable_io.h"
#include "security.pb.h"

namespace spindle::rm {
namespace {

std::string Unhex(const std::string& hex) {
  std::string out;
  CHECK(HexDecode(hex, &out)) << hex;
  return out;
}

std::string VLong(int64_t value) {
  std::string out;
  WriteVLong(value, &out);
  return HexEncode(out);
}

TEST(WritableIoTest, VLongMatchesWritableUtils) {
  EXPECT_EQ(VLong(0), "00");
  EXPECT_EQ(VLong(127), "7f");
  EXPECT_EQ(VLong(-112), "90");
  EXPECT_EQ(VLong(128), "8f80");
  EXPECT_EQ(VLong(200), "8fc8");  // WIRE.md 6.5
  EXPECT_EQ(VLong(-113), "8770");
  EXPECT_EQ(VLong(-200), "87c7");  // WIRE.md 6.5
  EXPECT_EQ(VLong(256), "8e0100");
  EXPECT_EQ(VLong(INT64_MAX), "887fffffffffffffff");
  EXPECT_EQ(VLong(INT64_MIN), "807fffffffffffffff");
}

TEST(WritableIoTest, VLongRoundTripsAndNamesOffsets) {
  std::string buffer;
  const int64_t values[] = {0,         1,         -1,        127,       -112,         -113,
                            128,       255,       256,       65535,     1 << 24,      -(1 << 24),
                            INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, 1795352696796};
  for (int64_t v : values) WriteVLong(v, &buffer);
  WritableReader in(buffer, "test");
  for (int64_t v : values) {
    auto read = in.ReadVLong();
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    EXPECT_EQ(*read, v);
  }
  EXPECT_EQ(in.remaining(), 0u);

  const std::string truncated_bytes = Unhex(
      "0102"
      "8e01");
  WritableReader truncated(truncated_bytes, "test");
  ASSERT_TRUE(truncated.ReadVLong().ok());
  ASSERT_TRUE(truncated.ReadVLong().ok());
  auto bad = truncated.ReadVLong();
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Status::Code::kCorruption);
  EXPECT_EQ(bad.status().message(), "test: truncated VLong at offset 2");

  const std::string too_big_bytes = Unhex("8b0100000000");  // 2^32: not an int
  WritableReader too_big(too_big_bytes, "test");
  EXPECT_FALSE(too_big.ReadVInt().ok());
}

Token JobToken() {
  return Token{Unhex("166a6f625f313739353335323732383437315f30303031"),
               Unhex("65fe0f9cc11daa5ed6e23c8d8fea8acefe8561bb"), "mapreduce.job",
               "job_1795352728471_0001"};
}

TEST(CredentialsTest, EmptyCredentials) {
  const Credentials empty;
  EXPECT_EQ(HexEncode(empty.Serialize()),
            "484454530000"
            "00");
  auto parsed = Credentials::Parse(Unhex("48445453000000"));
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE(parsed->tokens().empty());
  EXPECT_TRUE(parsed->secrets().empty());
  EXPECT_EQ(HexEncode(empty.Serialize(CredentialsFormat::kProtobuf)), "484454530100");
}

TEST(CredentialsTest, WritesHadoopsWritableLayout) {
  Credentials credentials;
  credentials.AddToken("JobToken", JobToken());
  credentials.AddSecret("MapReduceShuffleToken", Unhex("46dc438a5fa95dbc"));
  // The container_tokens file the 2.6.0 NM wrote for a pi map task.
  EXPECT_EQ(HexEncode(credentials.Serialize()),
            "4844545300"
            "01"
            "084a6f62546f6b656e"
            "17166a6f625f313739353335323732383437315f3030"
            "3031"
            "1465fe0f9cc11daa5ed6e23c8d8fea8acefe8561bb"
            "0d6d61707265647563652e6a6f62"
            "166a6f625f313739353335323732383437315f30303031"
            "01"
            "154d617052656475636553687566666c65546f6b656e"
            "0846dc438a5fa95dbc");
}

TEST(CredentialsTest, ProtobufFormatRoundTripsAndIsCredentialsProto) {
  Credentials credentials;
  credentials.AddToken("JobToken", JobToken());
  credentials.AddToken("", Token{"id", "pw", "YARN_AM_RM_TOKEN", ""});
  credentials.AddSecret("s", std::string("\x00\xff", 2));
  const std::string bytes = credentials.Serialize(CredentialsFormat::kProtobuf);
  ASSERT_EQ(bytes.substr(0, 5), std::string("HDTS\x01"));
  // One varint-delimited CredentialsProto (writeDelimitedTo); here over 127
  // bytes, so the length takes two varint bytes.
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()) + 5,
                                            static_cast<int>(bytes.size() - 5));
  uint32_t length = 0;
  ASSERT_TRUE(in.ReadVarint32(&length));
  ASSERT_EQ(in.CurrentPosition(), 2);
  ASSERT_EQ(length, bytes.size() - 7);
  hadoop::common::CredentialsProto proto;
  ASSERT_TRUE(proto.ParseFromString(bytes.substr(7)));
  ASSERT_EQ(proto.tokens_size(), 2);
  EXPECT_EQ(proto.tokens(0).alias(), "JobToken");
  EXPECT_EQ(proto.tokens(1).token().kind(), "YARN_AM_RM_TOKEN");
  EXPECT_TRUE(proto.tokens(1).token().has_service());
  EXPECT_EQ(proto.secrets(0).secret(), std::string("\x00\xff", 2));

  auto parsed = Credentials::Parse(bytes);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->source_format(), CredentialsFormat::kProtobuf);
  EXPECT_EQ(*parsed, credentials);
  EXPECT_EQ(parsed->Serialize(CredentialsFormat::kProtobuf), bytes);
}

TEST(CredentialsTest, SameAliasReplacesInPlaceLikeAJavaMap) {
  Credentials credentials;
  credentials.AddToken("a", Token{"1", "", "k", ""});
  credentials.AddToken("b", Token{"2", "", "k", ""});
  credentials.AddToken("a", Token{"3", "", "k", ""});
  ASSERT_EQ(credentials.tokens().size(), 2u);
  EXPECT_EQ(credentials.tokens()[0].alias, "a");
  EXPECT_EQ(credentials.tokens()[0].token.identifier, "3");
  EXPECT_EQ(credentials.FindToken("b")->identifier, "2");
  EXPECT_EQ(credentials.FindToken("c"), nullptr);
  credentials.AddSecret("x", "1");
  credentials.AddSecret("x", "2");
  ASSERT_EQ(credentials.secrets().size(), 1u);
  EXPECT_EQ(*credentials.FindSecret("x"), "2");

  // Duplicates inside a blob: the last value wins, as Java's readFields.
  auto parsed =
      Credentials::Parse(Unhex("4844545300"
                               "02"
                               "0161"
                               "0131"
                               "00"
                               "00"
                               "00"
                               "0161"
                               "0132"
                               "00"
                               "00"
                               "00"
                               "00"));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed->tokens().size(), 1u);
  EXPECT_EQ(parsed->FindToken("a")->identifier, "2");
}

TEST(CredentialsTest, AddsTheAmrmTokenAsTheJavaRmDoes) {
  const Token amrm{"id", "pw", "YARN_AM_RM_TOKEN", ""};
  auto from_nothing = AddAmrmTokenToLaunchTokens("", amrm);
  ASSERT_TRUE(from_nothing.ok());
  EXPECT_EQ(HexEncode(*from_nothing),
            "484454530001000269640270771059"
            "41524e5f414d5f524d5f544f4b454e0000");

  Credentials submitted;
  submitted.AddToken("JobToken", JobToken());
  submitted.AddSecret("MapReduceShuffleToken", "secret");
  auto added = AddAmrmTokenToLaunchTokens(submitted.Serialize(CredentialsFormat::kProtobuf), amrm);
  ASSERT_TRUE(added.ok());
  auto parsed = Credentials::Parse(*added);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->source_format(), CredentialsFormat::kWritable);  // what 2.x NMs read
  ASSERT_EQ(parsed->tokens().size(), 2u);
  EXPECT_EQ(*parsed->FindToken("JobToken"), JobToken());
  EXPECT_EQ(*parsed->FindToken(""), amrm);
  EXPECT_EQ(*parsed->FindSecret("MapReduceShuffleToken"), "secret");

  // A re-launched attempt's context already holding an AMRM token gets the new one.
  const Token newer{"id2", "pw2", "YARN_AM_RM_TOKEN", ""};
  auto replaced = AddAmrmTokenToLaunchTokens(*added, newer);
  ASSERT_TRUE(replaced.ok());
  auto reparsed = Credentials::Parse(*replaced);
  ASSERT_TRUE(reparsed.ok());
  EXPECT_EQ(reparsed->tokens().size(), 2u);
  EXPECT_EQ(*reparsed->FindToken(""), newer);

  EXPECT_FALSE(AddAmrmTokenToLaunchTokens("garbage", amrm).ok());
}

TEST(CredentialsTest, BytesAfterTheBodyAreIgnoredLikeJava) {
  auto parsed = Credentials::Parse(Unhex("48445453000000ffff"));
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(HexEncode(parsed->Serialize()), "48445453000000");
}

struct Malformed {
  const char* name;
  const char* hex;
  const char* message;
};

class MalformedCredentialsTest : public ::testing::TestWithParam<Malformed> {};

TEST_P(MalformedCredentialsTest, IsCorruptionNamingTheOffset) {
  auto parsed = Credentials::Parse(Unhex(GetParam().hex));
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().code(), Status::Code::kCorruption);
  EXPECT_EQ(parsed.status().message(), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, MalformedCredentialsTest,
    ::testing::Values(
        Malformed{"Empty", "", "credentials: bad header (want \"HDTS\") at offset 0"},
        Malformed{"BadMagic", "4844545400", "credentials: bad header (want \"HDTS\") at offset 0"},
        Malformed{"NoVersion", "48445453", "credentials: unexpected end of data at offset 4"},
        Malformed{"UnknownVersion", "484454530200",
                  "credentials: unknown token storage version 2 at offset 4"},
        Malformed{"NoTokenCount", "4844545300", "credentials: truncated VLong at offset 5"},
        Malformed{"NegativeCount", "4844545300ff",
                  "credentials: negative token count -1 at offset 5"},
        Malformed{"CountTooBigForAnInt", "48445453008b0100000000",
                  "credentials: VInt 4294967296 does not fit an int at offset 5"},
        Malformed{"TruncatedAlias",
                  "4844545300"
                  "01"
                  "0561",
                  "credentials: token alias of 5 bytes overruns the data (1 left) at offset 6"},
        Malformed{"NegativeIdentifierLength",
                  "4844545300"
                  "01"
                  "00"
                  "ff",
                  "credentials: negative length -1 of token identifier at offset 7"},
        Malformed{"HugeIdentifierLength",
                  "4844545300"
                  "01"
                  "00"
                  "8c7fffffff",
                  "credentials: token identifier of 2147483647 bytes overruns the data (0 left) "
                  "at offset 7"},
        Malformed{"MissingService",
                  "4844545300"
                  "01"
                  "00"
                  "00"
                  "00"
                  "00",
                  "credentials: truncated VLong at offset 10"},
        Malformed{"MissingSecretCount",
                  "4844545300"
                  "00",
                  "credentials: truncated VLong at offset 6"},
        Malformed{"TruncatedSecret",
                  "4844545300"
                  "00"
                  "01"
                  "0178"
                  "0401",
                  "credentials: secret of 4 bytes overruns the data (1 left) at offset 9"},
        Malformed{"ProtobufNoLength", "4844545301",
                  "credentials: truncated CredentialsProto length at offset 5"},
        Malformed{
            "ProtobufOverrun",
            "484454530105"
            "0a00",
            "credentials: CredentialsProto of 5 bytes overruns the data (2 left) at offset 5"},
        Malformed{"ProtobufMissingRequiredAlias",
                  "484454530102"
                  "0a00",
                  "credentials: CredentialsProto at offset 6 lacks required fields: "
                  "tokens[0].alias"},
        Malformed{"ProtobufGarbage",
                  "484454530102"
                  "ffff",
                  "credentials: CredentialsProto does not parse at offset 6"}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(CredentialsTest, ParsesOneWritableToken) {
  std::string data;
  WriteText("id\x01", &data);
  WriteText("pw", &data);
  WriteText("RM_DELEGATION_TOKEN", &data);
  WriteText("127.0.0.1:8032", &data);
  Result<Token> token = ParseWritableToken(data);
  ASSERT_TRUE(token.ok()) << token.status().ToString();
  EXPECT_EQ(*token, (Token{"id\x01", "pw", "RM_DELEGATION_TOKEN", "127.0.0.1:8032"}));
  Result<Token> truncated = ParseWritableToken(data.substr(0, data.size() - 1));
  ASSERT_FALSE(truncated.ok());
  EXPECT_EQ(truncated.status().code(), Status::Code::kCorruption) << truncated.status().ToString();
  EXPECT_EQ(WriteWritableToken(*token), data);
}

// Token.encodeToUrlString / decodeFromUrlString (the REST API's form): the
// Writable bytes in URL-safe Base64 without padding.
TEST(CredentialsTest, TokensRoundTripThroughTheirUrlString) {
  const Token token{"id\xfb\xff", "pw\xbf", "RM_DELEGATION_TOKEN", ""};
  const std::string url = EncodeTokenUrlString(token);
  // 04 'i' 'd' fb ff 03 'p' 'w' bf 13 "RM_DELEGATION_TOKEN" 00
  EXPECT_EQ(url, "BGlk-_8DcHe_E1JNX0RFTEVHQVRJT05fVE9LRU4A");
  Result<Token> back = DecodeTokenUrlString(url);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, token);
  EXPECT_FALSE(DecodeTokenUrlString("A2lk").ok());
  EXPECT_FALSE(DecodeTokenUrlString("!!").ok());
}

}  // namespace
}  // namespace spindle::rm
