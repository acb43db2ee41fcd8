// CallOnIo: RpcClient::CallAsync whose answer is handled on an io_context
// (the generator's driver thread) rather than on the client's I/O thread, so
// everything the generator keeps per application is touched by one thread
// and needs no lock. The response message lives until the handler ran.
//
// CallOnIoTimed also hands the handler the moment the answer arrived on the
// client's I/O thread: the driver thread runs every simulated AM and every
// submission, so an answer may wait there behind others' work (up to ~100 ms
// measured with 40 AMs of 2,000 containers). That wait is the generator's,
// not the RM's, and an RPC latency stops the clock at the arrival.
//
// Thread-safety: callable from any thread; `then` runs on `io`.
#pragma once

#include <boost/asio.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "wire/ipc/rpc_client.h"

namespace spindle::bench::wire {

template <typename Resp>
void CallOnIoTimed(
    ipc::RpcClient* client, boost::asio::io_context* io, const ipc::ConnectionSpec& spec,
    const std::string& method, const google::protobuf::MessageLite& request,
    std::function<void(Status, const Resp&, std::chrono::steady_clock::time_point answered_at)>
        then) {
  auto response = std::make_shared<Resp>();
  client->CallAsync(spec, method, request, response.get(),
                    [io, response, then = std::move(then)](Status s) mutable {
                      const auto answered_at = std::chrono::steady_clock::now();
                      boost::asio::post(*io, [s = std::move(s), response, answered_at,
                                              then = std::move(then)]() mutable {
                        then(std::move(s), *response, answered_at);
                      });
                    });
}

template <typename Resp>
void CallOnIo(ipc::RpcClient* client, boost::asio::io_context* io, const ipc::ConnectionSpec& spec,
              const std::string& method, const google::protobuf::MessageLite& request,
              std::function<void(Status, const Resp&)> then) {
  CallOnIoTimed<Resp>(client, io, spec, method, request,
                      [then = std::move(then)](Status s, const Resp& response,
                                               std::chrono::steady_clock::time_point) {
                        then(std::move(s), response);
                      });
}

}  // namespace spindle::bench::wire
