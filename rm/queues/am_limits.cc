#include "rm/queues/am_limits.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace spindle::rm {

namespace {

// Hadoop keeps capacities and percentages as Java floats; products are
// taken in float and widened where Hadoop widens them, so that the limits
// round as Hadoop's do (0.1f x 81920 is 8192.0001, not 8192).
float F(double value) { return static_cast<float>(value); }

int64_t RoundUpTo(int64_t value, int64_t step) {
  if (step <= 0) return value;
  return (value + step - 1) / step * step;
}

int64_t RoundDownTo(int64_t value, int64_t step) {
  if (step <= 0) return value;
  return value / step * step;
}

// Resources.createResource(memory): 1 vcore unless there is no memory.
pool::Resource MemoryOnly(int64_t memory) { return pool::Resource::Of(memory, memory > 0 ? 1 : 0); }

constexpr int kDimensions[] = {pool::kMemoryIndex, pool::kVcoresIndex};

// DominantResourceCalculator.compare: the larger share of the cluster wins;
// equal dominant shares compare the other share.
int CompareDominant(const pool::Resource& cluster, const pool::Resource& a,
                    const pool::Resource& b) {
  auto shares = [&cluster](const pool::Resource& r) {
    std::vector<double> s;
    for (int i : kDimensions) {
      const int64_t total = cluster.Get(i);
      s.push_back(total > 0 ? static_cast<double>(r.Get(i)) / static_cast<double>(total) : 0.0);
    }
    std::sort(s.begin(), s.end(), std::greater<>());
    return s;
  };
  const auto sa = shares(a);
  const auto sb = shares(b);
  if (sa < sb) return -1;
  if (sb < sa) return 1;
  return 0;
}

int Compare(ResourceCalculator calculator, const pool::Resource& cluster, const pool::Resource& a,
            const pool::Resource& b) {
  if (calculator == ResourceCalculator::kDefault) {
    return a.memory_mb() < b.memory_mb() ? -1 : a.memory_mb() > b.memory_mb() ? 1 : 0;
  }
  return CompareDominant(cluster, a, b);
}

// Resources.ratio(calculator, a, b) as CSQueueUtils uses it (float).
float Ratio(ResourceCalculator calculator, const pool::Resource& a, const pool::Resource& b) {
  auto ratio = [](int64_t x, int64_t y) {
    return y == 0 ? 0.0f : static_cast<float>(x) / static_cast<float>(y);
  };
  const float memory = ratio(a.memory_mb(), b.memory_mb());
  if (calculator == ResourceCalculator::kDefault) return memory;
  return std::max(memory, ratio(a.vcores(), b.vcores()));
}

// Resources.multiply: each dimension times `by`, truncated.
pool::Resource Multiply(const pool::Resource& r, double by) {
  pool::Resource out = r;
  for (int i : kDimensions) out.Set(i, static_cast<int64_t>(static_cast<double>(r.Get(i)) * by));
  return out;
}

}  // namespace

bool AmLimitIsCount(HadoopLine line) { return line == HadoopLine::k2_6; }

pool::Resource MultiplyAndNormalizeUp(ResourceCalculator calculator, const pool::Resource& r,
                                      double by, const pool::Resource& step) {
  if (calculator == ResourceCalculator::kDefault) {
    const auto memory = static_cast<int64_t>(static_cast<double>(r.memory_mb()) * by);
    return MemoryOnly(RoundUpTo(memory, step.memory_mb()));
  }
  pool::Resource out;
  for (int i : kDimensions) {
    // 3.3 rounds the product to a float before the ceiling.
    const auto value =
        static_cast<int64_t>(std::ceil(static_cast<float>(static_cast<double>(r.Get(i)) * by)));
    out.Set(i, RoundUpTo(value, step.Get(i)));
  }
  return out;
}

pool::Resource MultiplyAndNormalizeDown(ResourceCalculator calculator, const pool::Resource& r,
                                        double by, const pool::Resource& step) {
  if (calculator == ResourceCalculator::kDefault) {
    const auto memory = static_cast<int64_t>(static_cast<double>(r.memory_mb()) * by);
    return MemoryOnly(RoundDownTo(memory, step.memory_mb()));
  }
  pool::Resource out;
  for (int i : kDimensions) {
    const auto value = static_cast<int64_t>(static_cast<double>(r.Get(i)) * by);
    out.Set(i, RoundDownTo(value, step.Get(i)));
  }
  return out;
}

pool::Resource RoundDown(ResourceCalculator calculator, const pool::Resource& r,
                         const pool::Resource& step) {
  if (calculator == ResourceCalculator::kDefault) {
    return MemoryOnly(RoundDownTo(r.memory_mb(), step.memory_mb()));
  }
  pool::Resource out;
  for (int i : kDimensions) out.Set(i, RoundDownTo(r.Get(i), step.Get(i)));
  return out;
}

pool::Resource CalculatorMin(ResourceCalculator calculator, const pool::Resource& cluster,
                             const pool::Resource& a, const pool::Resource& b) {
  return Compare(calculator, cluster, a, b) <= 0 ? a : b;
}

pool::Resource CalculatorMax(ResourceCalculator calculator, const pool::Resource& cluster,
                             const pool::Resource& a, const pool::Resource& b) {
  return Compare(calculator, cluster, a, b) >= 0 ? a : b;
}

bool AmFits(const AmLimitContext& context, const pool::Resource& amount,
            const pool::Resource& limit) {
  if (context.line == HadoopLine::k3_3) {
    if (context.calculator == ResourceCalculator::kDefault) {
      return amount.memory_mb() <= limit.memory_mb();
    }
    return amount.memory_mb() <= limit.memory_mb() && amount.vcores() <= limit.vcores();
  }
  return Compare(context.calculator, context.cluster, amount, limit) <= 0;
}

namespace {

// What the limits are of: the default partition on 3.3 (when nodes carry
// labels), else the cluster. Comparisons stay over the cluster, as Hadoop's
// calculators are given lastClusterResource.
const pool::Resource& LimitBase(const AmLimitContext& context) {
  if (context.line == HadoopLine::k3_3 && context.default_partition.has_value()) {
    return *context.default_partition;
  }
  return context.cluster;
}

}  // namespace

LeafAmLimits ComputeLeafAmLimits(const AmLimitContext& context, const LeafAmInputs& leaf,
                                 int32_t active_users) {
  LeafAmLimits out;
  const ResourceCalculator calc = context.calculator;
  const float am = F(leaf.am_fraction);
  const float user_limit = static_cast<float>(leaf.minimum_user_limit_percent) / 100.0f;
  const float factor = F(leaf.user_limit_factor);
  if (AmLimitIsCount(context.line)) {
    // CSQueueUtils.computeMaxActiveApplications / ...PerUser (2.6).
    const float slots = Ratio(calc, context.cluster, context.min_allocation);
    out.max_active_apps = std::max(
        1, static_cast<int32_t>(std::ceil(slots * am * F(leaf.absolute_maximum_capacity))));
    const int32_t using_capacity =
        std::max(1, static_cast<int32_t>(std::ceil(slots * am * F(leaf.absolute_capacity))));
    out.max_active_apps_per_user = std::max(
        1,
        static_cast<int32_t>(std::ceil(static_cast<float>(using_capacity) * user_limit * factor)));
    out.queue_am_limit = context.min_allocation * out.max_active_apps;
    out.user_am_limit = context.min_allocation * out.max_active_apps_per_user;
    return out;
  }
  const pool::Resource guaranteed =
      context.line == HadoopLine::k2_7
          ? MultiplyAndNormalizeDown(calc, context.cluster, F(leaf.absolute_capacity),
                                     context.min_allocation)
          : Multiply(LimitBase(context), F(leaf.absolute_capacity));
  const pool::Resource usable =
      CalculatorMax(calc, context.cluster, guaranteed, leaf.current_limit);
  out.queue_am_limit = MultiplyAndNormalizeUp(calc, usable, am, context.min_allocation);
  const float effective_user_limit =
      std::max(user_limit, 1.0f / static_cast<float>(std::max(active_users, 1)));
  out.user_am_limit = MultiplyAndNormalizeUp(calc, guaranteed, am * effective_user_limit * factor,
                                             context.min_allocation);
  if (context.line == HadoopLine::k3_3) {
    out.user_am_limit = CalculatorMin(calc, context.cluster, out.user_am_limit, out.queue_am_limit);
  }
  return out;
}

pool::Resource UserAmLimitOf(const AmLimitContext& context, const LeafAmInputs& leaf,
                             const LeafAmLimits& limits, int32_t active_users,
                             const std::string& user) {
  if (context.line != HadoopLine::k3_3) return limits.user_am_limit;
  auto it = leaf.user_weights.find(user);
  if (it == leaf.user_weights.end() || it->second == 1.0f) return limits.user_am_limit;
  const ResourceCalculator calc = context.calculator;
  const float user_limit = static_cast<float>(leaf.minimum_user_limit_percent) / 100.0f;
  const float effective = std::min(
      std::max(user_limit, 1.0f / static_cast<float>(std::max(active_users, 1))) * it->second,
      1.0f);
  const pool::Resource guaranteed = Multiply(LimitBase(context), F(leaf.absolute_capacity));
  const pool::Resource weighted = MultiplyAndNormalizeUp(
      calc, guaranteed, F(leaf.am_fraction) * effective * F(leaf.user_limit_factor),
      context.min_allocation);
  return CalculatorMin(calc, context.cluster, weighted, limits.queue_am_limit);
}

std::map<std::string, LeafAmInputs> LeafAmInputsOf(
    const QueueTree& tree, const AmLimitContext& context,
    const std::function<pool::Resource(const std::string&)>& usage_of) {
  const auto& queues = tree.queues();
  // Usage per queue: a leaf's own, a parent's the sum of its children's.
  // Queues come in pre-order, so children follow their parent: summing
  // backwards reaches every child before its parent.
  std::vector<pool::Resource> used(queues.size());
  for (size_t i = queues.size(); i-- > 0;) {
    const CsQueue& q = queues[i];
    if (q.is_leaf()) {
      used[i] = usage_of(QueueTree::PoolQueueName(q));
    } else {
      for (int child : q.children) used[i] += used[static_cast<size_t>(child)];
    }
  }
  // Limits top down: root may use the cluster; a child what its parent has
  // left plus its own use, within its maximum (normalised down).
  const ResourceCalculator calc = context.calculator;
  std::vector<pool::Resource> limit(queues.size());
  std::map<std::string, LeafAmInputs> out;
  for (size_t i = 0; i < queues.size(); ++i) {
    const CsQueue& q = queues[i];
    if (q.is_root()) {
      limit[i] = LimitBase(context);
    } else {
      const size_t parent = static_cast<size_t>(q.parent);
      const pool::Resource maximum =
          RoundDown(calc, Multiply(LimitBase(context), F(q.absolute_maximum_capacity)),
                    context.min_allocation);
      pool::Resource child_limit = limit[parent] - used[parent] + used[i];
      child_limit = CalculatorMin(calc, context.cluster, child_limit, maximum);
      limit[i] = RoundDown(calc, child_limit, context.min_allocation);
    }
    if (!q.is_leaf()) continue;
    LeafAmInputs inputs;
    inputs.am_fraction = q.maximum_am_resource_fraction;
    inputs.absolute_capacity = q.absolute_capacity;
    inputs.absolute_maximum_capacity = q.absolute_maximum_capacity;
    inputs.minimum_user_limit_percent = q.minimum_user_limit_percent;
    inputs.user_limit_factor = q.user_limit_factor;
    inputs.current_limit = limit[i];
    inputs.user_weights = q.user_weights;
    out.emplace(QueueTree::PoolQueueName(q), inputs);
  }
  return out;
}

std::string HadoopResourceString(const pool::Resource& r) {
  return "<memory:" + std::to_string(r.memory_mb()) + ", vCores:" + std::to_string(r.vcores()) +
         ">";
}

}  // namespace spindle::rm
