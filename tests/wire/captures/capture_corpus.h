// Test support for the Hadoop 2.6.0 wire captures in
// shared/captures/hadoop-2.6.0 (see its README.md): loads one TCP
// conversation (NN-*.jsonl) into its two byte streams, splits a stream into
// preamble + IPC frames with FrameDecoder, reads the machine-readable
// index.json / secrets.json of a scenario, and checks decoded protobuf
// messages strictly (no unknown fields, byte-exact re-serialization).
//
// Everything here is read-only over files and pure over bytes: no sockets,
// no clock. Not thread-safe (tests use it from one thread).
#pragma once

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/status.h"
#include "rpc_header.pb.h"

namespace spindle::captures {

// <shared>/captures/hadoop-2.6.0, located through SPINDLE_SHARED_DIR.
std::filesystem::path CaptureRoot();

// The five scenarios of the capture set, in README order.
const std::vector<std::string>& Scenarios();

enum class Direction { kClientToServer, kServerToClient };

// One captured TCP segment payload (one .jsonl line).
struct Segment {
  double t = 0;
  Direction dir = Direction::kClientToServer;
  std::string bytes;
};

// One TCP conversation: the client's stream (c2s) and the server's (s2c).
struct Conversation {
  std::string scenario;
  std::string file;  // e.g. "05-ds-am-to-rm-8030.jsonl"
  int server_port = 0;
  std::vector<Segment> segments;
  std::string c2s;
  std::string s2c;

  std::string name() const { return scenario + "/" + file; }
};

// The conversation files (NN-*.jsonl) of a scenario, sorted by name.
Result<std::vector<std::string>> ListConversationFiles(const std::string& scenario);

Result<Conversation> LoadConversation(const std::string& scenario, const std::string& file);

// All conversations of a scenario (CHECK-fails if one does not load: the
// corpus is part of the test, a broken file is a broken test).
std::vector<Conversation> LoadScenario(const std::string& scenario);

// One IPC frame: the body after the 4-byte big-endian length prefix.
struct Frame {
  size_t offset = 0;  // offset of the length prefix in its stream
  std::string body;
  size_t wire_length() const { return body.size() + 4; }
};

struct SplitStream {
  std::string preamble;  // the first `preamble_length` bytes
  std::vector<Frame> frames;
  std::string trailing;  // bytes after the last whole frame
  Status error;          // the decoder's refusal of an announced length, if any
};

// Splits a stream into `preamble_length` bytes, then frames, with
// spindle::ipc::FrameDecoder (so the decoder under test does the splitting).
SplitStream SplitFrames(std::string_view stream, size_t preamble_length,
                        uint32_t max_frame_length = 64 * 1024 * 1024);

// The frames of one direction of a conversation: 7-byte preamble for c2s.
SplitStream SplitConversation(const Conversation& conversation, Direction dir);

// A captured client frame with its RpcRequestHeaderProto decoded.
struct ClientFrame {
  size_t offset = 0;
  std::string wire;  // the whole frame, length prefix included
  hadoop::common::RpcRequestHeaderProto header;
  std::string rest;  // the bytes after the delimited header
};

// A captured server frame with its RpcResponseHeaderProto decoded.
struct ServerFrame {
  size_t offset = 0;
  std::string wire;
  hadoop::common::RpcResponseHeaderProto header;
  std::string rest;

  int32_t call_id() const { return static_cast<int32_t>(header.callid()); }
};

// The frames of a conversation with a valid v9 preamble (CHECK-fails on
// bytes that do not split or whose header does not parse: frame_decode_test
// reports those in detail).
std::vector<ClientFrame> ClientFrames(const Conversation& conversation);
std::vector<ServerFrame> ServerFrames(const Conversation& conversation);

// A protobuf call frame taken apart: RequestHeaderProto fields and the raw
// (still serialized) request message.
struct CapturedCall {
  int32_t call_id = 0;
  std::string client_id;
  int32_t retry_count = 0;
  std::string method;
  std::string protocol;
  uint64_t client_protocol_version = 0;
  std::string payload;
};
// Null unless `frame` is an RPC_PROTOCOL_BUFFER call (callId >= 0).
std::optional<CapturedCall> AsProtobufCall(const ClientFrame& frame);

// The server's SASL NEGOTIATE (null if none), and the DIGEST-MD5 nonce in
// its TOKEN challenge ("" if none).
std::optional<hadoop::common::RpcSaslProto> CapturedServerNegotiate(
    const Conversation& conversation);
std::string CapturedNonce(const Conversation& conversation);

// --- index.json --------------------------------------------------------------

struct IndexFrame {
  Direction dir = Direction::kClientToServer;
  size_t off = 0;
  size_t len = 0;    // including the 4-byte length prefix for frames
  std::string kind;  // preamble, sasl, connection_context, request, response, ...
  std::optional<int64_t> call_id;
  std::string method;
  std::string status;
};

struct IndexConversation {
  std::string file;
  std::string kind;           // hadoop-ipc, raw, http
  std::string auth_protocol;  // NONE, SASL or "null"
  std::string protocol;       // connection-context protocol or "null"
  int server_port = 0;
  std::vector<IndexFrame> frames;
};

Result<std::vector<IndexConversation>> LoadIndex(const std::string& scenario);

// --- secrets.json ------------------------------------------------------------

struct SaslAuthRecord {
  std::string method;
  std::string mechanism;
  std::string protocol;
  std::string server_id;
  std::string challenge;
};

struct SaslStepRecord {
  Direction dir = Direction::kClientToServer;
  int line = 0;
  std::string state;  // NEGOTIATE, INITIATE, SUCCESS, ...
  std::optional<std::string> token;
  std::vector<SaslAuthRecord> auths;
};

struct SaslExchangeRecord {
  std::string file;
  std::vector<SaslStepRecord> steps;
  // Raw bytes of the token used (empty when the exchange involves no token).
  std::string token_identifier;
  std::string token_password;

  bool has_token() const { return !token_identifier.empty(); }
  // The first step with this direction and state, or null.
  const SaslStepRecord* Find(Direction dir, std::string_view state) const;
};

Result<std::vector<SaslExchangeRecord>> LoadSaslExchanges(const std::string& scenario);

// The TOKEN exchange secrets.json records for one conversation, if any.
std::optional<SaslExchangeRecord> TokenExchangeFor(const std::string& scenario,
                                                   const std::string& file);

// --- protobuf helpers --------------------------------------------------------

// The protobuf service a Hadoop protocol name dispatches to, if it is one of
// Spindle's (ApplicationClient, ApplicationMaster, ResourceTracker, Admin,
// ContainerManagement); null otherwise.
const google::protobuf::ServiceDescriptor* ServiceForProtocol(std::string_view protocol);

// Protocols the captures contain that Spindle does not serve (MR client,
// NM localizer, MR task umbilical): their frames are split and their headers
// checked, their payloads are not decoded.
bool IsForeignProtocol(std::string_view protocol);

// A fresh message of the given type from the generated factory.
std::unique_ptr<google::protobuf::Message> NewMessage(const google::protobuf::Descriptor* type);

// "path: unknown field N (wire type)" for every unknown field in `message`
// and all of its set sub-messages.
std::vector<std::string> FindUnknownFields(const google::protobuf::Message& message,
                                           const std::string& path);

// Reads one varint-delimited message from the front of *in into *message and
// checks it strictly: it parses, all required fields are set, it has no
// unknown fields, and serializing it again reproduces the captured bytes.
// Appends a description of each problem (prefixed with `where`) to *problems;
// returns false if the bytes could not be read at all.
bool ReadStrict(std::string_view* in, google::protobuf::Message* message, const std::string& where,
                std::vector<std::string>* problems);

// The RPC identity Hadoop derives from an AMRM or NM token identifier: the
// application attempt id string, e.g. "appattempt_1795352696796_0001_000001".
// Empty if the bytes are not such an identifier.
std::string AttemptIdFromTokenIdentifier(std::string_view identifier);

// "mapreduce-pi" -> "mapreduce_pi": a GoogleTest parameter name.
std::string TestNameOf(std::string_view name);

// Lower-case hex, for readable failure messages.
std::string Hex(std::string_view bytes);

}  // namespace spindle::captures
