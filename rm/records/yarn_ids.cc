#include "rm/records/yarn_ids.h"

#include <charconv>
#include <cstdio>
#include <vector>

namespace spindle::rm {

namespace {

std::vector<std::string_view> Split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  while (true) {
    const size_t pos = text.find(sep);
    parts.push_back(text.substr(0, pos));
    if (pos == std::string_view::npos) break;
    text.remove_prefix(pos + 1);
  }
  return parts;
}

template <typename T>
bool ParseNumber(std::string_view text, T* out) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && ptr == text.data() + text.size() && *out >= 0;
}

Status Invalid(std::string_view kind, std::string_view text) {
  return Status::InvalidArgument("Invalid " + std::string(kind) +
                                 " prefix or format: " + std::string(text));
}

std::string Padded(int64_t value, int width) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%0*lld", width, static_cast<long long>(value));
  return buf;
}

}  // namespace

std::string ApplicationId::ToString() const {
  return "application_" + std::to_string(cluster_timestamp) + "_" + Padded(id, 4);
}

Result<ApplicationId> ApplicationId::Parse(std::string_view text) {
  auto parts = Split(text, '_');
  ApplicationId out;
  if (parts.size() != 3 || parts[0] != "application" ||
      !ParseNumber(parts[1], &out.cluster_timestamp) || !ParseNumber(parts[2], &out.id)) {
    return Invalid("ApplicationId", text);
  }
  return out;
}

std::string ApplicationAttemptId::ToString() const {
  return "appattempt_" + std::to_string(app.cluster_timestamp) + "_" + Padded(app.id, 4) + "_" +
         Padded(attempt, 6);
}

Result<ApplicationAttemptId> ApplicationAttemptId::Parse(std::string_view text) {
  auto parts = Split(text, '_');
  ApplicationAttemptId out;
  if (parts.size() != 4 || parts[0] != "appattempt" ||
      !ParseNumber(parts[1], &out.app.cluster_timestamp) || !ParseNumber(parts[2], &out.app.id) ||
      !ParseNumber(parts[3], &out.attempt)) {
    return Invalid("ApplicationAttemptId", text);
  }
  return out;
}

std::string ContainerId::ToString() const {
  std::string out = "container_";
  if (epoch() > 0) out += "e" + Padded(epoch(), 2) + "_";
  out += std::to_string(attempt.app.cluster_timestamp) + "_" + Padded(attempt.app.id, 4) + "_" +
         Padded(attempt.attempt, 2) + "_" + Padded(sequence(), 6);
  return out;
}

Result<ContainerId> ContainerId::Parse(std::string_view text) {
  auto parts = Split(text, '_');
  if (parts.empty() || parts[0] != "container") return Invalid("ContainerId", text);
  size_t i = 1;
  int64_t epoch = 0;
  if (parts.size() == 6 && !parts[1].empty() && parts[1][0] == 'e') {
    if (!ParseNumber(parts[1].substr(1), &epoch)) return Invalid("ContainerId", text);
    i = 2;
  }
  if (parts.size() != i + 4) return Invalid("ContainerId", text);
  ContainerId out;
  int64_t sequence = 0;
  if (!ParseNumber(parts[i], &out.attempt.app.cluster_timestamp) ||
      !ParseNumber(parts[i + 1], &out.attempt.app.id) ||
      !ParseNumber(parts[i + 2], &out.attempt.attempt) || !ParseNumber(parts[i + 3], &sequence) ||
      sequence > kSequenceMask) {
    return Invalid("ContainerId", text);
  }
  out.id = (epoch << kEpochShift) | sequence;
  return out;
}

Result<NodeId> NodeId::Parse(std::string_view text) {
  const size_t colon = text.rfind(':');
  NodeId out;
  if (colon == std::string_view::npos || colon == 0 ||
      !ParseNumber(text.substr(colon + 1), &out.port) || out.port > 65535) {
    return Status::InvalidArgument("Invalid NodeId [" + std::string(text) +
                                   "]. Expected host:port");
  }
  out.host = std::string(text.substr(0, colon));
  return out;
}

}  // namespace spindle::rm
