// Golden test 1: every IPC frame of every captured Hadoop 2.6.0 conversation
// decodes with Spindle's protos, strictly. For each message: it parses, it has
// no unknown fields (an unknown field means a proto of ours lacks or
// mis-numbers a field), and serializing it again gives the captured bytes
// (Java writes fields in number order, so this pins numbers and types). The
// frame splitting itself (FrameDecoder) is cross-checked against the offsets
// the capture's own tooling recorded in index.json.
#include <google/protobuf/unknown_field_set.h>
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ipc_connection_context.pb.h"
#include "protobuf_rpc_engine.pb.h"
#include "rpc_header.pb.h"
#include "tests/wire/captures/capture_corpus.h"
#include "wire/ipc/connection_preamble.h"
#include "wire/ipc/error_mapping.h"
#include "wire/ipc/frame_codec.h"

namespace spindle::captures {
namespace {

using google::protobuf::Message;
using google::protobuf::MethodDescriptor;
using hadoop::common::RpcRequestHeaderProto;
using hadoop::common::RpcResponseHeaderProto;

struct Tally {
  int conversations = 0;      // conversations looked at
  int ipc_conversations = 0;  // with a valid v9 preamble
  int c2s_frames = 0;
  int s2c_frames = 0;
  int messages = 0;          // protobuf messages decoded strictly
  int yarn_calls = 0;        // requests of Spindle's protocols decoded
  int yarn_responses = 0;    // SUCCESS responses of Spindle's protocols decoded
  int foreign_payloads = 0;  // payloads of MR/localizer/umbilical calls left undecoded
  int skipped = 0;           // HTTP / pre-v9 conversations
};

// What a call is, so that its response can be decoded.
struct PendingCall {
  enum class Kind { kOurs, kForeignProtobuf, kWritable, kNoSuchMethod, kNoSuchProtocol };
  Kind kind = Kind::kOurs;
  const MethodDescriptor* method = nullptr;
  std::string client_id;
  int32_t retry_count = 0;
};

std::string Framed(std::string_view body) {
  std::string out;
  ipc::AppendBigEndian32(static_cast<uint32_t>(body.size()), &out);
  out.append(body);
  return out;
}

// Kinds of index.json frames that are IPC frames (length-prefixed).
bool IsIndexedFrame(const IndexFrame& frame) {
  static const std::set<std::string> kNotFrames = {
      "preamble", "raw", "http_request", "http_response", "old_style_fatal_response", "unparsed"};
  return kNotFrames.count(frame.kind) == 0;
}

class ConversationDecoder {
 public:
  ConversationDecoder(const Conversation& conversation, const IndexConversation* index,
                      Tally* tally, std::vector<std::string>* problems)
      : c_(conversation), index_(index), tally_(tally), problems_(problems) {}

  void Run() {
    ++tally_->conversations;
    if (c_.c2s.starts_with("GET ")) {
      ++tally_->skipped;  // HTTP (shuffle, or a browser on an IPC port)
      return;
    }
    const ipc::Preamble preamble = ipc::ParsePreamble(c_.c2s.substr(0, ipc::kPreambleLength));
    if (preamble.kind != ipc::Preamble::Kind::kValid) {
      // Only protobuf-layout replies (bad magic, or version >= 9) are frames;
      // versions 3..8 get the pre-v9 layout (compared byte for byte in
      // server_replay_test).
      if (c_.c2s.starts_with("hrpc") && preamble.version < ipc::kServerIpcVersion) {
        ++tally_->skipped;
        return;
      }
      const SplitStream s2c = SplitConversation(c_, Direction::kServerToClient);
      CheckSplitAgainstIndex(s2c, Direction::kServerToClient);
      DecodeServerStream(s2c);
      return;
    }
    ++tally_->ipc_conversations;
    const SplitStream c2s = SplitConversation(c_, Direction::kClientToServer);
    const SplitStream s2c = SplitConversation(c_, Direction::kServerToClient);
    CheckSplitAgainstIndex(c2s, Direction::kClientToServer);
    CheckSplitAgainstIndex(s2c, Direction::kServerToClient);
    DecodeClientStream(c2s);
    DecodeServerStream(s2c);
    for (const auto& [call_id, call] : pending_) {
      if (call.kind == PendingCall::Kind::kOurs || call.kind == PendingCall::Kind::kNoSuchMethod ||
          call.kind == PendingCall::Kind::kNoSuchProtocol) {
        Problem("call " + std::to_string(call_id) + " got no response");
      }
    }
  }

 private:
  void Problem(const std::string& text) { problems_->push_back(c_.name() + ": " + text); }

  std::string Where(Direction dir, const Frame& frame) const {
    return c_.name() + (dir == Direction::kClientToServer ? " c2s" : " s2c") + "@" +
           std::to_string(frame.offset);
  }

  bool Strict(std::string_view* in, Message* message, const std::string& where) {
    const bool read = ReadStrict(in, message, where, problems_);
    if (read) ++tally_->messages;
    return read;
  }

  void ExpectConsumed(std::string_view rest, const std::string& where) {
    if (!rest.empty()) {
      problems_->push_back(where + ": " + std::to_string(rest.size()) +
                           " bytes left over in the frame: " + Hex(rest.substr(0, 32)));
    }
  }

  // The frame our encoder builds from the decoded parts must be the captured one.
  void ExpectReencodes(const Frame& frame,
                       std::initializer_list<const google::protobuf::MessageLite*> parts,
                       const std::string& where) {
    if (ipc::EncodeFrame(parts) != Framed(frame.body)) {
      problems_->push_back(where + ": EncodeFrame of the decoded parts differs from the frame");
    }
  }

  void CheckSplitAgainstIndex(const SplitStream& split, Direction dir) {
    const char* name = dir == Direction::kClientToServer ? "c2s" : "s2c";
    std::vector<std::pair<size_t, size_t>> ours;
    for (const auto& frame : split.frames) ours.emplace_back(frame.offset, frame.wire_length());
    std::vector<std::pair<size_t, size_t>> indexed;
    size_t unparsed = 0;
    if (index_ == nullptr) {
      Problem(std::string("not listed in index.json"));
      return;
    }
    for (const auto& frame : index_->frames) {
      if (frame.dir != dir) continue;
      if (frame.kind == "unparsed") unparsed += frame.len;
      if (IsIndexedFrame(frame)) indexed.emplace_back(frame.off, frame.len);
    }
    if (ours != indexed) {
      Problem(std::string(name) + ": FrameDecoder found " + std::to_string(ours.size()) +
              " frames, index.json lists " + std::to_string(indexed.size()) +
              " (or their offsets/lengths differ)");
    }
    if (unparsed == 0) {
      if (!split.error.ok()) Problem(std::string(name) + ": " + split.error.ToString());
      if (!split.trailing.empty()) {
        Problem(std::string(name) + ": " + std::to_string(split.trailing.size()) +
                " trailing bytes after the last frame");
      }
    } else {
      // errors/10: a frame announcing 0x7fffffff bytes must be refused.
      if (split.error.ok()) Problem(std::string(name) + ": oversize frame length not refused");
      if (split.trailing.size() != unparsed) {
        Problem(std::string(name) + ": " + std::to_string(split.trailing.size()) +
                " unsplit bytes, index.json says " + std::to_string(unparsed));
      }
    }
    (dir == Direction::kClientToServer ? tally_->c2s_frames : tally_->s2c_frames) +=
        static_cast<int>(split.frames.size());
  }

  void DecodeClientStream(const SplitStream& split) {
    for (const auto& frame : split.frames) {
      const std::string where = Where(Direction::kClientToServer, frame);
      std::string_view rest = frame.body;
      RpcRequestHeaderProto header;
      if (!Strict(&rest, &header, where + " RpcRequestHeaderProto")) continue;
      const int32_t call_id = header.callid();
      if (call_id == ipc::kSaslCallId) {
        hadoop::common::RpcSaslProto sasl;
        if (!Strict(&rest, &sasl, where + " SASL")) continue;
        ExpectConsumed(rest, where);
        ExpectReencodes(frame, {&header, &sasl}, where);
      } else if (call_id == ipc::kConnectionContextCallId) {
        hadoop::common::IpcConnectionContextProto context;
        if (!Strict(&rest, &context, where + " context")) continue;
        ExpectConsumed(rest, where);
        ExpectReencodes(frame, {&header, &context}, where);
        context_protocol_ = context.protocol();
      } else if (call_id == ipc::kPingCallId) {
        ExpectConsumed(rest, where);
      } else if (call_id >= 0) {
        DecodeCall(frame, header, rest, where);
      } else {
        Problem("unexpected client call id " + std::to_string(call_id) + " at " + where);
      }
    }
  }

  void DecodeCall(const Frame& frame, const RpcRequestHeaderProto& header, std::string_view rest,
                  const std::string& where) {
    PendingCall call;
    call.client_id = header.clientid();
    call.retry_count = header.retrycount();
    const int32_t call_id = header.callid();
    if (pending_.count(call_id) != 0) Problem("call id " + std::to_string(call_id) + " reused");
    if (header.rpckind() == hadoop::common::RPC_WRITABLE) {
      // TaskUmbilicalProtocol: a WritableRpcEngine.Invocation, no length prefix.
      if (!IsForeignProtocol(context_protocol_)) {
        Problem("Writable RPC on " + context_protocol_ + " at " + where);
      }
      ++tally_->foreign_payloads;
      call.kind = PendingCall::Kind::kWritable;
      pending_[call_id] = call;
      return;
    }
    hadoop::common::RequestHeaderProto request_header;
    if (!Strict(&rest, &request_header, where + " RequestHeaderProto")) return;
    const std::string& protocol = request_header.declaringclassprotocolname();
    const std::string& method_name = request_header.methodname();
    const std::string call_where = where + " " + method_name;
    if (const auto* service = ServiceForProtocol(protocol)) {
      call.method = service->FindMethodByName(method_name);
      if (call.method == nullptr) {
        // errors/06: the server must answer RpcNoSuchMethodException.
        call.kind = PendingCall::Kind::kNoSuchMethod;
        std::string_view ignored;
        if (!ipc::ReadDelimitedBytes(&rest, &ignored).ok()) Problem("unreadable " + call_where);
        ExpectConsumed(rest, call_where);
      } else {
        auto request = NewMessage(call.method->input_type());
        if (Strict(&rest, request.get(), call_where + " request")) {
          ExpectConsumed(rest, call_where);
          ExpectReencodes(frame, {&header, &request_header, request.get()}, call_where);
          ++tally_->yarn_calls;
        }
      }
    } else if (IsForeignProtocol(protocol)) {
      call.kind = PendingCall::Kind::kForeignProtobuf;
      std::string_view ignored;
      if (!ipc::ReadDelimitedBytes(&rest, &ignored).ok()) Problem("unreadable " + call_where);
      ExpectConsumed(rest, call_where);
      ++tally_->foreign_payloads;
    } else {
      // errors/07: the server must answer RpcNoSuchProtocolException.
      call.kind = PendingCall::Kind::kNoSuchProtocol;
      std::string_view ignored;
      if (!ipc::ReadDelimitedBytes(&rest, &ignored).ok()) Problem("unreadable " + call_where);
      ExpectConsumed(rest, call_where);
    }
    pending_[call_id] = call;
  }

  void DecodeServerStream(const SplitStream& split) {
    for (const auto& frame : split.frames) {
      const std::string where = Where(Direction::kServerToClient, frame);
      std::string_view rest = frame.body;
      RpcResponseHeaderProto header;
      if (!Strict(&rest, &header, where + " RpcResponseHeaderProto")) continue;
      if (header.serveripcversionnum() != ipc::kServerIpcVersion) {
        Problem("serverIpcVersionNum " + std::to_string(header.serveripcversionnum()) + " at " +
                where);
      }
      const int32_t call_id = static_cast<int32_t>(header.callid());
      if (call_id == ipc::kSaslCallId) {
        hadoop::common::RpcSaslProto sasl;
        if (!Strict(&rest, &sasl, where + " SASL")) continue;
        ExpectConsumed(rest, where);
        ExpectReencodes(frame, {&header, &sasl}, where);
        continue;
      }
      if (header.status() != RpcResponseHeaderProto::SUCCESS) {
        // Errors carry no payload.
        ExpectConsumed(rest, where);
        ExpectReencodes(frame, {&header}, where);
      }
      if (call_id < 0) {
        if (header.status() != RpcResponseHeaderProto::FATAL) {
          Problem("non-FATAL reply with call id " + std::to_string(call_id) + " at " + where);
        }
        continue;
      }
      auto it = pending_.find(call_id);
      if (it == pending_.end()) {
        Problem("response to unknown call " + std::to_string(call_id) + " at " + where);
        continue;
      }
      const PendingCall call = it->second;
      pending_.erase(it);
      if (header.clientid() != call.client_id || header.retrycount() != call.retry_count) {
        Problem("response header does not echo clientId/retryCount at " + where);
      }
      switch (call.kind) {
        case PendingCall::Kind::kNoSuchMethod:
          ExpectError(header, ipc::java::kRpcNoSuchMethod,
                      RpcResponseHeaderProto::ERROR_NO_SUCH_METHOD, where);
          break;
        case PendingCall::Kind::kNoSuchProtocol:
          ExpectError(header, ipc::java::kRpcNoSuchProtocol,
                      RpcResponseHeaderProto::ERROR_NO_SUCH_PROTOCOL, where);
          break;
        case PendingCall::Kind::kWritable:
          ++tally_->foreign_payloads;  // ObjectWritable, not length-prefixed
          break;
        case PendingCall::Kind::kForeignProtobuf:
          if (header.status() == RpcResponseHeaderProto::SUCCESS) {
            std::string_view ignored;
            if (!ipc::ReadDelimitedBytes(&rest, &ignored).ok()) Problem("unreadable " + where);
            ExpectConsumed(rest, where);
            ++tally_->foreign_payloads;
          }
          break;
        case PendingCall::Kind::kOurs:
          if (header.status() == RpcResponseHeaderProto::SUCCESS) {
            const std::string call_where = where + " " + call.method->name();
            auto response = NewMessage(call.method->output_type());
            if (Strict(&rest, response.get(), call_where + " response")) {
              ExpectConsumed(rest, call_where);
              ExpectReencodes(frame, {&header, response.get()}, call_where);
              ++tally_->yarn_responses;
            }
          }
          break;
      }
    }
  }

  void ExpectError(const RpcResponseHeaderProto& header, const std::string& exception_class,
                   RpcResponseHeaderProto::RpcErrorCodeProto code, const std::string& where) {
    if (header.status() != RpcResponseHeaderProto::ERROR ||
        header.exceptionclassname() != exception_class || header.errordetail() != code) {
      Problem("expected ERROR " + exception_class + " at " + where + ", got " +
              header.ShortDebugString().substr(0, 200));
    }
  }

  const Conversation& c_;
  const IndexConversation* index_;
  Tally* tally_;
  std::vector<std::string>* problems_;
  std::string context_protocol_;
  std::map<int32_t, PendingCall> pending_;
};

std::string Join(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += "  " + line + "\n";
  return out;
}

class FrameDecodeTest : public ::testing::TestWithParam<std::string> {};

TEST_P(FrameDecodeTest, EveryFrameDecodesStrictly) {
  const std::string& scenario = GetParam();
  auto index = LoadIndex(scenario);
  ASSERT_TRUE(index.ok()) << index.status().ToString();
  std::map<std::string, const IndexConversation*> by_file;
  for (const auto& entry : *index) by_file[entry.file] = &entry;

  Tally tally;
  std::vector<std::string> problems;
  const auto conversations = LoadScenario(scenario);
  EXPECT_EQ(conversations.size(), index->size()) << "index.json and the .jsonl files disagree";
  for (const auto& conversation : conversations) {
    auto it = by_file.find(conversation.file);
    ConversationDecoder(conversation, it == by_file.end() ? nullptr : it->second, &tally, &problems)
        .Run();
  }
  std::cout << "[ captures ] " << scenario << ": " << tally.conversations << " conversations ("
            << tally.ipc_conversations << " IPC v9, " << tally.skipped << " HTTP/pre-v9), "
            << tally.c2s_frames << " c2s + " << tally.s2c_frames
            << " s2c = " << tally.c2s_frames + tally.s2c_frames << " frames, " << tally.messages
            << " messages decoded strictly (" << tally.yarn_calls << " YARN requests, "
            << tally.yarn_responses << " YARN responses), " << tally.foreign_payloads
            << " MR/localizer payloads not decoded, " << problems.size() << " problems\n";
  EXPECT_TRUE(problems.empty()) << problems.size() << " problems:\n" << Join(problems);
  EXPECT_GT(tally.c2s_frames + tally.s2c_frames, 0);
  EXPECT_GT(tally.messages, 0);
}

INSTANTIATE_TEST_SUITE_P(Hadoop260, FrameDecodeTest, ::testing::ValuesIn(Scenarios()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           return TestNameOf(p.param);
                         });

// The strict reader must notice what it is meant to notice.
TEST(StrictReaderTest, FlagsUnknownFieldsAndNonCanonicalBytes) {
  // RequestHeaderProto with an extra field 9 (varint 1).
  hadoop::common::RequestHeaderProto header;
  header.set_methodname("m");
  header.set_declaringclassprotocolname("p");
  header.set_clientprotocolversion(1);
  std::string body = header.SerializeAsString() + std::string("\x48\x01", 2);
  std::string delimited(1, static_cast<char>(body.size()));
  delimited += body;
  std::string_view in = delimited;
  std::vector<std::string> problems;
  hadoop::common::RequestHeaderProto parsed;
  EXPECT_TRUE(ReadStrict(&in, &parsed, "test", &problems));
  ASSERT_EQ(problems.size(), 1u) << Join(problems);
  EXPECT_NE(problems[0].find("unknown field 9"), std::string::npos) << problems[0];

  // Unknown fields are found in nested messages too, with their path.
  hadoop::common::RpcSaslProto sasl;
  sasl.set_state(hadoop::common::RpcSaslProto::NEGOTIATE);
  auto* auth = sasl.add_auths();
  auth->set_method("TOKEN");
  auth->set_mechanism("DIGEST-MD5");
  auth->GetReflection()->MutableUnknownFields(auth)->AddVarint(9, 1);
  std::string nested;
  ipc::AppendDelimited(sasl, &nested);
  in = nested;
  problems.clear();
  hadoop::common::RpcSaslProto parsed_sasl;
  EXPECT_TRUE(ReadStrict(&in, &parsed_sasl, "test", &problems));
  ASSERT_EQ(problems.size(), 1u) << Join(problems);
  EXPECT_NE(problems[0].find(".auths[0]"), std::string::npos) << problems[0];
  EXPECT_NE(problems[0].find("unknown field 9"), std::string::npos) << problems[0];

  // Fields out of number order re-serialize differently.
  const std::string reordered = std::string("\x12\x01p\x0a\x01m\x18\x01", 8);
  std::string delimited2(1, static_cast<char>(reordered.size()));
  delimited2 += reordered;
  in = delimited2;
  problems.clear();
  EXPECT_TRUE(ReadStrict(&in, &parsed, "test", &problems));
  ASSERT_EQ(problems.size(), 1u) << Join(problems);
  EXPECT_NE(problems[0].find("differs"), std::string::npos) << problems[0];

  // A missing required field is reported.
  const std::string partial = std::string("\x0a\x01m", 3);
  std::string delimited3(1, static_cast<char>(partial.size()));
  delimited3 += partial;
  in = delimited3;
  problems.clear();
  EXPECT_TRUE(ReadStrict(&in, &parsed, "test", &problems));
  ASSERT_EQ(problems.size(), 1u) << Join(problems);
  EXPECT_NE(problems[0].find("required"), std::string::npos) << problems[0];
}

}  // namespace
}  // namespace spindle::captures
