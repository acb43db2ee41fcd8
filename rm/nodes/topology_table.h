// The RM's rack of each node, as Hadoop's TableMapping gives it. A
// NodeManager never reports its rack: Hadoop's RM resolves the host with its
// topology mapping (RackResolver), configured in core-site.xml:
//
//   net.topology.node.switch.mapping.impl = org.apache.hadoop.net.TableMapping
//   net.topology.table.file.name          = /etc/hadoop/topology.table
//
// The table has one "host rack" pair per line, separated by white space
// ("node1 /rack1"); hosts it does not list, and every host when no table is
// configured, are in /default-rack. As in TableMapping, a line without
// exactly two columns, or whose rack does not start with '/', is skipped
// with a warning ('#' starts a comment). Unlike it, an unreadable table is
// an error (the RM refuses to start) rather than every node on
// /default-rack. ScriptBasedMapping (net.topology.script.file.name, Hadoop's
// default implementation) is not supported: it is warned about and every
// node is on /default-rack.
//
// Thread-safety: functions over values.
#pragma once

#include <map>
#include <string>

#include "base/result.h"
#include "rm/config/configuration.h"

namespace spindle::rm {

inline constexpr char kDefaultRack[] = "/default-rack";
inline constexpr char kTopologyImplKey[] = "net.topology.node.switch.mapping.impl";
inline constexpr char kTopologyTableKey[] = "net.topology.table.file.name";
inline constexpr char kTableMappingClass[] = "org.apache.hadoop.net.TableMapping";

// host -> rack from a table's text; `source` names it in warnings.
std::map<std::string, std::string> ParseTopologyTable(const std::string& text,
                                                      const std::string& source);

// The table the configuration names; empty when it configures none (every
// node on /default-rack). IoError naming the key for an unreadable file.
Result<std::map<std::string, std::string>> TopologyTableFromConfiguration(
    const Configuration& conf);

}  // namespace spindle::rm
