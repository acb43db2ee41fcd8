// FenwickTree: per-slot non-negative weights with O(log n) update and
// weighted sampling (slot i drawn with probability w[i] / total). Used by
// quality-first to sample free nodes by score.
//
// Thread-safety: none (a value owned by one scheduler's view).
#pragma once

#include <cstdint>
#include <vector>

namespace spindle::pool {

class FenwickTree {
 public:
  // Replaces the contents with `weights` (O(n)).
  void Build(const std::vector<double>& weights) {
    const size_t n = weights.size();
    weights_ = weights;
    tree_.assign(n + 1, 0.0);
    for (size_t i = 1; i <= n; ++i) {
      tree_[i] += weights[i - 1];
      const size_t parent = i + (i & (~i + 1));
      if (parent <= n) tree_[parent] += tree_[i];
    }
    total_ = 0;
    for (double w : weights) total_ += w;
    mask_ = 1;
    while (mask_ * 2 <= n) mask_ *= 2;
  }
  size_t size() const { return weights_.size(); }
  double total() const { return total_ > 0 ? total_ : 0; }
  double weight(size_t i) const { return weights_[i]; }

  void Set(size_t i, double w) {
    const double delta = w - weights_[i];
    if (delta == 0) return;
    weights_[i] = w;
    total_ += delta;
    for (size_t k = i + 1; k < tree_.size(); k += k & (~k + 1)) tree_[k] += delta;
  }

  // The slot whose cumulative weight range contains `u` * total, for `u`
  // in [0, 1). Returns size() if the total weight is zero.
  size_t Find(double u) const {
    if (!(total_ > 0) || weights_.empty()) return weights_.size();
    double target = u * total_;
    size_t pos = 0;
    for (size_t step = mask_; step > 0; step >>= 1) {
      const size_t next = pos + step;
      if (next < tree_.size() && tree_[next] <= target) {
        pos = next;
        target -= tree_[next];
      }
    }
    // pos is the number of slots whose prefix sum <= target; skip zero
    // weights left by rounding.
    while (pos < weights_.size() && weights_[pos] <= 0) ++pos;
    if (pos >= weights_.size()) {
      pos = weights_.size();
      while (pos > 0 && weights_[pos - 1] <= 0) --pos;
      return pos == 0 ? weights_.size() : pos - 1;
    }
    return pos;
  }

 private:
  std::vector<double> weights_;
  std::vector<double> tree_;  // 1-based
  double total_ = 0;
  size_t mask_ = 1;
};

}  // namespace spindle::pool
