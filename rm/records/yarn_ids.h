// YARN's identifiers as plain values, with the string forms clients parse
// (WIRE.md 5.1):
//   application_<clusterTs>_<id %04d>
//   appattempt_<clusterTs>_<id %04d>_<attempt %06d>
//   container_[e<epoch %02d>_]<clusterTs>_<appId %04d>_<attempt %02d>_<seq %06d>
//   host:port (NodeId, compared byte for byte by NodeManagers)
// Parsing fails with InvalidArgument naming the text, as Hadoop's
// IllegalArgumentException does.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace spindle::rm {

struct ApplicationId {
  int64_t cluster_timestamp = 0;
  int32_t id = 0;

  std::string ToString() const;
  static Result<ApplicationId> Parse(std::string_view text);
  auto operator<=>(const ApplicationId&) const = default;
};

struct ApplicationAttemptId {
  ApplicationId app;
  int32_t attempt = 0;

  std::string ToString() const;
  static Result<ApplicationAttemptId> Parse(std::string_view text);
  auto operator<=>(const ApplicationAttemptId&) const = default;
};

struct ContainerId {
  static constexpr int kEpochShift = 40;
  static constexpr int64_t kSequenceMask = (int64_t{1} << kEpochShift) - 1;

  ApplicationAttemptId attempt;
  // epoch << 40 | sequence; the epoch counts RM restarts with recovery.
  int64_t id = 0;

  int64_t sequence() const { return id & kSequenceMask; }
  int64_t epoch() const { return id >> kEpochShift; }
  std::string ToString() const;
  static Result<ContainerId> Parse(std::string_view text);
  auto operator<=>(const ContainerId&) const = default;
};

struct NodeId {
  std::string host;
  int32_t port = 0;

  std::string ToString() const { return host + ":" + std::to_string(port); }
  static Result<NodeId> Parse(std::string_view text);
  auto operator<=>(const NodeId&) const = default;
};

}  // namespace spindle::rm

template <>
struct std::hash<spindle::rm::ApplicationId> {
  size_t operator()(const spindle::rm::ApplicationId& a) const noexcept {
    return std::hash<int64_t>()(a.cluster_timestamp * 1000003 + a.id);
  }
};
template <>
struct std::hash<spindle::rm::ApplicationAttemptId> {
  size_t operator()(const spindle::rm::ApplicationAttemptId& a) const noexcept {
    return std::hash<spindle::rm::ApplicationId>()(a.app) * 31 + static_cast<size_t>(a.attempt);
  }
};
template <>
struct std::hash<spindle::rm::ContainerId> {
  size_t operator()(const spindle::rm::ContainerId& c) const noexcept {
    return std::hash<spindle::rm::ApplicationAttemptId>()(c.attempt) * 31 +
           std::hash<int64_t>()(c.id);
  }
};
template <>
struct std::hash<spindle::rm::NodeId> {
  size_t operator()(const spindle::rm::NodeId& n) const noexcept {
    return std::hash<std::string>()(n.host) * 31 + static_cast<size_t>(n.port);
  }
};
