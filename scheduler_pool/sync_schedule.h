// SyncSchedule: which partitions scheduler i refreshes, and when. Pure
// arithmetic over (mode, N, P, G), shared by the scheduler and its tests.
//
// Time is cut into slots from a common epoch (the pool's start):
//  - kParSync (DiffSyn): slots of G/N. In slot k scheduler i refreshes slice
//    (i + k) mod N, slice s being partitions [floor(sP/N), floor((s+1)P/N)).
//    At any slot the N schedulers refresh disjoint slices that cover all
//    partitions, and over N slots (one G) each scheduler refreshes every
//    partition exactly once.
//  - kSameSync (SameSyn): as ParSync, but every scheduler refreshes slice
//    k mod N in slot k (the same partitions at the same time).
//  - kStateSync (Omega): slots of G; every slot refreshes all partitions.
//  - kMonolithic: one scheduler, synced before every step (slot length 0):
//    it works on the master copy.
//
// Thread-safety: immutable after construction.
#pragma once

#include <cstdint>

#include "base/clock.h"

namespace spindle::pool {

enum class SyncMode : uint8_t { kParSync, kSameSync, kStateSync, kMonolithic };
const char* SyncModeName(SyncMode mode);

// Partitions [first, end).
struct PartitionRange {
  int first = 0;
  int end = 0;
  int size() const { return end - first; }
  bool Contains(int p) const { return p >= first && p < end; }
};

class SyncSchedule {
 public:
  // Requires num_schedulers >= 1, num_partitions >= num_schedulers for
  // kParSync/kSameSync, gap > 0 unless kMonolithic.
  SyncSchedule(SyncMode mode, int num_schedulers, int num_partitions, Duration gap);

  SyncMode mode() const { return mode_; }
  // G/N, G or 0 (monolithic: every step).
  Duration slot_length() const { return slot_; }
  // The slot containing `since_epoch` (0 for monolithic).
  int64_t SlotAt(Duration since_epoch) const;
  // Start of slot `slot`, relative to the epoch.
  Duration SlotStart(int64_t slot) const { return slot_ * slot; }
  // The partitions scheduler `scheduler` refreshes in slot `slot`.
  PartitionRange RangeFor(int scheduler, int64_t slot) const;
  // Slice s of N (ParSync/SameSync); all partitions otherwise.
  PartitionRange Slice(int s) const;
  int num_slices() const;

 private:
  const SyncMode mode_;
  const int n_;
  const int p_;
  const Duration slot_;
};

}  // namespace spindle::pool
