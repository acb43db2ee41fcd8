// Folding of libprotobuf's log lines (protobuf_log_folding.h): lines are
// produced by libprotobuf itself (its UTF-8 check of string fields, its
// complaint about missing required fields) and counted where they come out.
#include "wire/ipc/protobuf_log_folding.h"

#include <google/protobuf/wire_format_lite.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rpc_header.pb.h"
#include "wire/ipc/connection_preamble.h"
#include "wire/ipc/rpc_requests.h"
#include "wire/ipc/server_session.h"

namespace spindle::ipc {
namespace {

using google::protobuf::internal::WireFormatLite;

struct Line {
  google::protobuf::LogLevel level;
  std::string text;
};

// The folder under test receives libprotobuf's lines for the test's duration.
ProtobufLogFolder* active_folder = nullptr;

void ForwardToFolder(google::protobuf::LogLevel level, const char* file, int line,
                     const std::string& message) {
  active_folder->Handle(level, file, line, message);
}

class ProtobufLogFoldingTest : public ::testing::Test {
 protected:
  ProtobufLogFoldingTest()
      : folder_(
            &clock_, std::chrono::seconds(10),
            [this](google::protobuf::LogLevel level, const char*, int, const std::string& text) {
              lines_.push_back({level, text});
            }) {}

  void SetUp() override {
    active_folder = &folder_;
    previous_ = google::protobuf::SetLogHandler(&ForwardToFolder);
  }
  void TearDown() override {
    google::protobuf::SetLogHandler(previous_);
    active_folder = nullptr;
  }

  // One malformed string field, checked the way generated parsers check it.
  static void MalformedField(const char* field) {
    EXPECT_FALSE(WireFormatLite::VerifyUtf8String("\xff\xfe\xfd", 3, WireFormatLite::PARSE, field));
  }

  ManualClock clock_;
  ProtobufLogFolder folder_;
  std::vector<Line> lines_;
  google::protobuf::LogHandler* previous_ = nullptr;
};

TEST_F(ProtobufLogFoldingTest, OneLinePerConnection) {
  ProtobufLogBudget connection;
  {
    const ProtobufLogScope scope(&connection);
    for (const char* field : {"a.user", "a.protocol", "a.realUser", "a.user", "a.host"}) {
      MalformedField(field);
    }
  }
  ASSERT_EQ(lines_.size(), 1u);
  EXPECT_EQ(lines_[0].level, google::protobuf::LOGLEVEL_ERROR);
  EXPECT_NE(lines_[0].text.find("a.user"), std::string::npos) << lines_[0].text;
  EXPECT_EQ(connection.folded(), 4);
  EXPECT_EQ(folder_.folded(), 4);

  // The connection stays spent even after the site's interval.
  clock_.Advance(std::chrono::seconds(60));
  {
    const ProtobufLogScope scope(&connection);
    MalformedField("a.user");
  }
  EXPECT_EQ(lines_.size(), 1u);
  EXPECT_EQ(connection.folded(), 5);
}

TEST_F(ProtobufLogFoldingTest, ManyConnectionsGetOneLineEveryIntervalWithTheCount) {
  std::vector<ProtobufLogBudget> connections(100);
  for (auto& connection : connections) {
    const ProtobufLogScope scope(&connection);
    MalformedField("a.user");
    MalformedField("a.user");
  }
  ASSERT_EQ(lines_.size(), 1u);
  EXPECT_EQ(folder_.folded(), 199);

  clock_.Advance(std::chrono::seconds(9));
  ProtobufLogBudget early;
  {
    const ProtobufLogScope scope(&early);
    MalformedField("a.user");
  }
  EXPECT_EQ(lines_.size(), 1u);

  clock_.Advance(std::chrono::seconds(1));
  ProtobufLogBudget later;
  {
    const ProtobufLogScope scope(&later);
    MalformedField("a.user");
  }
  ASSERT_EQ(lines_.size(), 2u);
  EXPECT_NE(lines_[1].text.find("[and 200 more such lines folded"), std::string::npos)
      << lines_[1].text;
}

TEST_F(ProtobufLogFoldingTest, LinesOutsideConnectionsAreRateLimitedPerSite) {
  // ParseFromString logs one ERROR per message missing required fields.
  hadoop::common::RpcRequestHeaderProto header;
  for (int i = 0; i < 50; ++i) EXPECT_FALSE(header.ParseFromString(""));
  ASSERT_EQ(lines_.size(), 1u);
  EXPECT_NE(lines_[0].text.find("missing required fields"), std::string::npos) << lines_[0].text;
  // Another call site of libprotobuf has an interval of its own.
  MalformedField("b.field");
  EXPECT_EQ(lines_.size(), 2u);
  EXPECT_EQ(folder_.folded(), 49);
}

TEST_F(ProtobufLogFoldingTest, ScopesNest) {
  ProtobufLogBudget outer;
  ProtobufLogBudget inner;
  const ProtobufLogScope outer_scope(&outer);
  {
    const ProtobufLogScope inner_scope(&inner);
    EXPECT_EQ(ProtobufLogScope::Current(), &inner);
  }
  EXPECT_EQ(ProtobufLogScope::Current(), &outer);
}

// A connection context whose strings are not UTF-8, through a real session.
// libprotobuf checks string fields only where its UTF-8 validation is
// compiled in (Debug, the sanitizer and fuzzing builds); there it would log a
// line per field, and the session lets one through.
TEST_F(ProtobufLogFoldingTest, SessionLogsAMalformedContextOnce) {
  class Sink : public ServerSessionSink {
   public:
    void SendBytes(std::string) override {}
    void OnCall(InboundRequest) override {}
  } sink;
  ServerSession session({}, &sink, "NONCE");
  const std::string bad = "\xff\xfe\xfd";
  std::string stream = EncodePreamble(AuthProtocol::kNone) +
                       EncodeConnectionContextFrame(std::string(16, 'c'), bad, bad, false);
  session.OnData(stream);
#ifdef GOOGLE_PROTOBUF_UTF8_VALIDATION_ENABLED
  EXPECT_EQ(lines_.size(), 1u);
  EXPECT_GE(session.log_budget()->folded(), 1);
#else
  EXPECT_EQ(lines_.size(), 0u);
#endif
}

}  // namespace
}  // namespace spindle::ipc
