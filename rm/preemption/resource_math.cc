#include "rm/preemption/resource_math.h"

#include <algorithm>
#include <cmath>

namespace spindle::rm::preemption {

namespace {

constexpr int kMemory = pool::kMemoryIndex;
constexpr int kVcores = pool::kVcoresIndex;

}  // namespace

double ResourceMath::Share(const pool::Resource& r, int index) const {
  const int64_t total = cluster_.Get(index);
  if (total <= 0) return 0;
  return static_cast<double>(r.Get(index)) / static_cast<double>(total);
}

int ResourceMath::Compare(const pool::Resource& a, const pool::Resource& b) const {
  if (calculator_ == Calculator::kMemory) {
    return a.memory_mb() < b.memory_mb() ? -1 : (a.memory_mb() > b.memory_mb() ? 1 : 0);
  }
  if (a.memory_mb() == b.memory_mb() && a.vcores() == b.vcores()) return 0;
  // DominantResourceCalculator.compare: the shares sorted largest first,
  // compared in that order.
  double sa[2] = {Share(a, kMemory), Share(a, kVcores)};
  double sb[2] = {Share(b, kMemory), Share(b, kVcores)};
  if (sa[0] < sa[1]) std::swap(sa[0], sa[1]);
  if (sb[0] < sb[1]) std::swap(sb[0], sb[1]);
  for (int i = 0; i < 2; ++i) {
    if (sa[i] < sb[i]) return -1;
    if (sa[i] > sb[i]) return 1;
  }
  return 0;
}

float ResourceMath::Divide(const pool::Resource& numerator,
                           const pool::Resource& denominator) const {
  if (calculator_ == Calculator::kMemory) {
    return static_cast<float>(numerator.memory_mb()) / static_cast<float>(denominator.memory_mb());
  }
  const double n = std::max(Share(numerator, kMemory), Share(numerator, kVcores));
  const double d = std::max(Share(denominator, kMemory), Share(denominator, kVcores));
  return static_cast<float>(n / d);
}

bool ResourceMath::FitsIn(const pool::Resource& smaller, const pool::Resource& bigger) const {
  if (calculator_ == Calculator::kMemory) return smaller.memory_mb() <= bigger.memory_mb();
  return smaller.memory_mb() <= bigger.memory_mb() && smaller.vcores() <= bigger.vcores();
}

bool ResourceMath::AnyMajorAboveZero(const pool::Resource& a) const {
  if (calculator_ == Calculator::kMemory) return a.memory_mb() > 0;
  return a.memory_mb() > 0 || a.vcores() > 0;
}

bool ResourceMath::AnyMajorZeroOrNegative(const pool::Resource& a) const {
  if (calculator_ == Calculator::kMemory) return a.memory_mb() <= 0;
  return a.memory_mb() <= 0 || a.vcores() <= 0;
}

pool::Resource ResourceMath::MultiplyAndNormalizeUp(const pool::Resource& r, double by_memory,
                                                    double by_vcores) const {
  if (calculator_ == Calculator::kMemory) {
    // roundUp((long) (memory * by + 0.5), 1), vcores as createResource(memory).
    const auto memory = static_cast<int64_t>(static_cast<double>(r.memory_mb()) * by_memory + 0.5);
    return pool::Resource::Of(memory, memory > 0 ? 1 : 0);
  }
  auto up = [](int64_t value, double by) {
    return static_cast<int64_t>(std::ceil(static_cast<float>(static_cast<double>(value) * by)));
  };
  pool::Resource out = r;
  out.Set(kMemory, up(r.memory_mb(), by_memory));
  out.Set(kVcores, up(r.vcores(), by_vcores));
  return out;
}

pool::Resource ResourceMath::Multiply(const pool::Resource& r, double by) {
  pool::Resource out;
  for (int i = 0; i < pool::kMaxResourceTypes; ++i) {
    out.Set(i, static_cast<int64_t>(static_cast<double>(r.Get(i)) * by));
  }
  return out;
}

}  // namespace spindle::rm::preemption
