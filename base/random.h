// Random: a small, fast, seedable pseudo-random generator (xoshiro256**,
// seeded through splitmix64) for simulation, sampling and tests. Not for
// secrets: use SecureRandomBytes() (base/crypto.h) for those.
//
// Components take a Random (or a seed) from their owner instead of seeding
// themselves, so a run is reproducible from its seed.
//
// Thread-safety: none. A Random is a value; give each thread its own (Fork()).
#pragma once

#include <cmath>
#include <cstdint>

namespace spindle {

class Random {
 public:
  explicit Random(uint64_t seed) {
    for (uint64_t& s : s_) s = SplitMix64(&seed);
  }

  // 64 uniformly distributed bits.
  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n); 0 when n == 0 (Lemire's multiply-shift, negligible bias).
  uint64_t Uniform(uint64_t n) {
    __extension__ using U128 = unsigned __int128;  // no -Wpedantic warning
    return static_cast<uint64_t>((static_cast<U128>(Next()) * n) >> 64);
  }
  // Uniform in [0, 1).
  double NextDouble() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // True with probability 1/n (n >= 1).
  bool OneIn(uint64_t n) { return Uniform(n) == 0; }
  // Normally distributed (Box-Muller).
  double Normal(double mean, double stddev) {
    double u1 = NextDouble();
    while (u1 <= 0.0) u1 = NextDouble();
    const double u2 = NextDouble();
    return mean + stddev * std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
  // An independent generator derived from this one (for another thread).
  Random Fork() { return Random(Next()); }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t SplitMix64(uint64_t* state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t s_[4];
};

}  // namespace spindle
