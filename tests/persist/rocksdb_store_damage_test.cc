// RocksDbStateStore never starts on less than it acknowledged: write-ahead
// log damage, a deleted CURRENT, a garbled mark. Each case either recovers
// every acknowledged record or is refused with a message naming the file and
// the two ways out, the directory left byte for byte as it was.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "persist/acknowledged_mark.h"
#include "persist/rocksdb_state_store.h"
#include "tests/persist/dir_snapshot.h"
#include "tests/persist/temp_dir.h"

namespace spindle::persist {
namespace {

namespace fs = std::filesystem;

std::string AppId(int i) { return "application_1_" + std::to_string(1000 + i); }

class RocksDbStoreDamageTest : public testing::Test {
 protected:
  StateStoreOptions Options() const {
    StateStoreOptions o;
    o.path = dir_.Sub("store");
    return o;
  }
  // `synced` applications, acknowledged, then `unsynced` batches that are
  // not: all in the write-ahead log only (the memtable is never flushed).
  void Fill(int synced, int unsynced = 0) {
    RocksDbStateStore store(Options());
    ASSERT_TRUE(store.Open().ok());
    for (int i = 0; i < synced; ++i) {
      ASSERT_TRUE(store.PutApplication(AppId(i), std::string(200, 'a' + i % 26)).ok());
    }
    for (int i = 0; i < unsynced; ++i) {
      StoreBatch b;
      b.set_sync(false);
      b.PutAttempt(AppId(0), "asks_" + std::to_string(i), std::string(300, 'x'));
      ASSERT_TRUE(store.Apply(b).ok());
    }
  }
  std::vector<fs::path> Files(std::string_view suffix) const {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(Options().path)) {
      const std::string name = e.path().filename().string();
      if (name.size() >= suffix.size() &&
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
        out.push_back(e.path());
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  fs::path LiveWal() const {
    auto wals = Files(".log");
    EXPECT_FALSE(wals.empty());
    return wals.empty() ? fs::path() : wals.back();
  }
  // Open() is refused with Corruption naming each of `mentions`, the way
  // out, and the files are unchanged.
  void ExpectRefused(const std::vector<std::string>& mentions) {
    const auto before = DirSnapshot(Options().path);
    RocksDbStateStore store(Options());
    const Status st = store.Open();
    EXPECT_EQ(st.code(), Status::Code::kCorruption) << st.ToString();
    for (const auto& m : mentions) {
      EXPECT_NE(st.message().find(m), std::string::npos) << m << " not in " << st.ToString();
    }
    EXPECT_NE(st.message().find("--format-state-store"), std::string::npos) << st.ToString();
    EXPECT_NE(st.message().find("restore the directory from a copy"), std::string::npos)
        << st.ToString();
    EXPECT_EQ(DirSnapshot(Options().path), before) << "a refused store was modified";
    EXPECT_EQ(store.PutApplication("x", "y").code(), Status::Code::kUnavailable);
  }
  // Opens the store and returns how many of the first `n` applications it has.
  int Recovered(int n) {
    RocksDbStateStore store(Options());
    const Status st = store.Open();
    EXPECT_TRUE(st.ok()) << st.ToString();
    if (!st.ok()) return -1;
    auto loaded = store.Load();
    EXPECT_TRUE(loaded.ok());
    int found = 0;
    for (int i = 0; i < n; ++i) found += loaded->applications.count(AppId(i)) > 0 ? 1 : 0;
    return found;
  }

  TempDir dir_;
};

TEST_F(RocksDbStoreDamageTest, UndamagedStoreRecoversEveryAcknowledgedWrite) {
  ASSERT_NO_FATAL_FAILURE(Fill(60));
  EXPECT_EQ(Recovered(60), 60);
  // Twice: the first reopen moved the log into a table and started a new one.
  EXPECT_EQ(Recovered(60), 60);
  EXPECT_FALSE(fs::exists(Options().path + "/LOG")) << "RocksDB's LOG belongs in the RM's log";
}

TEST_F(RocksDbStoreDamageTest, FlippedBytesInTheLogAreRefused) {
  ASSERT_NO_FATAL_FAILURE(Fill(60));
  const fs::path wal = LiveWal();
  {
    std::fstream f(wal, std::ios::in | std::ios::out | std::ios::binary);
    const auto size = fs::file_size(wal);
    f.seekg(static_cast<std::streamoff>(size / 2));
    std::string bytes(16, '\0');
    f.read(bytes.data(), 16);
    for (char& c : bytes) c = static_cast<char>(~c);
    f.seekp(static_cast<std::streamoff>(size / 2));
    f.write(bytes.data(), 16);
  }
  ExpectRefused({Options().path, wal.filename().string(), "lost writes it acknowledged"});
}

TEST_F(RocksDbStoreDamageTest, TruncatedLogIsRefused) {
  ASSERT_NO_FATAL_FAILURE(Fill(60));
  const fs::path wal = LiveWal();
  fs::resize_file(wal, fs::file_size(wal) * 6 / 10);
  ExpectRefused({Options().path, "lost writes it acknowledged", "acknowledged up to"});
}

TEST_F(RocksDbStoreDamageTest, LogCutAtARecordBoundaryIsRefused) {
  // One application per log record: cutting the last whole record leaves a
  // log RocksDB reads without complaint; only the mark knows.
  ASSERT_NO_FATAL_FAILURE(Fill(10));
  ASSERT_NO_FATAL_FAILURE(Fill(0));  // moves the log into a table
  const auto before = fs::file_size(LiveWal());
  {
    RocksDbStateStore store(Options());
    ASSERT_TRUE(store.Open().ok());
    ASSERT_TRUE(store.PutApplication(AppId(10), "eleventh").ok());
  }
  fs::resize_file(LiveWal(), before);
  ExpectRefused({"lost writes it acknowledged", "ends early"});
}

// Acknowledged applications in an older, closed log (another record kind
// filled its memtable, was flushed and moved the store to a new log): damage
// there is found too.
TEST_F(RocksDbStoreDamageTest, DamagedOlderLogIsRefused) {
  StateStoreOptions o = Options();
  o.write_buffer_bytes = 64 << 10;
  {
    RocksDbStateStore store(o);
    ASSERT_TRUE(store.Open().ok());
    for (int i = 0; i < 20; ++i) ASSERT_TRUE(store.PutApplication(AppId(i), "app").ok());
    for (int i = 0; i < 100; ++i) {
      ASSERT_TRUE(
          store.PutAttempt(AppId(0), "attempt_" + std::to_string(i), std::string(2048, 'a')).ok());
    }
  }
  const auto wals = Files(".log");
  ASSERT_GE(wals.size(), 2u) << "the attempts' flush did not start a new log";
  const fs::path older = wals.front();
  {
    std::fstream f(older, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(fs::file_size(older) / 3));
    f.write("XXXXXXXXXXXXXXXX", 16);
  }
  ExpectRefused({Options().path, older.filename().string()});
}

TEST_F(RocksDbStoreDamageTest, DeletedLogIsRefused) {
  ASSERT_NO_FATAL_FAILURE(Fill(30));
  for (const auto& wal : Files(".log")) fs::remove(wal);
  ExpectRefused({"lost writes it acknowledged", "no write-ahead log"});
}

TEST_F(RocksDbStoreDamageTest, DeletedCurrentIsRefused) {
  ASSERT_NO_FATAL_FAILURE(Fill(30));
  fs::remove(Options().path + "/CURRENT");
  ExpectRefused({Options().path + "/CURRENT is missing", "MANIFEST-"});
}

TEST_F(RocksDbStoreDamageTest, DeletedCurrentAndLogAreRefused) {
  ASSERT_NO_FATAL_FAILURE(Fill(30));
  ASSERT_NO_FATAL_FAILURE(Fill(0));  // some records in a table file
  fs::remove(Options().path + "/CURRENT");
  for (const auto& wal : Files(".log")) fs::remove(wal);
  ExpectRefused({Options().path + "/CURRENT is missing"});
}

TEST_F(RocksDbStoreDamageTest, GarbledMarkIsRefused) {
  ASSERT_NO_FATAL_FAILURE(Fill(5));
  std::ofstream(AcknowledgedMark::PathIn(Options().path), std::ios::binary | std::ios::trunc)
      << "garbage";
  ExpectRefused({std::string(AcknowledgedMark::kFileName), "garbled"});
}

// A torn record at the end of the log that was never acknowledged (a crash
// in the middle of an unsynced write) is not a reason to refuse: every
// acknowledged record is there.
TEST_F(RocksDbStoreDamageTest, TornUnacknowledgedTailIsDropped) {
  ASSERT_NO_FATAL_FAILURE(Fill(20, /*unsynced=*/3));
  const fs::path wal = LiveWal();
  fs::resize_file(wal, fs::file_size(wal) - 40);
  EXPECT_EQ(Recovered(20), 20);
}

TEST_F(RocksDbStoreDamageTest, FlippedUnacknowledgedTailIsDropped) {
  ASSERT_NO_FATAL_FAILURE(Fill(20, /*unsynced=*/3));
  const fs::path wal = LiveWal();
  {
    std::fstream f(wal, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(fs::file_size(wal) - 100));
    f.write("XXXXXXXXXXXXXXXX", 16);
  }
  EXPECT_EQ(Recovered(20), 20);
}

TEST_F(RocksDbStoreDamageTest, FormatRecoversARefusedStore) {
  ASSERT_NO_FATAL_FAILURE(Fill(30));
  fs::remove(Options().path + "/CURRENT");
  RocksDbStateStore store(Options());
  ASSERT_FALSE(store.Open().ok());
  ASSERT_TRUE(store.Format().ok());
  ASSERT_TRUE(store.Open().ok());
  auto loaded = store.Load();
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->RecordCount(), 0u);
  ASSERT_TRUE(store.PutApplication(AppId(0), "again").ok());
  ASSERT_TRUE(store.Close().ok());
  EXPECT_EQ(Recovered(1), 1);
}

TEST_F(RocksDbStoreDamageTest, StoreWithoutAMarkGetsOne) {
  // A store written before marks existed opens, and is protected from then on.
  ASSERT_NO_FATAL_FAILURE(Fill(10));
  fs::remove(AcknowledgedMark::PathIn(Options().path));
  EXPECT_EQ(Recovered(10), 10);
  auto mark = AcknowledgedMark::Read(Options().path);
  ASSERT_TRUE(mark.ok());
  EXPECT_TRUE(mark->has_value());
}

TEST(AcknowledgedMarkTest, AdvancesAndReadsBack) {
  TempDir dir;
  auto absent = AcknowledgedMark::Read(dir.path());
  ASSERT_TRUE(absent.ok());
  EXPECT_FALSE(absent->has_value());
  auto mark = AcknowledgedMark::Open(dir.path(), 7);
  ASSERT_TRUE(mark.ok()) << mark.status().ToString();
  EXPECT_EQ(*AcknowledgedMark::Read(dir.path()).value(), 7u);
  ASSERT_TRUE((*mark)->Advance(42).ok());
  ASSERT_TRUE((*mark)->Advance(40).ok());  // never goes back
  EXPECT_EQ(*AcknowledgedMark::Read(dir.path()).value(), 42u);
}

}  // namespace
}  // namespace spindle::persist
