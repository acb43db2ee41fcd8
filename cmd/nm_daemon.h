// `spindle nm`: the node agent process (nm_shim/agent/node_agent.h).
//
//   spindle nm [--conf DIR] [--simulate N | --nodes-file FILE]
//              [--resource-tracker HOST:PORT]
//
// Reads core-site.xml and yarn-site.xml from DIR (default $HADOOP_CONF_DIR;
// a missing or unreadable DIR, or a file, exits 1 with one line naming it),
// registers with the RM and serves ContainerManagementProtocol until SIGINT
// or SIGTERM (then unregisters) or until the RM shuts the node down or
// refuses it (exit status 1, with the RM's reason). Containers run as child
// processes (nm_shim/agent/process). --simulate N hosts N
// virtual nodes whose containers only hold their resources for a while;
// --nodes-file FILE hosts the named virtual nodes the file lists, each with
// its own memory and vcores (nm_shim/agent/simulated/simulated_nodes_file.h).
// --resource-tracker overrides yarn.resourcemanager.resource-tracker.address.
#pragma once

#include "base/flags/command_line.h"
#include "base/result.h"
#include "nm_shim/agent/node_agent.h"

namespace spindle {

// The agent's options from the flags and the configuration in the
// flags' --conf directory (or $HADOOP_CONF_DIR).
Result<nm::NodeAgentOptions> NmOptionsFromFlags(const CommandLine& flags);

// `spindle nm`'s flag table.
const CommandSpec& NmCommand();
int NmMain(const CommandLine& flags);

}  // namespace spindle
