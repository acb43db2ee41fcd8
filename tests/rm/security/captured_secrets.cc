#include "tests/rm/security/captured_secrets.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/unknown_field_set.h>

#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <fstream>
#include <sstream>

#include "base/crypto.h"
#include "protobuf_rpc_engine.pb.h"
#include "rpc_header.pb.h"

namespace spindle::rm::testing {

namespace {

namespace pt = boost::property_tree;

Result<std::string> Unhex(const std::string& hex, const std::string& what) {
  std::string out;
  if (!HexDecode(hex, &out)) return Status::Corruption("bad hex in " + what);
  return out;
}

std::string Where(const pt::ptree& where) {
  return where.get<std::string>("file", "?") + " line " + where.get<std::string>("line", "?");
}

// Boost reads JSON "[]" as an empty string node: iterating it is a no-op.
Result<CapturedCredentials> ParseCredentials(const pt::ptree& node) {
  CapturedCredentials blob;
  blob.version = node.get<int>("version", -1);
  for (const auto& [unused, token] : node.get_child("tokens", pt::ptree())) {
    CapturedCredentialsToken t;
    t.alias = token.get<std::string>("alias");
    t.kind = token.get<std::string>("kind");
    t.service = token.get<std::string>("service");
    ASSIGN_OR_RETURN(t.identifier, Unhex(token.get<std::string>("identifier_hex"), "identifier"));
    ASSIGN_OR_RETURN(t.password, Unhex(token.get<std::string>("password_hex"), "password"));
    blob.tokens.push_back(std::move(t));
  }
  for (const auto& [unused, secret] : node.get_child("secret_keys", pt::ptree())) {
    ASSIGN_OR_RETURN(std::string value, Unhex(secret.get<std::string>("value_hex"), "secret"));
    blob.secrets.emplace_back(secret.get<std::string>("alias"), std::move(value));
  }
  if (auto where = node.get_child_optional("where")) {
    blob.file = where->get<std::string>("file");
    blob.dir = where->get<std::string>("dir");
    blob.method = where->get<std::string>("method");
    blob.call_id = where->get<int>("callId");
    for (const auto& [unused, step] : where->get_child("field_path", pt::ptree())) {
      blob.field_path.push_back(step.get_value<int>());
    }
    blob.where = Where(*where);
  }
  return blob;
}

// Reads one varint-delimited message from `in`.
bool ReadDelimited(google::protobuf::io::CodedInputStream* in, std::string* out) {
  uint32_t length = 0;
  return in->ReadVarint32(&length) && in->ReadString(out, static_cast<int>(length));
}

}  // namespace

std::filesystem::path CaptureDir(const std::string& scenario) {
  return std::filesystem::path(SPINDLE_SHARED_DIR) / "captures" / "hadoop-2.6.0" / scenario;
}

Result<std::string> ReadFileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound("cannot open " + path.string());
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

Result<ScenarioSecrets> LoadScenarioSecrets(const std::string& scenario) {
  const auto path = CaptureDir(scenario) / "secrets.json";
  std::ifstream in(path);
  if (!in) return Status::NotFound("cannot open " + path.string());
  pt::ptree root;
  try {
    pt::read_json(in, root);
  } catch (const pt::json_parser_error& e) {
    return Status::Corruption(path.string() + ": " + e.what());
  }
  ScenarioSecrets secrets;
  secrets.scenario = scenario;
  for (const auto& [unused, key] : root.get_child("master_keys", pt::ptree())) {
    CapturedKey k;
    k.name = key.get<std::string>("name");
    k.key_id = key.get<int32_t>("key_id");
    ASSIGN_OR_RETURN(k.bytes, Unhex(key.get<std::string>("key_hex"), "master key"));
    secrets.master_keys[k.name] = std::move(k);
  }
  for (const auto& [unused, token] : root.get_child("tokens", pt::ptree())) {
    CapturedToken t;
    t.kind = token.get<std::string>("kind");
    t.service = token.get<std::string>("service");
    ASSIGN_OR_RETURN(t.identifier, Unhex(token.get<std::string>("identifier_hex"), "identifier"));
    ASSIGN_OR_RETURN(t.password, Unhex(token.get<std::string>("password_hex"), "password"));
    t.where = Where(token.get_child("where"));
    secrets.tokens.push_back(std::move(t));
  }
  for (const auto& [unused, blob] : root.get_child("credentials", pt::ptree())) {
    ASSIGN_OR_RETURN(CapturedCredentials parsed, ParseCredentials(blob));
    secrets.credentials.push_back(std::move(parsed));
  }
  for (const auto& [unused, file] : root.get_child("container_tokens_files", pt::ptree())) {
    CapturedContainerTokensFile f;
    f.container = file.get<std::string>("container");
    f.path = CaptureDir(scenario) / "container_tokens" / (f.container + ".container_tokens");
    ASSIGN_OR_RETURN(f.credentials, ParseCredentials(file.get_child("credentials")));
    secrets.container_tokens_files.push_back(std::move(f));
  }
  for (const auto& [unused, sasl] : root.get_child("sasl", pt::ptree())) {
    if (!sasl.get_child_optional("token_identifier_hex")) continue;
    CapturedToken t;
    ASSIGN_OR_RETURN(t.identifier,
                     Unhex(sasl.get<std::string>("token_identifier_hex"), "sasl identifier"));
    ASSIGN_OR_RETURN(t.password,
                     Unhex(sasl.get<std::string>("token_password_hex"), "sasl password"));
    t.where = sasl.get<std::string>("file");
    secrets.sasl_tokens.push_back(std::move(t));
  }
  return secrets;
}

Result<std::string> ExtractRequestField(const std::string& scenario,
                                        const CapturedCredentials& blob) {
  if (blob.dir != "c2s") return Status::NotSupported("only client requests: " + blob.where);
  // The client's byte stream: every c2s segment in order.
  const auto path = CaptureDir(scenario) / blob.file;
  std::ifstream in(path);
  if (!in) return Status::NotFound("cannot open " + path.string());
  std::string stream;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    pt::ptree segment;
    std::istringstream line_in(line);
    try {
      pt::read_json(line_in, segment);
    } catch (const pt::json_parser_error& e) {
      return Status::Corruption(path.string() + ": " + e.what());
    }
    if (segment.get<std::string>("dir") != "c2s") continue;
    ASSIGN_OR_RETURN(std::string bytes, Unhex(segment.get<std::string>("hex"), blob.file));
    stream += bytes;
  }
  // "hrpc", version, service class, auth protocol; then 4-byte length frames.
  if (stream.size() < 7 || stream.compare(0, 4, "hrpc") != 0) {
    return Status::Corruption(blob.file + ": no connection preamble");
  }
  size_t pos = 7;
  while (pos + 4 <= stream.size()) {
    const uint32_t length = (static_cast<uint32_t>(static_cast<uint8_t>(stream[pos])) << 24) |
                            (static_cast<uint32_t>(static_cast<uint8_t>(stream[pos + 1])) << 16) |
                            (static_cast<uint32_t>(static_cast<uint8_t>(stream[pos + 2])) << 8) |
                            static_cast<uint32_t>(static_cast<uint8_t>(stream[pos + 3]));
    if (pos + 4 + length > stream.size()) break;
    const std::string frame = stream.substr(pos + 4, length);
    pos += 4 + length;
    google::protobuf::io::CodedInputStream frame_in(reinterpret_cast<const uint8_t*>(frame.data()),
                                                    static_cast<int>(frame.size()));
    std::string header_bytes;
    hadoop::common::RpcRequestHeaderProto header;
    if (!ReadDelimited(&frame_in, &header_bytes) || !header.ParseFromString(header_bytes)) {
      return Status::Corruption(blob.file + ": bad RpcRequestHeaderProto");
    }
    if (header.callid() != blob.call_id) continue;
    std::string request_header_bytes;
    std::string param;
    hadoop::common::RequestHeaderProto request_header;
    if (!ReadDelimited(&frame_in, &request_header_bytes) ||
        !request_header.ParseFromString(request_header_bytes) ||
        !ReadDelimited(&frame_in, &param)) {
      return Status::Corruption(blob.file + ": bad call " + std::to_string(blob.call_id));
    }
    if (request_header.methodname() != blob.method) {
      return Status::Corruption(blob.file + ": call " + std::to_string(blob.call_id) + " is " +
                                request_header.methodname() + ", not " + blob.method);
    }
    std::string current = param;
    for (const int number : blob.field_path) {
      google::protobuf::UnknownFieldSet fields;
      if (!fields.ParseFromString(current)) {
        return Status::Corruption(blob.where + ": field path does not parse");
      }
      bool found = false;
      for (int i = 0; i < fields.field_count(); ++i) {
        const auto& field = fields.field(i);
        if (field.number() == number &&
            field.type() == google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED) {
          current = field.length_delimited();
          found = true;
          break;
        }
      }
      if (!found) {
        return Status::NotFound(blob.where + ": no field " + std::to_string(number));
      }
    }
    return current;
  }
  return Status::NotFound(blob.where + ": call " + std::to_string(blob.call_id) + " not found");
}

}  // namespace spindle::rm::testing
