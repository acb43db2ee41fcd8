#include "rm/preemption/proportional_policy.h"

#include <algorithm>
#include <climits>
#include <map>
#include <set>

namespace spindle::rm::preemption {

namespace {

using pool::Resource;

// TempQueuePerPartition: the policy's working copy of one queue.
struct TempQueue {
  const QueueInput* in = nullptr;
  std::vector<int> children;
  Resource pending;
  Resource ideal;
  Resource to_be_preempted;
  Resource actually_to_be_preempted;
  Resource untouchable_extra;
  Resource preemptable_extra;
  double normalized[2] = {0, 0};
  bool leaf() const { return children.empty(); }
};

class Calculation {
 public:
  Calculation(const PolicyInput& input, const PreemptionOptions& options)
      : input_(input), options_(options), math_(options.calculator, input.cluster) {}

  PolicyOutcome Run();

 private:
  // AbstractPreemptableResourceCalculator.TQComparator's key: ideal /
  // guaranteed, queues without a guarantee last.
  double IdealPctOfGuaranteed(const ResourceMath& level, const TempQueue& q) const {
    if (!level.Greater(q.in->guaranteed, Resource())) return static_cast<double>(INT_MAX);
    return level.Divide(q.ideal, q.in->guaranteed);
  }
  // TQComparator's order (ideal / guaranteed), ties by index.
  bool ByNeed(const ResourceMath& level, int a, int b) const {
    const double pa = IdealPctOfGuaranteed(level, queues_[static_cast<size_t>(a)]);
    const double pb = IdealPctOfGuaranteed(level, queues_[static_cast<size_t>(b)]);
    return pa != pb ? pa < pb : a < b;
  }
  // getMostUnderservedQueues: removes and returns the head of `by_need`
  // (sorted by ByNeed) and every queue tied with it.
  std::vector<int> TakeMostUnderserved(const ResourceMath& level, std::vector<int>* by_need) const;
  void UpdatePreemptableExtras(int index);
  void ComputeIdealRecursively(int index, const Resource& total_preemption_allowed);
  void ComputeIdealDistribution(const std::vector<int>& queues, const Resource& total_allowed,
                                const Resource& tot_guarant);
  void ComputeFixpoint(const ResourceMath& level, std::vector<int> queues, Resource* unassigned,
                       bool ignore_guarantee);
  void ComputeFixpoint27(const ResourceMath& level, const std::vector<int>& queues,
                         Resource* unassigned, bool ignore_guarantee);
  void ComputeFixpoint26(const ResourceMath& level, std::vector<int> queues, Resource* unassigned,
                         bool ignore_guarantee);
  // resetCapacity of 2.6 / 2.7: one float share per queue, by guarantee
  // among `queues` as the calculator divides against `unassigned`.
  void ResetCapacity2x(const std::vector<int>& queues, const Resource& unassigned,
                       bool ignore_guarantee);
  Resource Offer(const ResourceMath& level, TempQueue& q, const Resource& avail);
  void AssignPreemption(const ResourceMath& level, TempQueue& q, float scaling);
  void ResToObtainForLeaves();
  void SelectCandidates(Resource* total_allowed, PolicyOutcome* out);
  // CapacitySchedulerPreemptionUtils.tryPreemptContainerAndDeductResToObtain
  // (conservativeDRF false); `to_obtain` null once the queue has obtained
  // enough.
  bool TryPreempt(const ContainerInput& c, const AppInput& app, Resource* to_obtain, bool* obtained,
                  Resource* total_allowed, PolicyOutcome* out);

  bool line26() const { return options_.line == HadoopLine::k2_6; }
  bool line3() const { return options_.line == HadoopLine::k3_3; }
  // disable_preemption exists from 2.7 on.
  bool Disabled(const TempQueue& q) const { return !line26() && q.in->preemption_disabled; }

  const PolicyInput& input_;
  const PreemptionOptions& options_;
  const ResourceMath math_;
  std::vector<TempQueue> queues_;
  std::set<ContainerId> selected_;
};

PolicyOutcome Calculation::Run() {
  PolicyOutcome out;
  const size_t n = input_.queues.size();
  out.queues.resize(n);
  if (n == 0) return out;
  queues_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    queues_[i].in = &input_.queues[i];
    const int parent = input_.queues[i].parent;
    if (i > 0 && parent >= 0 && static_cast<size_t>(parent) < i) {
      queues_[static_cast<size_t>(parent)].children.push_back(static_cast<int>(i));
    }
  }
  // TempQueuePerPartition.addChild: pending rolls up (children come after
  // their parent, so walk backwards).
  for (size_t i = n; i-- > 0;) {
    if (queues_[i].leaf()) queues_[i].pending = input_.queues[i].pending;
    const int parent = input_.queues[i].parent;
    if (i > 0 && parent >= 0 && static_cast<size_t>(parent) < i) {
      queues_[static_cast<size_t>(parent)].pending += queues_[i].pending;
    }
  }
  // PreemptableResourceCalculator.computeIdealAllocation.
  UpdatePreemptableExtras(0);
  queues_[0].ideal = input_.queues[0].guaranteed;
  Resource total_allowed =
      ResourceMath::Multiply(input_.cluster, options_.total_preemption_per_round);
  ComputeIdealRecursively(0, total_allowed);
  ResToObtainForLeaves();
  SelectCandidates(&total_allowed, &out);
  for (size_t i = 0; i < n; ++i) {
    out.queues[i].ideal_assigned = queues_[i].ideal;
    out.queues[i].to_be_preempted = queues_[i].to_be_preempted;
    out.queues[i].actually_to_be_preempted = queues_[i].actually_to_be_preempted;
  }
  return out;
}

std::vector<int> Calculation::TakeMostUnderserved(const ResourceMath& level,
                                                  std::vector<int>* by_need) const {
  std::vector<int> underserved;
  const double head = IdealPctOfGuaranteed(level, queues_[static_cast<size_t>(by_need->front())]);
  size_t taken = 0;
  while (taken < by_need->size() &&
         IdealPctOfGuaranteed(level, queues_[static_cast<size_t>((*by_need)[taken])]) == head) {
    underserved.push_back((*by_need)[taken++]);
  }
  by_need->erase(by_need->begin(), by_need->begin() + static_cast<std::ptrdiff_t>(taken));
  return underserved;
}

void Calculation::UpdatePreemptableExtras(int index) {
  TempQueue& q = queues_[static_cast<size_t>(index)];
  for (int child : q.children) UpdatePreemptableExtras(child);
  q.untouchable_extra = Resource();
  q.preemptable_extra = Resource();
  if (line26()) return;  // 2.6 has neither
  Resource extra = q.in->used - q.in->guaranteed;
  if (math_.Less(extra, Resource())) extra = Resource();
  if (q.leaf()) {
    (Disabled(q) ? q.untouchable_extra : q.preemptable_extra) = extra;
    return;
  }
  Resource children_preemptable;
  for (int child : q.children)
    children_preemptable += queues_[static_cast<size_t>(child)].preemptable_extra;
  q.untouchable_extra =
      math_.GreaterOrEqual(children_preemptable, extra) ? Resource() : extra - children_preemptable;
  q.preemptable_extra = math_.Min(children_preemptable, extra);
}

void Calculation::ComputeIdealRecursively(int index, const Resource& total_allowed) {
  const TempQueue& q = queues_[static_cast<size_t>(index)];
  if (q.children.empty()) return;
  ComputeIdealDistribution(q.children, total_allowed, q.ideal);
  for (int child : q.children) ComputeIdealRecursively(child, total_allowed);
}

void Calculation::ComputeIdealDistribution(const std::vector<int>& queues,
                                           const Resource& total_allowed,
                                           const Resource& tot_guarant) {
  // Comparisons at this level are against the parent's ideal, as Hadoop
  // passes tot_guarant as the calculator's cluster.
  const ResourceMath level(math_.calculator(), tot_guarant);
  Resource unassigned = tot_guarant;
  std::vector<int> non_zero, zero;
  for (int i : queues) {
    (level.Greater(queues_[static_cast<size_t>(i)].in->guaranteed, Resource()) ? non_zero : zero)
        .push_back(i);
  }
  const auto fixpoint = [&](const std::vector<int>& group, bool ignore_guarantee) {
    if (line3()) {
      ComputeFixpoint(level, group, &unassigned, ignore_guarantee);
    } else if (line26()) {
      ComputeFixpoint26(level, group, &unassigned, ignore_guarantee);
    } else {
      ComputeFixpoint27(level, group, &unassigned, ignore_guarantee);
    }
  };
  fixpoint(non_zero, /*ignore_guarantee=*/false);
  if (!zero.empty() && level.Greater(unassigned, Resource())) {
    fixpoint(zero, /*ignore_guarantee=*/true);
  }
  Resource needed;
  for (int i : queues) {
    const TempQueue& t = queues_[static_cast<size_t>(i)];
    if (level.Greater(t.in->used, t.ideal)) needed += t.in->used - t.ideal;
  }
  float scaling = 1.0F;
  if (level.Greater(needed, total_allowed)) scaling = level.Divide(total_allowed, needed);
  for (int i : queues) AssignPreemption(level, queues_[static_cast<size_t>(i)], scaling);
}

void Calculation::ComputeFixpoint(const ResourceMath& level, std::vector<int> queues,
                                  Resource* caller_unassigned, bool ignore_guarantee) {
  // Hadoop's computeFixpointAllocation subtracts from the caller's object
  // until its loop first replaces `unassigned` with a clamped copy (after the
  // first offer); later offers do not reach the caller. Kept: it decides
  // whether zero-guarantee queues are offered anything.
  Resource* unassigned = caller_unassigned;
  Resource local;
  auto before = [&](int a, int b) { return ByNeed(level, a, b); };
  std::vector<int> by_need;  // kept sorted by `before`
  for (int i : queues) {
    TempQueue& q = queues_[static_cast<size_t>(i)];
    if (level.Greater(q.in->used, q.in->guaranteed)) {
      q.ideal = ResourceMath::ComponentwiseMin(q.in->guaranteed, q.in->used) + q.untouchable_extra;
    } else {
      q.ideal = q.in->used;
    }
    *unassigned -= q.ideal;
    if (level.Less(q.ideal, q.in->used + q.pending)) by_need.push_back(i);
  }
  std::sort(by_need.begin(), by_need.end(), before);
  while (!by_need.empty() && level.Greater(*unassigned, Resource())) {
    // resetCapacity over every queue still wanting more.
    Resource active;
    for (int i : by_need) active += queues_[static_cast<size_t>(i)].in->guaranteed;
    for (int i : by_need) {
      TempQueue& q = queues_[static_cast<size_t>(i)];
      for (int k = 0; k < 2; ++k) {
        if (ignore_guarantee) {
          q.normalized[k] = 1.0 / static_cast<double>(by_need.size());
        } else if (active.Get(k) != 0) {
          q.normalized[k] = static_cast<double>(static_cast<float>(q.in->guaranteed.Get(k)) /
                                                static_cast<float>(active.Get(k)));
        }
      }
    }
    const std::vector<int> underserved = TakeMostUnderserved(level, &by_need);
    const Resource round = *unassigned;
    for (int i : underserved) {
      if (!level.AnyMajorAboveZero(*unassigned)) break;
      TempQueue& sub = queues_[static_cast<size_t>(i)];
      Resource avail = level.MultiplyAndNormalizeUp(round, sub.normalized[0], sub.normalized[1]);
      avail = ResourceMath::ComponentwiseMin(avail, *unassigned);
      const Resource idle = Offer(level, sub, avail);
      const Resource done = avail - idle;
      if (level.Greater(done, Resource())) {
        by_need.insert(std::upper_bound(by_need.begin(), by_need.end(), i, before), i);
      }
      *unassigned -= done;
      local = ResourceMath::ComponentwiseMax(*unassigned, Resource());
      unassigned = &local;
    }
  }
}

void Calculation::ResetCapacity2x(const std::vector<int>& queues, const Resource& unassigned,
                                  bool ignore_guarantee) {
  Resource active;
  for (int i : queues) active += queues_[static_cast<size_t>(i)].in->guaranteed;
  const ResourceMath against_unassigned(math_.calculator(), unassigned);
  for (int i : queues) {
    TempQueue& q = queues_[static_cast<size_t>(i)];
    const double share =
        ignore_guarantee ? static_cast<double>(1.0F / static_cast<float>(queues.size()))
                         : static_cast<double>(against_unassigned.Divide(q.in->guaranteed, active));
    q.normalized[0] = q.normalized[1] = share;
  }
}

void Calculation::ComputeFixpoint27(const ResourceMath& level, const std::vector<int>& queues,
                                    Resource* unassigned, bool ignore_guarantee) {
  auto before = [&](int a, int b) { return ByNeed(level, a, b); };
  std::vector<int> by_need;  // kept sorted by `before`
  for (int i : queues) {
    TempQueue& q = queues_[static_cast<size_t>(i)];
    q.ideal = level.Greater(q.in->used, q.in->guaranteed) ? q.in->guaranteed + q.untouchable_extra
                                                          : q.in->used;
    *unassigned -= q.ideal;
    if (level.Less(q.ideal, q.in->used + q.pending)) by_need.push_back(i);
  }
  std::sort(by_need.begin(), by_need.end(), before);
  while (!by_need.empty() && level.Greater(*unassigned, Resource())) {
    ResetCapacity2x(by_need, *unassigned, ignore_guarantee);
    const std::vector<int> underserved = TakeMostUnderserved(level, &by_need);
    Resource assigned;
    for (int i : underserved) {
      TempQueue& sub = queues_[static_cast<size_t>(i)];
      const Resource avail =
          level.MultiplyAndNormalizeUp(*unassigned, sub.normalized[0], sub.normalized[1]);
      const Resource done = avail - Offer(level, sub, avail);
      if (level.Greater(done, Resource())) {
        by_need.insert(std::upper_bound(by_need.begin(), by_need.end(), i, before), i);
      }
      assigned += done;
    }
    *unassigned -= assigned;
  }
}

void Calculation::ComputeFixpoint26(const ResourceMath& level, std::vector<int> queues,
                                    Resource* unassigned, bool ignore_guarantee) {
  // Every queue starts at nothing; all are offered from the same unassigned
  // amount in a round, so their order does not matter (2.6 keeps them in a
  // HashSet).
  while (!queues.empty() && level.Greater(*unassigned, Resource())) {
    ResetCapacity2x(queues, *unassigned, ignore_guarantee);
    Resource assigned;
    std::vector<int> still;
    for (int i : queues) {
      TempQueue& sub = queues_[static_cast<size_t>(i)];
      const Resource avail = ResourceMath::Multiply(*unassigned, sub.normalized[0]);
      const Resource done = avail - Offer(level, sub, avail);
      if (level.Greater(done, Resource())) still.push_back(i);
      assigned += done;
    }
    queues = std::move(still);
    *unassigned -= assigned;
  }
}

Resource Calculation::Offer(const ResourceMath& level, TempQueue& q, const Resource& avail) {
  if (!line3()) {
    // 2.x TempQueue.offer: min(max - ideal, min(avail, used + pending -
    // ideal)); 2.7 clamps max - ideal at zero first.
    Resource max_delta = q.in->maximum - q.ideal;
    if (!line26()) max_delta = ResourceMath::ComponentwiseMax(max_delta, Resource());
    const Resource accepted =
        level.Min(max_delta, level.Min(avail, q.in->used + q.pending - q.ideal));
    q.ideal += accepted;
    return avail - accepted;
  }
  // TempQueuePerPartition.offer (no reserved resources: pending as is).
  const Resource max_delta = ResourceMath::ComponentwiseMax(q.in->maximum - q.ideal, Resource());
  Resource accepted =
      ResourceMath::ComponentwiseMin(max_delta, level.Min(avail, q.in->used + q.pending - q.ideal));
  if (q.leaf()) {
    // filterByMaxDeductAssigned: never past max(used, guaranteed).
    const Resource cap = level.Max(level.Max(q.in->used, q.in->guaranteed) - q.ideal, Resource());
    accepted = level.Min(accepted, cap);
  }
  accepted = ResourceMath::ComponentwiseMax(accepted, Resource());
  accepted = ResourceMath::ComponentwiseMin(accepted, avail);
  q.ideal += accepted;
  return avail - accepted;
}

void Calculation::AssignPreemption(const ResourceMath& level, TempQueue& q, float scaling) {
  if (!line3()) {
    q.to_be_preempted = level.Greater(q.in->used, q.ideal)
                            ? ResourceMath::Multiply(q.in->used - q.ideal, scaling)
                            : Resource();
    return;
  }
  const Resource total = q.in->used + q.pending;
  const Resource minimum = level.Max(level.Min(total, q.in->guaranteed), q.ideal);
  if (level.Greater(q.in->used, minimum)) {
    q.to_be_preempted = ResourceMath::Multiply(q.in->used - minimum, scaling);
  } else {
    q.to_be_preempted = Resource();
  }
}

void Calculation::ResToObtainForLeaves() {
  // calculateResToObtainByPartitionForLeafQueues.
  for (TempQueue& q : queues_) {
    if (!q.leaf() || Disabled(q)) continue;
    const Resource dead_zone =
        ResourceMath::Multiply(q.in->guaranteed, 1.0 + options_.max_ignored_over_capacity);
    if (!math_.Greater(q.in->used, dead_zone)) {
      q.actually_to_be_preempted = Resource();
      continue;
    }
    Resource obtain = q.to_be_preempted;
    if (!line3()) {
      obtain = ResourceMath::Multiply(q.to_be_preempted, options_.natural_termination_factor);
    } else if (math_.Greater(obtain, Resource())) {
      obtain = math_.MultiplyAndNormalizeUp(q.to_be_preempted, options_.natural_termination_factor,
                                            options_.natural_termination_factor);
    }
    q.actually_to_be_preempted = obtain;
  }
}

bool Calculation::TryPreempt(const ContainerInput& c, const AppInput& app, Resource* to_obtain,
                             bool* obtained, Resource* total_allowed, PolicyOutcome* out) {
  if (*obtained || selected_.count(c.id) != 0) return false;
  if (!line3()) {
    // 2.x preemptFrom: the whole container while anything is left.
    if (math_.LessOrEqual(*to_obtain, Resource())) {
      *obtained = true;
      return false;
    }
    *to_obtain -= c.resource;
    if (math_.LessOrEqual(*to_obtain, Resource())) *obtained = true;
    selected_.insert(c.id);
    out->selected.push_back(SelectedContainer{app.attempt, c.id, c.resource, c.is_am, app.queue});
    return true;
  }
  // A type to obtain at 0 counts as -1, so that it does not stop the check.
  for (int k = 0; k < pool::kMaxResourceTypes; ++k) {
    if (to_obtain->Get(k) == 0) to_obtain->Set(k, -1);
  }
  if (!math_.AnyMajorAboveZero(*to_obtain) || !math_.FitsIn(c.resource, *total_allowed)) {
    return false;
  }
  const Resource after = *to_obtain - c.resource;
  if (!math_.Less(ResourceMath::ComponentwiseMax(after, Resource()),
                  ResourceMath::ComponentwiseMax(*to_obtain, Resource()))) {
    return false;
  }
  *to_obtain = after;
  *total_allowed -= c.resource;
  if (math_.LessOrEqual(*to_obtain, Resource())) *obtained = true;
  selected_.insert(c.id);
  out->selected.push_back(SelectedContainer{app.attempt, c.id, c.resource, c.is_am, app.queue});
  return true;
}

void Calculation::SelectCandidates(Resource* total_allowed, PolicyOutcome* out) {
  // FifoCandidatesSelector.selectCandidates.
  std::map<int, std::vector<const AppInput*>> apps_by_queue;
  for (const AppInput& app : input_.apps) {
    if (app.queue >= 0 && static_cast<size_t>(app.queue) < queues_.size()) {
      apps_by_queue[app.queue].push_back(&app);
    }
  }
  for (size_t qi = 0; qi < queues_.size(); ++qi) {
    TempQueue& q = queues_[qi];
    if (!q.leaf() || Disabled(q)) continue;
    if (!math_.Greater(q.actually_to_be_preempted, Resource())) continue;
    Resource to_obtain = q.actually_to_be_preempted;
    bool obtained = false;
    std::vector<std::pair<const ContainerInput*, const AppInput*>> skipped_am;
    Resource skipped_am_size;
    const auto& apps = apps_by_queue[static_cast<int>(qi)];
    for (auto app = apps.rbegin(); app != apps.rend() && !obtained; ++app) {
      // preemptFrom: lowest priority first, then the latest allocation
      // request id, then the youngest container (sortContainers).
      std::vector<const ContainerInput*> live;
      for (const ContainerInput& c : (*app)->containers) live.push_back(&c);
      std::sort(live.begin(), live.end(), [](const ContainerInput* a, const ContainerInput* b) {
        if (a->priority != b->priority) return a->priority > b->priority;
        if (a->allocation_request_id != b->allocation_request_id) {
          return a->allocation_request_id > b->allocation_request_id;
        }
        return b->id < a->id;
      });
      for (const ContainerInput* c : live) {
        if (obtained) break;
        if (selected_.count(c->id) != 0) continue;
        if (c->is_am) {
          skipped_am.emplace_back(c, *app);
          skipped_am_size += c->resource;
          continue;
        }
        TryPreempt(*c, **app, &to_obtain, &obtained, total_allowed, out);
      }
    }
    // preemptAMContainers: AMs go only while the queue keeps more AM
    // resource than its guarantee x maximum-am-resource-percent.
    const Resource max_am = ResourceMath::Multiply(q.in->guaranteed, q.in->maximum_am_fraction);
    for (const auto& [c, app] : skipped_am) {
      if (obtained) break;
      if (math_.LessOrEqual(skipped_am_size, max_am)) break;
      if (TryPreempt(*c, *app, &to_obtain, &obtained, total_allowed, out)) {
        skipped_am_size -= c->resource;
      }
    }
  }
}

}  // namespace

PolicyOutcome ComputePreemption(const PolicyInput& input, const PreemptionOptions& options) {
  return Calculation(input, options).Run();
}

}  // namespace spindle::rm::preemption
