// The ZooKeeper store's tree as records (zk_store_layout.h says where each
// record lives): listing the tree, reading every record into a
// persist::LoadedState, and planning a StoreBatch as the znode operations of
// one multi.
//
// Thread-safety: pure functions over their arguments; the ZkSession calls
// are as thread-safe as ZkSession.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/result.h"
#include "persist/state_store.h"
#include "persist/zk/zk_session.h"
#include "rm/recovery/zk/zk_store_layout.h"

namespace spindle::rm::zkstore {

// Every node under `roots` (the roots included; a missing root is skipped),
// listed one level at a time with pipelined reads. The children of a node
// for which `is_leaf` is true are not asked for.
Result<std::vector<std::string>> ListTree(zk::ZkSession* session,
                                          const std::vector<std::string>& roots,
                                          const std::function<bool(const std::string&)>& is_leaf);

// Nodes that have no children in the layout (attempts, keys, tokens of the
// flat layout, single-value nodes, Spindle's records): ListTree need not ask.
bool IsLeaf(const ZkStoreLayout& layout, const std::string& path);

// Reads the records of every node of `index` that holds one (pipelined).
// Nodes that are not records (structure, unknown children, null data where
// Hadoop leaves a node without data) are skipped. Corruption for a record
// whose node data does not decode where the store must decode it (epoch,
// sequence number, cluster fields) or a name Spindle cannot have made.
Result<persist::LoadedState> ReadRecords(zk::ZkSession* session, const ZkStoreLayout& layout,
                                         const std::set<std::string>& index);

// A batch as znode operations, and what they do to the set of nodes.
struct TreePlan {
  std::vector<zk::ZkOp> ops;
  // path -> exists afterwards
  std::map<std::string, bool> changes;

  void ApplyTo(std::set<std::string>* index) const;
};

// Plans `batch` (already validated) against the nodes of `index`: creates
// for new records (with `acl`, parents without data as Hadoop creates them),
// sets for existing ones, deletes, and 3.3's removal of a split-layout
// parent left empty. InvalidArgument for a value a node cannot hold (a
// delegation token sequence number beyond an int).
Result<TreePlan> PlanBatch(const ZkStoreLayout& layout, const std::vector<zk::ZkAcl>& acl,
                           const std::set<std::string>& index, const persist::StoreBatch& batch);

}  // namespace spindle::rm::zkstore
