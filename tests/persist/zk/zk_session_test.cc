// ZkSession against a real ZooKeeper server (MiniZooKeeper).
#include "persist/zk/zk_session.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "base/mutex.h"
#include "integration/wait_for.h"
#include "persist/zk/zk_error.h"
#include "tests/persist/zk/zk_test_server.h"

namespace spindle::zk {
namespace {

using std::chrono::milliseconds;

class ZkSessionTest : public ::testing::Test {
 protected:
  static void TearDownTestSuite() { ZkTestServer::Shutdown(); }

  void SetUp() override {
    SPINDLE_REQUIRE_ZOOKEEPER();
    root_ = std::string("/") + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    session_ = OpenSession();
    ASSERT_NE(session_, nullptr);
    ASSERT_TRUE(session_->Create(root_, "", {WorldAnyone()}).ok());
  }

  std::unique_ptr<ZkSession> OpenSession(ZkSessionOptions options = {}) {
    options.connect_string = ZkTestServer::server()->connect_string();
    if (options.session_timeout == milliseconds(10000))
      options.session_timeout = milliseconds(4000);
    auto session = ZkSession::Open(std::move(options));
    EXPECT_TRUE(session.ok()) << session.status().ToString();
    return session.ok() ? std::move(*session) : nullptr;
  }

  std::string Path(const std::string& name) const { return root_ + "/" + name; }

  std::string root_;
  std::unique_ptr<ZkSession> session_;
};

TEST_F(ZkSessionTest, CreateGetSetChildrenDelete) {
  EXPECT_EQ(session_->state(), SessionState::kConnected);
  EXPECT_GT(session_->negotiated_timeout().count(), 0);
  auto created = session_->Create(Path("a"), "one", {WorldAnyone()});
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_EQ(*created, Path("a"));
  ASSERT_TRUE(session_->Create(Path("b"), "", {WorldAnyone()}).ok());

  auto node = session_->Get(Path("a"));
  ASSERT_TRUE(node.ok()) << node.status().ToString();
  EXPECT_EQ(node->data, "one");
  EXPECT_EQ(node->stat.version, 0);
  EXPECT_EQ(node->stat.ephemeral_owner, 0);

  auto stat = session_->Set(Path("a"), std::string(100000, 'x'));  // beyond the first buffer
  ASSERT_TRUE(stat.ok()) << stat.status().ToString();
  EXPECT_EQ(stat->version, 1);
  node = session_->Get(Path("a"));
  ASSERT_TRUE(node.ok());
  EXPECT_EQ(node->data, std::string(100000, 'x'));
  EXPECT_EQ(node->stat.data_length, 100000);

  auto children = session_->Children(root_);
  ASSERT_TRUE(children.ok());
  std::sort(children->begin(), children->end());
  EXPECT_EQ(*children, (std::vector<std::string>{"a", "b"}));

  EXPECT_EQ(ZkErrorOf(session_->Create(Path("a"), "", {WorldAnyone()}).status()),
            ZkError::kNodeExists);
  EXPECT_EQ(ZkErrorOf(session_->Create(Path("none/child"), "", {WorldAnyone()}).status()),
            ZkError::kNoNode);
  EXPECT_EQ(ZkErrorOf(session_->Delete(root_)), ZkError::kNotEmpty);
  EXPECT_EQ(ZkErrorOf(session_->Get(Path("none")).status()), ZkError::kNoNode);
  EXPECT_TRUE(session_->Delete(Path("a")).ok());
  auto gone = session_->Exists(Path("a"));
  ASSERT_TRUE(gone.ok());
  EXPECT_FALSE(gone->has_value());
  EXPECT_EQ(ZkErrorOf(session_->Delete(Path("a"))), ZkError::kNoNode);
}

TEST_F(ZkSessionTest, VersionsGuardSetAndDelete) {
  ASSERT_TRUE(session_->Create(Path("v"), "0", {WorldAnyone()}).ok());
  ASSERT_TRUE(session_->Set(Path("v"), "1", 0).ok());
  const Status stale = session_->Set(Path("v"), "2", 0).status();
  EXPECT_EQ(ZkErrorOf(stale), ZkError::kBadVersion) << stale.ToString();
  EXPECT_EQ(stale.java_class(), "org.apache.zookeeper.KeeperException$BadVersionException");
  EXPECT_EQ(ZkErrorOf(session_->Delete(Path("v"), 0)), ZkError::kBadVersion);
  EXPECT_EQ(session_->Get(Path("v"))->data, "1");
  EXPECT_TRUE(session_->Delete(Path("v"), 1).ok());
}

TEST_F(ZkSessionTest, SequentialNamesAscend) {
  auto first =
      session_->Create(Path("seq-"), "", {WorldAnyone()}, CreateMode::kPersistentSequential);
  auto second =
      session_->Create(Path("seq-"), "", {WorldAnyone()}, CreateMode::kPersistentSequential);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(*first, Path("seq-0000000000"));
  EXPECT_EQ(*second, Path("seq-0000000001"));
}

TEST_F(ZkSessionTest, EphemeralVanishesWhenItsSessionCloses) {
  auto owner = OpenSession();
  ASSERT_NE(owner, nullptr);
  ASSERT_TRUE(owner->Create(Path("lock"), "me", {WorldAnyone()}, CreateMode::kEphemeral).ok());
  auto seen = session_->Exists(Path("lock"));
  ASSERT_TRUE(seen.ok() && seen->has_value());
  EXPECT_EQ((*seen)->ephemeral_owner, owner->session_id().id);
  // Ephemerals take no children.
  EXPECT_EQ(ZkErrorOf(owner->Create(Path("lock/x"), "", {WorldAnyone()}).status()),
            ZkError::kNoChildrenForEphemerals);

  Mutex mu;
  std::vector<WatchEvent> events;
  auto watched = session_->Exists(Path("lock"), [&](const WatchEvent& e) {
    MutexLock lock(&mu);
    events.push_back(e);
  });
  ASSERT_TRUE(watched.ok());
  owner->Close();
  EXPECT_EQ(owner->state(), SessionState::kClosed);
  EXPECT_EQ(owner->Get(Path("lock")).status().code(), Status::Code::kAborted);
  ASSERT_TRUE(WaitFor([&] {
    MutexLock lock(&mu);
    return !events.empty();
  }));
  MutexLock lock(&mu);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, WatchEventType::kDeleted);
  EXPECT_EQ(events[0].path, Path("lock"));
  EXPECT_FALSE(session_->Exists(Path("lock"))->has_value());
}

TEST_F(ZkSessionTest, WatchesFireOnceForDataAndChildren) {
  ASSERT_TRUE(session_->Create(Path("w"), "", {WorldAnyone()}).ok());
  std::atomic<int> data_events{0};
  std::atomic<int> child_events{0};
  ASSERT_TRUE(session_
                  ->Get(Path("w"),
                        [&](const WatchEvent& e) {
                          if (e.type == WatchEventType::kDataChanged) ++data_events;
                        })
                  .ok());
  ASSERT_TRUE(session_
                  ->Children(Path("w"),
                             [&](const WatchEvent& e) {
                               if (e.type == WatchEventType::kChildrenChanged) ++child_events;
                             })
                  .ok());
  ASSERT_TRUE(session_->Set(Path("w"), "1").ok());
  ASSERT_TRUE(session_->Create(Path("w/c"), "", {WorldAnyone()}).ok());
  ASSERT_TRUE(WaitFor([&] { return data_events == 1 && child_events == 1; }));
  // One-shot: later changes go unseen. Watch events reach callbacks in the
  // order the server sent them, so once a fresh watch armed after those
  // changes has fired, any (wrong) second event would have come first.
  ASSERT_TRUE(session_->Set(Path("w"), "2").ok());
  ASSERT_TRUE(session_->Create(Path("w/d"), "", {WorldAnyone()}).ok());
  std::atomic<bool> marker{false};
  ASSERT_TRUE(session_->Get(Path("w"), [&](const WatchEvent&) { marker = true; }).ok());
  ASSERT_TRUE(session_->Set(Path("w"), "3").ok());
  ASSERT_TRUE(WaitFor([&] { return marker.load(); }));
  EXPECT_EQ(data_events, 1);
  EXPECT_EQ(child_events, 1);
}

TEST_F(ZkSessionTest, BlockingCallFromACallbackIsRefusedNotDeadlocked) {
  std::atomic<int> code{-1};
  ASSERT_TRUE(session_
                  ->Exists(Path("cb"),
                           [&](const WatchEvent&) {
                             code = static_cast<int>(session_->Get(Path("cb")).status().code());
                           })
                  .ok());
  ASSERT_TRUE(session_->Create(Path("cb"), "", {WorldAnyone()}).ok());
  ASSERT_TRUE(WaitFor([&] { return code != -1; }));
  EXPECT_EQ(code, static_cast<int>(Status::Code::kInternal));
}

TEST_F(ZkSessionTest, MultiAppliesAllOrNothing) {
  ASSERT_TRUE(session_->Create(Path("app"), "v0", {WorldAnyone()}).ok());
  // The ZKRMStateStore shape: create the fencing node, write, delete it.
  auto done = session_->Multi({
      ZkOp::Create(Path("fence"), "", {WorldAnyone()}),
      ZkOp::SetData(Path("app"), "v1", 0),
      ZkOp::Create(Path("attempt"), "a1", {WorldAnyone()}),
      ZkOp::Delete(Path("fence")),
  });
  ASSERT_TRUE(done.ok()) << done.status().ToString();
  ASSERT_EQ(done->size(), 4u);
  EXPECT_EQ((*done)[0].created_path, Path("fence"));
  ASSERT_TRUE((*done)[1].stat.has_value());
  EXPECT_EQ((*done)[1].stat->version, 1);
  EXPECT_EQ(session_->Get(Path("app"))->data, "v1");
  EXPECT_FALSE(session_->Exists(Path("fence"))->has_value());

  // A stale version in the middle: nothing of it applies.
  auto failed = session_->Multi({
      ZkOp::Create(Path("fence"), "", {WorldAnyone()}),
      ZkOp::Create(Path("new"), "", {WorldAnyone()}),
      ZkOp::SetData(Path("app"), "v2", 0),
      ZkOp::Delete(Path("fence")),
  });
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(ZkErrorOf(failed.status()), ZkError::kBadVersion);
  EXPECT_NE(failed.status().message().find("op 3 of 4: set " + Path("app")), std::string::npos)
      << failed.status().message();
  EXPECT_FALSE(session_->Exists(Path("fence"))->has_value());
  EXPECT_FALSE(session_->Exists(Path("new"))->has_value());
  EXPECT_EQ(session_->Get(Path("app"))->data, "v1");

  // A check that fails, and a delete of a missing node.
  EXPECT_EQ(ZkErrorOf(session_->Multi({ZkOp::Check(Path("app"), 7)}).status()),
            ZkError::kBadVersion);
  EXPECT_EQ(
      ZkErrorOf(
          session_->Multi({ZkOp::Check(Path("app"), 1), ZkOp::Delete(Path("missing"))}).status()),
      ZkError::kNoNode);
  EXPECT_TRUE(session_->Multi({})->empty());
}

TEST_F(ZkSessionTest, DigestAclRefusesAnotherIdentity) {
  ZkSessionOptions rm1;
  rm1.auths = {ZkAuth{"digest", "rm1:secret"}};
  auto owner = OpenSession(rm1);
  ZkSessionOptions intruder_options;
  intruder_options.auths = {ZkAuth{"digest", "rm1:wrong"}};
  auto intruder = OpenSession(intruder_options);
  auto anonymous = OpenSession();
  ASSERT_TRUE(owner && intruder && anonymous);

  // All rights for rm1, read for the world (the shape of Hadoop's
  // "digest:rm1:...:rwcda,world:anyone:r").
  auto acl = ParseZkAcls("digest:" + DigestId("rm1:secret") + ":rwcda,world:anyone:r");
  ASSERT_TRUE(acl.ok());
  ASSERT_TRUE(owner->Create(Path("guarded"), "data", *acl).ok());

  EXPECT_EQ(anonymous->Get(Path("guarded"))->data, "data");
  for (ZkSession* other : {intruder.get(), anonymous.get()}) {
    const Status refused = other->Set(Path("guarded"), "mine").status();
    EXPECT_EQ(ZkErrorOf(refused), ZkError::kNoAuth) << refused.ToString();
    EXPECT_EQ(refused.code(), Status::Code::kUnauthorized);
    EXPECT_EQ(ZkErrorOf(other->Create(Path("guarded/child"), "", {WorldAnyone()}).status()),
              ZkError::kNoAuth);
    EXPECT_EQ(ZkErrorOf(other->SetAcl(Path("guarded"), {WorldAnyone()})), ZkError::kNoAuth);
  }
  EXPECT_TRUE(owner->Set(Path("guarded"), "owner's").ok());

  auto read = owner->GetAcl(Path("guarded"));
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->acl, *acl);
  EXPECT_EQ(read->stat.aversion, 0);
  // ZooKeeper (3.6+) hides digest hashes from a reader without ADMIN there.
  auto redacted = anonymous->GetAcl(Path("guarded"));
  ASSERT_TRUE(redacted.ok()) << redacted.status().ToString();
  ASSERT_EQ(redacted->acl.size(), 2u);
  EXPECT_EQ(redacted->acl[0].id, "rm1:x");
  EXPECT_EQ(redacted->acl[1], WorldAnyone(kPermRead));

  // A stale ACL version is refused; the right one hands the node over.
  EXPECT_EQ(ZkErrorOf(owner->SetAcl(Path("guarded"), {WorldAnyone()}, 5)), ZkError::kBadVersion);
  ASSERT_TRUE(owner->SetAcl(Path("guarded"), {WorldAnyone()}, 0).ok());
  EXPECT_EQ(anonymous->GetAcl(Path("guarded"))->stat.aversion, 1);
  EXPECT_TRUE(intruder->Set(Path("guarded"), "now mine").ok());
  // An empty ACL is no ACL.
  EXPECT_EQ(ZkErrorOf(owner->Create(Path("no-acl"), "", {}).status()), ZkError::kInvalidAcl);
}

// The fencing ZKRMStateStore (3.3) builds on this client: the active takes
// the store's root node over by giving create/delete there to its own digest
// identity alone (constructZkRootNodeACL: the configured ACL less CREATE and
// DELETE, plus CREATE|DELETE for digest rm-address:random-password), and
// wraps every write in a multi that creates and deletes RM_ZK_FENCING_LOCK
// under the root. A deposed active's next write then fails as a whole.
TEST_F(ZkSessionTest, RootAclTakeoverFencesTheOldActiveMulti) {
  const std::string store_root = Path("ZKRMStateRoot");
  const std::string fence = store_root + "/RM_ZK_FENCING_LOCK";
  const std::string app = store_root + "/app";
  const auto root_acl = [](const std::string& credentials) {
    return std::vector<ZkAcl>{WorldAnyone(kPermAll & ~(kPermCreate | kPermDelete)),
                              ZkAcl{kPermCreate | kPermDelete, "digest", DigestId(credentials)}};
  };
  const auto fenced_write = [&](ZkSession& rm, const std::string& data) {
    return rm
        .Multi({ZkOp::Create(fence, "", {WorldAnyone()}), ZkOp::SetData(app, data),
                ZkOp::Delete(fence)})
        .status();
  };
  ZkSessionOptions rm1_options;
  rm1_options.auths = {ZkAuth{"digest", "rm1:8032:111"}};
  ZkSessionOptions rm2_options;
  rm2_options.auths = {ZkAuth{"digest", "rm2:8032:222"}};
  auto rm1 = OpenSession(rm1_options);
  auto rm2 = OpenSession(rm2_options);
  ASSERT_TRUE(rm1 && rm2);

  ASSERT_TRUE(rm1->Create(store_root, "", {WorldAnyone()}).ok());
  ASSERT_TRUE(rm1->SetAcl(store_root, root_acl("rm1:8032:111")).ok());
  ASSERT_TRUE(rm1->Multi({ZkOp::Create(fence, "", {WorldAnyone()}),
                          ZkOp::Create(app, "v1", {WorldAnyone()}), ZkOp::Delete(fence)})
                  .ok());
  EXPECT_EQ(ZkErrorOf(fenced_write(*rm2, "rm2 too early")), ZkError::kNoAuth);

  // rm2 becomes active: world keeps ADMIN, so it can take the root over.
  ASSERT_TRUE(rm2->SetAcl(store_root, root_acl("rm2:8032:222")).ok());
  const Status deposed = fenced_write(*rm1, "rm1 after takeover");
  EXPECT_EQ(ZkErrorOf(deposed), ZkError::kNoAuth) << deposed.ToString();
  EXPECT_NE(deposed.message().find("op 1 of 3: create " + fence), std::string::npos);
  EXPECT_EQ(session_->Get(app)->data, "v1");
  ASSERT_TRUE(fenced_write(*rm2, "v2").ok());
  EXPECT_EQ(session_->Get(app)->data, "v2");
  EXPECT_FALSE(session_->Exists(fence)->has_value());
}

TEST_F(ZkSessionTest, ChrootInTheConnectStringRootsEveryPath) {
  // hadoop.zk.address may end in a chroot ("host:port/path").
  ASSERT_TRUE(session_->Create(Path("jail"), "", {WorldAnyone()}).ok());
  ZkSessionOptions options;
  options.connect_string = ZkTestServer::server()->connect_string() + Path("jail");
  options.session_timeout = milliseconds(4000);
  auto jailed = ZkSession::Open(options);
  ASSERT_TRUE(jailed.ok()) << jailed.status().ToString();
  auto created = (*jailed)->Create("/inside", "x", {WorldAnyone()});
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_EQ(*created, "/inside");
  EXPECT_EQ(session_->Get(Path("jail/inside"))->data, "x");
}

TEST_F(ZkSessionTest, AddAuthLaterGrantsAccess) {
  // ZooKeeper takes a digest id as given: a session may create a node it
  // cannot read itself until it proves that identity.
  ASSERT_TRUE(
      session_->Create(Path("late"), "x", {ZkAcl{kPermAll, "digest", DigestId("rm2:pw")}}).ok());
  EXPECT_EQ(ZkErrorOf(session_->Get(Path("late")).status()), ZkError::kNoAuth);
  ASSERT_TRUE(session_->AddAuth(ZkAuth{"digest", "rm2:pw"}).ok());
  EXPECT_EQ(session_->Get(Path("late"))->data, "x");
}

TEST_F(ZkSessionTest, ExpiryIsDetectedAndFinal) {
  // No clock involved: the session is ended through the server (below).
  Mutex mu;
  std::vector<SessionState> states;
  ZkSessionOptions options;
  options.on_state_change = [&](SessionState s) {
    MutexLock lock(&mu);
    states.push_back(s);
  };
  auto victim = OpenSession(options);
  ASSERT_NE(victim, nullptr);
  ASSERT_TRUE(victim->Create(Path("eph"), "", {WorldAnyone()}, CreateMode::kEphemeral).ok());

  // The server drops a session when another connection resumes and closes
  // it (what ZooKeeper's own tests do). The victim may win its session back
  // between the twin's connect and close (the twin's close then sends
  // nothing), so the close is repeated until the server has provably ended
  // the session: its ephemeral node is gone.
  bool ended = false;
  for (int attempt = 0; attempt < 20 && !ended; ++attempt) {
    ZkSessionOptions twin;
    twin.connect_string = ZkTestServer::server()->connect_string();
    twin.session_timeout = milliseconds(4000);
    twin.resume = victim->session_id();
    auto resumed = ZkSession::Open(twin);
    if (resumed.ok()) {
      EXPECT_EQ((*resumed)->session_id().id, victim->session_id().id);
      (*resumed)->Close();
    }
    auto witness = session_->Exists(Path("eph"));
    ASSERT_TRUE(witness.ok()) << witness.status().ToString();
    ended = !witness->has_value();
  }
  ASSERT_TRUE(ended) << "the server kept the session through 20 closes";

  ASSERT_TRUE(WaitFor([&] { return victim->state() == SessionState::kExpired; }))
      << SessionStateName(victim->state());
  // The callback runs just after the state changes.
  EXPECT_TRUE(WaitFor([&] {
    MutexLock lock(&mu);
    return !states.empty() && states.back() == SessionState::kExpired;
  }));
  const Status after = victim->Get(root_).status();
  EXPECT_EQ(ZkErrorOf(after), ZkError::kSessionExpired) << after.ToString();

  // Resuming an expired session fails as expired.
  ZkSessionOptions late;
  late.connect_string = ZkTestServer::server()->connect_string();
  late.resume = victim->session_id();
  late.connect_timeout = milliseconds(5000);
  auto again = ZkSession::Open(late);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(ZkErrorOf(again.status()), ZkError::kSessionExpired) << again.status().ToString();
}

TEST_F(ZkSessionTest, ServerOutageIsConnectionLossNotExpiry) {
  // A timeout long enough for the server's restart (a JVM start) on a busy
  // machine: the session must outlive the outage.
  ZkSessionOptions options;
  options.session_timeout = milliseconds(30000);
  auto survivor = OpenSession(options);
  ASSERT_NE(survivor, nullptr);
  ASSERT_TRUE(survivor->Create(Path("eph"), "", {WorldAnyone()}, CreateMode::kEphemeral).ok());

  ZkTestServer::server()->Stop();
  ASSERT_TRUE(WaitFor([&] { return survivor->state() == SessionState::kConnecting; }));
  const Status lost = survivor->Get(Path("eph")).status();
  EXPECT_TRUE(IsRetriable(lost)) << lost.ToString();

  ASSERT_TRUE(ZkTestServer::server()->Restart().ok());
  ASSERT_TRUE(WaitFor([&] { return survivor->state() == SessionState::kConnected; },
                      std::chrono::seconds(30)))
      << SessionStateName(survivor->state());
  auto node = survivor->Exists(Path("eph"));
  ASSERT_TRUE(node.ok()) << node.status().ToString();
  ASSERT_TRUE(node->has_value());
  EXPECT_EQ((*node)->ephemeral_owner, survivor->session_id().id);
}

TEST(ZkSessionOpenTest, RefusesBadInputAndUnreachableServers) {
  ZkSessionOptions none;
  EXPECT_EQ(ZkSession::Open(none).status().code(), Status::Code::kInvalidArgument);
  ZkSessionOptions closed;
  // Port 1 on loopback: nobody listens there (it needs root to bind).
  closed.connect_string = "127.0.0.1:1";
  closed.connect_timeout = milliseconds(300);
  auto refused = ZkSession::Open(closed);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), Status::Code::kUnavailable);
  EXPECT_NE(refused.status().message().find("127.0.0.1:1"), std::string::npos);
}

}  // namespace
}  // namespace spindle::zk
