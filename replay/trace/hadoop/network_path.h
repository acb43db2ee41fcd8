// Hadoop network paths of hosts: "/rack/host" or
// "/switch/tor/host" (as NetworkTopology's NodeBase reads them), split into
// the rack part ("/rack", "/switch/tor") and the host name, which is how
// TraceNode and TraceTask's preferences name them.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace spindle::replay::hadoop {

// YARN's rack for a host without one.
inline constexpr char kDefaultRack[] = "/default-rack";

struct NetworkPath {
  std::string rack;  // "/rack" (kDefaultRack when the path has none)
  std::string host;  // "node1"
};

// "/r/n" -> {"/r", "n"}; "/a/b/n" -> {"/a/b", "n"}; "n" or "/n" ->
// {kDefaultRack, "n"}. InvalidArgument (the caller adds file and field) for
// an empty host part ("", "/r/").
Result<NetworkPath> SplitNetworkPath(std::string_view path);

// A rack name as it appears in SLS node files ("rack1") or already rooted
// ("/rack1"): always returned rooted.
std::string RootedRack(std::string_view rack);

}  // namespace spindle::replay::hadoop
