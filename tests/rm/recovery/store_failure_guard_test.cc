#include "rm/recovery/store_failure_guard.h"

#include <gtest/gtest.h>

#include <memory>
#include <utility>

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
    guard = std::make_unique<StoreFailureGuard>(std::make_unique<ScriptedStore>(&next), "the store",
                                                action, [this] { ++exits; });
  }
  Status Put() { return guard->PutApplication("application_1_1", "x"); }
  Status next;
  int exits = 0;
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

}  // namespace
}  // namespace spindle::rm
