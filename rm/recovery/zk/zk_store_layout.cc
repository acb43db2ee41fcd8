#include "rm/recovery/zk/zk_store_layout.h"

#include <cstdio>

#include "yarn_server_common_protos.pb.h"
#include "yarn_server_resourcemanager_recovery.pb.h"

namespace spindle::rm::zkstore {

namespace y = hadoop::yarn;

std::string EncodeVersion(const StoreVersion& version) {
  y::VersionProto proto;
  proto.set_major_version(version.major);
  proto.set_minor_version(version.minor);
  return proto.SerializeAsString();
}

Result<StoreVersion> DecodeVersion(std::string_view bytes) {
  y::VersionProto proto;
  if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status::Corruption("RMVersionNode is not a VersionProto");
  }
  return StoreVersion{proto.major_version(), proto.minor_version()};
}

Status CheckVersionCompatible(const StoreVersion& loaded, const StoreVersion& current) {
  if (loaded.major == current.major) return Status::OK();
  return Status::Remote(
      "org.apache.hadoop.yarn.server.resourcemanager.recovery.RMStateVersionIncompatibleException",
      "Expecting RM state version " + std::to_string(current.major) + "." +
          std::to_string(current.minor) + ", but loading version " + std::to_string(loaded.major) +
          "." + std::to_string(loaded.minor),
      Status::Code::kNotSupported);
}

std::string EncodeEpochNode(int64_t spindle_epoch) {
  y::EpochProto proto;
  proto.set_epoch(spindle_epoch + 1);
  return proto.SerializeAsString();
}

Result<int64_t> DecodeEpochNode(std::string_view bytes) {
  y::EpochProto proto;
  if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status::Corruption("EpochNode is not an EpochProto");
  }
  return proto.epoch() - 1;
}

namespace {

std::string EncodeBigEndian(uint64_t value, int bytes) {
  std::string out(static_cast<size_t>(bytes), '\0');
  for (int i = bytes - 1; i >= 0; --i) {
    out[static_cast<size_t>(i)] = static_cast<char>(value & 0xff);
    value >>= 8;
  }
  return out;
}

uint64_t DecodeBigEndian(std::string_view bytes) {
  uint64_t value = 0;
  for (char c : bytes) value = (value << 8) | static_cast<uint8_t>(c);
  return value;
}

}  // namespace

std::string EncodeInt32(int32_t value) { return EncodeBigEndian(static_cast<uint32_t>(value), 4); }

Result<int32_t> DecodeInt32(std::string_view bytes) {
  if (bytes.size() < 4)
    return Status::Corruption("a 4-byte int holds " + std::to_string(bytes.size()) + " bytes");
  // Java's readInt reads the first four bytes and ignores the rest.
  return static_cast<int32_t>(static_cast<uint32_t>(DecodeBigEndian(bytes.substr(0, 4))));
}

std::string EncodeInt64(int64_t value) { return EncodeBigEndian(static_cast<uint64_t>(value), 8); }

Result<int64_t> DecodeInt64(std::string_view bytes) {
  if (bytes.size() != 8)
    return Status::Corruption("an 8-byte long holds " + std::to_string(bytes.size()) + " bytes");
  return static_cast<int64_t>(DecodeBigEndian(bytes));
}

std::string EscapeName(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%') {
      out += "%25";
    } else if (c == '/') {
      out += "%2F";
    } else if (c == '.' && i == 0) {
      out += "%2E";
    } else {
      out += c;
    }
  }
  return out;
}

std::optional<std::string> UnescapeName(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] != '%') {
      out += name[i];
      continue;
    }
    const std::string_view code = name.substr(i + 1, 2);
    if (code == "25") {
      out += '%';
    } else if (code == "2F") {
      out += '/';
    } else if (code == "2E") {
      out += '.';
    } else {
      return std::nullopt;
    }
    i += 2;
  }
  if (out.empty()) return std::nullopt;
  return out;
}

std::string ParentOf(std::string_view path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string_view::npos || slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

namespace {

std::string JoinParent(std::string parent) {
  while (parent.size() > 1 && parent.back() == '/') parent.pop_back();
  return parent == "/" ? "" : parent;
}

}  // namespace

ZkStoreLayout::ZkStoreLayout(std::string parent_path, int app_split_index, int token_split_index)
    : parent_(std::move(parent_path)),
      root_(JoinParent(parent_) + "/" + kRootName),
      spindle_root_(JoinParent(parent_) + "/" + store_names::kSpindleRootName),
      app_split_(app_split_index),
      token_split_(token_split_index) {}

std::string ZkStoreLayout::AppRoot(int split_index) const {
  if (split_index == 0) return app_root();
  return app_root() + "/" + kAppHierarchies + "/" + std::to_string(split_index);
}

std::string ZkStoreLayout::TokenRoot(int split_index) const {
  if (split_index == 0) return dt_tokens_root();
  return dt_tokens_root() + "/" + std::to_string(split_index);
}

namespace {

// 3.3's getLeafZnodePath for a split index > 0.
std::string SplitLeaf(const std::string& root, std::string_view name, int split_index) {
  if (split_index <= 0 || static_cast<size_t>(split_index) >= name.size()) {
    return root + "/" + std::string(name);
  }
  const size_t split = name.size() - static_cast<size_t>(split_index);
  return root + "/" + std::string(name.substr(0, split)) + "/" + std::string(name.substr(split));
}

}  // namespace

std::string ZkStoreLayout::AppPath(std::string_view app_id, int split_index) const {
  return SplitLeaf(AppRoot(split_index), app_id, split_index);
}

std::string ZkStoreLayout::DelegationKeyPath(int64_t key_id) const {
  return dt_keys_root() + "/" + store_names::kDelegationKeyPrefix + std::to_string(key_id);
}

std::string ZkStoreLayout::TokenPath(int64_t sequence_number, int split_index) const {
  std::string name = store_names::kDelegationTokenPrefix;
  if (split_index == 0) {
    name += std::to_string(sequence_number);
  } else {
    char padded[32];
    std::snprintf(padded, sizeof(padded), "%04lld", static_cast<long long>(sequence_number));
    name += padded;
  }
  return SplitLeaf(TokenRoot(split_index), name, split_index);
}

std::vector<std::string> ZkStoreLayout::StructuralNodes(bool hadoop3) const {
  std::vector<std::string> nodes = {app_root()};
  if (hadoop3) {
    nodes.push_back(app_root() + "/" + kAppHierarchies);
    for (int i = 1; i <= kMaxSplitIndex; ++i) nodes.push_back(AppRoot(i));
  }
  nodes.push_back(dt_root());
  nodes.push_back(dt_keys_root());
  nodes.push_back(dt_tokens_root());
  if (hadoop3) {
    for (int i = 1; i <= kMaxSplitIndex; ++i) nodes.push_back(TokenRoot(i));
  }
  nodes.push_back(dt_sequence());
  nodes.push_back(amrm_root());
  if (hadoop3) {
    nodes.push_back(Path(store_names::kReservationRoot));
    nodes.push_back(Path(store_names::kProxyCaRoot));
  }
  nodes.push_back(spindle_root_);
  nodes.push_back(SpindleCluster());
  nodes.push_back(SpindleKeys());
  nodes.push_back(SpindleAppRecords());
  nodes.push_back(SpindleNodes());
  return nodes;
}

}  // namespace spindle::rm::zkstore
