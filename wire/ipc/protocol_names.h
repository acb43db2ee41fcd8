// The protocol names Hadoop's RPC carries for the YARN and HA protocols: the
// `declaringClassProtocolName` of every RequestHeaderProto and the
// `protocol` of the IpcConnectionContextProto, which service ACLs
// (hadoop-policy.xml) and SASL server selection key on. They are the Java
// interfaces' names (the *PB interfaces of the protobuf engine, HA's plain
// interface), read at release-2.6.0 and rel/release-3.3.0, where they agree.
//
// One place for both ends of each protocol (the RM's services and Spindle's
// own clients and node agent), so a server and its client cannot drift
// apart. Tests that pin the wire spell the strings out on purpose.
#pragma once

namespace spindle::ipc {

// Clients <-> RM (8032).
inline constexpr char kApplicationClientProtocol[] =
    "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";
// AMs <-> RM (8030).
inline constexpr char kApplicationMasterProtocol[] =
    "org.apache.hadoop.yarn.api.ApplicationMasterProtocolPB";
// 3.x distributed scheduling (AMRMProxy <-> RM, on the scheduler port).
inline constexpr char kDistributedSchedulingAmProtocol[] =
    "org.apache.hadoop.yarn.server.api.DistributedSchedulingAMProtocolPB";
// NodeManagers <-> RM (8031).
inline constexpr char kResourceTrackerProtocol[] =
    "org.apache.hadoop.yarn.server.api.ResourceTrackerPB";
// Admin CLI <-> RM (8033).
inline constexpr char kAdminProtocol[] =
    "org.apache.hadoop.yarn.server.api.ResourceManagerAdministrationProtocolPB";
// HA transitions and health (haadmin, the failover controller) on the admin port.
inline constexpr char kHaServiceProtocol[] = "org.apache.hadoop.ha.HAServiceProtocol";
// RM and AMs -> a NodeManager's container manager.
inline constexpr char kContainerManagementProtocol[] =
    "org.apache.hadoop.yarn.api.ContainerManagementProtocolPB";

}  // namespace spindle::ipc
