#include "tests/support/http_get.h"

#include <sys/socket.h>
#include <sys/time.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace spindle::testing {

namespace asio = boost::asio;
namespace http = boost::beast::http;

Result<HttpGetResult> HttpGet(const std::string& host, uint16_t port, const std::string& target,
                              const std::vector<std::pair<std::string, std::string>>& headers) {
  asio::io_context io;
  asio::ip::tcp::socket socket(io);
  boost::system::error_code ec;
  const asio::ip::address address = asio::ip::make_address(host, ec);
  if (ec) return Status::InvalidArgument("not an IP address: " + host);
  socket.connect(asio::ip::tcp::endpoint(address, port), ec);
  if (ec)
    return Status::IoError("connect " + host + ":" + std::to_string(port) + ": " + ec.message());
  timeval timeout{20, 0};
  setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  std::string request =
      "GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n";
  for (const auto& [name, value] : headers) request += name + ": " + value + "\r\n";
  request += "\r\n";
  asio::write(socket, asio::buffer(request), ec);
  if (ec) return Status::IoError("write: " + ec.message());
  boost::beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 << 20);
  http::read(socket, buffer, parser, ec);
  if (ec) return Status::IoError("read: " + ec.message());
  const auto& response = parser.get();
  HttpGetResult result;
  result.status = static_cast<int>(response.result_int());
  result.content_type = std::string(response[http::field::content_type]);
  result.location = std::string(response[http::field::location]);
  result.body = response.body();
  return result;
}

}  // namespace spindle::testing
