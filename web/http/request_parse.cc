#include "web/http/request_parse.h"

#include <algorithm>
#include <limits>

#include "base/crypto.h"

namespace spindle::web {
namespace http = boost::beast::http;

std::optional<std::string> PercentDecode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%') {
      if (i + 2 >= text.size()) return std::nullopt;
      const int hi = HexDigitValue(text[i + 1]);
      const int lo = HexDigitValue(text[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      const char decoded = static_cast<char>(hi * 16 + lo);
      // A NUL in a path or parameter only ever serves to confuse code that
      // treats strings as C strings downstream.
      if (decoded == '\0') return std::nullopt;
      out.push_back(decoded);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

Result<RequestTarget> ParseTarget(std::string_view target) {
  if (target.empty() || target[0] != '/') {
    return Status::InvalidArgument("request target is not an absolute path");
  }
  const size_t question = target.find('?');
  const std::string_view raw_path = target.substr(0, question);
  RequestTarget out;
  auto path = PercentDecode(raw_path, /*plus_is_space=*/false);
  if (!path.has_value()) return Status::InvalidArgument("bad percent-escape in the path");
  out.path = std::move(*path);
  if (question == std::string_view::npos) return out;
  std::string_view rest = target.substr(question + 1);
  while (!rest.empty()) {
    const size_t amp = rest.find('&');
    const std::string_view piece = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
    if (piece.empty()) continue;
    const size_t eq = piece.find('=');
    auto name = PercentDecode(piece.substr(0, eq), /*plus_is_space=*/true);
    auto value = eq == std::string_view::npos
                     ? std::optional<std::string>(std::string())
                     : PercentDecode(piece.substr(eq + 1), /*plus_is_space=*/true);
    if (!name.has_value() || !value.has_value()) {
      return Status::InvalidArgument("bad percent-escape in the query");
    }
    out.query.emplace_back(std::move(*name), std::move(*value));
  }
  return out;
}

HttpMethod MethodFromVerb(http::verb verb) {
  switch (verb) {
    case http::verb::get:
      return HttpMethod::kGet;
    case http::verb::head:
      return HttpMethod::kHead;
    case http::verb::post:
      return HttpMethod::kPost;
    case http::verb::put:
      return HttpMethod::kPut;
    case http::verb::delete_:
      return HttpMethod::kDelete;
    case http::verb::options:
      return HttpMethod::kOptions;
    default:
      return HttpMethod::kOther;
  }
}

TransferCodingVerdict CheckTransferCodings(unsigned http_version,
                                           const std::vector<std::string_view>& field_values,
                                           bool has_content_length) {
  if (field_values.empty()) return TransferCodingVerdict::kNone;
  if (http_version < 11 || has_content_length) return TransferCodingVerdict::kMalformed;
  int chunked = 0;
  bool unknown = false;
  for (std::string_view value : field_values) {
    // A comma-separated list; empty elements and optional white space
    // around them are allowed (RFC 9110 5.6.1).
    while (!value.empty()) {
      const size_t comma = value.find(',');
      std::string_view coding = value.substr(0, comma);
      value = comma == std::string_view::npos ? std::string_view() : value.substr(comma + 1);
      while (!coding.empty() && (coding.front() == ' ' || coding.front() == '\t')) {
        coding.remove_prefix(1);
      }
      while (!coding.empty() && (coding.back() == ' ' || coding.back() == '\t')) {
        coding.remove_suffix(1);
      }
      if (coding.empty()) continue;
      // "chunked" takes no parameters: "chunked;x=1" is a coding we do not know.
      if (boost::beast::iequals(boost::beast::string_view(coding.data(), coding.size()),
                                "chunked")) {
        ++chunked;
      } else {
        unknown = true;
      }
    }
  }
  if (unknown) return TransferCodingVerdict::kNotImplemented;
  return chunked == 1 ? TransferCodingVerdict::kChunked : TransferCodingVerdict::kMalformed;
}

RequestReader::RequestReader(uint64_t max_header_bytes, uint64_t max_body_bytes)
    : max_header_bytes_(max_header_bytes), max_body_bytes_(max_body_bytes) {
  Reset();
}

void RequestReader::Reset() {
  parser_.emplace();
  // Beast counts the request line and the fields, as Jetty's requestHeaderSize.
  parser_->header_limit(static_cast<uint32_t>(
      std::min<uint64_t>(max_header_bytes_, std::numeric_limits<uint32_t>::max())));
  parser_->body_limit(max_body_bytes_);
  // Parse the body in the same put() as the header when it is there.
  parser_->eager(true);
  state_ = State::kNeedMore;
  started_ = false;
  framing_checked_ = false;
}

bool RequestReader::header_done() const { return framing_checked_; }

RequestReader::State RequestReader::CheckFraming() {
  framing_checked_ = true;
  const auto& message = parser_->get();
  std::vector<std::string_view> codings;
  const auto range = message.equal_range(http::field::transfer_encoding);
  for (auto it = range.first; it != range.second; ++it) {
    codings.emplace_back(it->value().data(), it->value().size());
  }
  const bool has_length = message.find(http::field::content_length) != message.end();
  switch (CheckTransferCodings(message.version(), codings, has_length)) {
    case TransferCodingVerdict::kNone:
    case TransferCodingVerdict::kChunked:
      return State::kNeedMore;
    case TransferCodingVerdict::kNotImplemented:
      return State::kNotImplemented;
    case TransferCodingVerdict::kMalformed:
      return State::kMalformed;
  }
  return State::kMalformed;
}

RequestReader::State RequestReader::Fail(State state) {
  state_ = state;
  return state_;
}

RequestReader::State RequestReader::Feed(std::string_view data, size_t* consumed) {
  *consumed = 0;
  if (state_ == State::kNeedMore && !data.empty()) started_ = true;
  while (state_ == State::kNeedMore && !data.empty()) {
    // Beast 1.74 asserts (wrongly; fixed upstream in boostorg/beast#2861)
    // that a final chunk is re-parsed from at least 5 bytes. The shortest
    // end of a chunked body, "0\r\n\r\n", is 5 bytes and Beast leaves the
    // final chunk unconsumed until it is whole, so waiting for 5 never stalls
    // a request that can complete.
    if (parser_->is_header_done() && parser_->chunked() && data.size() < 5) break;
    boost::system::error_code ec;
    const size_t n = parser_->put(boost::asio::buffer(data.data(), data.size()), ec);
    if (n > 0) started_ = true;
    *consumed += n;
    data.remove_prefix(n);
    // Before anything else Beast made of the bytes (an "xchunked" request
    // is complete at its header, a hidden request is left as the next one):
    // a request whose framing we refuse is never taken.
    if (!framing_checked_ && parser_->is_header_done()) {
      const State framing = CheckFraming();
      if (framing != State::kNeedMore) return Fail(framing);
    }
    if (ec == http::error::need_more) {
      // Beast takes a header, a chunk-size line or a trailer only whole, so
      // it waits in the caller's buffer. Beast bounds the header itself;
      // the backstop below also bounds a chunk line or trailer (a chunk
      // extension can be arbitrarily long).
      if (data.size() > max_header_bytes_) {
        return Fail(parser_->is_header_done() ? State::kMalformed : State::kHeaderTooLarge);
      }
      break;
    }
    if (ec == http::error::header_limit) return Fail(State::kHeaderTooLarge);
    if (ec == http::error::body_limit) return Fail(State::kBodyTooLarge);
    if (ec) return Fail(State::kMalformed);
    if (parser_->is_done()) return Fail(State::kComplete);
    if (n == 0) break;
  }
  return state_;
}

bool RequestReader::WantsContinue() const {
  if (state_ != State::kNeedMore || !parser_->is_header_done() || parser_->is_done()) {
    return false;
  }
  const auto& message = parser_->get();
  return message.version() >= 11 &&
         boost::beast::iequals(message[http::field::expect], "100-continue");
}

RequestReader::State RequestReader::FeedEof() {
  if (state_ != State::kNeedMore) return state_;
  if (!started_) return state_;
  boost::system::error_code ec;
  parser_->put_eof(ec);
  if (!ec && parser_->is_done()) return Fail(State::kComplete);
  return Fail(State::kMalformed);
}

Result<RequestReader::Parsed> RequestReader::Take() {
  if (state_ != State::kComplete) return Status::Internal("no complete request");
  auto& message = parser_->get();
  const auto target = message.target();
  ASSIGN_OR_RETURN(RequestTarget decoded,
                   ParseTarget(std::string_view(target.data(), target.size())));
  Parsed parsed;
  parsed.request.method = MethodFromVerb(message.method());
  parsed.request.path = std::move(decoded.path);
  parsed.request.query = std::move(decoded.query);
  for (const auto& field : message) {
    parsed.request.headers.emplace_back(std::string(field.name_string()),
                                        std::string(field.value()));
  }
  parsed.request.body = std::move(message.body());
  parsed.keep_alive = message.keep_alive();
  return parsed;
}

}  // namespace spindle::web
