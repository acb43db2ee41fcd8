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
//   "grant/<container id>"       a container granted and not yet completed
// A row's bytes are an AttemptAsksRecord holding that one row.
//
// It remembers what the store holds (key -> bytes), so a diff touches only
// the keys a call changed. After a restart it is seeded with the keys the
// previous run left, so rows the AM did not re-send are erased.
//
// Thread-safety: none; the attempt's mutex guards it.
#pragma once

#include <map>
#include <set>
#include <span>
#include <string>

#include "base/result.h"
#include "rm/apps/app_store.h"
#include "rm/recovery/attempt_asks_record.h"
#include "rm/scheduling/ask_table.h"

namespace spindle::rm {

class StoredAskRows {
 public:
  static constexpr char kTableRow[] = "table";
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
  void Granted(const GrantedContainer& container, AttemptRowChanges* changes);
  // No-op for a container that has no row.
  void Completed(const ContainerId& id, AttemptRowChanges* changes);
  // Erases every row (the attempt ended).
  void EraseAll(AttemptRowChanges* changes);

  bool empty() const { return stored_.empty(); }

 private:
  // Puts `bytes` under `row` unless the store already holds them.
  void Put(const std::string& row, std::string bytes, AttemptRowChanges* changes);
  void Erase(std::map<std::string, std::string>::iterator it, AttemptRowChanges* changes);
  void EnsureTableRow(AttemptRowChanges* changes);

  // What the store holds: row key -> bytes ("" when seeded: unknown).
  std::map<std::string, std::string> stored_;
};

}  // namespace spindle::rm
