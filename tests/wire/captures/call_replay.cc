#include "tests/wire/captures/call_replay.h"

#include <map>

#include "ipc_connection_context.pb.h"

namespace spindle::captures {
namespace {

Status Undecodable(const std::string& what, const std::vector<std::string>& problems) {
  std::string message = what + " does not decode strictly";
  for (const auto& p : problems) message += "; " + p;
  return Status::Corruption(message);
}

}  // namespace

double CaptureTimeOf(const Conversation& conversation, size_t offset) {
  size_t start = 0;
  for (const Segment& segment : conversation.segments) {
    if (segment.dir != Direction::kClientToServer) continue;
    if (offset < start + segment.bytes.size()) return segment.t;
    start += segment.bytes.size();
  }
  return -1;
}

Result<CallReplay> LoadCallReplay(const std::string& scenario, const std::string& file) {
  ASSIGN_OR_RETURN(const Conversation conversation, LoadConversation(scenario, file));
  std::map<int32_t, ServerFrame> answers;
  for (auto& frame : ServerFrames(conversation)) answers.emplace(frame.call_id(), std::move(frame));
  CallReplay replay;
  for (const ClientFrame& frame : ClientFrames(conversation)) {
    if (frame.header.callid() == -3) {
      hadoop::common::IpcConnectionContextProto context;
      std::string_view rest = frame.rest;
      std::vector<std::string> problems;
      if (!ReadStrict(&rest, &context, "context", &problems) || !problems.empty()) {
        return Undecodable("the connection context", problems);
      }
      replay.protocol = context.protocol();
      replay.user = context.userinfo().effectiveuser();
      continue;
    }
    auto call = AsProtobufCall(frame);
    if (!call.has_value()) continue;
    CallExchange exchange;
    exchange.t = CaptureTimeOf(conversation, frame.offset);
    const auto* service = ServiceForProtocol(call->protocol);
    exchange.method = service == nullptr ? nullptr : service->FindMethodByName(call->method);
    if (exchange.method == nullptr) {
      return Status::NotFound("unknown method " + call->protocol + "." + call->method);
    }
    auto answer = answers.find(call->call_id);
    if (answer == answers.end()) {
      return Status::NotFound("no answer to call " + std::to_string(call->call_id));
    }
    const auto& header = answer->second.header;
    exchange.apache_ok = header.status() == hadoop::common::RpcResponseHeaderProto::SUCCESS;
    exchange.apache_exception = header.exceptionclassname();
    if (exchange.apache_ok) {
      exchange.apache_response = NewMessage(exchange.method->output_type());
      std::string_view rest = answer->second.rest;
      std::vector<std::string> problems;
      if (!ReadStrict(&rest, exchange.apache_response.get(), call->method, &problems) ||
          !problems.empty()) {
        return Undecodable("the answer to " + call->method, problems);
      }
    }
    exchange.call = std::move(*call);
    replay.exchanges.push_back(std::move(exchange));
  }
  if (replay.user.empty()) return Status::Corruption(file + ": no connection context");
  return replay;
}

}  // namespace spindle::captures
