// The protobuf calls of one captured conversation, each paired with the
// answer Apache's server gave, ready to be replayed against Spindle. Shared
// by the golden replays of each protocol.
#pragma once

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "tests/wire/captures/capture_corpus.h"

namespace spindle::captures {

struct CallExchange {
  CapturedCall call;
  double t = 0;  // capture time of the call's first byte
  const google::protobuf::MethodDescriptor* method = nullptr;
  bool apache_ok = false;
  std::string apache_exception;
  std::unique_ptr<google::protobuf::Message> apache_response;  // if apache_ok
};

struct CallReplay {
  std::string protocol;  // of the connection context
  std::string user;      // effectiveUser of the connection context
  std::vector<CallExchange> exchanges;
};

// Capture time of the client-to-server stream byte at `offset`; -1 past its end.
double CaptureTimeOf(const Conversation& conversation, size_t offset);

// Loads `file` of `scenario`. Fails on anything a golden test must not skip:
// an unknown method, a call without an answer, a context or answer that does
// not decode strictly, no connection context.
Result<CallReplay> LoadCallReplay(const std::string& scenario, const std::string& file);

}  // namespace spindle::captures
