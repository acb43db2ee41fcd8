#include "tests/wire/captures/capture_corpus.h"

#include <glog/logging.h>
#include <google/protobuf/unknown_field_set.h>

#include <algorithm>
#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "base/crypto.h"
#include "protobuf_rpc_engine.pb.h"
#include "wire/ipc/digest_md5.h"
#include "wire/ipc/frame_codec.h"
#include "wire/ipc/frame_decoder.h"
#include "yarn_security_token.pb.h"

namespace spindle::captures {

namespace {
namespace pt = boost::property_tree;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;
using google::protobuf::UnknownField;
using google::protobuf::UnknownFieldSet;

Result<Direction> ParseDirection(const std::string& dir) {
  if (dir == "c2s") return Direction::kClientToServer;
  if (dir == "s2c") return Direction::kServerToClient;
  return Status::Corruption("unknown direction '" + dir + "'");
}

Result<std::string> DecodeHex(const std::string& hex, const std::string& where) {
  std::string out;
  if (!HexDecode(hex, &out)) return Status::Corruption(where + ": bad hex");
  return out;
}

Result<pt::ptree> ReadJsonFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return Status::NotFound("cannot open " + path.string());
  pt::ptree tree;
  try {
    pt::read_json(in, tree);
  } catch (const pt::json_parser_error& e) {
    return Status::Corruption(path.string() + ": " + e.what());
  }
  return tree;
}

// "05-ds-am-to-rm-8030.jsonl" -> 8030.
int PortFromFileName(const std::string& file) {
  const size_t dot = file.rfind('.');
  const size_t dash = file.rfind('-', dot);
  if (dot == std::string::npos || dash == std::string::npos) return 0;
  return std::atoi(file.substr(dash + 1, dot - dash - 1).c_str());
}

bool IsConversationFile(const std::string& name) {
  return name.size() > 9 && std::isdigit(static_cast<unsigned char>(name[0])) &&
         std::isdigit(static_cast<unsigned char>(name[1])) && name[2] == '-' &&
         name.ends_with(".jsonl");
}

std::string WireTypeName(UnknownField::Type type) {
  switch (type) {
    case UnknownField::TYPE_VARINT:
      return "varint";
    case UnknownField::TYPE_FIXED32:
      return "fixed32";
    case UnknownField::TYPE_FIXED64:
      return "fixed64";
    case UnknownField::TYPE_LENGTH_DELIMITED:
      return "length-delimited";
    case UnknownField::TYPE_GROUP:
      return "group";
  }
  return "?";
}

std::string DescribeUnknown(const UnknownField& field) {
  std::string out =
      "unknown field " + std::to_string(field.number()) + " (" + WireTypeName(field.type());
  switch (field.type()) {
    case UnknownField::TYPE_VARINT:
      out += " " + std::to_string(field.varint());
      break;
    case UnknownField::TYPE_LENGTH_DELIMITED:
      out += ", " + std::to_string(field.length_delimited().size()) +
             " bytes: " + Hex(field.length_delimited().substr(0, 48));
      break;
    default:
      break;
  }
  return out + ")";
}
}  // namespace

std::filesystem::path CaptureRoot() {
  return std::filesystem::path(SPINDLE_SHARED_DIR) / "captures" / "hadoop-2.6.0";
}

const std::vector<std::string>& Scenarios() {
  static const std::vector<std::string> kScenarios = {"cli-application-list",
                                                      "nm-register-heartbeat", "distributedshell",
                                                      "mapreduce-pi", "errors"};
  return kScenarios;
}

Result<std::vector<std::string>> ListConversationFiles(const std::string& scenario) {
  const auto dir = CaptureRoot() / scenario;
  std::error_code ec;
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && IsConversationFile(name)) files.push_back(name);
  }
  if (ec) return Status::NotFound("cannot list " + dir.string() + ": " + ec.message());
  std::sort(files.begin(), files.end());
  return files;
}

Result<Conversation> LoadConversation(const std::string& scenario, const std::string& file) {
  const auto path = CaptureRoot() / scenario / file;
  std::ifstream in(path);
  if (!in) return Status::NotFound("cannot open " + path.string());
  Conversation conversation;
  conversation.scenario = scenario;
  conversation.file = file;
  conversation.server_port = PortFromFileName(file);
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty()) continue;
    const std::string where = path.string() + ":" + std::to_string(line_number);
    pt::ptree tree;
    try {
      std::istringstream line_in(line);
      pt::read_json(line_in, tree);
    } catch (const pt::json_parser_error& e) {
      return Status::Corruption(where + ": " + e.what());
    }
    Segment segment;
    segment.t = tree.get<double>("t", 0.0);
    ASSIGN_OR_RETURN(segment.dir, ParseDirection(tree.get<std::string>("dir", "")));
    ASSIGN_OR_RETURN(segment.bytes, DecodeHex(tree.get<std::string>("hex", ""), where));
    (segment.dir == Direction::kClientToServer ? conversation.c2s : conversation.s2c)
        .append(segment.bytes);
    conversation.segments.push_back(std::move(segment));
  }
  return conversation;
}

std::vector<Conversation> LoadScenario(const std::string& scenario) {
  auto files = ListConversationFiles(scenario);
  CHECK(files.ok()) << files.status().ToString();
  CHECK(!files->empty()) << "no conversations in " << scenario;
  std::vector<Conversation> out;
  for (const auto& file : *files) {
    auto conversation = LoadConversation(scenario, file);
    CHECK(conversation.ok()) << conversation.status().ToString();
    out.push_back(std::move(conversation).value());
  }
  return out;
}

SplitStream SplitFrames(std::string_view stream, size_t preamble_length,
                        uint32_t max_frame_length) {
  SplitStream out;
  const size_t preamble = std::min(preamble_length, stream.size());
  out.preamble.assign(stream.substr(0, preamble));
  ipc::FrameDecoder decoder(max_frame_length);
  decoder.Append(stream.substr(preamble));
  size_t offset = preamble;
  while (true) {
    std::string body;
    auto next = decoder.Next(&body);
    if (!next.ok()) {
      out.error = next.status();
      break;
    }
    if (!*next) break;
    Frame frame;
    frame.offset = offset;
    frame.body = std::move(body);
    offset += frame.wire_length();
    out.frames.push_back(std::move(frame));
  }
  out.trailing = decoder.TakeRemaining();
  return out;
}

SplitStream SplitConversation(const Conversation& conversation, Direction dir) {
  return dir == Direction::kClientToServer ? SplitFrames(conversation.c2s, 7)
                                           : SplitFrames(conversation.s2c, 0);
}

std::vector<ClientFrame> ClientFrames(const Conversation& conversation) {
  const SplitStream split = SplitConversation(conversation, Direction::kClientToServer);
  CHECK(split.error.ok()) << conversation.name() << ": " << split.error.ToString();
  std::vector<ClientFrame> out;
  for (const auto& frame : split.frames) {
    ClientFrame decoded;
    decoded.offset = frame.offset;
    ipc::AppendBigEndian32(static_cast<uint32_t>(frame.body.size()), &decoded.wire);
    decoded.wire += frame.body;
    std::string_view rest = frame.body;
    const Status s = ipc::ReadDelimited(&rest, &decoded.header);
    CHECK(s.ok()) << conversation.name() << " c2s@" << frame.offset << ": " << s.ToString();
    decoded.rest.assign(rest);
    out.push_back(std::move(decoded));
  }
  return out;
}

std::vector<ServerFrame> ServerFrames(const Conversation& conversation) {
  const SplitStream split = SplitConversation(conversation, Direction::kServerToClient);
  CHECK(split.error.ok()) << conversation.name() << ": " << split.error.ToString();
  CHECK(split.trailing.empty()) << conversation.name() << ": s2c does not split into frames";
  std::vector<ServerFrame> out;
  for (const auto& frame : split.frames) {
    ServerFrame decoded;
    decoded.offset = frame.offset;
    ipc::AppendBigEndian32(static_cast<uint32_t>(frame.body.size()), &decoded.wire);
    decoded.wire += frame.body;
    std::string_view rest = frame.body;
    const Status s = ipc::ReadDelimited(&rest, &decoded.header);
    CHECK(s.ok()) << conversation.name() << " s2c@" << frame.offset << ": " << s.ToString();
    decoded.rest.assign(rest);
    out.push_back(std::move(decoded));
  }
  return out;
}

std::optional<CapturedCall> AsProtobufCall(const ClientFrame& frame) {
  if (frame.header.callid() < 0 || frame.header.rpckind() != hadoop::common::RPC_PROTOCOL_BUFFER) {
    return std::nullopt;
  }
  std::string_view rest = frame.rest;
  hadoop::common::RequestHeaderProto request_header;
  if (!ipc::ReadDelimited(&rest, &request_header).ok()) return std::nullopt;
  std::string_view payload;
  if (!rest.empty() && !ipc::ReadDelimitedBytes(&rest, &payload).ok()) return std::nullopt;
  CapturedCall call;
  call.call_id = frame.header.callid();
  call.client_id = frame.header.clientid();
  call.retry_count = frame.header.retrycount();
  call.method = request_header.methodname();
  call.protocol = request_header.declaringclassprotocolname();
  call.client_protocol_version = request_header.clientprotocolversion();
  call.payload.assign(payload);
  return call;
}

std::optional<hadoop::common::RpcSaslProto> CapturedServerNegotiate(
    const Conversation& conversation) {
  // Tolerant on purpose: also called for streams that are not v9 frames.
  const SplitStream split = SplitConversation(conversation, Direction::kServerToClient);
  for (const auto& frame : split.frames) {
    std::string_view rest = frame.body;
    hadoop::common::RpcResponseHeaderProto header;
    hadoop::common::RpcSaslProto sasl;
    if (!ipc::ReadDelimited(&rest, &header).ok() ||
        static_cast<int32_t>(header.callid()) != ipc::kSaslCallId) {
      continue;
    }
    if (ipc::ReadDelimited(&rest, &sasl).ok() &&
        sasl.state() == hadoop::common::RpcSaslProto::NEGOTIATE) {
      return sasl;
    }
  }
  return std::nullopt;
}

std::string CapturedNonce(const Conversation& conversation) {
  const auto negotiate = CapturedServerNegotiate(conversation);
  if (!negotiate) return "";
  for (const auto& auth : negotiate->auths()) {
    if (auth.method() != "TOKEN") continue;
    auto directives = ipc::ParseDigestDirectives(auth.challenge());
    if (!directives.ok()) return "";
    auto it = directives->find("nonce");
    return it == directives->end() ? "" : it->second;
  }
  return "";
}

Result<std::vector<IndexConversation>> LoadIndex(const std::string& scenario) {
  ASSIGN_OR_RETURN(pt::ptree tree, ReadJsonFile(CaptureRoot() / scenario / "index.json"));
  std::vector<IndexConversation> out;
  for (const auto& [unused_key, c] : tree.get_child("conversations")) {
    IndexConversation conversation;
    conversation.file = c.get<std::string>("file");
    conversation.kind = c.get<std::string>("kind", "");
    conversation.auth_protocol = c.get<std::string>("auth_protocol", "");
    conversation.protocol = c.get<std::string>("protocol", "");
    conversation.server_port = c.get<int>("server_port", 0);
    for (const auto& [unused, f] : c.get_child("frames")) {
      IndexFrame frame;
      ASSIGN_OR_RETURN(frame.dir, ParseDirection(f.get<std::string>("dir", "")));
      frame.off = f.get<size_t>("off");
      frame.len = f.get<size_t>("len");
      frame.kind = f.get<std::string>("kind", "");
      if (auto call_id = f.get_optional<int64_t>("callId")) frame.call_id = *call_id;
      frame.method = f.get<std::string>("method", "");
      frame.status = f.get<std::string>("status", "");
      conversation.frames.push_back(std::move(frame));
    }
    out.push_back(std::move(conversation));
  }
  return out;
}

const SaslStepRecord* SaslExchangeRecord::Find(Direction dir, std::string_view state) const {
  for (const auto& step : steps) {
    if (step.dir == dir && step.state == state) return &step;
  }
  return nullptr;
}

Result<std::vector<SaslExchangeRecord>> LoadSaslExchanges(const std::string& scenario) {
  ASSIGN_OR_RETURN(pt::ptree tree, ReadJsonFile(CaptureRoot() / scenario / "secrets.json"));
  std::vector<SaslExchangeRecord> out;
  const auto sasl = tree.get_child_optional("sasl");
  if (!sasl) return out;
  for (const auto& [unused_key, s] : *sasl) {
    SaslExchangeRecord record;
    record.file = s.get<std::string>("file");
    const std::string where = scenario + "/secrets.json " + record.file;
    ASSIGN_OR_RETURN(record.token_identifier,
                     DecodeHex(s.get<std::string>("token_identifier_hex", ""), where));
    ASSIGN_OR_RETURN(record.token_password,
                     DecodeHex(s.get<std::string>("token_password_hex", ""), where));
    for (const auto& [unused, e] : s.get_child("exchange")) {
      SaslStepRecord step;
      ASSIGN_OR_RETURN(step.dir, ParseDirection(e.get<std::string>("dir", "")));
      step.line = e.get<int>("line", 0);
      step.state = e.get<std::string>("state", "");
      if (auto token = e.get_optional<std::string>("token")) step.token = *token;
      if (auto auths = e.get_child_optional("auths")) {
        for (const auto& [unused_auth, a] : *auths) {
          SaslAuthRecord auth;
          auth.method = a.get<std::string>("method", "");
          auth.mechanism = a.get<std::string>("mechanism", "");
          auth.protocol = a.get<std::string>("protocol", "");
          auth.server_id = a.get<std::string>("serverId", "");
          auth.challenge = a.get<std::string>("challenge", "");
          step.auths.push_back(std::move(auth));
        }
      }
      record.steps.push_back(std::move(step));
    }
    out.push_back(std::move(record));
  }
  return out;
}

std::optional<SaslExchangeRecord> TokenExchangeFor(const std::string& scenario,
                                                   const std::string& file) {
  auto exchanges = LoadSaslExchanges(scenario);
  CHECK(exchanges.ok()) << exchanges.status().ToString();
  for (auto& exchange : *exchanges) {
    if (exchange.file == file && exchange.has_token()) return std::move(exchange);
  }
  return std::nullopt;
}

const google::protobuf::ServiceDescriptor* ServiceForProtocol(std::string_view protocol) {
  static const std::map<std::string, std::string, std::less<>> kServices = {
      {"org.apache.hadoop.yarn.api.ApplicationClientProtocolPB",
       "hadoop.yarn.ApplicationClientProtocolService"},
      {"org.apache.hadoop.yarn.api.ApplicationMasterProtocolPB",
       "hadoop.yarn.ApplicationMasterProtocolService"},
      {"org.apache.hadoop.yarn.server.api.ResourceTrackerPB", "hadoop.yarn.ResourceTrackerService"},
      {"org.apache.hadoop.yarn.server.api.ResourceManagerAdministrationProtocolPB",
       "hadoop.yarn.ResourceManagerAdministrationProtocolService"},
      {"org.apache.hadoop.yarn.api.ContainerManagementProtocolPB",
       "hadoop.yarn.ContainerManagementProtocolService"},
  };
  auto it = kServices.find(protocol);
  if (it == kServices.end()) return nullptr;
  const auto* service =
      google::protobuf::DescriptorPool::generated_pool()->FindServiceByName(it->second);
  CHECK(service != nullptr) << it->second << " is not in the generated descriptor pool";
  return service;
}

bool IsForeignProtocol(std::string_view protocol) {
  return protocol == "org.apache.hadoop.mapreduce.v2.api.MRClientProtocolPB" ||
         protocol == "org.apache.hadoop.yarn.server.nodemanager.api.LocalizationProtocolPB" ||
         protocol == "org.apache.hadoop.mapred.TaskUmbilicalProtocol";
}

std::unique_ptr<Message> NewMessage(const google::protobuf::Descriptor* type) {
  const Message* prototype =
      google::protobuf::MessageFactory::generated_factory()->GetPrototype(type);
  CHECK(prototype != nullptr) << type->full_name();
  return std::unique_ptr<Message>(prototype->New());
}

std::vector<std::string> FindUnknownFields(const Message& message, const std::string& path) {
  std::vector<std::string> out;
  const Reflection* reflection = message.GetReflection();
  const UnknownFieldSet& unknown = reflection->GetUnknownFields(message);
  for (int i = 0; i < unknown.field_count(); ++i) {
    out.push_back(path + " (" + message.GetTypeName() + "): " + DescribeUnknown(unknown.field(i)));
  }
  std::vector<const FieldDescriptor*> fields;
  reflection->ListFields(message, &fields);
  for (const FieldDescriptor* field : fields) {
    if (field->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (field->is_repeated()) {
      for (int j = 0; j < reflection->FieldSize(message, field); ++j) {
        auto sub = FindUnknownFields(reflection->GetRepeatedMessage(message, field, j),
                                     path + "." + field->name() + "[" + std::to_string(j) + "]");
        out.insert(out.end(), sub.begin(), sub.end());
      }
    } else {
      auto sub =
          FindUnknownFields(reflection->GetMessage(message, field), path + "." + field->name());
      out.insert(out.end(), sub.begin(), sub.end());
    }
  }
  return out;
}

bool ReadStrict(std::string_view* in, Message* message, const std::string& where,
                std::vector<std::string>* problems) {
  const std::string type = message->GetTypeName();
  std::string_view body;
  const Status read = ipc::ReadDelimitedBytes(in, &body);
  if (!read.ok()) {
    problems->push_back(where + ": cannot read a delimited " + type + ": " + read.ToString());
    return false;
  }
  if (!message->ParsePartialFromArray(body.data(), static_cast<int>(body.size()))) {
    problems->push_back(where + ": " + std::to_string(body.size()) + " bytes do not parse as " +
                        type + ": " + Hex(body.substr(0, 64)));
    return false;
  }
  if (!message->IsInitialized()) {
    problems->push_back(where + ": " + type +
                        " misses required fields: " + message->InitializationErrorString());
  }
  auto unknown = FindUnknownFields(*message, where + " " + type);
  problems->insert(problems->end(), unknown.begin(), unknown.end());
  std::string again;
  message->SerializePartialToString(&again);
  if (again != body) {
    size_t diff = 0;
    while (diff < again.size() && diff < body.size() && again[diff] == body[diff]) ++diff;
    problems->push_back(where + ": re-serialized " + type + " differs from the captured " +
                        std::to_string(body.size()) + " bytes at offset " + std::to_string(diff) +
                        " (ours " + std::to_string(again.size()) + " bytes): captured " +
                        Hex(body.substr(diff, 24)) + " ours " +
                        Hex(std::string_view(again).substr(diff, 24)));
  }
  return true;
}

std::string AttemptIdFromTokenIdentifier(std::string_view identifier) {
  hadoop::yarn::AMRMTokenIdentifierProto id;
  if (!id.ParseFromArray(identifier.data(), static_cast<int>(identifier.size())) ||
      !id.has_appattemptid() || !id.appattemptid().has_application_id()) {
    return "";
  }
  const auto& attempt = id.appattemptid();
  char buffer[96];
  std::snprintf(buffer, sizeof(buffer), "appattempt_%lld_%04d_%06d",
                static_cast<long long>(attempt.application_id().cluster_timestamp()),
                attempt.application_id().id(), attempt.attemptid());
  return buffer;
}

std::string TestNameOf(std::string_view name) {
  std::string out;
  for (char ch : name) out.push_back(std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_');
  return out;
}

std::string Hex(std::string_view bytes) { return HexEncode(bytes); }

}  // namespace spindle::captures
