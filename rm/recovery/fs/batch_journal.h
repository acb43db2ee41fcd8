// The FileSystem store's batch journal: Hadoop's FileSystemRMStateStore
// writes each record on its own, but persist::StateStore promises that a
// StoreBatch applies whole or not at all across a crash. So the store first
// writes the batch to SpindleRoot/BatchJournal (Write: .tmp then rename),
// then applies its records in Hadoop's layout, then deletes the journal; an
// Open() that finds a journal applies it again (every operation of a batch
// is idempotent).
//
// The journal also holds the EpochNode bytes as they were when it was
// written: a journal found under another EpochNode (neither those bytes nor
// the epoch the batch itself sets) means another RM (a Java RM knows nothing
// of the journal) has started on the store since, and its records must not
// be overwritten with the older batch; it is dropped.
//
// Format: "SPJ1", the epoch bytes, the operations (each field length- or
// width-prefixed, big-endian), a CRC32 of everything before it.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "persist/state_store.h"

namespace spindle::rm::fsstore {

struct JournalEntry {
  persist::StoreBatch batch;
  // The EpochNode file's bytes when the batch was written ("" if absent).
  std::string epoch_node;
};

std::string EncodeJournal(const persist::StoreBatch& batch, std::string_view epoch_node);
// Corruption for bytes EncodeJournal cannot have made (a torn or damaged
// journal).
Result<JournalEntry> DecodeJournal(std::string_view bytes);

}  // namespace spindle::rm::fsstore
