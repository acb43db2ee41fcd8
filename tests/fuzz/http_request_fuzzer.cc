// libFuzzer target: arbitrary bytes from an HTTP client through the server's
// request path (RequestReader: Beast's parser with our limits, then target
// and percent-decoding), split at fuzzer-chosen points, pipelined requests
// included. It must never crash or hang; ASan/UBSan check memory and
// arithmetic, and what it accepts must be well-formed: a decoded path that
// starts with '/', no NUL in decoded names and values, a body within the
// limit, and a response built from the request's own headers that cannot be
// split.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "web/http/request_parse.h"
#include "web/http/response_writer.h"

namespace {

using spindle::web::HttpResponse;
using spindle::web::RequestReader;

void Check(bool condition) {
  if (!condition) __builtin_trap();
}

std::string Encode(std::string_view text) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    out += '%';
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

void CheckAccepted(const RequestReader::Parsed& parsed, uint64_t max_body) {
  const auto& request = parsed.request;
  Check(!request.path.empty() && request.path[0] == '/');
  Check(request.path.find('\0') == std::string::npos);
  Check(request.body.size() <= max_body);
  for (const auto& [name, value] : request.query) {
    Check(name.find('\0') == std::string::npos && value.find('\0') == std::string::npos);
  }
  // Framing RFC 9112 refuses never gets through: a request with
  // Transfer-Encoding has exactly "chunked", and no Content-Length.
  std::vector<std::string_view> codings;
  bool has_length = false;
  for (const auto& [name, value] : request.headers) {
    if (boost::beast::iequals(name, "transfer-encoding")) codings.emplace_back(value);
    if (boost::beast::iequals(name, "content-length")) has_length = true;
  }
  if (!codings.empty()) {
    Check(spindle::web::CheckTransferCodings(11, codings, has_length) ==
          spindle::web::TransferCodingVerdict::kChunked);
  }
  // Decoding is exact: the escaped form of what we decoded decodes back.
  Check(spindle::web::PercentDecode(Encode(request.path), false) == request.path);

  // A response echoing the request's headers keeps its framing: one blank
  // line ends the header, every header line is "name: value".
  HttpResponse echo = HttpResponse::Text(200, request.body);
  echo.headers = request.headers;
  const std::string wire =
      spindle::web::SerializeResponse(echo, spindle::web::ResponseFraming{false, true}, "D");
  const size_t end = wire.find("\r\n\r\n");
  Check(end != std::string::npos);
  std::string_view header(wire.data(), end + 2);
  size_t line_start = 0;
  bool first = true;
  while (line_start < header.size()) {
    const size_t eol = header.find("\r\n", line_start);
    Check(eol != std::string_view::npos);
    std::string_view line = header.substr(line_start, eol - line_start);
    Check(line.find('\n') == std::string_view::npos && line.find('\r') == std::string_view::npos);
    if (!first) Check(line.find(": ") != std::string_view::npos);
    first = false;
    line_start = eol + 2;
  }
  Check(wire.size() - end - 4 == request.body.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const size_t chunk = 1 + data[0];
  const uint64_t max_header = 64 + (data[1] & 0x0f) * 256;
  const uint64_t max_body = (data[1] >> 4) * 64;
  std::string_view input(reinterpret_cast<const char*>(data + 2), size - 2);

  // The decoding functions alone, on the raw bytes.
  if (auto decoded = spindle::web::PercentDecode(input, true)) {
    Check(decoded->size() <= input.size());
    // %00 is refused; a raw NUL is left to the HTTP parser, which refuses it.
    if (input.find('\0') == std::string_view::npos) {
      Check(decoded->find('\0') == std::string::npos);
    }
  }
  if (auto target = spindle::web::ParseTarget(input); target.ok()) {
    Check(!target->path.empty() && target->path[0] == '/');
  }

  // The connection's loop: feed in chunks, take each complete request, go on
  // with the bytes after it.
  RequestReader reader(max_header, max_body);
  std::string buffer;
  int requests = 0;
  while (requests < 64) {
    const size_t n = std::min(chunk, input.size());
    buffer.append(input.substr(0, n));
    input.remove_prefix(n);
    size_t consumed = 0;
    auto state = reader.Feed(buffer, &consumed);
    Check(consumed <= buffer.size());
    buffer.erase(0, consumed);
    if (state == RequestReader::State::kNeedMore) {
      // An unfinished header, chunk line or trailer waits in our buffer,
      // never more than the header limit.
      Check(buffer.size() <= max_header);
      if (input.empty()) {
        state = reader.FeedEof();
        if (state != RequestReader::State::kComplete) break;
      } else {
        continue;
      }
    }
    if (state != RequestReader::State::kComplete) break;
    auto parsed = reader.Take();
    if (!parsed.ok()) break;  // a 400
    CheckAccepted(*parsed, max_body);
    ++requests;
    reader.Reset();
    if (input.empty() && buffer.empty()) break;
  }
  return 0;
}
