// Golden data for rm/security: the keys, tokens and Credentials blobs of the
// real Hadoop 2.6.0 runs in <shared>/captures/hadoop-2.6.0/<scenario>/
// (secrets.json, container_tokens/, and the raw request bytes of the
// .jsonl conversations), located through SPINDLE_SHARED_DIR.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "base/result.h"

namespace spindle::rm::testing {

struct CapturedKey {
  std::string name;  // "container_token_master_key", "nm_token_master_key"
  int32_t key_id = 0;
  std::string bytes;
};

struct CapturedToken {
  std::string kind;
  std::string service;
  std::string identifier;
  std::string password;
  std::string where;  // "<file> line <n>" for failure messages
};

struct CapturedCredentialsToken {
  std::string alias;
  std::string kind;
  std::string service;
  std::string identifier;
  std::string password;
};

struct CapturedCredentials {
  int version = 0;
  std::vector<CapturedCredentialsToken> tokens;
  std::vector<std::pair<std::string, std::string>> secrets;  // alias, value
  // Where the blob travelled (empty for container_tokens files).
  std::string file;
  std::string dir;
  std::string method;
  int call_id = 0;
  std::vector<int> field_path;  // field numbers from the call's parameter message
  std::string where;
};

struct CapturedContainerTokensFile {
  std::string container;
  std::filesystem::path path;
  CapturedCredentials credentials;  // as secrets.json decoded it
};

struct ScenarioSecrets {
  std::string scenario;
  std::map<std::string, CapturedKey> master_keys;  // by name
  std::vector<CapturedToken> tokens;               // ContainerToken / NMToken in protobuf messages
  std::vector<CapturedCredentials> credentials;    // blobs inside requests
  std::vector<CapturedContainerTokensFile> container_tokens_files;
  std::vector<CapturedToken> sasl_tokens;  // identifier/password proven by a SASL exchange
};

std::filesystem::path CaptureDir(const std::string& scenario);
Result<ScenarioSecrets> LoadScenarioSecrets(const std::string& scenario);
Result<std::string> ReadFileBytes(const std::filesystem::path& path);

// The bytes at `blob.field_path` inside the parameter of the client call
// `blob.call_id` of `blob.file` (each step: the first length-delimited field
// with that number).
Result<std::string> ExtractRequestField(const std::string& scenario,
                                        const CapturedCredentials& blob);

}  // namespace spindle::rm::testing
