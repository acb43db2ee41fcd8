// RawSaslClient: a hand-driven Hadoop IPC client for tests of the SASL
// security layer. It negotiates with ClientNegotiation (TOKEN or KERBEROS,
// one qop) over a blocking socket, then sends whatever bytes the test makes
// (wrapped, tampered, replayed) and reads what comes back, unwrapping it.
//
// Thread contract: one test thread.
#pragma once

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <boost/asio.hpp>
#include <memory>
#include <string>

#include "rpc_header.pb.h"
#include "wire/ipc/client_negotiation.h"
#include "wire/ipc/connection_preamble.h"
#include "wire/ipc/frame_codec.h"
#include "wire/ipc/frame_decoder.h"
#include "wire/ipc/rpc_requests.h"
#include "wire/ipc/sasl_wrap_framing.h"

namespace spindle::ipc::testing {

class RawSaslClient {
 public:
  // Negotiates at once; layer() is null if that failed (the failure is
  // reported through gtest).
  RawSaslClient(uint16_t port, const ClientToken* token, const ClientKerberos* kerberos,
                SaslQop qop)
      : socket_(io_), decoder_(1u << 30) {
    socket_.connect(
        boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
    // A server that neither answers nor closes fails the test, not hangs it.
    const timeval timeout{30, 0};
    ::setsockopt(socket_.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
    ClientNegotiation negotiation(token, "raw-cnonce", kerberos, {qop});
    Send(EncodePreamble(AuthProtocol::kSasl) + EncodeSaslFrame(negotiation.Start()));
    while (negotiation.outcome() == ClientNegotiation::Outcome::kInProgress) {
      std::string frame = ReadFrame();
      std::string_view rest = frame;
      hadoop::common::RpcResponseHeaderProto header;
      hadoop::common::RpcSaslProto sasl;
      if (!ReadDelimited(&rest, &header).ok() || !ReadDelimited(&rest, &sasl).ok()) {
        ADD_FAILURE() << "no SASL reply: " << header.exceptionclassname() << " "
                      << header.errormsg();
        return;
      }
      auto reply = negotiation.OnServerMessage(sasl);
      if (!reply.ok()) {
        ADD_FAILURE() << reply.status().ToString();
        return;
      }
      if (reply->has_value()) Send(EncodeSaslFrame(**reply));
    }
    auto layer = negotiation.TakeSecurityLayer();
    EXPECT_TRUE(layer.ok()) << layer.status().ToString();
    if (layer.ok()) layer_ = std::move(layer).value();
  }

  SaslSecurityLayer* layer() { return layer_.get(); }
  void Send(const std::string& bytes) { boost::asio::write(socket_, boost::asio::buffer(bytes)); }

  // The next frame's body; empty once the server closed.
  std::string ReadFrame() {
    std::string frame;
    while (true) {
      auto next = decoder_.Next(&frame);
      if (next.ok() && *next) return frame;
      char buf[4096];
      boost::system::error_code ec;
      const size_t n = socket_.read_some(boost::asio::buffer(buf), ec);
      if (ec) {
        last_error_ = ec;
        return "";
      }
      decoder_.Append(std::string_view(buf, n));
    }
  }

  // Reads a WRAP frame and returns the header of the first frame inside.
  hadoop::common::RpcResponseHeaderProto ReadWrappedHeader() {
    hadoop::common::RpcResponseHeaderProto inner_header;
    std::string frame = ReadFrame();
    std::string_view rest = frame;
    hadoop::common::RpcResponseHeaderProto header;
    hadoop::common::RpcSaslProto sasl;
    EXPECT_TRUE(ReadDelimited(&rest, &header).ok());
    EXPECT_EQ(static_cast<int32_t>(header.callid()), kSaslCallId);
    EXPECT_TRUE(ReadDelimited(&rest, &sasl).ok());
    EXPECT_EQ(sasl.state(), hadoop::common::RpcSaslProto::WRAP);
    if (reader_ == nullptr) reader_ = std::make_unique<WrappedFrameReader>(layer_.get(), 1u << 30);
    Status added = reader_->Add(sasl.token());
    EXPECT_TRUE(added.ok()) << added.ToString();
    std::string inner;
    auto whole = reader_->Next(&inner);
    EXPECT_TRUE(whole.ok() && *whole);
    std::string_view inner_rest = inner;
    EXPECT_TRUE(ReadDelimited(&inner_rest, &inner_header).ok());
    return inner_header;
  }

  // Whether the server closed the connection (after anything it sent)
  // rather than leaving it open.
  bool ClosedByServer() {
    while (!ReadFrame().empty()) {
    }
    return last_error_ == boost::asio::error::eof ||
           last_error_ == boost::asio::error::connection_reset;
  }

 private:
  boost::asio::io_context io_;
  boost::asio::ip::tcp::socket socket_;
  FrameDecoder decoder_;
  std::unique_ptr<SaslSecurityLayer> layer_;
  std::unique_ptr<WrappedFrameReader> reader_;
  boost::system::error_code last_error_;
};

// The connection context and one getClusterMetrics call, as a Java client
// sends them after SASL (token_auth: userInfo present but empty).
inline std::string ContextAndMetricsCall(std::string_view protocol, std::string_view user,
                                         bool token_auth,
                                         const google::protobuf::MessageLite& request) {
  const std::string client_id(16, 'c');
  return EncodeConnectionContextFrame(client_id, protocol, user, token_auth) +
         EncodeCallFrame(0, client_id, 0, protocol, "getClusterMetrics", request);
}

}  // namespace spindle::ipc::testing
