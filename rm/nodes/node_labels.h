// NodeLabels: the cluster's node labels (partitions) and which node carries
// which, as Hadoop's CommonNodeLabelsManager / RMNodeLabelsManager keep them
// (3.3 semantics; the line differences are in NodeLabelsOptions).
//
//  - Cluster labels have a name and an exclusivity (NodeLabel, since 2.8;
//    every label of a 2.6/2.7 RM behaves as exclusive).
//  - Labels are set on a host (NodeId with port 0: every NodeManager of the
//    host) or on one NodeManager (host:port), which then no longer follows
//    its host (CommonNodeLabelsManager.getLabelsByNode). At most one label
//    per node (YARN-2694, 2.7+): a node's label is its partition; no label
//    is the default partition "".
//  - The nodes a label maps to are those with a label set explicitly and
//    the running NodeManagers (RMNodeLabelsManager.activateNode/
//    deactivateNode): the caller passes the running ones to the queries.
//
// Errors carry java.io.IOException with Hadoop's texts (AdminService wraps
// them for the wire as it does the other refreshes). Thread contract: every
// method is thread-safe (one mutex, a leaf).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/mutex.h"
#include "base/result.h"
#include "rm/records/yarn_ids.h"

namespace spindle::rm {

// What the default partition is called (CommonNodeLabelsManager.NO_LABEL).
inline constexpr char kNoLabel[] = "";
// The "every label" wildcard of accessible-node-labels
// (CommonNodeLabelsManager.ANY).
inline constexpr char kAnyLabel[] = "*";
// Hadoop's CommonNodeLabelsManager.NODE_LABELS_NOT_ENABLED_ERR.
inline constexpr char kNodeLabelsNotEnabled[] =
    "Node-label-based scheduling is disabled. Please check yarn.node-labels.enabled";

struct ClusterNodeLabel {
  std::string name;
  // NodeLabel.isExclusive (default true): only asks for the label may use an
  // exclusive partition; a non-exclusive one lends idle resources to asks
  // for the default partition.
  bool exclusive = true;
  auto operator<=>(const ClusterNodeLabel&) const = default;
};

// The labels set explicitly, as they are stored: a restart restores them
// (Hadoop's node-label store mirror: the cluster labels, then the node to
// labels mappings).
struct NodeLabelsState {
  std::vector<ClusterNodeLabel> labels;
  // host:0 for a host's label, host:port for one NodeManager's (an empty set
  // for a NodeManager: "no label, whatever its host has").
  std::map<NodeId, std::set<std::string>> node_labels;
  bool operator==(const NodeLabelsState&) const = default;
};

struct NodeLabelsOptions {
  // yarn.node-labels.enabled (2.7+, default false). Hadoop 2.6 has no such
  // key: its label manager is always on (the daemon sets true for 2.6).
  bool enabled = false;
};

// A queue and the labels it may use, for the removal check
// (RMNodeLabelsManager.checkRemoveFromClusterNodeLabelsOfQueue).
struct QueueLabels {
  std::string queue;  // as the line names it: 2.x the leaf name, 3.3 its path
  std::vector<std::string> accessible;
};

class NodeLabels {
 public:
  explicit NodeLabels(const NodeLabelsOptions& options) : options_(options) {}

  bool enabled() const { return options_.enabled; }

  // addToClusterNodeLabels. Names are trimmed; a label already there is
  // kept (its exclusivity may not change: "Exclusivity cannot be modified
  // for an existing label with : <x:exclusivity=true>"); a bad name is
  // refused with NodeLabelUtil.checkAndThrowLabelName's text. Nothing is
  // added unless all pass. Returns whether anything was added.
  Result<bool> AddClusterLabels(std::vector<ClusterNodeLabel> labels) EXCLUDES(mu_);
  // removeFromClusterNodeLabels: refused while a queue may use a label
  // ("Cannot remove label=x, because queue=q is using this label. Please
  // remove label on queue before remove the label") or for an unknown one;
  // otherwise the labels leave the cluster and every node.
  Status RemoveClusterLabels(const std::vector<std::string>& names,
                             const std::vector<QueueLabels>& queues) EXCLUDES(mu_);
  // replaceLabelsOnNodes: each node (or host, port 0) gets exactly the given
  // labels (trimmed; at most one; each must be a cluster label).
  Status ReplaceLabelsOnNodes(const std::map<NodeId, std::set<std::string>>& node_labels)
      EXCLUDES(mu_);

  // getClusterNodeLabels, by name.
  std::vector<ClusterNodeLabel> ClusterLabels() const EXCLUDES(mu_);
  std::optional<ClusterNodeLabel> Find(const std::string& name) const EXCLUDES(mu_);
  // The node's labels: its own if set, else its host's.
  std::set<std::string> LabelsOf(const NodeId& node) const EXCLUDES(mu_);
  // The node's partition: its label, or kNoLabel.
  std::string PartitionOf(const NodeId& node) const EXCLUDES(mu_);
  // getNodeToLabels: every known node (set explicitly, or in `running`) with
  // a label, and every host with a label as host:0.
  std::map<NodeId, std::set<std::string>> NodeToLabels(const std::vector<NodeId>& running) const
      EXCLUDES(mu_);
  // getLabelsToNodes: for each label (all, or those in `only`; unknown ones
  // are skipped) that some known node carries, those nodes (hosts as
  // host:0).
  std::map<std::string, std::set<NodeId>> LabelsToNodes(const std::vector<NodeId>& running,
                                                        const std::set<std::string>& only) const
      EXCLUDES(mu_);

  NodeLabelsState Snapshot() const EXCLUDES(mu_);
  // What a restart restores (as stored: not checked again).
  void Restore(NodeLabelsState state) EXCLUDES(mu_);

 private:
  struct Host {
    std::set<std::string> labels;
    // Per port, the NodeManagers labels were set on: their own labels, or
    // none once the host's were replaced (they follow the host again, and
    // stay known, as Hadoop's Host.nms).
    std::map<int32_t, std::optional<std::set<std::string>>> nodes;
  };
  std::set<std::string> LabelsOfLocked(const NodeId& node) const REQUIRES(mu_);
  Status CheckEnabled() const;

  const NodeLabelsOptions options_;
  mutable Mutex mu_;
  std::map<std::string, bool> labels_ GUARDED_BY(mu_);  // name -> exclusive
  std::map<std::string, Host> hosts_ GUARDED_BY(mu_);
};

// Java's String.trim() (strips every char <= ' ' at both ends), as Hadoop
// normalises labels and expressions.
std::string TrimLabel(const std::string& s);

// NodeLabelUtil.checkAndThrowLabelName: OK or java.io.IOException.
Status CheckLabelName(const std::string& label);

}  // namespace spindle::rm
