// Distribution: a seeded one-dimensional distribution for synthetic
// workloads (job sizes, task durations): fixed, uniform, exponential or
// lognormal, made by named constructors. Sample() draws from the caller's
// Random, so a workload's draws are reproducible from its seed.
//
// Thread-safety: a value; Sample() takes the caller's Random.
#pragma once

#include <string>
#include <string_view>

#include "base/random.h"
#include "base/status.h"

namespace spindle::replay {

class Distribution {
 public:
  enum class Kind { kFixed, kUniform, kExponential, kLognormal };

  // Always `value`.
  static Distribution Fixed(double value) { return Distribution(Kind::kFixed, value, value); }
  // Uniform in [low, high].
  static Distribution Uniform(double low, double high) {
    return Distribution(Kind::kUniform, low, high);
  }
  // Exponential with this mean.
  static Distribution Exponential(double mean) { return Distribution(Kind::kExponential, mean, 0); }
  // Lognormal with this mean and this sigma of the underlying normal (the
  // spread: 0 is Fixed(mean); 1 is a tail ~10x the median at 2.3 sigma).
  // mu = ln(mean) - sigma^2 / 2, so the mean is as given.
  static Distribution Lognormal(double mean, double sigma) {
    return Distribution(Kind::kLognormal, mean, sigma);
  }

  Distribution() = default;  // Fixed(1)

  // InvalidArgument naming `option` unless the parameters are finite and
  // the draws positive: fixed > 0, 0 < low <= high, mean > 0, sigma >= 0.
  Status Validate(std::string_view option) const;
  double Sample(Random* rng) const;
  double mean() const;
  std::string ToString() const;  // "exponential(mean 5000)"
  Kind kind() const { return kind_; }

 private:
  Distribution(Kind kind, double a, double b) : kind_(kind), a_(a), b_(b) {}

  Kind kind_ = Kind::kFixed;
  double a_ = 1;  // value, low, or mean
  double b_ = 1;  // high or sigma
};

}  // namespace spindle::replay
