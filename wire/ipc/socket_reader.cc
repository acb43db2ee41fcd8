#include "wire/ipc/socket_reader.h"

#include <vector>

namespace spindle::ipc {

void PrepareForReadable(boost::asio::ip::tcp::socket& socket) {
  boost::system::error_code ignored;
  socket.non_blocking(true, ignored);
}

std::string_view ReadAvailable(boost::asio::ip::tcp::socket& socket,
                               boost::system::error_code* ec) {
  static thread_local std::vector<char> scratch(kSocketReadChunk);
  const size_t n = socket.read_some(boost::asio::buffer(scratch), *ec);
  if (*ec) return {};
  return std::string_view(scratch.data(), n);
}

bool IsWouldBlock(const boost::system::error_code& ec) {
  return ec == boost::asio::error::would_block || ec == boost::asio::error::try_again;
}

}  // namespace spindle::ipc
