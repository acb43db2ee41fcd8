// Request parsing, without sockets: bytes in, an HttpRequest (or the status
// to answer) out. The connection (http_connection.h) and the fuzzer
// (tests/fuzz/http_request_fuzzer.cc) drive the same code.
//
// RequestReader wraps Beast's request parser with our limits: the request
// line plus header fields may take at most `max_header_bytes`; a body longer
// than `max_body_bytes` is refused from Content-Length before any of it is
// read, and while a chunked body is read. Framing Beast lets through that RFC
// 9112 refuses (an unknown transfer coding, "chunked" not alone) is refused
// as soon as the header is parsed, before the request can complete.
//
// Thread-safety: RequestReader is used by one thread at a time; the free
// functions are pure.
#pragma once

#include <boost/beast/http.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"
#include "web/http/http_message.h"

namespace spindle::web {

// Decodes %XX escapes (either case of hex digit); with `plus_is_space` a '+'
// becomes ' ' (query strings). nullopt on a '%' not followed by two hex
// digits, or on an escape that decodes to NUL.
std::optional<std::string> PercentDecode(std::string_view text, bool plus_is_space);

struct RequestTarget {
  std::string path;                                        // decoded
  std::vector<std::pair<std::string, std::string>> query;  // decoded, in order
};

// Splits an origin-form target ("/a%20b?x=1&y") into the decoded path and
// query parameters (empty pieces between '&' are skipped; a name without '='
// has the value ""). InvalidArgument if the target does not start with '/'
// or has a bad escape.
Result<RequestTarget> ParseTarget(std::string_view target);

// HTTP method name -> HttpMethod (kOther for anything we do not route).
HttpMethod MethodFromVerb(boost::beast::http::verb verb);

// What a request's Transfer-Encoding fields (every one, in order) say about
// its framing, per RFC 9112 section 6. Beast frames a body as chunked only
// when "chunked" is the last coding and otherwise ignores the field, which
// would read such a body as empty and answer whatever it hides as the next
// request; so the server checks the codings itself before it takes a
// request.
enum class TransferCodingVerdict {
  kNone,     // no Transfer-Encoding field: Content-Length (or nothing) frames the body
  kChunked,  // exactly one coding, "chunked", on HTTP/1.1
  // A coding other than "chunked" (xchunked, gzip, chunked;ext=1, ...): 501
  // and close (RFC 9112 6.1: a server that does not understand a transfer
  // coding responds 501).
  kNotImplemented,
  // "chunked" twice, no coding at all, Transfer-Encoding on HTTP/1.0 (6.1:
  // faulty framing), or Transfer-Encoding with Content-Length (6.3: "ought
  // to be handled as an error"): 400 and close.
  kMalformed,
};
// `http_version` as Beast counts it (11 for HTTP/1.1). Checked in this order:
// HTTP/1.0 or Content-Length (400), an unknown coding (501), then the count of
// "chunked".
TransferCodingVerdict CheckTransferCodings(unsigned http_version,
                                           const std::vector<std::string_view>& field_values,
                                           bool has_content_length);

class RequestReader {
 public:
  enum class State {
    kNeedMore,        // feed more bytes
    kComplete,        // Take() the request
    kHeaderTooLarge,  // answer 431
    kBodyTooLarge,    // answer 413
    kMalformed,       // answer 400
    kNotImplemented,  // an unknown transfer coding: answer 501 (CheckTransferCodings)
  };

  struct Parsed {
    HttpRequest request;
    // The request asks for the connection to stay open (HTTP/1.1 without
    // "Connection: close", or HTTP/1.0 with "Connection: keep-alive").
    bool keep_alive = false;
  };

  RequestReader(uint64_t max_header_bytes, uint64_t max_body_bytes);

  // Parses as much of `data` as it can (an unfinished chunk-size line or
  // trailer longer than max_header_bytes is kMalformed); *consumed is set to the bytes taken
  // (the caller drops them and feeds the rest, with more, next time). Bytes
  // after a complete request are left for the next one (pipelining). Once a
  // state other than kNeedMore is returned, Feed returns it again until
  // Reset().
  State Feed(std::string_view data, size_t* consumed);
  // The peer closed its side: the request is complete only if the parser
  // says so (otherwise kMalformed if a request had begun, kNeedMore if not).
  State FeedEof();
  // True once any byte of the current request has been consumed.
  bool started() const { return started_; }
  // True once the request line and header fields have been parsed (and
  // passed the framing check).
  bool header_done() const;
  // True while an HTTP/1.1 request with "Expect: 100-continue" has its
  // header parsed and its body still to come: the client waits for an
  // interim "100 Continue" before sending the body.
  bool WantsContinue() const;
  // After kComplete: the request (remote_address is left empty), or
  // InvalidArgument for a target we cannot decode (answer 400).
  Result<Parsed> Take();
  // Ready for the next request on the same connection.
  void Reset();

 private:
  State Fail(State state);
  // Once the header is parsed: kNeedMore if its framing is acceptable,
  // else the state to answer (CheckTransferCodings).
  State CheckFraming();

  const uint64_t max_header_bytes_;
  const uint64_t max_body_bytes_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  State state_ = State::kNeedMore;
  bool started_ = false;
  bool framing_checked_ = false;
};

}  // namespace spindle::web
