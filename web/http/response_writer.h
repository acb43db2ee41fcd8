// Turns an HttpResponse into the bytes of an HTTP/1.1 response. Every
// response carries Content-Type, Content-Length, Date, Connection and
// Cache-Control (no-cache unless the handler set its own), then the
// handler's extra headers. A HEAD response keeps the Content-Length of the
// body it drops. 1xx, 204 and 304 carry neither body nor Content-Length
// (RFC 9110 forbids both there).
//
// Thread-safety: pure functions.
#pragma once

#include <chrono>
#include <string>

#include "web/http/http_message.h"

namespace spindle::web {

struct ResponseFraming {
  bool head = false;        // the request was HEAD: drop the body
  bool keep_alive = false;  // leave the connection open after this response
};

// "Sun, 06 Nov 1994 08:49:37 GMT" (RFC 9110's IMF-fixdate).
std::string HttpDate(std::chrono::system_clock::time_point when);

// The wire form. Header names or values the handler gave that contain CR,
// LF or NUL are dropped (no response splitting); so are Content-Length,
// Transfer-Encoding, Connection and Date, which the server owns.
std::string SerializeResponse(const HttpResponse& response, const ResponseFraming& framing,
                              const std::string& date);

}  // namespace spindle::web
