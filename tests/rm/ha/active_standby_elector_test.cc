// ActiveStandbyElector against a real ZooKeeper server (MiniZooKeeper).
#include "rm/ha/active_standby_elector.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "base/mutex.h"
#include "integration/wait_for.h"
#include "persist/zk/zk_error.h"
#include "rm/ha/embedded_elector_service.h"
#include "tests/persist/zk/zk_test_server.h"
#include "yarn_server_resourcemanager_service_protos.pb.h"

namespace spindle::rm {
namespace {

using std::chrono::milliseconds;
using State = ActiveStandbyElector::State;

// Records what the elector says; BecomeActive fails `failures_left` times.
class RecordingCallbacks : public ElectorCallbacks {
 public:
  Status BecomeActive() override {
    MutexLock lock(&mu_);
    ++become_active_calls_;
    if (failures_left_ > 0) {
      --failures_left_;
      return Status::IoError("activation failed on purpose");
    }
    active_ = true;
    return Status::OK();
  }
  void BecomeStandby() override {
    MutexLock lock(&mu_);
    active_ = false;
    ++standby_calls_;
  }
  void EnterNeutralMode() override {
    MutexLock lock(&mu_);
    ++neutral_calls_;
  }
  void NotifyFatalError(const std::string& message) override {
    MutexLock lock(&mu_);
    fatal_.push_back(message);
  }
  void FenceOldActive(const std::string& data) override {
    MutexLock lock(&mu_);
    fenced_.push_back(data);
  }

  void FailActivations(int n) {
    MutexLock lock(&mu_);
    failures_left_ = n;
  }
  bool active() const {
    MutexLock lock(&mu_);
    return active_;
  }
  int become_active_calls() const {
    MutexLock lock(&mu_);
    return become_active_calls_;
  }
  int standby_calls() const {
    MutexLock lock(&mu_);
    return standby_calls_;
  }
  int neutral_calls() const {
    MutexLock lock(&mu_);
    return neutral_calls_;
  }
  std::vector<std::string> fenced() const {
    MutexLock lock(&mu_);
    return fenced_;
  }
  std::vector<std::string> fatal() const {
    MutexLock lock(&mu_);
    return fatal_;
  }

 private:
  mutable Mutex mu_;
  bool active_ GUARDED_BY(mu_) = false;
  int failures_left_ GUARDED_BY(mu_) = 0;
  int become_active_calls_ GUARDED_BY(mu_) = 0;
  int standby_calls_ GUARDED_BY(mu_) = 0;
  int neutral_calls_ GUARDED_BY(mu_) = 0;
  std::vector<std::string> fenced_ GUARDED_BY(mu_);
  std::vector<std::string> fatal_ GUARDED_BY(mu_);
};

class ActiveStandbyElectorTest : public ::testing::Test {
 protected:
  static void TearDownTestSuite() { zk::ZkTestServer::Shutdown(); }

  void SetUp() override {
    SPINDLE_REQUIRE_ZOOKEEPER();
    parent_ = std::string("/election/") +
              ::testing::UnitTest::GetInstance()->current_test_info()->name() + "/cluster1";
    admin_ = OpenSession();
    ASSERT_NE(admin_, nullptr);
  }

  std::unique_ptr<zk::ZkSession> OpenSession() {
    zk::ZkSessionOptions options;
    options.connect_string = zk::ZkTestServer::server()->connect_string();
    options.session_timeout = milliseconds(2000);
    auto session = zk::ZkSession::Open(std::move(options));
    EXPECT_TRUE(session.ok()) << session.status().ToString();
    return session.ok() ? std::move(*session) : nullptr;
  }

  std::unique_ptr<ActiveStandbyElector> MakeElector(ElectorCallbacks* callbacks) {
    ActiveStandbyElectorOptions options;
    options.connect_string = zk::ZkTestServer::server()->connect_string();
    options.session_timeout = milliseconds(2000);
    options.parent_znode = parent_;
    options.sleep_after_failure = milliseconds(100);
    options.sleep_between_connects = milliseconds(100);
    auto elector = ActiveStandbyElector::Create(std::move(options), callbacks);
    EXPECT_TRUE(elector.ok()) << elector.status().ToString();
    if (!elector.ok()) return nullptr;
    EXPECT_TRUE((*elector)->EnsureParentZNode().ok());
    return std::move(*elector);
  }

  std::string Lock() const { return parent_ + "/ActiveStandbyElectorLock"; }
  std::string BreadCrumb() const { return parent_ + "/ActiveBreadCrumb"; }

  std::string parent_;
  std::unique_ptr<zk::ZkSession> admin_;
};

TEST_F(ActiveStandbyElectorTest, EnsureParentZNodeCreatesEveryLevelAndIsIdempotent) {
  RecordingCallbacks callbacks;
  auto elector = MakeElector(&callbacks);
  ASSERT_NE(elector, nullptr);
  auto stat = admin_->Exists(parent_);
  ASSERT_TRUE(stat.ok());
  EXPECT_TRUE(stat->has_value());
  EXPECT_TRUE(elector->EnsureParentZNode().ok());
  EXPECT_EQ(elector->GetActiveData().status().code(), Status::Code::kNotFound);
  elector->JoinElection("x");
  EXPECT_FALSE(elector->EnsureParentZNode().ok());  // not while in the election
}

TEST_F(ActiveStandbyElectorTest, TwoElectorsExactlyOneActiveAndTheBreadcrumbNamesIt) {
  RecordingCallbacks c1, c2;
  auto e1 = MakeElector(&c1);
  auto e2 = MakeElector(&c2);
  ASSERT_NE(e1, nullptr);
  ASSERT_NE(e2, nullptr);
  const std::string rm1 = ActiveRmInfo("cluster1", "rm1");
  const std::string rm2 = ActiveRmInfo("cluster1", "rm2");
  e1->JoinElection(rm1);
  e2->JoinElection(rm2);
  ASSERT_TRUE(WaitFor([&] {
    return (c1.active() && e2->state() == State::kStandby) ||
           (c2.active() && e1->state() == State::kStandby);
  }));
  EXPECT_NE(c1.active(), c2.active());
  const std::string& winner = c1.active() ? rm1 : rm2;
  auto lock = admin_->Get(Lock());
  ASSERT_TRUE(lock.ok());
  EXPECT_EQ(lock->data, winner);
  EXPECT_NE(lock->stat.ephemeral_owner, 0);
  auto crumb = admin_->Get(BreadCrumb());
  ASSERT_TRUE(crumb.ok());
  EXPECT_EQ(crumb->stat.ephemeral_owner, 0);
  hadoop::yarn::ActiveRMInfoProto info;
  ASSERT_TRUE(info.ParseFromString(crumb->data));
  EXPECT_EQ(info.clusterid(), "cluster1");
  EXPECT_EQ(info.rmid(), c1.active() ? "rm1" : "rm2");
  EXPECT_TRUE(c1.fenced().empty());
  EXPECT_TRUE(c2.fenced().empty());
}

TEST_F(ActiveStandbyElectorTest, ClosedActiveSessionHandsOverAndTheNewActiveFencesTheOld) {
  RecordingCallbacks c1, c2;
  auto e1 = MakeElector(&c1);
  auto e2 = MakeElector(&c2);
  const std::string rm1 = ActiveRmInfo("cluster1", "rm1");
  e1->JoinElection(rm1);
  ASSERT_TRUE(WaitFor([&] { return c1.active(); }));
  e2->JoinElection(ActiveRmInfo("cluster1", "rm2"));
  ASSERT_TRUE(WaitFor([&] { return e2->state() == State::kStandby; }));
  // A crash: the session ends, the breadcrumb stays.
  e1.reset();
  ASSERT_TRUE(WaitFor([&] { return c2.active(); }));
  EXPECT_EQ(c2.fenced(), std::vector<std::string>{rm1});
  auto crumb = admin_->Get(BreadCrumb());
  ASSERT_TRUE(crumb.ok());
  EXPECT_EQ(crumb->data, ActiveRmInfo("cluster1", "rm2"));
}

TEST_F(ActiveStandbyElectorTest, ExpiredActiveSessionHandsOverAndTheOldOneComesBackStandby) {
  RecordingCallbacks c1, c2;
  auto e1 = MakeElector(&c1);
  auto e2 = MakeElector(&c2);
  e1->JoinElection(ActiveRmInfo("cluster1", "rm1"));
  ASSERT_TRUE(WaitFor([&] { return c1.active(); }));
  e2->JoinElection(ActiveRmInfo("cluster1", "rm2"));
  ASSERT_TRUE(WaitFor([&] { return e2->state() == State::kStandby; }));
  const int64_t old_session = e1->session_id_for_test();
  ASSERT_TRUE(e1->ExpireSessionForTest().ok());
  ASSERT_TRUE(WaitFor([&] { return c2.active(); }));
  // e1 learns of the expiry on reconnection: neutral, a new session, and
  // standby behind e2's lock.
  ASSERT_TRUE(WaitFor([&] { return e1->state() == State::kStandby; }));
  EXPECT_GE(c1.neutral_calls(), 1);
  EXPECT_FALSE(c1.active());
  EXPECT_NE(e1->session_id_for_test(), old_session);
  EXPECT_TRUE(c1.fatal().empty());
}

TEST_F(ActiveStandbyElectorTest, ForeignLockIsRespectedUntilItGoes) {
  // A Java RM (rm0) holds the lock and left its breadcrumb.
  RecordingCallbacks probe;
  auto maker = MakeElector(&probe);  // creates the parent znodes
  maker.reset();
  auto java_rm = OpenSession();
  const std::string rm0 = ActiveRmInfo("cluster1", "rm0");
  ASSERT_TRUE(java_rm->Create(Lock(), rm0, {zk::WorldAnyone()}, zk::CreateMode::kEphemeral).ok());
  ASSERT_TRUE(java_rm->Create(BreadCrumb(), rm0, {zk::WorldAnyone()}).ok());

  RecordingCallbacks c1;
  auto e1 = MakeElector(&c1);
  e1->JoinElection(ActiveRmInfo("cluster1", "rm1"));
  ASSERT_TRUE(WaitFor([&] { return e1->state() == State::kStandby; }));
  EXPECT_EQ(c1.become_active_calls(), 0);
  auto active = e1->GetActiveData();
  ASSERT_TRUE(active.ok());
  EXPECT_EQ(*active, rm0);

  java_rm.reset();  // the Java RM dies
  ASSERT_TRUE(WaitFor([&] { return c1.active(); }));
  EXPECT_EQ(c1.fenced(), std::vector<std::string>{rm0});
  auto crumb = admin_->Get(BreadCrumb());
  ASSERT_TRUE(crumb.ok());
  EXPECT_EQ(crumb->data, ActiveRmInfo("cluster1", "rm1"));
  EXPECT_EQ(crumb->stat.version, 1);  // set over rm0's, with the version read
}

TEST_F(ActiveStandbyElectorTest, QuitWithoutFenceDeletesOurBreadcrumbWithFenceKeepsIt) {
  RecordingCallbacks c1;
  auto e1 = MakeElector(&c1);
  e1->JoinElection(ActiveRmInfo("cluster1", "rm1"));
  ASSERT_TRUE(WaitFor([&] { return c1.active(); }));
  e1->QuitElection(/*need_fence=*/false);
  EXPECT_FALSE(e1->in_election());
  EXPECT_EQ(e1->state(), State::kInit);
  auto crumb = admin_->Exists(BreadCrumb());
  ASSERT_TRUE(crumb.ok());
  EXPECT_FALSE(crumb->has_value());
  auto lock = admin_->Exists(Lock());
  ASSERT_TRUE(lock.ok());
  EXPECT_FALSE(lock->has_value());  // the session closed: the lock went with it

  e1->JoinElection(ActiveRmInfo("cluster1", "rm1"));
  ASSERT_TRUE(WaitFor([&] { return e1->state() == State::kActive; }));
  e1->QuitElection(/*need_fence=*/true);
  crumb = admin_->Exists(BreadCrumb());
  ASSERT_TRUE(crumb.ok());
  EXPECT_TRUE(crumb->has_value());
  lock = admin_->Exists(Lock());
  ASSERT_TRUE(lock.ok());
  EXPECT_FALSE(lock->has_value());
}

TEST_F(ActiveStandbyElectorTest, FailedActivationGivesTheLockUpAndRejoins) {
  RecordingCallbacks c1, c2;
  c1.FailActivations(1);
  auto e1 = MakeElector(&c1);
  e1->JoinElection(ActiveRmInfo("cluster1", "rm1"));
  ASSERT_TRUE(WaitFor([&] { return c1.active(); }));
  EXPECT_EQ(c1.become_active_calls(), 2);  // failed, slept, rejoined, won
  EXPECT_TRUE(c1.fatal().empty());

  // With a second elector waiting, a failed activation hands the lock over.
  e1->QuitElection(false);
  c1.FailActivations(1000);
  e1->JoinElection(ActiveRmInfo("cluster1", "rm1"));
  ASSERT_TRUE(WaitFor([&] { return c1.become_active_calls() >= 3; }));
  auto e2 = MakeElector(&c2);
  e2->JoinElection(ActiveRmInfo("cluster1", "rm2"));
  ASSERT_TRUE(WaitFor([&] { return c2.active(); }));
  EXPECT_NE(e1->state(), State::kActive);
  auto lock = admin_->Get(Lock());
  ASSERT_TRUE(lock.ok());
  EXPECT_EQ(lock->data, ActiveRmInfo("cluster1", "rm2"));
}

// ---- The RM's elector service ----

TEST_F(ActiveStandbyElectorTest, ElectorServiceDrivesTheTransitionsAndChecksTheLocksCluster) {
  RecordingCallbacks probe;
  auto maker = MakeElector(&probe);
  maker.reset();
  std::string base = parent_.substr(0, parent_.rfind('/'));
  auto options = [&](const std::string& rm_id, HadoopLine line) {
    EmbeddedElectorOptions o;
    o.cluster_id = "cluster1";
    o.rm_id = rm_id;
    o.zk_base_path = base;
    o.zk.connect_string = zk::ZkTestServer::server()->connect_string();
    o.zk.session_timeout = milliseconds(2000);
    o.zk.acl = {zk::WorldAnyone()};
    o.line = line;
    o.sleep_after_failure = milliseconds(100);
    return o;
  };
  Mutex mu;
  std::vector<std::string> log;
  auto hooks = [&](const std::string& who) {
    EmbeddedElectorHooks h;
    h.transition_to_active = [&, who] {
      MutexLock lock(&mu);
      log.push_back(who + " active");
      return Status::OK();
    };
    h.transition_to_standby = [&, who] {
      MutexLock lock(&mu);
      log.push_back(who + " standby");
    };
    h.on_fatal = [&, who](const std::string& m) {
      MutexLock lock(&mu);
      log.push_back(who + " fatal " + m);
    };
    return h;
  };
  auto s1 = EmbeddedElectorService::Create(options("rm1", HadoopLine::k3_3), hooks("rm1"));
  ASSERT_TRUE(s1.ok()) << s1.status().ToString();
  EXPECT_EQ((*s1)->election_znode(), parent_);
  (*s1)->Start();
  ASSERT_TRUE(WaitFor([&] {
    MutexLock lock(&mu);
    return log == std::vector<std::string>{"rm1 active"};
  }));
  auto s2 = EmbeddedElectorService::Create(options("rm2", HadoopLine::k3_3), hooks("rm2"));
  ASSERT_TRUE(s2.ok());
  (*s2)->Start();
  ASSERT_TRUE(WaitFor([&] {
    MutexLock lock(&mu);
    return log == std::vector<std::string>{"rm1 active", "rm2 standby"};
  }));
  (*s1)->Stop();
  ASSERT_TRUE(WaitFor([&] {
    MutexLock lock(&mu);
    return log.size() == 3 && log[2] == "rm2 active";
  }));

  // The lock of another cluster in our znode: 2.6 refuses to start, 3.3
  // logs it and joins.
  s2->reset();
  auto stranger = OpenSession();
  ASSERT_TRUE(stranger
                  ->Create(Lock(), ActiveRmInfo("othercluster", "rmX"), {zk::WorldAnyone()},
                           zk::CreateMode::kEphemeral)
                  .ok());
  auto refused = EmbeddedElectorService::Create(options("rm1", HadoopLine::k2_6), hooks("rm1"));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("znode has invalid data! Might need formatting!"),
            std::string::npos);
  auto joined = EmbeddedElectorService::Create(options("rm1", HadoopLine::k3_3), hooks("rm1"));
  EXPECT_TRUE(joined.ok());
}

// Last in the suite: it stops and restarts the shared server.
TEST_F(ActiveStandbyElectorTest, ThreeThreeGoesStandbyWhenZooKeeperStaysAwayPastTheTimeout) {
  RecordingCallbacks probe;
  auto maker = MakeElector(&probe);
  maker.reset();
  Mutex mu;
  std::vector<std::string> log;
  auto make = [&](const std::string& rm_id, HadoopLine line) {
    EmbeddedElectorOptions o;
    o.cluster_id = "cluster1";
    o.rm_id = rm_id;
    o.zk_base_path = parent_.substr(0, parent_.rfind('/'));
    o.zk.connect_string = zk::ZkTestServer::server()->connect_string();
    o.zk.session_timeout = milliseconds(4000);
    o.zk.acl = {zk::WorldAnyone()};
    o.line = line;
    EmbeddedElectorHooks h;
    h.transition_to_active = [&, rm_id] {
      MutexLock lock(&mu);
      log.push_back(rm_id + " active");
      return Status::OK();
    };
    h.transition_to_standby = [&, rm_id] {
      MutexLock lock(&mu);
      log.push_back(rm_id + " standby");
    };
    h.on_fatal = [&, rm_id](const std::string& m) {
      MutexLock lock(&mu);
      log.push_back(rm_id + " fatal " + m);
    };
    return EmbeddedElectorService::Create(std::move(o), std::move(h));
  };
  auto s = make("rm1", HadoopLine::k3_3);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  (*s)->Start();
  ASSERT_TRUE(WaitFor([&] {
    MutexLock lock(&mu);
    return log == std::vector<std::string>{"rm1 active"};
  }));
  admin_.reset();
  zk::ZkTestServer::server()->Stop();
  // Neutral, then a session timeout later (3.3's disconnect timer) standby.
  ASSERT_TRUE(WaitFor(
      [&] {
        MutexLock lock(&mu);
        return log == std::vector<std::string>{"rm1 active", "rm1 standby"};
      },
      std::chrono::seconds(30)));
  ASSERT_TRUE(zk::ZkTestServer::server()->Restart().ok());
  // The session outlived the outage (the restarted server resumes it): the
  // lock is still ours, so the elector makes the RM active again.
  ASSERT_TRUE(WaitFor(
      [&] {
        MutexLock lock(&mu);
        return log.size() >= 3 && log.back() == "rm1 active";
      },
      std::chrono::seconds(30)));
  MutexLock lock(&mu);
  EXPECT_EQ(log.size(), 3u);
}

}  // namespace
}  // namespace spindle::rm
