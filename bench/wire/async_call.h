// CallOnIo: RpcClient::CallAsync whose answer is handled on an io_context
// (the generator's driver thread) rather than on the client's I/O thread, so
// everything the generator keeps per application is touched by one thread
// and needs no lock. The response message lives until the handler ran.
//
// Thread-safety: callable from any thread; `then` runs on `io`.
#pragma once

#include <boost/asio.hpp>
#include <functional>
#include <memory>
#include <string>

#include "wire/ipc/rpc_client.h"

namespace spindle::bench::wire {

template <typename Resp>
void CallOnIo(ipc::RpcClient* client, boost::asio::io_context* io, const ipc::ConnectionSpec& spec,
              const std::string& method, const google::protobuf::MessageLite& request,
              std::function<void(Status, const Resp&)> then) {
  auto response = std::make_shared<Resp>();
  client->CallAsync(spec, method, request, response.get(),
                    [io, response, then = std::move(then)](Status s) mutable {
                      boost::asio::post(
                          *io, [s = std::move(s), response, then = std::move(then)]() mutable {
                            then(std::move(s), *response);
                          });
                    });
}

}  // namespace spindle::bench::wire
