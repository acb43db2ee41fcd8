// AppStore: where the ApplicationManager makes its applications and attempts
// durable (Hadoop's RMStateStore, as the app manager sees it). The RM's
// implementation writes to the state store (rm/recovery); without recovery
// there is none and nothing is written.
//
// Contract: a call returns OK only once the record is durable (a client may
// be told), or an error and nothing was written. Calls for one application
// are made in the order its state changed.
//
// Thread-safety: implementations are thread-safe; the ApplicationManager may
// call them with its own lock held.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "rm/apps/rm_app.h"

namespace spindle::rm {

// A change to one attempt's rows (AppStore::SaveAttemptRows): rows put
// (replaced whole, by key) and rows erased. Keys and bytes are the caller's.
struct AttemptRowChanges {
  std::vector<std::pair<std::string, std::string>> put;
  std::vector<std::string> erase;

  bool empty() const { return put.empty() && erase.empty(); }
};

class AppStore {
 public:
  virtual ~AppStore() = default;
  // The application's record (everything but its attempts).
  virtual Status SaveApp(const RmApp& app) = 0;
  // One attempt's record.
  virtual Status SaveAttempt(const RmApp& app, const RmAttempt& attempt) = 0;
  // The application and all its attempts are gone for good.
  virtual Status RemoveApp(const ApplicationId& app) = 0;
  // Application sequence numbers up to `last` may have been handed out under
  // this activation's cluster timestamp. (Each activation takes a later
  // timestamp and starts its sequence again, so ids never repeat.)
  virtual Status ReserveAppIds(int32_t last) = 0;
  // The RM's table of what a live attempt still asks for (opaque bytes of
  // the AM service), replaced whole; empty bytes remove it. A restarted RM
  // uses it to tell re-sent asks from new ones. Exempt from the contract
  // above: not synced, as it changes with every allocation; it survives a
  // crash of the process, and its loss with the machine costs at most
  // containers granted again.
  virtual Status SaveAsks(const ApplicationAttemptId& attempt, const std::string& bytes) = 0;
  // The same state kept as rows that change in place (what an allocate
  // changed, not the whole table): one call is one batch. Same durability
  // as SaveAsks. A row key is any non-empty string.
  virtual Status SaveAttemptRows(const ApplicationAttemptId& attempt,
                                 const AttemptRowChanges& changes) = 0;
};

}  // namespace spindle::rm
