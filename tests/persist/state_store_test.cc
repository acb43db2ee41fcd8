// The StateStore contract, run against every implementation.
#include "persist/state_store.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "persist/memory_state_store.h"
#include "persist/rocksdb_state_store.h"
#include "tests/persist/temp_dir.h"

namespace spindle::persist {
namespace {

#define ASSERT_OK(expr)                                     \
  do {                                                      \
    const ::spindle::Status _s = (expr);                    \
    ASSERT_TRUE(_s.ok()) << #expr << ": " << _s.ToString(); \
  } while (false)

// How each implementation is made and "restarted".
struct MemoryImpl {
  static std::unique_ptr<StateStore> Make(const TempDir&) {
    return std::make_unique<MemoryStateStore>();
  }
  // Memory survives Close()/Open() of the same object, as disk survives a
  // restart.
  static void Reopen(const TempDir&, std::unique_ptr<StateStore>* store) {
    ASSERT_OK((*store)->Close());
    ASSERT_OK((*store)->Open());
  }
};

struct RocksDbImpl {
  static std::unique_ptr<StateStore> Make(const TempDir& dir) {
    StateStoreOptions options;
    options.path = dir.Sub("store");
    return std::make_unique<RocksDbStateStore>(options);
  }
  static void Reopen(const TempDir& dir, std::unique_ptr<StateStore>* store) {
    store->reset();  // a new process would start from the files alone
    *store = Make(dir);
    ASSERT_OK((*store)->Open());
  }
};

template <typename Impl>
class StateStoreTest : public testing::Test {
 protected:
  void SetUp() override {
    store_ = Impl::Make(dir_);
    ASSERT_OK(store_->Open());
  }
  void Reopen() { Impl::Reopen(dir_, &store_); }
  LoadedState MustLoad() {
    auto loaded = store_->Load();
    EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
    return loaded.ok() ? *loaded : LoadedState();
  }

  TempDir dir_;
  std::unique_ptr<StateStore> store_;
};

using Implementations = testing::Types<MemoryImpl, RocksDbImpl>;
class ImplNames {
 public:
  template <typename T>
  static std::string GetName(int) {
    return std::is_same_v<T, MemoryImpl> ? "Memory" : "RocksDb";
  }
};
TYPED_TEST_SUITE(StateStoreTest, Implementations, ImplNames);

TYPED_TEST(StateStoreTest, StartsEmpty) { EXPECT_EQ(this->MustLoad(), LoadedState()); }

TYPED_TEST(StateStoreTest, EveryRecordKindRoundTripsAcrossReopen) {
  // Values are arbitrary bytes, NULs included.
  const std::string app_bytes("app\0bytes\xff", 10);
  StateStore& s = *this->store_;
  ASSERT_OK(s.PutApplication("application_1_1", app_bytes));
  ASSERT_OK(s.PutAttempt("application_1_1", "appattempt_1_1_000001", "a1"));
  ASSERT_OK(s.PutAttempt("application_1_1", "appattempt_1_1_000002", "a2"));
  ASSERT_OK(s.PutMasterKey("amrm", -7, "k-7"));
  ASSERT_OK(s.PutMasterKey("amrm", 3, "k3"));
  ASSERT_OK(s.PutMasterKey("delegation", 3, "d3"));
  ASSERT_OK(s.SetClusterValue(ClusterField::kClusterTimestamp, 1700000000123));
  ASSERT_OK(s.SetClusterValue(ClusterField::kAppIdCounter, 42));
  ASSERT_OK(s.SetClusterValue(ClusterField::kEpoch, 5));
  ASSERT_OK(s.SetClusterValue(ClusterField::kQueueConfigVersion, 9));
  ASSERT_OK(s.SetClusterValue(ClusterField::kDelegationTokenSequence, -1));
  ASSERT_OK(s.PutNode("host1:8041", "decommissioned"));
  ASSERT_OK(s.PutNode(std::string("odd\0node", 8), "excluded"));

  LoadedState want;
  want.applications["application_1_1"] = app_bytes;
  want.attempts["application_1_1"]["appattempt_1_1_000001"] = "a1";
  want.attempts["application_1_1"]["appattempt_1_1_000002"] = "a2";
  want.master_keys[{"amrm", -7}] = "k-7";
  want.master_keys[{"amrm", 3}] = "k3";
  want.master_keys[{"delegation", 3}] = "d3";
  want.cluster[ClusterField::kClusterTimestamp] = 1700000000123;
  want.cluster[ClusterField::kAppIdCounter] = 42;
  want.cluster[ClusterField::kEpoch] = 5;
  want.cluster[ClusterField::kQueueConfigVersion] = 9;
  want.cluster[ClusterField::kDelegationTokenSequence] = -1;
  want.nodes["host1:8041"] = "decommissioned";
  want.nodes[std::string("odd\0node", 8)] = "excluded";
  EXPECT_EQ(this->MustLoad(), want);
  EXPECT_EQ(want.RecordCount(), 13u);
  this->Reopen();
  EXPECT_EQ(this->MustLoad(), want);

  // Overwrites and single deletes of each kind.
  ASSERT_OK(this->store_->PutApplication("application_1_1", "v2"));
  ASSERT_OK(this->store_->DeleteAttempt("application_1_1", "appattempt_1_1_000001"));
  ASSERT_OK(this->store_->DeleteMasterKey("amrm", -7));
  ASSERT_OK(this->store_->SetClusterValue(ClusterField::kAppIdCounter, 43));
  ASSERT_OK(this->store_->DeleteNode("host1:8041"));
  want.applications["application_1_1"] = "v2";
  want.attempts["application_1_1"].erase("appattempt_1_1_000001");
  want.master_keys.erase({"amrm", -7});
  want.cluster[ClusterField::kAppIdCounter] = 43;
  want.nodes.erase("host1:8041");
  EXPECT_EQ(this->MustLoad(), want);
  this->Reopen();
  EXPECT_EQ(this->MustLoad(), want);
}

TYPED_TEST(StateStoreTest, RemoveApplicationRemovesItsAttemptsOnly) {
  StateStore& s = *this->store_;
  ASSERT_OK(s.PutApplication("application_1_1", "one"));
  for (const char* a :
       {"appattempt_1_1_000001", "appattempt_1_1_000002", "appattempt_1_1_000003"}) {
    ASSERT_OK(s.PutAttempt("application_1_1", a, "x"));
  }
  // A prefix-sharing id: must survive.
  ASSERT_OK(s.PutApplication("application_1_10", "ten"));
  ASSERT_OK(s.PutAttempt("application_1_10", "appattempt_1_10_000001", "y"));

  ASSERT_OK(s.RemoveApplication("application_1_1"));
  LoadedState want;
  want.applications["application_1_10"] = "ten";
  want.attempts["application_1_10"]["appattempt_1_10_000001"] = "y";
  EXPECT_EQ(this->MustLoad(), want);
  this->Reopen();
  EXPECT_EQ(this->MustLoad(), want);
  // Removing an unknown application is not an error (idempotent retries).
  ASSERT_OK(this->store_->RemoveApplication("application_9_9"));
  // An attempt written after the removal is a new record.
  ASSERT_OK(this->store_->PutAttempt("application_1_1", "appattempt_1_1_000004", "z"));
  want.attempts["application_1_1"]["appattempt_1_1_000004"] = "z";
  EXPECT_EQ(this->MustLoad(), want);
}

TYPED_TEST(StateStoreTest, ApplyIsAllOrNothing) {
  StoreBatch bad;
  bad.PutApplication("application_1_1", "a");
  bad.PutAttempt("application_1_1", "appattempt_1_1_000001", "b");
  bad.PutNode("", "empty node id is invalid");
  const Status st = this->store_->Apply(bad);
  EXPECT_EQ(st.code(), Status::Code::kInvalidArgument) << st.ToString();
  EXPECT_EQ(this->MustLoad(), LoadedState());

  StoreBatch nul;
  nul.PutApplication(std::string("app\0x", 5), "a");
  EXPECT_EQ(this->store_->Apply(nul).code(), Status::Code::kInvalidArgument);

  // A whole submission as one batch; the later put on a key wins.
  StoreBatch good;
  good.PutApplication("application_1_1", "first");
  good.PutAttempt("application_1_1", "appattempt_1_1_000001", "attempt");
  good.SetClusterValue(ClusterField::kAppIdCounter, 1);
  good.PutMasterKey("amrm", 1, "key");
  good.PutApplication("application_1_1", "second");
  good.DeleteNode("never-written");
  ASSERT_OK(this->store_->Apply(good));
  ASSERT_OK(this->store_->Apply(StoreBatch()));
  this->Reopen();
  LoadedState want;
  want.applications["application_1_1"] = "second";
  want.attempts["application_1_1"]["appattempt_1_1_000001"] = "attempt";
  want.cluster[ClusterField::kAppIdCounter] = 1;
  want.master_keys[{"amrm", 1}] = "key";
  EXPECT_EQ(this->MustLoad(), want);

  // Remove-then-put in one batch leaves only what the batch put last.
  StoreBatch replace;
  replace.RemoveApplication("application_1_1");
  replace.PutApplication("application_1_1", "third");
  ASSERT_OK(this->store_->Apply(replace));
  want.applications["application_1_1"] = "third";
  want.attempts.clear();
  EXPECT_EQ(this->MustLoad(), want);
}

TYPED_TEST(StateStoreTest, CallsOnAClosedStoreAreUnavailable) {
  ASSERT_OK(this->store_->Close());
  ASSERT_OK(this->store_->Close());
  EXPECT_EQ(this->store_->PutApplication("a", "b").code(), Status::Code::kUnavailable);
  EXPECT_EQ(this->store_->Load().status().code(), Status::Code::kUnavailable);
  ASSERT_OK(this->store_->Open());
  ASSERT_OK(this->store_->Open());  // already open: no-op
  ASSERT_OK(this->store_->PutApplication("a", "b"));
}

TYPED_TEST(StateStoreTest, FormatWipesEverything) {
  ASSERT_OK(this->store_->PutApplication("application_1_1", "a"));
  ASSERT_OK(this->store_->PutAttempt("application_1_1", "appattempt_1_1_000001", "b"));
  ASSERT_OK(this->store_->SetClusterValue(ClusterField::kEpoch, 3));
  ASSERT_OK(this->store_->PutNode("n", "x"));
  ASSERT_OK(this->store_->PutMasterKey("f", 1, "k"));
  ASSERT_OK(this->store_->Format());
  EXPECT_EQ(this->MustLoad(), LoadedState());
  ASSERT_OK(this->store_->PutApplication("application_2_1", "after"));
  this->Reopen();
  LoadedState want;
  want.applications["application_2_1"] = "after";
  EXPECT_EQ(this->MustLoad(), want);

  // Format of a closed store: the next Open() starts empty.
  ASSERT_OK(this->store_->Close());
  ASSERT_OK(this->store_->Format());
  ASSERT_OK(this->store_->Open());
  EXPECT_EQ(this->MustLoad(), LoadedState());
}

TYPED_TEST(StateStoreTest, ConcurrentWritersLoseNothing) {
  constexpr int kThreads = 8;
  constexpr int kAppsPerThread = 40;
  std::vector<std::thread> threads;
  std::vector<Status> results(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([this, t, &results] {
      for (int i = 0; i < kAppsPerThread; ++i) {
        const std::string app = "application_" + std::to_string(t) + "_" + std::to_string(i);
        StoreBatch b;
        b.PutApplication(app, app);
        b.PutAttempt(app, "attempt_1", app + "/1");
        Status s = this->store_->Apply(b);
        if (s.ok()) s = this->store_->PutNode(app, "n");
        if (s.ok()) s = this->store_->SetClusterValue(ClusterField::kAppIdCounter, i);
        if (!s.ok()) {
          results[t] = s;
          return;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  for (const Status& s : results) ASSERT_OK(s);
  this->Reopen();
  const LoadedState got = this->MustLoad();
  EXPECT_EQ(got.applications.size(), size_t{kThreads * kAppsPerThread});
  EXPECT_EQ(got.attempts.size(), size_t{kThreads * kAppsPerThread});
  EXPECT_EQ(got.nodes.size(), size_t{kThreads * kAppsPerThread});
  for (const auto& [app, bytes] : got.applications) {
    EXPECT_EQ(bytes, app);
    ASSERT_EQ(got.attempts.count(app), 1u);
    EXPECT_EQ(got.attempts.at(app).at("attempt_1"), app + "/1");
  }
  ASSERT_EQ(got.cluster.count(ClusterField::kAppIdCounter), 1u);
}

// Close()/Open() while writers run: a write is either refused (Unavailable)
// or kept; none is lost or half-applied, and nothing crashes.
TYPED_TEST(StateStoreTest, CloseAndOpenDuringWritesLoseNothingAcknowledged) {
  constexpr int kThreads = 4;
  constexpr int kAppsPerThread = 60;
  std::vector<std::thread> threads;
  std::vector<std::vector<std::string>> acked(kThreads);
  std::vector<Status> errors(kThreads);
  std::atomic<int> done{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([this, t, &acked, &errors, &done] {
      for (int i = 0; i < kAppsPerThread; ++i) {
        const std::string app = "application_" + std::to_string(t) + "_" + std::to_string(i);
        StoreBatch b;
        b.PutApplication(app, app);
        b.PutAttempt(app, "attempt_1", app);
        const Status s = this->store_->Apply(b);
        if (s.ok()) {
          acked[t].push_back(app);
        } else if (s.code() != Status::Code::kUnavailable) {
          errors[t] = s;
          break;
        }
      }
      done.fetch_add(1);
    });
  }
  // A bounded number of restarts (each RocksDB open costs some fsyncs).
  for (int cycle = 0; cycle < 10 && done.load() < kThreads; ++cycle) {
    ASSERT_OK(this->store_->Close());
    ASSERT_OK(this->store_->Open());
  }
  for (auto& th : threads) th.join();
  for (const Status& s : errors) ASSERT_OK(s);
  this->Reopen();
  const LoadedState got = this->MustLoad();
  size_t total = 0;
  for (const auto& apps : acked) {
    total += apps.size();
    for (const auto& app : apps) {
      EXPECT_EQ(got.applications.count(app), 1u) << app;
      EXPECT_EQ(got.attempts.count(app), 1u) << app;
    }
  }
  // Whatever was applied was applied whole.
  EXPECT_EQ(got.applications.size(), got.attempts.size());
  EXPECT_GE(got.applications.size(), total);
}

}  // namespace
}  // namespace spindle::persist
