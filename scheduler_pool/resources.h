// Resource: a multi-dimensional quantity of resources as fixed int64 values
// (Ray's ResourceRequest over FixedPoint): memory in MB, vcores, and up to
// kMaxResourceTypes - 2 further named types (YARN's yarn.io/gpu, ...). Adding
// and subtracting never drift, and the whole vector fits in one cache line.
//
// ResourceTypes: the names of the dimensions in use, fixed at start-up.
//
// Thread-safety: both are values; a const ResourceTypes may be shared.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace spindle::pool {

inline constexpr int kMaxResourceTypes = 6;
inline constexpr int kMemoryIndex = 0;  // "memory-mb"
inline constexpr int kVcoresIndex = 1;  // "vcores"

class Resource {
 public:
  constexpr Resource() = default;
  static constexpr Resource Of(int64_t memory_mb, int64_t vcores) {
    Resource r;
    r.v_[kMemoryIndex] = memory_mb;
    r.v_[kVcoresIndex] = vcores;
    return r;
  }
  // Every dimension at int64 max: "no limit".
  static constexpr Resource Unlimited() {
    Resource r;
    r.v_.fill(std::numeric_limits<int64_t>::max());
    return r;
  }

  constexpr int64_t memory_mb() const { return v_[kMemoryIndex]; }
  constexpr int64_t vcores() const { return v_[kVcoresIndex]; }
  constexpr int64_t Get(int index) const { return v_[static_cast<size_t>(index)]; }
  constexpr void Set(int index, int64_t value) { v_[static_cast<size_t>(index)] = value; }
  // Returns *this with dimension `index` set (for building values inline).
  constexpr Resource With(int index, int64_t value) const {
    Resource r = *this;
    r.Set(index, value);
    return r;
  }

  Resource& operator+=(const Resource& o) {
    for (int i = 0; i < kMaxResourceTypes; ++i) v_[i] += o.v_[i];
    return *this;
  }
  Resource& operator-=(const Resource& o) {
    for (int i = 0; i < kMaxResourceTypes; ++i) v_[i] -= o.v_[i];
    return *this;
  }
  friend Resource operator+(Resource a, const Resource& b) { return a += b; }
  friend Resource operator-(Resource a, const Resource& b) { return a -= b; }
  friend Resource operator*(Resource a, int64_t k) {
    for (auto& x : a.v_) x *= k;
    return a;
  }
  friend bool operator==(const Resource& a, const Resource& b) { return a.v_ == b.v_; }
  friend bool operator!=(const Resource& a, const Resource& b) { return a.v_ != b.v_; }
  // Lexicographic, for use as an ordered key only (not "fits").
  friend bool operator<(const Resource& a, const Resource& b) { return a.v_ < b.v_; }

  // True if every dimension of *this is <= the same dimension of `other`.
  bool FitsIn(const Resource& other) const {
    bool fits = true;
    for (int i = 0; i < kMaxResourceTypes; ++i) fits &= v_[i] <= other.v_[i];
    return fits;
  }
  // True if `request` fits in (*this - used), written to avoid overflow
  // when *this is Unlimited().
  bool FitsWithin(const Resource& used, const Resource& request) const {
    bool fits = true;
    for (int i = 0; i < kMaxResourceTypes; ++i) fits &= request.v_[i] <= v_[i] - used.v_[i];
    return fits;
  }
  bool IsZero() const {
    for (int64_t x : v_) {
      if (x != 0) return false;
    }
    return true;
  }
  bool AnyNegative() const {
    for (int64_t x : v_) {
      if (x < 0) return true;
    }
    return false;
  }
  // Every dimension >= 0 and at least one > 0.
  bool IsPositive() const { return !AnyNegative() && !IsZero(); }
  // The largest k with k * unit fitting in *this (dimensions where unit is 0
  // do not limit); int64 max when unit is zero. Negative dimensions give 0.
  int64_t Multiples(const Resource& unit) const;
  // max over dimensions of this[i] / total[i], over dimensions with total > 0
  // (DRF's dominant share).
  double DominantShare(const Resource& total) const;
  Resource Max(const Resource& o) const {
    Resource r;
    for (int i = 0; i < kMaxResourceTypes; ++i) r.v_[i] = v_[i] > o.v_[i] ? v_[i] : o.v_[i];
    return r;
  }
  Resource Min(const Resource& o) const {
    Resource r;
    for (int i = 0; i < kMaxResourceTypes; ++i) r.v_[i] = v_[i] < o.v_[i] ? v_[i] : o.v_[i];
    return r;
  }

  // "<memory:1024, vCores:1>" (extended types as "t2:5" when non-zero).
  std::string ToString() const;

 private:
  std::array<int64_t, kMaxResourceTypes> v_{};
};

// The names of the resource dimensions: index 0 is "memory-mb", 1 is "vcores",
// then the extended types in the order given.
class ResourceTypes {
 public:
  // Only memory-mb and vcores.
  ResourceTypes();
  // InvalidArgument on a duplicate or empty name, or more than
  // kMaxResourceTypes - 2 extended types.
  static Result<ResourceTypes> Create(const std::vector<std::string>& extended);

  int size() const { return static_cast<int>(names_.size()); }
  const std::string& name(int index) const { return names_[static_cast<size_t>(index)]; }
  // The index of `name`, or NotFound.
  Result<int> IndexOf(std::string_view name) const;
  // "memory-mb=1024,vcores=1,yarn.io/gpu=2".
  std::string Format(const Resource& r) const;

 private:
  std::vector<std::string> names_;
};

}  // namespace spindle::pool
