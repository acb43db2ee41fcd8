#include "web/http/request_parse.h"

#include <gtest/gtest.h>

#include "web/http/response_writer.h"

namespace spindle::web {
namespace {

using Query = std::vector<std::pair<std::string, std::string>>;

TEST(PercentDecodeTest, DecodesEscapesAndPlusOnlyInQueries) {
  EXPECT_EQ(PercentDecode("a%20b%2Fc%e2%82%AC", false), "a b/c\xe2\x82\xac");
  EXPECT_EQ(PercentDecode("a+b", false), "a+b");
  EXPECT_EQ(PercentDecode("a+b", true), "a b");
  EXPECT_EQ(PercentDecode("%2B", true), "+");
  EXPECT_EQ(PercentDecode("", true), "");
}

TEST(PercentDecodeTest, BadEscapesFail) {
  EXPECT_FALSE(PercentDecode("%", false).has_value());
  EXPECT_FALSE(PercentDecode("%2", false).has_value());
  EXPECT_FALSE(PercentDecode("a%zz", false).has_value());
  EXPECT_FALSE(PercentDecode("%g0", true).has_value());
  EXPECT_FALSE(PercentDecode("a%00b", true).has_value());
}

TEST(ParseTargetTest, SplitsPathAndQuery) {
  auto target = ParseTarget("/ws/v1/a%20b?states=RUNNING,ACCEPTED&user=a+b&x&&y=%26&y=2");
  ASSERT_TRUE(target.ok());
  EXPECT_EQ(target->path, "/ws/v1/a b");
  EXPECT_EQ(
      target->query,
      (Query{{"states", "RUNNING,ACCEPTED"}, {"user", "a b"}, {"x", ""}, {"y", "&"}, {"y", "2"}}));
  EXPECT_EQ(ParseTarget("/")->path, "/");
  EXPECT_TRUE(ParseTarget("/?")->query.empty());
}

TEST(ParseTargetTest, RejectsBadTargets) {
  EXPECT_FALSE(ParseTarget("").ok());
  EXPECT_FALSE(ParseTarget("*").ok());
  EXPECT_FALSE(ParseTarget("http://host/x").ok());
  EXPECT_FALSE(ParseTarget("/a%2").ok());
  EXPECT_FALSE(ParseTarget("/a?x=%zz").ok());
  EXPECT_FALSE(ParseTarget("/a?%zz=1").ok());
}

RequestReader::State FeedAll(RequestReader& reader, std::string& buffer) {
  size_t consumed = 0;
  auto state = reader.Feed(buffer, &consumed);
  buffer.erase(0, consumed);
  return state;
}

TEST(RequestReaderTest, ParsesARequestFedOneByteAtATime) {
  const std::string wire =
      "POST /x%20y?a=1 HTTP/1.1\r\nHost: h\r\nX-Test: v\r\nContent-Length: 5\r\n\r\nhello";
  RequestReader reader(4096, 1024);
  std::string buffer;
  RequestReader::State state = RequestReader::State::kNeedMore;
  for (char c : wire) {
    ASSERT_EQ(state, RequestReader::State::kNeedMore);
    buffer.push_back(c);
    state = FeedAll(reader, buffer);
    EXPECT_TRUE(reader.started());
  }
  ASSERT_EQ(state, RequestReader::State::kComplete);
  auto parsed = reader.Take();
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->request.method, HttpMethod::kPost);
  EXPECT_EQ(parsed->request.path, "/x y");
  EXPECT_EQ(parsed->request.query, (Query{{"a", "1"}}));
  EXPECT_EQ(parsed->request.Header("x-test"), "v");
  EXPECT_EQ(parsed->request.body, "hello");
  EXPECT_TRUE(parsed->keep_alive);
}

TEST(RequestReaderTest, ParsesAChunkedBodyFedOneByteAtATime) {
  const std::string wire =
      "PUT /s HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n1\r\nd\r\n"
      "0\r\nX-Trailer: t\r\n\r\n";
  for (const std::string& input :
       {wire, std::string("PUT /s HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")}) {
    RequestReader reader(4096, 1024);
    std::string buffer;
    RequestReader::State state = RequestReader::State::kNeedMore;
    for (char c : input) {
      ASSERT_EQ(state, RequestReader::State::kNeedMore);
      buffer.push_back(c);
      state = FeedAll(reader, buffer);
    }
    ASSERT_EQ(state, RequestReader::State::kComplete);
    EXPECT_EQ(reader.Take()->request.body, input == wire ? "abcd" : "");
  }
}

TEST(RequestReaderTest, LeavesPipelinedBytesForTheNextRequest) {
  std::string buffer = "GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.0\r\n\r\n";
  RequestReader reader(4096, 1024);
  ASSERT_EQ(FeedAll(reader, buffer), RequestReader::State::kComplete);
  EXPECT_EQ(reader.Take()->request.path, "/a");
  reader.Reset();
  EXPECT_FALSE(reader.started());
  ASSERT_EQ(FeedAll(reader, buffer), RequestReader::State::kComplete);
  auto second = reader.Take();
  EXPECT_EQ(second->request.path, "/b");
  EXPECT_FALSE(second->keep_alive);
  EXPECT_TRUE(buffer.empty());
}

TEST(RequestReaderTest, Limits) {
  {
    RequestReader reader(64, 1024);
    std::string buffer = "GET / HTTP/1.1\r\nX-Big: " + std::string(100, 'a') + "\r\n";
    EXPECT_EQ(FeedAll(reader, buffer), RequestReader::State::kHeaderTooLarge);
  }
  {
    RequestReader reader(4096, 10);
    std::string buffer = "POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n";
    EXPECT_EQ(FeedAll(reader, buffer), RequestReader::State::kBodyTooLarge);
  }
  {
    RequestReader reader(4096, 10);
    std::string buffer =
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\nabcdef\r\n";
    EXPECT_EQ(FeedAll(reader, buffer), RequestReader::State::kBodyTooLarge);
  }
  {
    // A chunk-size line that never ends cannot grow the buffer past the
    // header limit.
    RequestReader reader(256, 10);
    std::string buffer =
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1;ext=" + std::string(300, 'x');
    EXPECT_EQ(FeedAll(reader, buffer), RequestReader::State::kMalformed);
  }
  {
    RequestReader reader(4096, 10);
    std::string buffer =
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n4\r\ndefg\r\n0\r\n\r\n";
    ASSERT_EQ(FeedAll(reader, buffer), RequestReader::State::kComplete);
    EXPECT_EQ(reader.Take()->request.body, "abcdefg");
  }
}

TEST(RequestReaderTest, MalformedAndEof) {
  {
    RequestReader reader(4096, 1024);
    std::string buffer = "NOT HTTP AT ALL\r\n\r\n";
    EXPECT_EQ(FeedAll(reader, buffer), RequestReader::State::kMalformed);
  }
  {
    RequestReader reader(4096, 1024);
    EXPECT_EQ(reader.FeedEof(), RequestReader::State::kNeedMore);  // nothing begun
    std::string buffer = "GET / HTTP/1.1\r\nHo";
    EXPECT_EQ(FeedAll(reader, buffer), RequestReader::State::kNeedMore);
    EXPECT_EQ(reader.FeedEof(), RequestReader::State::kMalformed);
  }
  {
    RequestReader reader(4096, 1024);
    std::string buffer = "GET /a%zz HTTP/1.1\r\n\r\n";
    ASSERT_EQ(FeedAll(reader, buffer), RequestReader::State::kComplete);
    EXPECT_FALSE(reader.Take().ok());
  }
}

TEST(TransferCodingTest, OnlyChunkedAloneOnHttp11Frames) {
  using V = TransferCodingVerdict;
  using Values = std::vector<std::string_view>;
  EXPECT_EQ(CheckTransferCodings(11, {}, false), V::kNone);
  EXPECT_EQ(CheckTransferCodings(11, {}, true), V::kNone);
  EXPECT_EQ(CheckTransferCodings(11, Values{"chunked"}, false), V::kChunked);
  EXPECT_EQ(CheckTransferCodings(11, Values{"CHUNKED"}, false), V::kChunked);
  // Empty list elements and white space around them are allowed.
  EXPECT_EQ(CheckTransferCodings(11, Values{" , chunked\t,"}, false), V::kChunked);
  EXPECT_EQ(CheckTransferCodings(11, Values{"", "chunked"}, false), V::kChunked);
  // A coding we do not implement, wherever it stands: 501.
  for (const Values& unknown :
       {Values{"xchunked"}, Values{"gzip, chunked"}, Values{"chunked, gzip"},
        Values{"gzip", "chunked"}, Values{"chunked;ext=1"}, Values{"identity"}, Values{"chunked x"},
        Values{"chunked, xchunked"}}) {
    EXPECT_EQ(CheckTransferCodings(11, unknown, false), V::kNotImplemented) << unknown[0];
  }
  // Faulty framing: 400.
  EXPECT_EQ(CheckTransferCodings(11, Values{"chunked, chunked"}, false), V::kMalformed);
  EXPECT_EQ(CheckTransferCodings(11, Values{"chunked", "chunked"}, false), V::kMalformed);
  EXPECT_EQ(CheckTransferCodings(11, Values{""}, false), V::kMalformed);
  EXPECT_EQ(CheckTransferCodings(11, Values{" , "}, false), V::kMalformed);
  EXPECT_EQ(CheckTransferCodings(10, Values{"chunked"}, false), V::kMalformed);
  EXPECT_EQ(CheckTransferCodings(10, Values{"xchunked"}, false), V::kMalformed);
  EXPECT_EQ(CheckTransferCodings(11, Values{"chunked"}, true), V::kMalformed);
  EXPECT_EQ(CheckTransferCodings(11, Values{"xchunked"}, true), V::kMalformed);
}

TEST(RequestReaderTest, AnUnknownTransferCodingIsNeverTakenNorWhatItHides) {
  const std::string hidden = "GET /hidden HTTP/1.1\r\nHost: h\r\n\r\n";
  for (const std::string& codings :
       {std::string("xchunked"), std::string("gzip, chunked"), std::string("chunked, gzip"),
        std::string("chunked;a=b"), std::string("gzip\r\nTransfer-Encoding: chunked")}) {
    SCOPED_TRACE(codings);
    // All at once (Beast would take the header as a whole request and leave
    // the hidden one as the next), and one byte at a time.
    const std::string wire =
        "POST /outer HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: " + codings + "\r\n\r\n" + hidden;
    {
      RequestReader reader(4096, 1024);
      std::string buffer = wire;
      EXPECT_EQ(FeedAll(reader, buffer), RequestReader::State::kNotImplemented);
      EXPECT_FALSE(reader.Take().ok());
      // It stays refused: feeding again never yields the hidden request.
      EXPECT_EQ(FeedAll(reader, buffer), RequestReader::State::kNotImplemented);
    }
    {
      RequestReader reader(4096, 1024);
      std::string buffer;
      RequestReader::State state = RequestReader::State::kNeedMore;
      for (char c : wire) {
        buffer.push_back(c);
        state = FeedAll(reader, buffer);
        if (state != RequestReader::State::kNeedMore) break;
      }
      EXPECT_EQ(state, RequestReader::State::kNotImplemented);
    }
  }
}

TEST(RequestReaderTest, ConflictingFramingIs400) {
  for (const std::string& header :
       {std::string("Transfer-Encoding: chunked\r\nContent-Length: 3"),
        std::string("Content-Length: 3\r\nTransfer-Encoding: chunked"),
        std::string("Transfer-Encoding: xchunked\r\nContent-Length: 3"),
        std::string("Content-Length: 3\r\nTransfer-Encoding: xchunked"),
        std::string("Transfer-Encoding: chunked, chunked"),
        std::string("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked"),
        std::string("Transfer-Encoding: ")}) {
    SCOPED_TRACE(header);
    RequestReader reader(4096, 1024);
    std::string buffer = "POST / HTTP/1.1\r\n" + header + "\r\n\r\n0\r\n\r\n";
    EXPECT_EQ(FeedAll(reader, buffer), RequestReader::State::kMalformed);
  }
  RequestReader http10(4096, 1024);
  std::string buffer = "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n";
  EXPECT_EQ(FeedAll(http10, buffer), RequestReader::State::kMalformed);
}

TEST(RequestReaderTest, HeaderDoneOnceTheHeaderIsParsed) {
  RequestReader reader(4096, 1024);
  std::string buffer = "POST / HTTP/1.1\r\nContent-Length: 4\r\n";
  EXPECT_EQ(FeedAll(reader, buffer), RequestReader::State::kNeedMore);
  EXPECT_FALSE(reader.header_done());
  buffer += "\r\nab";
  EXPECT_EQ(FeedAll(reader, buffer), RequestReader::State::kNeedMore);
  EXPECT_TRUE(reader.header_done());
  buffer += "cd";
  EXPECT_EQ(FeedAll(reader, buffer), RequestReader::State::kComplete);
  reader.Reset();
  EXPECT_FALSE(reader.header_done());
}

TEST(ResponseWriterTest, FramesAndSanitises) {
  HttpResponse response = HttpResponse::Json(200, "{}");
  response.headers = {{"X-Ok", "1"},
                      {"X-Split", "a\r\nSet-Cookie: evil"},
                      {"Content-Length", "99"},
                      {"Cache-Control", "max-age=5"}};
  const std::string wire = SerializeResponse(response, ResponseFraming{false, true}, "D");
  EXPECT_EQ(wire,
            "HTTP/1.1 200 OK\r\nDate: D\r\nContent-Type: application/json; charset=utf-8\r\n"
            "Content-Length: 2\r\nConnection: keep-alive\r\nX-Ok: 1\r\n"
            "Cache-Control: max-age=5\r\n\r\n{}");
  const std::string head =
      SerializeResponse(HttpResponse::Text(404, "gone"), ResponseFraming{true, false}, "D");
  EXPECT_EQ(head,
            "HTTP/1.1 404 Not Found\r\nDate: D\r\nContent-Type: text/plain; charset=utf-8\r\n"
            "Content-Length: 4\r\nConnection: close\r\nCache-Control: no-cache\r\n\r\n");
  const std::string no_content =
      SerializeResponse(HttpResponse::Text(204, "x"), ResponseFraming{false, true}, "D");
  EXPECT_EQ(no_content.find("Content-Length"), std::string::npos);
  EXPECT_EQ(no_content.substr(no_content.size() - 4), "\r\n\r\n");
}

TEST(ResponseWriterTest, HttpDate) {
  EXPECT_EQ(HttpDate(std::chrono::system_clock::from_time_t(784111777)),
            "Sun, 06 Nov 1994 08:49:37 GMT");
}

}  // namespace
}  // namespace spindle::web
