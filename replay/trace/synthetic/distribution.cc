#include "replay/trace/synthetic/distribution.h"

#include <cmath>
#include <sstream>

namespace spindle::replay {

Status Distribution::Validate(std::string_view option) const {
  const auto bad = [&](const std::string& why) {
    return Status::InvalidArgument(std::string(option) + ": " + ToString() + ": " + why);
  };
  if (!std::isfinite(a_) || !std::isfinite(b_)) return bad("parameters must be finite");
  switch (kind_) {
    case Kind::kFixed:
      if (a_ <= 0) return bad("the value must be > 0");
      break;
    case Kind::kUniform:
      if (a_ <= 0 || b_ < a_) return bad("needs 0 < low <= high");
      break;
    case Kind::kExponential:
      if (a_ <= 0) return bad("the mean must be > 0");
      break;
    case Kind::kLognormal:
      if (a_ <= 0) return bad("the mean must be > 0");
      if (b_ < 0) return bad("sigma must be >= 0");
      break;
  }
  return Status::OK();
}

double Distribution::Sample(Random* rng) const {
  switch (kind_) {
    case Kind::kFixed:
      return a_;
    case Kind::kUniform:
      return a_ + (b_ - a_) * rng->NextDouble();
    case Kind::kExponential: {
      // Inverse CDF; 1 - u is in (0, 1].
      return -a_ * std::log(1.0 - rng->NextDouble());
    }
    case Kind::kLognormal:
      return std::exp(rng->Normal(std::log(a_) - b_ * b_ / 2, b_));
  }
  return a_;
}

double Distribution::mean() const { return kind_ == Kind::kUniform ? (a_ + b_) / 2 : a_; }

std::string Distribution::ToString() const {
  std::ostringstream out;
  switch (kind_) {
    case Kind::kFixed:
      out << "fixed(" << a_ << ")";
      break;
    case Kind::kUniform:
      out << "uniform(" << a_ << ", " << b_ << ")";
      break;
    case Kind::kExponential:
      out << "exponential(mean " << a_ << ")";
      break;
    case Kind::kLognormal:
      out << "lognormal(mean " << a_ << ", sigma " << b_ << ")";
      break;
  }
  return out.str();
}

}  // namespace spindle::replay
