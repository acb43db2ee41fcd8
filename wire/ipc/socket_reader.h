// Reading a socket without a buffer per connection: a connection waits for
// its socket to become readable (async_wait), then takes what has arrived
// into the calling I/O thread's scratch buffer, which every connection on
// that thread shares. An idle connection so holds no read buffer at all;
// 64 KiB each made 1,000 idle server connections cost 66 MB
// (bench/wire/README.md, ipc-idle).
//
// Thread contract: the returned bytes are valid until the next read on the
// same thread; callers copy what they keep before returning to the loop.
#pragma once

#include <boost/asio.hpp>
#include <string_view>

namespace spindle::ipc {

// The most one read takes off a socket.
inline constexpr size_t kSocketReadChunk = size_t{64} * 1024;

// Puts `socket` in non-blocking mode, so that a read after a spurious
// wake-up fails with would_block instead of stalling the I/O thread.
void PrepareForReadable(boost::asio::ip::tcp::socket& socket);

// Reads what `socket` has (up to kSocketReadChunk) into this thread's
// scratch. On error returns empty with *ec set: would_block/try_again
// (IsWouldBlock) means wait again, eof means the peer closed.
std::string_view ReadAvailable(boost::asio::ip::tcp::socket& socket, boost::system::error_code* ec);

bool IsWouldBlock(const boost::system::error_code& ec);

}  // namespace spindle::ipc
