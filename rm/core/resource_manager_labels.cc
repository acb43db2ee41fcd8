// ResourceManager: the node-label use cases (Hadoop's AdminService
// addToClusterNodeLabels / removeFromClusterNodeLabels / replaceLabelsOnNode
// over RMNodeLabelsManager, and ClientRMService's label queries).
#include <glog/logging.h>

#include "rm/core/label_expression.h"
#include "rm/core/resource_manager.h"
#include "rm/recovery/node_labels_record.h"

namespace spindle::rm {

Status ResourceManager::ResolveAmPartition(ActiveServices& active, Submission* submission) const {
  if (submission->unmanaged_am) return Status::OK();
  const std::shared_ptr<const QueueTree> tree = queues_->Current();
  const CsQueue* leaf = tree->FindLeaf(submission->queue);
  if (leaf == nullptr) return Status::OK();
  ASSIGN_OR_RETURN(
      submission->am_partition,
      ResolveRequestLabel({"*", submission->am_label_expression}, *leaf, active.node_labels()));
  return Status::OK();
}

void ResourceManager::SyncPoolPartitions(ActiveServices& active) {
  pool::SchedulerPool& pool = active.pool();
  for (const ClusterNodeLabel& label : active.node_labels().ClusterLabels()) {
    pool.SetLabelExclusive(pool.InternLabel(label.name), label.exclusive);
  }
  for (const NodeReport& node : active.nodes().Nodes()) {
    if (!node.pool_node.valid()) continue;
    pool::NodeUpdate update;
    update.set_label = true;
    update.label = pool.InternLabel(active.node_labels().PartitionOf(node.info.id));
    // A node removed from the pool meanwhile: nothing to move.
    pool.UpdateNode(node.pool_node, update).PermitUnchecked();
  }
}

Status ResourceManager::LabelsChanged(ActiveServices& active) {
  SyncPoolPartitions(active);
  // The queues' shares follow the partitions' resources.
  active.RefreshPoolQueues(/*force=*/true);
  if (store_ != nullptr) {
    // Hadoop's label store writes before the admin call answers
    // (FileSystemNodeLabelsStore, synced); so does this.
    persist::StoreBatch batch;
    PutNodeLabels(active.node_labels().Snapshot(), &batch);
    Status saved = store_->Apply(batch);
    if (!saved.ok()) {
      return Status::Remote("java.io.IOException",
                            "cannot store the node labels: " + saved.message());
    }
  }
  return Status::OK();
}

Status ResourceManager::AddToClusterNodeLabels(std::vector<ClusterNodeLabel> labels) {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  // Exclusivity came with 2.8 (NodeLabel.isExclusive): every label of a
  // 2.6/2.7 RM is exclusive.
  if (settings_.line != HadoopLine::k3_3) {
    for (ClusterNodeLabel& label : labels) label.exclusive = true;
  }
  ASSIGN_OR_RETURN(bool added, active->node_labels().AddClusterLabels(std::move(labels)));
  if (!added) return Status::OK();
  return LabelsChanged(*active);
}

Status ResourceManager::RemoveFromClusterNodeLabels(const std::vector<std::string>& labels) {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  // CapacityScheduler's queue-to-labels map names queues by their short
  // name on 2.x and by their path on 3.3 (CapacitySchedulerQueueManager).
  std::vector<QueueLabels> queues;
  const bool by_path = settings_.line == HadoopLine::k3_3;
  for (const CsQueue& queue : queues_->Current()->queues()) {
    queues.push_back({by_path ? queue.path : queue.name, queue.accessible_node_labels});
  }
  RETURN_NOT_OK(active->node_labels().RemoveClusterLabels(labels, queues));
  return LabelsChanged(*active);
}

Status ResourceManager::ReplaceLabelsOnNodes(
    const std::map<NodeId, std::set<std::string>>& node_labels, bool fail_on_unknown_nodes) {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  if (fail_on_unknown_nodes) {
    // AdminService.replaceLabelsOnNode: active and inactive nodes are known;
    // port 0 names every node of the host.
    const std::vector<NodeReport> known = active->nodes().Nodes();
    std::string unknown;
    for (const auto& [node, labels] : node_labels) {
      bool found = false;
      for (const NodeReport& report : known) {
        found = node.port == 0 ? report.info.id.host == node.host : report.info.id == node;
        if (found) break;
      }
      if (!found) unknown += (unknown.empty() ? "" : ", ") + node.ToString();
    }
    if (!unknown.empty()) {
      return Status::Remote(
          "java.io.IOException",
          "Failed to replace labels as there are unknown nodes:[" + unknown + "]");
    }
  }
  RETURN_NOT_OK(active->node_labels().ReplaceLabelsOnNodes(node_labels));
  return LabelsChanged(*active);
}

Result<std::vector<ClusterNodeLabel>> ResourceManager::ClusterNodeLabels() const {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  return FacadeOf(*active).ClusterNodeLabels();
}

Result<std::map<NodeId, std::set<std::string>>> ResourceManager::NodeToLabels() const {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  return FacadeOf(*active).NodeToLabels();
}

Result<std::map<std::string, std::set<NodeId>>> ResourceManager::LabelsToNodes(
    const std::set<std::string>& only) const {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  return FacadeOf(*active).LabelsToNodes(only);
}

}  // namespace spindle::rm
