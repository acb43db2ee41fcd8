// StoredAskRows: keeps one attempt's rows in the state store in step with
// its ask table and its granted containers, writing only what changed
// (AppStore::SaveAttemptRows) instead of the whole table on every allocate.
// What a restarted RM reads back is the same AttemptAsksRecord the whole-
// table record (AppStore::SaveAsks) gave, so recovery is unchanged.
//
// Rows, by key:
//   "table"                      the attempt has a stored table (an empty
//                                one still caps a re-sent table)
//   "ask/<prio>/<id>/<dims>/<name>"  one row of the ask table
//   "grant/<container id>"       containers granted together (in one call)
//                                and not yet completed, up to kGrantsPerRow;
//                                keyed by the first of them
// A row's bytes are an AttemptAsksRecord holding that ask row, or those
// granted containers. (A store written before grants were grouped holds one
// container per grant row: the same format, read the same way.)
//
// Why grants are grouped: one row per container made the state store hold
// one record per live container (tens of thousands at the wire bench's
// load, each a znode of the ZooKeeper store that a new active reads before
// it serves). Grouped, the records follow the allocate calls instead: a
// call's grants are one new row, and a completion rewrites the (small) row
// holding the container, or erases it once all of its containers are done.
//
// It remembers what the store holds (key -> bytes, and which grant row
// holds which container), so a diff touches only the keys a call changed.
// After a restart it is seeded with the keys the previous run left, so rows
// the AM did not re-send are erased, and RegrantAll replaces the previous
// run's grant rows by the containers that are still live.
//
// Thread-safety: none; the attempt's mutex guards it.
#pragma once

#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "base/result.h"
#include "rm/apps/app_store.h"
#include "rm/recovery/attempt_asks_record.h"
#include "rm/scheduling/ask_table.h"

namespace spindle::rm {

class StoredAskRows {
 public:
  static constexpr char kTableRow[] = "table";
  // At most this many containers per grant row: a completion rewrites its
  // row, so a row stays a few kilobytes.
  static constexpr size_t kGrantsPerRow = 128;
  static std::string AskRowKey(const pool::AskKey& key, const std::string& resource_name);
  static std::string GrantRowKey(const ContainerId& id);

  // The record a restarted RM reads from an attempt's rows; Corruption if a
  // row does not decode.
  static Result<AttemptAsksRecord> Decode(const std::map<std::string, std::string>& rows);

  // The rows the store holds from a previous run (their bytes unknown).
  void Seed(const std::set<std::string>& stored_keys);

  // Brings the stored rows of `keys` in line with `table`.
  void SyncKeys(const AskTable& table, std::span<const pool::AskKey> keys,
                AttemptRowChanges* changes);
  // Brings every stored ask row in line with `table` (after a restart's
  // caps): rows of keys the table no longer has are erased too.
  void SyncAll(const AskTable& table, AttemptRowChanges* changes);
  // Containers granted by one call: rows of up to kGrantsPerRow. A container
  // that already has a row is skipped.
  void Granted(std::span<const GrantedContainer> containers, AttemptRowChanges* changes);
  // Each row holding some of `ids` is rewritten without them, or erased once
  // it holds none. No-op for a container that has no row of this run's
  // (a seeded grant row is left to RegrantAll).
  void Completed(std::span<const ContainerId> ids, AttemptRowChanges* changes);
  // The grant rows become exactly `live`, grouped anew: every other grant
  // row (the previous run's, seeded, or this run's) is erased. For the first
  // write after a restart's caps, when the previous run's grants that no
  // node reports any more were given back to the asks.
  void RegrantAll(std::span<const GrantedContainer> live, AttemptRowChanges* changes);
  // Erases every row (the attempt ended).
  void EraseAll(AttemptRowChanges* changes);

  bool empty() const { return stored_.empty(); }

 private:
  // Puts `bytes` under `row` unless the store already holds them.
  void Put(const std::string& row, std::string bytes, AttemptRowChanges* changes);
  void Erase(std::map<std::string, std::string>::iterator it, AttemptRowChanges* changes);
  void EnsureTableRow(AttemptRowChanges* changes);

  // Puts grant row `row` with its containers as they are now.
  void PutGrantRow(const std::string& row, AttemptRowChanges* changes);

  // What the store holds: row key -> bytes ("" when seeded: unknown).
  std::map<std::string, std::string> stored_;
  // The grant rows this run wrote: row key -> its containers, and each
  // container's row. (Seeded grant rows are not in them: their contents are
  // not known until RegrantAll replaces them.)
  std::map<std::string, std::vector<GrantedContainer>> grant_rows_;
  std::map<ContainerId, std::string> row_of_;
};

}  // namespace spindle::rm
