// AttemptAllocator's allocate semantics against Hadoop's
// ApplicationMasterService / AppSchedulingInfo rules, on the real pool,
// registries and secret managers (test doubles only for the AM launcher and
// the store). Each case names the Hadoop method it follows.
#include "rm/core/attempt_allocator.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "rm/core/stored_ask_rows.h"
#include "rm/recovery/attempt_asks_record.h"
#include "rm/yarn_exceptions.h"
#include "tests/rm/core/attempt_allocator_fixture.h"

namespace spindle::rm {
namespace {

using namespace std::chrono_literals;
using pool::Resource;

using test_support::Ask;
using AttemptAllocatorTest = test_support::AttemptAllocatorFixture;

TEST_F(AttemptAllocatorTest, AbsoluteAsksReplaceAndZeroRemoves) {
  // AppSchedulingInfo.updateResourceRequests: the last total counts, not
  // the sum; 3.3 AppSchedulingInfo.updatePendingResources: 0 drops the key.
  struct Case {
    const char* name;
    std::vector<std::vector<ResourceRequest>> calls;  // before the pool runs
    size_t placed;
  };
  const std::vector<Case> cases = {
      {"a later total replaces an earlier one", {{Ask("*", 5)}, {Ask("*", 2)}}, 2},
      {"zero takes the ask back", {{Ask("*", 5)}, {Ask("*", 0)}}, 0},
      {"a total raised again", {{Ask("*", 1)}, {Ask("*", 0)}, {Ask("*", 3)}}, 3},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const ApplicationAttemptId attempt = RegisteredApp();
    for (const auto& call : c.calls) CallWith(attempt, call);
    Place();
    EXPECT_EQ(Call(attempt)->allocated.size(), c.placed);
    Place();
    EXPECT_TRUE(Call(attempt)->allocated.empty()) << "nothing beyond the total";
  }
}

TEST_F(AttemptAllocatorTest, ContainersCarryTheNormalisedCapabilityAndTokens) {
  // SchedulerUtils.normalizeRequest (DefaultResourceCalculator: memory up to
  // the minimum's multiple, 1 vcore); ApplicationMasterService.allocate
  // hands out container tokens and one NM token per new node.
  const ApplicationAttemptId attempt = RegisteredApp();
  CallWith(attempt, {Ask("*", 2, true, Resource::Of(1000, 3)), Ask("h3", 2)});
  Place();
  auto answer = Call(attempt);
  ASSERT_EQ(answer->allocated.size(), 2u);
  for (const AllocatedContainer& c : answer->allocated) {
    EXPECT_EQ(c.resource, Resource::Of(1024, 1));
    EXPECT_EQ(c.node.host, "h3");
    EXPECT_EQ(c.node_http_address, "h3:8042");
    EXPECT_EQ(c.container_token.kind, kContainerTokenKind);
    EXPECT_EQ(c.container_token.service, "10.0.0.1:45454");
    EXPECT_EQ(c.id.attempt, attempt);
  }
  ASSERT_EQ(answer->nm_tokens.size(), 1u) << "one NM token for the one node";
  EXPECT_EQ(answer->nm_tokens[0].node.host, "h3");
  // The next containers on h3 come without a new NM token.
  auto more = AskAndTake(attempt, {Ask("*", 1), Ask("h3", 1)});
  ASSERT_EQ(more.size(), 1u);
}

TEST_F(AttemptAllocatorTest, LocalityFollowsTheRowsAndRelaxLocality) {
  // LeafQueue.assignContainersOnNode (2.6.0): host rows first, rack rows
  // with relaxLocality, ANY only with its relaxLocality.
  struct Case {
    const char* name;
    std::vector<ResourceRequest> asks;
    std::multiset<std::string> hosts;
  };
  // One per node, the AM's node included (8192 MB less the AM's 1024).
  const Resource whole = Resource::Of(7168, 1);
  const std::vector<Case> cases = {
      {"relaxLocality false on a host: only that host, however many are asked",
       {Ask("*", 2, false, whole), Ask("h1", 2, true, whole), Ask("/r1", 2, false, whole)},
       {"h1"}},
      {"relaxLocality false on a rack: only that rack's nodes",
       {Ask("*", 3, false, whole), Ask("/r1", 3, true, whole)},
       {"h1", "h2"}},
      {"relaxLocality on: the host, then its rack, then anywhere",
       {Ask("*", 3, true, whole), Ask("h1", 3, true, whole), Ask("/r1", 3, true, whole)},
       {"h1", "h2", "h3"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Build(HadoopLine::k3_3);
    const ApplicationAttemptId attempt = RegisteredApp();
    EXPECT_EQ(Hosts(AskAndTake(attempt, c.asks)), c.hosts);
  }
}

TEST_F(AttemptAllocatorTest, BlacklistedHostsAndRacksGetNothing) {
  // AppSchedulingInfo.updateBlacklist; RMServerUtils.validateBlacklistRequest.
  const ApplicationAttemptId attempt = RegisteredApp();
  AllocateRequest with_any;
  with_any.blacklist_additions = {"*"};
  with_any.asks = {Ask("*", 1)};
  Status refused = ErrorOf(attempt, with_any);
  EXPECT_EQ(refused.java_class(), yarn::kInvalidResourceBlacklistRequest);
  EXPECT_EQ(refused.message(), "Cannot add * to the blacklist!");
  Place();
  EXPECT_TRUE(Call(attempt)->allocated.empty()) << "nothing of the refused call applied";

  AllocateRequest blacklist;
  blacklist.blacklist_additions = {"h1", "/r2"};
  Call(attempt, blacklist);
  auto placed = AskAndTake(attempt, {Ask("*", 4)});
  EXPECT_EQ(Hosts(placed), (std::multiset<std::string>{"h2", "h2", "h2", "h2"}));

  AllocateRequest lift;
  lift.blacklist_removals = {"h1", "/r2"};
  Call(attempt, lift);
  placed = AskAndTake(attempt, {Ask("*", 24)});
  std::set<std::string> hosts;
  for (const auto& c : placed) hosts.insert(c.node.host);
  EXPECT_TRUE(hosts.count("h1") == 1 && hosts.count("h3") == 1) << "lifted";
}

TEST_F(AttemptAllocatorTest, ReleasesOfUnknownAndForeignContainers) {
  // AbstractYarnScheduler.releaseContainers ignores an unknown container of
  // the app; RMServerUtils.validateContainerReleaseRequest refuses another
  // application's (InvalidContainerReleaseException).
  const ApplicationAttemptId attempt = RegisteredApp();
  const ApplicationAttemptId other = RegisteredApp();
  auto mine = AskAndTake(attempt, {Ask("*", 1)});
  ASSERT_EQ(mine.size(), 1u);

  AllocateRequest unknown;
  unknown.releases = {ContainerId{attempt, 999}};
  EXPECT_TRUE(ErrorOf(attempt, unknown).ok());
  next_id_[attempt] = next_id_[attempt] + 1;

  AllocateRequest foreign;
  foreign.releases = {mine[0].id};
  Status refused = ErrorOf(other, foreign);
  EXPECT_EQ(refused.java_class(), yarn::kInvalidContainerRelease);

  AllocateRequest release;
  release.releases = {mine[0].id};
  // Completed at once (ABORTED), so the releasing call reports it.
  auto answer = Call(attempt, release);
  ASSERT_EQ(answer->completed.size(), 1u);
  EXPECT_EQ(answer->completed[0].id, mine[0].id);
  EXPECT_EQ(answer->completed[0].exit_status, kExitAborted);
  EXPECT_TRUE(Call(attempt)->completed.empty()) << "reported once";
}

TEST_F(AttemptAllocatorTest, ResponseIdsFollowTheHadoopLine) {
  // ApplicationMasterService.allocate: one behind gets the last answer
  // again, further behind is refused; ahead is answered on 2.x and refused
  // on 3.3.
  struct Case {
    HadoopLine line;
    int32_t offset;  // from the last answer's id
    enum { kSame, kNew, kRefused } outcome;
  };
  const std::vector<Case> cases = {
      {HadoopLine::k2_6, -1, Case::kSame},    {HadoopLine::k3_3, -1, Case::kSame},
      {HadoopLine::k2_6, -2, Case::kRefused}, {HadoopLine::k3_3, -2, Case::kRefused},
      {HadoopLine::k2_7, 3, Case::kNew},      {HadoopLine::k3_3, 3, Case::kRefused},
      {HadoopLine::k3_3, 0, Case::kNew},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(TraitsOf(c.line).name) + " offset " + std::to_string(c.offset));
    Build(c.line);
    const ApplicationAttemptId attempt = RegisteredApp();
    Call(attempt);
    auto last = CallWith(attempt, {Ask("*", 1)});
    AllocateRequest request;
    request.response_id = last->response_id + c.offset;
    auto answer = allocator_->Allocate(attempt, request);
    switch (c.outcome) {
      case Case::kSame:
        ASSERT_TRUE(answer.ok());
        EXPECT_EQ(answer->get(), last.get()) << "the very same answer";
        break;
      case Case::kNew:
        ASSERT_TRUE(answer.ok());
        EXPECT_EQ((*answer)->response_id, last->response_id + 1);
        break;
      case Case::kRefused:
        EXPECT_EQ(answer.status().java_class(), yarn::kInvalidApplicationMasterRequest);
        break;
    }
  }
}

TEST_F(AttemptAllocatorTest, TheRegistrationsAnswerRepeatedIsEmpty) {
  // ApplicationMasterService.registerApplicationMaster keeps an empty answer
  // numbered 0 as the last one.
  const ApplicationAttemptId attempt = RegisteredApp();
  AllocateRequest request;
  request.response_id = -1;
  auto answer = allocator_->Allocate(attempt, request);
  ASSERT_TRUE(answer.ok());
  EXPECT_EQ(*answer, nullptr);
}

TEST_F(AttemptAllocatorTest, AnAttemptThatDidNotRegisterIsTold) {
  const ApplicationAttemptId attempt = LaunchedApp();
  auto answer = allocator_->Allocate(attempt, AllocateRequest{});
  // ApplicationMasterService.allocate: ApplicationMasterNotRegisteredException.
  EXPECT_EQ(answer.status().java_class(), yarn::kApplicationMasterNotRegistered);
}

TEST_F(AttemptAllocatorTest, BadAsksAreRefusedBeforeAnythingApplies) {
  // SchedulerUtils.validateResourceRequest, before releases are applied.
  const ApplicationAttemptId attempt = RegisteredApp();
  auto mine = AskAndTake(attempt, {Ask("*", 1)});
  ASSERT_EQ(mine.size(), 1u);
  struct Case {
    const char* name;
    ResourceRequest ask;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"memory above the maximum", Ask("*", 1, true, Resource::Of(9000, 1)),
       "Invalid resource request, requested memory < 0, or requested memory > max configured, "
       "requested=9000, max=8192"},
      {"vcores above the maximum", Ask("*", 1, true, Resource::Of(1024, 5)),
       "Invalid resource request, requested virtual cores < 0, or requested virtual cores > max "
       "configured, requested=5, max=4"},
      {"a negative count", Ask("*", -1), "Invalid resource request, num_containers < 0: -1"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    AllocateRequest request;
    request.asks = {c.ask};
    request.releases = {mine[0].id};
    Status refused = ErrorOf(attempt, request);
    EXPECT_EQ(refused.java_class(), yarn::kInvalidResourceRequest);
    EXPECT_EQ(refused.message(), c.message);
    EXPECT_TRUE(containers_->Get(mine[0].id).has_value()) << "not released";
  }
}

TEST_F(AttemptAllocatorTest, HeadroomIsWhatTheCellHasFree) {
  const ApplicationAttemptId attempt = RegisteredApp();
  auto placed = AskAndTake(attempt, {Ask("*", 2, true, Resource::Of(2048, 1))});
  ASSERT_EQ(placed.size(), 2u);
  auto answer = Call(attempt);
  // Three 8 GB / 8 vcore nodes; the AM (1024 MB, 1 vcore) and two tasks.
  EXPECT_EQ(answer->headroom, Resource::Of(3 * 8192 - 1024 - 2 * 2048, 3 * 8 - 1 - 2));
  EXPECT_EQ(answer->num_cluster_nodes, 3);
}

TEST_F(AttemptAllocatorTest, HeadroomIsTheUsersInAQueueThatLimitsUsers) {
  // LeafQueue.getHeadroom: min(userLimit - userUsed, queueMax - queueUsed),
  // rounded down, then (3.3) the cluster's free resources if smaller. The
  // queue: 12 of the 24 GB, MULP 50, ULF 1; the AM (1 GB) and two 2 GB
  // tasks leave the user 5 GB in use, nothing pending: the limit is
  // ceil(12 GB x 50%) = 6 GB, the headroom 1 GB (1 vcore: the memory
  // calculator builds it from memory). 2.7 says the same here; 2.6 does not
  // round and keeps the user side whole.
  for (const pool::UserLimitRules rules :
       {pool::UserLimitRules::kHadoop3_3, pool::UserLimitRules::kHadoop2_7}) {
    Build(HadoopLine::k3_3);  // a fresh cell
    pool::QueueSpec queue;
    queue.name = "root.default";
    queue.user_limits.enabled = true;
    queue.user_limits.rules = rules;
    queue.user_limits.minimum_user_limit_percent = 50;
    queue.user_limits.capacity = Resource::Of(12 * 1024, 12);
    queue.user_limits.cluster = Resource::Of(3 * 8192, 24);
    ASSERT_TRUE(pool_->SetQueues({queue}).ok());
    const ApplicationAttemptId attempt = RegisteredApp();
    auto placed = AskAndTake(attempt, {Ask("*", 2, true, Resource::Of(2048, 1))});
    ASSERT_EQ(placed.size(), 2u);
    EXPECT_EQ(Call(attempt)->headroom, Resource::Of(1024, 1));
  }
}

TEST_F(AttemptAllocatorTest, ARolledAmrmKeyBringsANewToken) {
  // ApplicationMasterService.allocate (2.6.0): once a next AMRM key exists,
  // an AM whose token is not under it gets a new token in the answer.
  const ApplicationAttemptId attempt = RegisteredApp();
  AllocateRequest request;
  request.amrm_token_identifier = amrm_->CreateToken(attempt).identifier;
  EXPECT_FALSE(Call(attempt, request)->amrm_token.has_value());
  // A roll made a next key: the AM must move to it before it activates.
  clock_.Advance(24h);
  ASSERT_EQ(amrm_->Advance().rolled, 1);
  auto answer = Call(attempt, request);
  ASSERT_TRUE(answer->amrm_token.has_value());
  EXPECT_EQ(answer->amrm_token->kind, kAmrmTokenKind);
}

TEST_F(AttemptAllocatorTest, UpdatesAreAnsweredWithTheirRequestEchoed) {
  // RMServerUtils.validateAndSplitUpdateResourceRequests' reasons.
  const ApplicationAttemptId attempt = RegisteredApp();
  auto mine = AskAndTake(attempt, {Ask("*", 1)});
  ASSERT_EQ(mine.size(), 1u);
  AllocateRequest request;
  request.update_requests = {{ContainerId{attempt, 999}, 0, "unknown"},
                             {mine[0].id, 3, "old-version"},
                             {mine[0].id, 0, "resize"}};
  auto answer = Call(attempt, request);
  ASSERT_EQ(answer->update_errors.size(), 3u);
  EXPECT_EQ(answer->update_errors[0].reason, "INVALID_CONTAINER_ID");
  EXPECT_EQ(answer->update_errors[0].echo, "unknown");
  EXPECT_FALSE(answer->update_errors[0].current_container_version.has_value());
  EXPECT_EQ(answer->update_errors[1].reason, "INCORRECT_CONTAINER_VERSION_ERROR");
  EXPECT_EQ(answer->update_errors[1].current_container_version, 0);
  EXPECT_EQ(answer->update_errors[2].echo, "resize");
}

TEST_F(AttemptAllocatorTest, TheStoredTableIsReducedByWhatWasGranted) {
  // AppSchedulingInfo.allocateNodeLocal takes from the host, rack and ANY
  // rows; what is kept is what a restarted RM caps re-sent asks with.
  const ApplicationAttemptId attempt = RegisteredApp();
  auto placed = AskAndTake(attempt, {Ask("*", 3), Ask("h3", 1), Ask("/r2", 1)});
  ASSERT_EQ(placed.size(), 3u);
  auto record = StoredAskRows::Decode(store_.rows.at(attempt));
  ASSERT_TRUE(record.ok());
  std::map<std::string, int32_t> rows;
  for (const ResourceRequest& row : record->asks) rows[row.resource_name] = row.count;
  EXPECT_EQ(rows, (std::map<std::string, int32_t>{{"*", 0}})) << "h3 and /r2 granted, * at 0";
  EXPECT_EQ(record->granted.size(), 3u);
}

TEST_F(AttemptAllocatorTest, ARestartedRmCapsTheResentTable) {
  // Spindle's restart caps (SetRecoveredAsks): a re-sent total is capped by
  // what was outstanding plus grants no node runs.
  const ApplicationAttemptId attempt = LaunchedApp();
  AttemptAsksRecord before;
  before.asks = {Ask("*", 1)};
  before.granted = {GrantedContainer{ContainerId{attempt, 50}, 1, -1, Resource::Of(1024, 1)}};
  allocator_->SetRecoveredAsks({{attempt, EncodeAttemptAsks(before)}});
  ASSERT_TRUE(allocator_->Register(attempt, "am-host", 1234, "").ok());
  // The AM re-sends its original total of 5: 1 outstanding + 1 grant lost.
  auto placed = AskAndTake(attempt, {Ask("*", 5)});
  EXPECT_EQ(placed.size(), 2u);
  Place();
  EXPECT_TRUE(Call(attempt)->allocated.empty());
  // Later asks are taken as they come.
  EXPECT_EQ(AskAndTake(attempt, {Ask("*", 3)}).size(), 3u);
  // The previous run's whole-table record gave way to rows.
  EXPECT_EQ(store_.asks.count(attempt), 0u);
  EXPECT_EQ(store_.rows.count(attempt), 1u);
}

TEST_F(AttemptAllocatorTest, EachAllocateWritesOnlyTheRowsItChanged) {
  // Persist deltas (issue 17): a call touching one key of a large table
  // writes that key's rows and its grants, not the table.
  const ApplicationAttemptId attempt = RegisteredApp();
  // 50 keys, each with an ANY row (the pool does not run: nothing placed).
  std::vector<ResourceRequest> table;
  for (int32_t priority = 1; priority <= 50; ++priority) {
    ResourceRequest row = Ask("*", 2);
    row.priority = priority;
    table.push_back(row);
  }
  CallWith(attempt, table);
  ASSERT_EQ(store_.rows.at(attempt).size(), 51u) << "50 rows and the table row";
  const int after_table = store_.rows_written;
  // One key changed: its one row is written.
  ResourceRequest changed = table[7];
  changed.count = 1;
  CallWith(attempt, {changed});
  EXPECT_EQ(store_.rows_written - after_table, 1);
  // A call that changes nothing writes nothing.
  const int after_change = store_.rows_written;
  Call(attempt);
  EXPECT_EQ(store_.rows_written, after_change);
  // A dropped key's rows go.
  ResourceRequest dropped = table[9];
  dropped.count = 0;
  CallWith(attempt, {dropped});
  EXPECT_EQ(store_.rows.at(attempt).size(), 50u);
  // The rows read back as the table the allocator holds.
  auto record = StoredAskRows::Decode(store_.rows.at(attempt));
  ASSERT_TRUE(record.ok());
  EXPECT_EQ(record->asks.size(), 49u);
  // The attempt ends: every row goes.
  allocator_->AttemptEnded(attempt);
  EXPECT_EQ(store_.rows.count(attempt), 0u);
}

TEST_F(AttemptAllocatorTest, GrantRowsFollowTheContainersUntilTheyComplete) {
  const ApplicationAttemptId attempt = RegisteredApp();
  auto placed = AskAndTake(attempt, {Ask("*", 2)});
  ASSERT_EQ(placed.size(), 2u);
  auto record = StoredAskRows::Decode(store_.rows.at(attempt));
  ASSERT_TRUE(record.ok());
  EXPECT_EQ(record->granted.size(), 2u);
  // Released: the container completes and the AM hears of it; its row goes.
  AllocateRequest release;
  release.releases = {placed[0].id};
  ASSERT_NE(Call(attempt, release), nullptr);
  Call(attempt);
  record = StoredAskRows::Decode(store_.rows.at(attempt));
  ASSERT_TRUE(record.ok());
  ASSERT_EQ(record->granted.size(), 1u);
  EXPECT_EQ(record->granted[0].id, placed[1].id);
}

TEST_F(AttemptAllocatorTest, ARestartedRmCapsTheResentTableFromRows) {
  // As ARestartedRmCapsTheResentTable, with the rows this RM writes; rows of
  // keys the AM did not re-send are erased once the table is capped.
  const ApplicationAttemptId attempt = LaunchedApp();
  ResourceRequest gone = Ask("*", 4);
  gone.priority = 9;
  std::map<std::string, std::string> rows;
  const AskTable keys(allocator_->normalizer());
  for (const ResourceRequest& ask : {Ask("*", 1), gone}) {
    AttemptAsksRecord row;
    row.asks = {ask};
    rows[StoredAskRows::AskRowKey(keys.KeyOf(ask), ask.resource_name)] = EncodeAttemptAsks(row);
  }
  AttemptAsksRecord grant;
  grant.granted = {GrantedContainer{ContainerId{attempt, 50}, 1, -1, Resource::Of(1024, 1)}};
  rows[StoredAskRows::GrantRowKey(ContainerId{attempt, 50})] = EncodeAttemptAsks(grant);
  rows[StoredAskRows::kTableRow] = "1";
  store_.rows[attempt] = rows;
  allocator_->SetRecoveredRows({{attempt, rows}});
  ASSERT_TRUE(allocator_->Register(attempt, "am-host", 1234, "").ok());
  auto placed = AskAndTake(attempt, {Ask("*", 5)});
  EXPECT_EQ(placed.size(), 2u) << "1 outstanding + 1 grant lost";
  const std::string gone_row = StoredAskRows::AskRowKey(keys.KeyOf(gone), "*");
  EXPECT_EQ(store_.rows.at(attempt).count(gone_row), 0u) << "not re-sent: erased";
  // A second restart reads the rows this run wrote: the two new grants. The
  // lost one was given back to the asks (and granted again) at the cap, so
  // its row went with it: kept, a second restart would count it lost again
  // and grant it a third time.
  auto record = StoredAskRows::Decode(store_.rows.at(attempt));
  ASSERT_TRUE(record.ok());
  EXPECT_EQ(record->granted.size(), 2u);
  for (const GrantedContainer& c : record->granted) EXPECT_NE(c.id, (ContainerId{attempt, 50}));
}

}  // namespace
}  // namespace spindle::rm
