// Policy: where a Sparrow scheduler sends a job's tasks (the policy), kept
// apart from the cluster that queues and runs them (Cluster, the mechanism).
// A policy acts only through Cluster's probe and send calls, at the times the
// network model allows; the cluster calls back on job arrival and, for late
// binding, when a node asks for a task.
//
// The policies (one file each): random placement, per-task sampling (the
// power of two choices per task), batch sampling (probe d*m, place on the m
// least loaded), batch sampling with late binding (Sparrow) and an
// omniscient centralised scheduler (the reference).
//
// Thread-safety: none; one simulation owns its policy.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace spindle::bench::sparrow {

class Cluster;

class Policy {
 public:
  virtual ~Policy() = default;
  // Job `job` reached its scheduler; cluster.Now() is its arrival time.
  virtual void OnJobArrival(int job, Cluster& cluster) = 0;
  // Late binding: a getTask() from `node`, for a reservation `job` queued
  // there, reached the scheduler. Returns the task to launch there, or
  // nullopt for a no-op (every task of the job is launched already, or none
  // left that may run on `node`). Policies that never reserve keep nullopt.
  virtual std::optional<int> OnGetTask(int job, int node, Cluster& cluster);
};

enum class PolicyKind : uint8_t {
  kRandom,            // each task to a random node
  kPerTaskSampling,   // each task to the least loaded of d random nodes
  kBatchSampling,     // the m tasks to the m least loaded of d*m random nodes
  kBatchLateBinding,  // d*m reservations; tasks bound when nodes ask (Sparrow)
  kOmniscient,        // each task to the slot where it starts soonest, no delay
};

// Short names, as flags and tables print them: "random", "per-task",
// "batch", "batch+late", "omniscient".
const char* PolicyName(PolicyKind kind);
Result<PolicyKind> ParsePolicy(const std::string& text);
// Every policy, in table order (the reference last).
std::vector<PolicyKind> AllPolicies();
std::unique_ptr<Policy> MakePolicy(PolicyKind kind);

}  // namespace spindle::bench::sparrow
