#include "scheduler_pool/user_limit.h"

#include <algorithm>
#include <cmath>

namespace spindle::pool {

namespace {

// Hadoop's ResourceCalculator operations over the spec's calculator. Every
// dimension is computed; under the memory calculator only memory is compared.

int Compare(const UserLimitSpec& spec, const Resource& a, const Resource& b) {
  if (a == b) return 0;
  if (spec.calculator == LimitCalculator::kDominant && !spec.cluster.IsZero()) {
    // DominantResourceCalculator.compare: dominant shares, then the smaller.
    const double la = a.DominantShare(spec.cluster);
    const double lb = b.DominantShare(spec.cluster);
    if (la != lb) return la < lb ? -1 : 1;
    double sa = la;
    double sb = lb;
    for (int i = 0; i < kMaxResourceTypes; ++i) {
      const int64_t total = spec.cluster.Get(i);
      if (total <= 0) continue;
      sa = std::min(sa, static_cast<double>(a.Get(i)) / static_cast<double>(total));
      sb = std::min(sb, static_cast<double>(b.Get(i)) / static_cast<double>(total));
    }
    if (sa != sb) return sa < sb ? -1 : 1;
    return 0;
  }
  if (a.memory_mb() != b.memory_mb()) return a.memory_mb() < b.memory_mb() ? -1 : 1;
  return 0;
}

// Resources.max / min: one of the two, whole.
Resource MaxOf(const UserLimitSpec& spec, const Resource& a, const Resource& b) {
  return Compare(spec, a, b) >= 0 ? a : b;
}
Resource MinOf(const UserLimitSpec& spec, const Resource& a, const Resource& b) {
  return Compare(spec, a, b) <= 0 ? a : b;
}

Resource DivideAndCeil(const Resource& r, int64_t by) {
  Resource out;
  if (by <= 0) return out;  // Hadoop's divideAndCeil(a, 0) is 0
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    const int64_t x = r.Get(i);
    out.Set(i, x <= 0 ? x : (x + by - 1) / by);
  }
  return out;
}

// Resources.multiplyAndRoundDown: each dimension truncated.
Resource MultiplyAndRoundDown(const Resource& r, double by) {
  Resource out;
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    out.Set(i, static_cast<int64_t>(std::floor(static_cast<double>(r.Get(i)) * by)));
  }
  return out;
}

// ResourceCalculator.divideAndCeil(Resource, float): Java's float division.
Resource DivideAndCeil(const Resource& r, float by) {
  Resource out;
  if (by == 0) return out;
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    const float q = static_cast<float>(r.Get(i)) / by;
    out.Set(i, static_cast<int64_t>(std::ceil(q)));
  }
  return out;
}

int64_t RoundUp(int64_t x, int64_t step) { return step <= 0 ? x : ((x + step - 1) / step) * step; }

int64_t RoundDown(int64_t x, int64_t step) {
  if (step <= 0) return x;
  // Java's integer division truncates toward zero.
  return (x / step) * step;
}

// DefaultResourceCalculator builds its results from memory alone
// (Resources.createResource(memory): 1 vcore when memory is positive).
Resource MemoryOnly(int64_t memory) { return Resource::Of(memory, memory > 0 ? 1 : 0); }

Resource RoundUp(const UserLimitSpec& spec, const Resource& r, const Resource& step) {
  if (spec.calculator == LimitCalculator::kMemory) {
    return MemoryOnly(RoundUp(r.memory_mb(), step.memory_mb()));
  }
  Resource out;
  for (int i = 0; i < kMaxResourceTypes; ++i) out.Set(i, RoundUp(r.Get(i), step.Get(i)));
  return out;
}

Resource RoundDown(const UserLimitSpec& spec, const Resource& r, const Resource& step) {
  if (spec.calculator == LimitCalculator::kMemory) {
    return MemoryOnly(RoundDown(r.memory_mb(), step.memory_mb()));
  }
  Resource out;
  for (int i = 0; i < kMaxResourceTypes; ++i) out.Set(i, RoundDown(r.Get(i), step.Get(i)));
  return out;
}

// ResourceCalculator.multiplyAndNormalizeUp (2.6 to 3.3 alike): the memory
// calculator rounds to nearest before stepping up, the dominant one takes
// the ceiling of each dimension.
Resource MultiplyAndNormalizeUp(LimitCalculator calculator, const Resource& r, double by,
                                const Resource& step) {
  Resource out;
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    const double x = static_cast<double>(r.Get(i)) * by;
    const int64_t v = calculator == LimitCalculator::kDominant ? static_cast<int64_t>(std::ceil(x))
                                                               : static_cast<int64_t>(x + 0.5);
    out.Set(i, RoundUp(v, step.Get(i)));
  }
  return out;
}

}  // namespace

double UsageRatio(const UserLimitSpec& spec, const Resource& used) {
  if (spec.calculator == LimitCalculator::kDominant) return used.DominantShare(spec.cluster);
  const int64_t total = spec.cluster.memory_mb();
  return total <= 0 ? 0.0 : static_cast<double>(used.memory_mb()) / static_cast<double>(total);
}

Resource UserLimitCapacity(UserLimitRules rules, LimitCalculator calculator,
                           const Resource& cluster, double absolute_capacity,
                           const Resource& minimum_allocation) {
  const Resource total = cluster.Max(Resource());
  if (rules != UserLimitRules::kHadoop3_3) {
    return MultiplyAndNormalizeUp(calculator, total, absolute_capacity, minimum_allocation);
  }
  return MultiplyAndRoundDown(total, absolute_capacity);  // Resources.multiply truncates
}

Resource ComputeUserLimit(const UserLimitSpec& spec, const UserLimitInput& input) {
  const bool hadoop3 = spec.rules == UserLimitRules::kHadoop3_3;
  // 3.3 assumes a minimum allocation is being placed, so that the limit can
  // keep growing until the queue's maximum; 2.x uses the request itself.
  const Resource required = hadoop3 ? spec.minimum_allocation : input.required;
  // Queues with a capacity below one container still make progress.
  const Resource queue_capacity = MaxOf(spec, spec.capacity, required);
  const Resource consumed = hadoop3
                                ? MultiplyAndNormalizeUp(spec.calculator, spec.cluster,
                                                         input.usage_ratio, spec.minimum_allocation)
                                : input.queue_used;
  const Resource current_capacity =
      Compare(spec, consumed, queue_capacity) < 0 ? queue_capacity : consumed + required;
  const Resource fair = hadoop3 ? DivideAndCeil(input.active_users_used + required,
                                                static_cast<float>(input.active_weight))
                                : DivideAndCeil(current_capacity, input.active_users);
  const Resource guaranteed = DivideAndCeil(
      MultiplyAndRoundDown(current_capacity, spec.minimum_user_limit_percent), int64_t{100});
  const Resource cap = MultiplyAndRoundDown(queue_capacity, spec.user_limit_factor);
  return RoundUp(spec, MinOf(spec, MaxOf(spec, fair, guaranteed), cap), spec.minimum_allocation);
}

Resource UserSpecificLimit(const UserLimitSpec& spec, const Resource& queue_limit, double weight) {
  if (spec.rules != UserLimitRules::kHadoop3_3 || weight == 1.0) return queue_limit;
  // multiplyAndNormalizeDown: (long)(value * weight), rounded down to the step.
  const auto scaled = [weight](int64_t v) {
    return static_cast<int64_t>(static_cast<double>(v) * weight);
  };
  if (spec.calculator == LimitCalculator::kMemory) {
    return MemoryOnly(
        RoundDown(scaled(queue_limit.memory_mb()), spec.minimum_allocation.memory_mb()));
  }
  Resource out;
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    out.Set(i, RoundDown(scaled(queue_limit.Get(i)), spec.minimum_allocation.Get(i)));
  }
  return out;
}

double UserLimitSpec::WeightOf(UserId user) const {
  if (rules != UserLimitRules::kHadoop3_3) return 1.0;
  for (const UserWeight& w : user_weights) {
    if (w.id == user && user.valid()) return w.weight;
  }
  return 1.0;
}

Resource UserHeadroom(const UserLimitSpec& spec, const HeadroomInput& input) {
  const Resource user_left = input.limit - input.user_used;
  const Resource queue_left = input.queue_limit - input.queue_used;
  Resource headroom;
  if (spec.rules == UserLimitRules::kHadoop2_6) {
    headroom = MinOf(spec, user_left, queue_left);
  } else {
    headroom = RoundDown(spec, user_left.Min(queue_left), spec.minimum_allocation);
    if (spec.rules == UserLimitRules::kHadoop3_3) {
      headroom = MinOf(spec, input.cluster_free, headroom);
    }
  }
  if (headroom.memory_mb() < 0) headroom.Set(kMemoryIndex, 0);
  return headroom;
}

bool MayAssignToUser(const UserLimitSpec& spec, const Resource& user_used, const Resource& limit) {
  return Compare(spec, user_used, limit) <= 0;
}

}  // namespace spindle::pool
