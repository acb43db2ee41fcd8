#include "rm/recovery/store_failure_guard.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "rm/recovery/store_fenced.h"

namespace spindle::rm {
namespace {

// A store whose writes answer what the test says.
class ScriptedStore final : public persist::StateStore {
 public:
  explicit ScriptedStore(Status* next) : next_(next) {}
  Status Open() override { return Status::OK(); }
  Status Close() override { return Status::OK(); }
  Result<persist::LoadedState> Load() override { return persist::LoadedState(); }
  Status Apply(const persist::StoreBatch&) override {
    ++applied;
    return Status(*next_);
  }
  Status Format() override { return Status::OK(); }
  int applied = 0;

 private:
  Status* next_;
};

struct Guarded {
  explicit Guarded(StoreFailureAction action) {
    guard = std::make_unique<StoreFailureGuard>(
        std::make_unique<ScriptedStore>(&next), "the store", action, [this] { ++exits; },
        [this](const std::string& reason) { fenced.push_back(reason); });
  }
  Status Put() { return guard->PutApplication("application_1_1", "x"); }
  Status next;
  int exits = 0;
  std::vector<std::string> fenced;
  std::unique_ptr<StoreFailureGuard> guard;
};

TEST(StoreFailureGuardTest, RefuseWritesReportsOnceAndRecovers) {
  Guarded g(StoreFailureAction::kRefuseWrites);
  EXPECT_TRUE(g.Put().ok());
  EXPECT_FALSE(g.guard->failing());
  g.next = Status::IoError("No space left on device");
  EXPECT_EQ(g.Put().code(), Status::Code::kIoError);  // the caller sees the failure
  EXPECT_EQ(g.Put().code(), Status::Code::kIoError);
  EXPECT_TRUE(g.guard->failing());
  EXPECT_EQ(g.exits, 0);
  g.next = Status::OK();
  EXPECT_TRUE(g.Put().ok());
  EXPECT_FALSE(g.guard->failing());
}

TEST(StoreFailureGuardTest, ExitIsCalledOnceOnAStoreFailure) {
  Guarded g(StoreFailureAction::kExit);
  g.next = Status::InvalidArgument("bad batch");  // not the store's failure
  EXPECT_FALSE(g.Put().ok());
  g.next = Status::Unavailable("not open");
  EXPECT_FALSE(g.Put().ok());
  EXPECT_EQ(g.exits, 0);
  g.next = Status::IoError("Input/output error");
  EXPECT_FALSE(g.Put().ok());
  EXPECT_FALSE(g.Put().ok());
  EXPECT_EQ(g.exits, 1);
}

// A store another RM took over is not a store failure: the fenced hook runs
// (once until a write succeeds again), neither exit nor refusing writes.
TEST(StoreFailureGuardTest, AFencedStoreCallsTheFencedHookNotExit) {
  Guarded g(StoreFailureAction::kExit);
  g.next = StoreFencedStatus("the root's ACL was taken over");
  EXPECT_TRUE(IsStoreFenced(g.Put()));
  EXPECT_TRUE(IsStoreFenced(g.Put()));
  EXPECT_EQ(g.exits, 0);
  EXPECT_FALSE(g.guard->failing());
  ASSERT_EQ(g.fenced.size(), 1u);
  EXPECT_NE(g.fenced[0].find("taken over"), std::string::npos) << g.fenced[0];
  g.next = Status::OK();  // active again after a new election
  EXPECT_TRUE(g.Put().ok());
  g.next = StoreFencedStatus("again");
  EXPECT_FALSE(g.Put().ok());
  EXPECT_EQ(g.fenced.size(), 2u);
}

}  // namespace
}  // namespace spindle::rm
