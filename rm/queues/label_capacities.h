// Per-label queue capacities of capacity-scheduler.xml:
//
//   yarn.scheduler.capacity.<path>.accessible-node-labels.<label>.capacity          default 0
//   yarn.scheduler.capacity.<path>.accessible-node-labels.<label>.maximum-capacity  default 100
//
// read and checked as each Hadoop line's CapacityScheduler does, into
// CsQueue::label_capacities. Which labels a queue has an entry for:
//  - 2.7 / 3.3 (CSQueueUtils.loadCapacitiesByLabelsFromConf): the labels
//    with keys under the queue; a label of the cluster without keys there
//    still gets an entry (capacity 0, maximum 0) when the queue statistics
//    are updated. Spindle takes every label named in the file as a cluster
//    label, so every queue has an entry for each. Without keys, a queue
//    may not use the label even if it may access it (3.3's effective
//    maximum resource of an unconfigured label is none); root needs its
//    own keys (Hadoop's tests set root's label capacity to 100).
//  - 2.6 (CapacitySchedulerConfiguration.getNodeLabelCapacities): the
//    labels the queue may access ("*": every label), capacity 0 and
//    maximum 100 when unset. So a 2.6 queue that may access a label uses it
//    up to its parent's maximum without any key; under 2.7 / 3.3 it cannot.
// Absolute values multiply down the path (the parent's absolute value for
// the label, 0 where it has no entry). Checks, each an InvalidArgument with
// the line's text:
//  - each value within [0, 100] (all lines: "Illegal capacity of 120.0 for
//    node-label=x in queue=root.a, valid capacity should in range of
//    [0, 100]."; 2.6's maximum: "Illegal capacity of 120.0 for label=x in
//    queue=root.a");
//  - capacity within maximum: 2.6 on absolute values with CSQueueUtils'
//    epsilon, 2.7 on the configured and then the absolute values, 3.3 on
//    absolute values;
//  - the children of a parent sum to 100% per label (ParentQueue.
//    setChildQueues, 0.05% precision; to 0 under a parent with 0);
//  - below a parent other than root, a queue's accessible labels are a
//    subset of its parent's (AbstractCSQueue.setupQueueConfigs).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "rm/config/configuration.h"
#include "rm/config/hadoop_line.h"
#include "rm/queues/queue_config.h"

namespace spindle::rm {

// Every <label> of a "...accessible-node-labels.<label>.<key>" key in `conf`.
std::set<std::string> LabelsNamedIn(const Configuration& conf);

// Fills queue.label_capacities (its accessible labels must be set; root has
// `parent` null) and checks them.
Status ReadLabelCapacities(const Configuration& conf, HadoopLine line,
                           const std::set<std::string>& named_labels, CsQueue& queue,
                           const CsQueue* parent);

// The accessible-labels subset rule for `queue` under `parent`.
Status CheckAccessibleLabels(const CsQueue& queue, const CsQueue& parent);

// The children of `parent` sum to 100% (0 under 0) for each label.
Status CheckChildLabelCapacities(const std::vector<CsQueue>& queues, const CsQueue& parent,
                                 const std::set<std::string>& named_labels);

}  // namespace spindle::rm
