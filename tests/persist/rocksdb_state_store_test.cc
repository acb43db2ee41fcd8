// RocksDbStateStore beyond the shared contract: format versions, refusing
// bad stores without touching them, path errors and bounded size.
#include "persist/rocksdb_state_store.h"

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "persist/keys.h"
#include "tests/persist/dir_snapshot.h"
#include "tests/persist/temp_dir.h"

namespace spindle::persist {
namespace {

namespace fs = std::filesystem;

#define ASSERT_OK(expr)                                     \
  do {                                                      \
    const ::spindle::Status _s = (expr);                    \
    ASSERT_TRUE(_s.ok()) << #expr << ": " << _s.ToString(); \
  } while (false)

uint64_t DirBytes(const std::string& dir) {
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec)) {
    if (entry.is_regular_file(ec)) total += entry.file_size(ec);
  }
  return total;
}

// Opens the store's database directly, with whatever column families it has.
class RawDb {
 public:
  explicit RawDb(const std::string& path) {
    std::vector<std::string> names;
    rocksdb::Status s = rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), path, &names);
    EXPECT_TRUE(s.ok()) << s.ToString();
    std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
    for (const auto& n : names) descriptors.emplace_back(n, rocksdb::ColumnFamilyOptions());
    s = rocksdb::DB::Open(rocksdb::Options(), path, descriptors, &handles_, &db_);
    EXPECT_TRUE(s.ok()) << s.ToString();
    for (size_t i = 0; i < names.size(); ++i) by_name_[names[i]] = handles_[i];
  }
  ~RawDb() {
    if (db_ == nullptr) return;
    for (auto* h : handles_) db_->DestroyColumnFamilyHandle(h).PermitUncheckedError();
    db_->Close().PermitUncheckedError();
    delete db_;
  }
  rocksdb::DB* db() { return db_; }
  rocksdb::ColumnFamilyHandle* cf(const std::string& name) { return by_name_.at(name); }
  rocksdb::ColumnFamilyHandle* default_cf() { return cf(rocksdb::kDefaultColumnFamilyName); }

 private:
  rocksdb::DB* db_ = nullptr;
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
  std::map<std::string, rocksdb::ColumnFamilyHandle*> by_name_;
};

class RocksDbStateStoreTest : public testing::Test {
 protected:
  StateStoreOptions Options() const {
    StateStoreOptions o;
    o.path = dir_.Sub("store");
    return o;
  }
  // A store holding one application, closed again.
  void WriteOneApp() {
    RocksDbStateStore store(Options());
    ASSERT_OK(store.Open());
    ASSERT_OK(store.PutApplication("application_1_1", "app"));
    ASSERT_OK(store.PutAttempt("application_1_1", "appattempt_1_1_000001", "attempt"));
  }
  void SetRawVersion(const std::string& value) {
    RawDb raw(Options().path);
    ASSERT_TRUE(
        raw.db()
            ->Put(rocksdb::WriteOptions(), raw.default_cf(), std::string(kFormatVersionKey), value)
            .ok());
  }
  // Open() must fail with `code`, name the path and, intact, leave the files.
  void ExpectRefused(Status::Code code, const std::vector<std::string>& mentions) {
    const auto before = DirSnapshot(Options().path);
    RocksDbStateStore store(Options());
    const Status st = store.Open();
    EXPECT_EQ(st.code(), code) << st.ToString();
    EXPECT_NE(st.message().find(Options().path), std::string::npos) << st.ToString();
    for (const auto& m : mentions) {
      EXPECT_NE(st.message().find(m), std::string::npos) << m << " not in " << st.ToString();
    }
    EXPECT_EQ(DirSnapshot(Options().path), before) << "a refused store was modified";
    EXPECT_EQ(store.PutApplication("x", "y").code(), Status::Code::kUnavailable);
  }

  TempDir dir_;
};

TEST_F(RocksDbStateStoreTest, OptionsDefaultsAreTheDocumentedOnes) {
  const StateStoreOptions o;
  EXPECT_TRUE(o.sync_writes);
  EXPECT_TRUE(o.create_if_missing);
  EXPECT_EQ(o.write_buffer_bytes, size_t{8} << 20);
  EXPECT_EQ(o.max_wal_bytes, uint64_t{64} << 20);
  EXPECT_EQ(o.deletion_compaction_window, 1000u);
  EXPECT_EQ(o.deletion_compaction_trigger, 200u);
  EXPECT_EQ(o.Validate().code(), Status::Code::kInvalidArgument);  // no path
  EXPECT_TRUE(Options().Validate().ok());
  StateStoreOptions bad = Options();
  bad.deletion_compaction_trigger = bad.deletion_compaction_window + 1;
  EXPECT_EQ(RocksDbStateStore(bad).Open().code(), Status::Code::kInvalidArgument);
}

TEST_F(RocksDbStateStoreTest, FreshDirectoryGetsTheCurrentVersion) {
  ASSERT_NO_FATAL_FAILURE(WriteOneApp());
  RawDb raw(Options().path);
  std::string version;
  ASSERT_TRUE(
      raw.db()
          ->Get(rocksdb::ReadOptions(), raw.default_cf(), std::string(kFormatVersionKey), &version)
          .ok());
  EXPECT_EQ(version, std::to_string(kFormatVersion));
}

TEST_F(RocksDbStateStoreTest, ExistingEmptyDirectoryIsInitialised) {
  fs::create_directories(Options().path);
  RocksDbStateStore store(Options());
  ASSERT_OK(store.Open());
  auto loaded = store.Load();
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->RecordCount(), 0u);
}

TEST_F(RocksDbStateStoreTest, NewerVersionIsRefusedAndLeftUntouched) {
  ASSERT_NO_FATAL_FAILURE(WriteOneApp());
  ASSERT_NO_FATAL_FAILURE(SetRawVersion(std::to_string(kFormatVersion + 1)));
  ExpectRefused(Status::Code::kNotSupported,
                {"version " + std::to_string(kFormatVersion + 1), "newer",
                 "version " + std::to_string(kFormatVersion)});
  // The records are still there for the newer Spindle.
  RawDb raw(Options().path);
  std::string value;
  ASSERT_TRUE(raw.db()
                  ->Get(rocksdb::ReadOptions(), raw.cf("applications"), "application_1_1", &value)
                  .ok());
  EXPECT_EQ(value, "app");
}

TEST_F(RocksDbStateStoreTest, GarbledVersionIsRefused) {
  ASSERT_NO_FATAL_FAILURE(WriteOneApp());
  ASSERT_NO_FATAL_FAILURE(SetRawVersion("1x"));
  ExpectRefused(Status::Code::kCorruption, {"garbled"});
}

TEST_F(RocksDbStateStoreTest, MissingVersionWithRecordsIsRefused) {
  ASSERT_NO_FATAL_FAILURE(WriteOneApp());
  {
    RawDb raw(Options().path);
    ASSERT_TRUE(
        raw.db()
            ->Delete(rocksdb::WriteOptions(), raw.default_cf(), std::string(kFormatVersionKey))
            .ok());
  }
  ExpectRefused(Status::Code::kCorruption, {"no format version"});
}

TEST_F(RocksDbStateStoreTest, UnknownColumnFamilyIsRefused) {
  ASSERT_NO_FATAL_FAILURE(WriteOneApp());
  {
    RawDb raw(Options().path);
    rocksdb::ColumnFamilyHandle* h = nullptr;
    ASSERT_TRUE(raw.db()->CreateColumnFamily(rocksdb::ColumnFamilyOptions(), "future", &h).ok());
    ASSERT_TRUE(raw.db()->DestroyColumnFamilyHandle(h).ok());
  }
  ExpectRefused(Status::Code::kNotSupported, {"future"});
}

TEST_F(RocksDbStateStoreTest, FormatRecoversARefusedStore) {
  ASSERT_NO_FATAL_FAILURE(WriteOneApp());
  ASSERT_NO_FATAL_FAILURE(SetRawVersion("99"));
  RocksDbStateStore store(Options());
  ASSERT_FALSE(store.Open().ok());
  ASSERT_OK(store.Format());
  ASSERT_OK(store.Open());
  auto loaded = store.Load();
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(*loaded, LoadedState());
}

TEST_F(RocksDbStateStoreTest, CorruptManifestIsReportedWithThePath) {
  ASSERT_NO_FATAL_FAILURE(WriteOneApp());
  bool damaged = false;
  for (const auto& entry : fs::directory_iterator(Options().path)) {
    if (entry.path().filename().string().rfind("MANIFEST-", 0) != 0) continue;
    std::ofstream out(entry.path(), std::ios::binary | std::ios::trunc);
    out << std::string(4096, '\x5a');
    damaged = true;
  }
  ASSERT_TRUE(damaged);
  RocksDbStateStore store(Options());
  const Status st = store.Open();
  EXPECT_EQ(st.code(), Status::Code::kCorruption) << st.ToString();
  EXPECT_NE(st.message().find(Options().path), std::string::npos) << st.ToString();
}

TEST_F(RocksDbStateStoreTest, PathThatIsAFileIsAClearError) {
  const std::string file = dir_.Sub("plain_file");
  std::ofstream(file) << "not a store";
  StateStoreOptions o = Options();
  o.path = file;
  Status st = RocksDbStateStore(o).Open();
  EXPECT_EQ(st.code(), Status::Code::kInvalidArgument) << st.ToString();
  EXPECT_NE(st.message().find(file), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("not a directory"), std::string::npos) << st.ToString();

  o.path = file + "/store";  // below a file: cannot be created
  st = RocksDbStateStore(o).Open();
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find(o.path), std::string::npos) << st.ToString();
}

TEST_F(RocksDbStateStoreTest, CreateIfMissingOffNeedsAnExistingStore) {
  StateStoreOptions o = Options();
  o.create_if_missing = false;
  const Status st = RocksDbStateStore(o).Open();
  EXPECT_EQ(st.code(), Status::Code::kNotFound) << st.ToString();
  EXPECT_FALSE(fs::exists(o.path));
  ASSERT_NO_FATAL_FAILURE(WriteOneApp());
  ASSERT_OK(RocksDbStateStore(o).Open());
}

// A process killed without Close() keeps every acknowledged write: nothing
// depends on a clean shutdown (the RM is SIGKILLed in the crash test).
TEST_F(RocksDbStateStoreTest, AcknowledgedWritesSurviveSigkill) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // The "threadsafe" child re-runs this test from the top with a TempDir of
  // its own; the environment (set here only if unset) carries the parent's
  // path to it.
  constexpr const char* kPathEnv = "SPINDLE_PERSIST_SIGKILL_STORE";
  setenv(kPathEnv, Options().path.c_str(), /*overwrite=*/0);
  StateStoreOptions o = Options();
  o.path = getenv(kPathEnv);
  EXPECT_EXIT(
      {
        RocksDbStateStore store(o);
        if (!store.Open().ok()) _exit(1);
        StoreBatch b;
        b.PutApplication("application_1_1", "app");
        b.PutAttempt("application_1_1", "appattempt_1_1_000001", "attempt");
        b.SetClusterValue(ClusterField::kAppIdCounter, 1);
        if (!store.Apply(b).ok()) _exit(1);
        if (!store.PutNode("host:1", "excluded").ok()) _exit(1);
        // The child's own (unused) TempDir would outlive the kill.
        std::error_code ec;
        if (Options().path != o.path) fs::remove_all(dir_.path(), ec);
        raise(SIGKILL);
      },
      testing::KilledBySignal(SIGKILL), "");
  unsetenv(kPathEnv);
  RocksDbStateStore store(o);
  ASSERT_OK(store.Open());
  auto loaded = store.Load();
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  LoadedState want;
  want.applications["application_1_1"] = "app";
  want.attempts["application_1_1"]["appattempt_1_1_000001"] = "attempt";
  want.cluster[ClusterField::kAppIdCounter] = 1;
  want.nodes["host:1"] = "excluded";
  EXPECT_EQ(*loaded, want);
}

TEST_F(RocksDbStateStoreTest, TwoStoresOnOnePathExcludeEachOther) {
  RocksDbStateStore first(Options());
  ASSERT_OK(first.Open());
  RocksDbStateStore second(Options());
  const Status st = second.Open();
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find(Options().path), std::string::npos) << st.ToString();
}

// A steady stream of short applications: written, then removed. The live
// data returns to zero and the directory does not grow with the number of
// applications ever written. Bounds are generous; nothing depends on time.
TEST_F(RocksDbStateStoreTest, SizeStaysBoundedUnderCreateAndRemove) {
  StateStoreOptions o = Options();
  o.sync_writes = false;  // durability is not what this test measures
  o.write_buffer_bytes = 256 << 10;
  o.max_wal_bytes = 1 << 20;
  RocksDbStateStore store(o);
  ASSERT_OK(store.Open());

  std::mt19937_64 rng(7);
  auto random_bytes = [&rng](size_t n) {
    std::string s(n, '\0');
    for (auto& c : s) c = static_cast<char>(rng());
    return s;
  };
  constexpr int kRounds = 40;
  constexpr int kAppsPerRound = 250;
  uint64_t written = 0;
  uint64_t max_dir = 0;
  for (int round = 0; round < kRounds; ++round) {
    for (int i = 0; i < kAppsPerRound; ++i) {
      const std::string app = "application_1_" + std::to_string(round * kAppsPerRound + i);
      StoreBatch b;
      b.PutApplication(app, random_bytes(2048));
      b.PutAttempt(app, "appattempt_1", random_bytes(1024));
      b.PutAttempt(app, "appattempt_2", random_bytes(1024));
      written += 4096;
      ASSERT_OK(store.Apply(b));
    }
    for (int i = 0; i < kAppsPerRound; ++i) {
      ASSERT_OK(
          store.RemoveApplication("application_1_" + std::to_string(round * kAppsPerRound + i)));
    }
    max_dir = std::max(max_dir, DirBytes(o.path));
  }
  auto loaded = store.Load();
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded->RecordCount(), 0u);
  ASSERT_OK(store.Close());
  const uint64_t final_dir = DirBytes(o.path);
  // ~40 MB written; one round is ~1 MB of live data at most.
  EXPECT_GE(written, uint64_t{40'000'000});
  EXPECT_LT(final_dir, written / 4) << "final " << final_dir << " of " << written;
  EXPECT_LT(max_dir, written / 2) << "peak " << max_dir << " of " << written;
  RecordProperty("written_bytes", std::to_string(written));
  RecordProperty("final_dir_bytes", std::to_string(final_dir));
  RecordProperty("peak_dir_bytes", std::to_string(max_dir));
  std::cout << "written " << written << " peak dir " << max_dir << " final dir " << final_dir
            << "\n";
}

}  // namespace
}  // namespace spindle::persist
