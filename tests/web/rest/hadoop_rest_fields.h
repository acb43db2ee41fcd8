// The fields Hadoop documents for the RM REST resources, with their JSON
// kinds: our own table, written from the field tables of
// hadoop-yarn-site/src/site/markdown/ResourceManagerRest.md as stored for
// Apache Hadoop 3.0/3.1 (the version whose app table has no launchTime yet;
// its cluster info table includes rmStateStoreName and
// haZooKeeperConnectionState, the node table resourceUtilization). Types:
// int/long are integral JSON numbers, float/double any JSON number.
//
// Deviations from the documentation's type column, following the DAOs the
// RM actually serializes: AppInfo.priority is an int (documented as string;
// the documented example shows -1).
#pragma once

#include <string>
#include <vector>

namespace spindle::web::rest::testing {

enum class FieldKind { kString, kInt, kFloat, kBool, kObject };

struct DocumentedField {
  const char* name;
  FieldKind kind;
  // Hadoop omits some fields when null (e.g. trackingUrl while UNASSIGNED,
  // the AM fields before an AM container exists, node label expressions
  // that were never set).
  bool nullable = false;
};

// "Elements of the clusterInfo object".
inline const std::vector<DocumentedField>& ClusterInfoFields() {
  static const std::vector<DocumentedField> kFields = {
      {"id", FieldKind::kInt},
      {"startedOn", FieldKind::kInt},
      {"state", FieldKind::kString},
      {"haState", FieldKind::kString},
      {"rmStateStoreName", FieldKind::kString},
      {"resourceManagerVersion", FieldKind::kString},
      {"resourceManagerBuildVersion", FieldKind::kString},
      {"resourceManagerVersionBuiltOn", FieldKind::kString},
      {"hadoopVersion", FieldKind::kString},
      {"hadoopBuildVersion", FieldKind::kString},
      {"hadoopVersionBuiltOn", FieldKind::kString},
      {"haZooKeeperConnectionState", FieldKind::kString},
  };
  return kFields;
}

// "Elements of the clusterMetrics object".
inline const std::vector<DocumentedField>& ClusterMetricsFields() {
  static const std::vector<DocumentedField> kFields = {
      {"appsSubmitted", FieldKind::kInt},
      {"appsCompleted", FieldKind::kInt},
      {"appsPending", FieldKind::kInt},
      {"appsRunning", FieldKind::kInt},
      {"appsFailed", FieldKind::kInt},
      {"appsKilled", FieldKind::kInt},
      {"reservedMB", FieldKind::kInt},
      {"availableMB", FieldKind::kInt},
      {"allocatedMB", FieldKind::kInt},
      {"totalMB", FieldKind::kInt},
      {"reservedVirtualCores", FieldKind::kInt},
      {"availableVirtualCores", FieldKind::kInt},
      {"allocatedVirtualCores", FieldKind::kInt},
      {"totalVirtualCores", FieldKind::kInt},
      {"containersAllocated", FieldKind::kInt},
      {"containersReserved", FieldKind::kInt},
      {"containersPending", FieldKind::kInt},
      {"totalNodes", FieldKind::kInt},
      {"activeNodes", FieldKind::kInt},
      {"lostNodes", FieldKind::kInt},
      {"unhealthyNodes", FieldKind::kInt},
      {"decommissioningNodes", FieldKind::kInt},
      {"decommissionedNodes", FieldKind::kInt},
      {"rebootedNodes", FieldKind::kInt},
      {"shutdownNodes", FieldKind::kInt},
  };
  return kFields;
}

// "Elements of the app (Application) object".
inline const std::vector<DocumentedField>& AppFields() {
  static const std::vector<DocumentedField> kFields = {
      {"id", FieldKind::kString},
      {"user", FieldKind::kString},
      {"name", FieldKind::kString},
      {"queue", FieldKind::kString},
      {"state", FieldKind::kString},
      {"finalStatus", FieldKind::kString},
      {"progress", FieldKind::kFloat},
      {"trackingUI", FieldKind::kString},
      {"trackingUrl", FieldKind::kString, /*nullable=*/true},
      {"diagnostics", FieldKind::kString},
      {"clusterId", FieldKind::kInt},
      {"applicationType", FieldKind::kString},
      {"applicationTags", FieldKind::kString},
      {"priority", FieldKind::kInt},
      {"startedTime", FieldKind::kInt},
      {"finishedTime", FieldKind::kInt},
      {"elapsedTime", FieldKind::kInt},
      {"amContainerLogs", FieldKind::kString, true},
      {"amHostHttpAddress", FieldKind::kString, true},
      {"amRPCAddress", FieldKind::kString, true},
      {"allocatedMB", FieldKind::kInt},
      {"allocatedVCores", FieldKind::kInt},
      {"runningContainers", FieldKind::kInt},
      {"memorySeconds", FieldKind::kInt},
      {"vcoreSeconds", FieldKind::kInt},
      {"queueUsagePercentage", FieldKind::kFloat},
      {"clusterUsagePercentage", FieldKind::kFloat},
      {"preemptedResourceMB", FieldKind::kInt},
      {"preemptedResourceVCores", FieldKind::kInt},
      {"numNonAMContainerPreempted", FieldKind::kInt},
      {"numAMContainerPreempted", FieldKind::kInt},
      {"logAggregationStatus", FieldKind::kString, true},
      {"unmanagedApplication", FieldKind::kBool},
      {"appNodeLabelExpression", FieldKind::kString, true},
      {"amNodeLabelExpression", FieldKind::kString, true},
  };
  return kFields;
}

// "Elements of the node object".
inline const std::vector<DocumentedField>& NodeFields() {
  static const std::vector<DocumentedField> kFields = {
      {"rack", FieldKind::kString},
      {"state", FieldKind::kString},
      {"id", FieldKind::kString},
      {"nodeHostName", FieldKind::kString},
      {"nodeHTTPAddress", FieldKind::kString},
      {"lastHealthUpdate", FieldKind::kInt},
      {"version", FieldKind::kString},
      {"healthReport", FieldKind::kString},
      {"numContainers", FieldKind::kInt},
      {"usedMemoryMB", FieldKind::kInt},
      {"availMemoryMB", FieldKind::kInt},
      {"usedVirtualCores", FieldKind::kInt},
      {"availableVirtualCores", FieldKind::kInt},
      {"resourceUtilization", FieldKind::kObject},
  };
  return kFields;
}

// "The resourceUtilization object".
inline const std::vector<DocumentedField>& ResourceUtilizationFields() {
  static const std::vector<DocumentedField> kFields = {
      {"nodePhysicalMemoryMB", FieldKind::kInt},
      {"nodeVirtualMemoryMB", FieldKind::kInt},
      {"nodeCPUUsage", FieldKind::kFloat},
      {"aggregatedContainersPhysicalMemoryMB", FieldKind::kInt},
      {"aggregatedContainersVirtualMemoryMB", FieldKind::kInt},
      {"containersCPUUsage", FieldKind::kFloat},
  };
  return kFields;
}

}  // namespace spindle::web::rest::testing
