// The node labels as the state store keeps them: one master-key record
// (family kNodeLabelsFamily, key id 0) replaced whole at every change, in the
// shape of Hadoop's node-label store mirror (FileSystemNodeLabelsStore
// writes an AddToClusterNodeLabelsRequestProto, then a
// ReplaceLabelsOnNodeRequestProto, each length-delimited).
//
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "base/result.h"
#include "persist/state_store.h"
#include "rm/nodes/node_labels.h"

namespace spindle::rm {

inline constexpr char kNodeLabelsFamily[] = "node-labels";

std::string EncodeNodeLabels(const NodeLabelsState& state);
// Corruption if the bytes are not two delimited messages of that shape.
Result<NodeLabelsState> DecodeNodeLabels(const std::string& bytes);
// The batch operation that stores `state`.
void PutNodeLabels(const NodeLabelsState& state, persist::StoreBatch* batch);

}  // namespace spindle::rm
