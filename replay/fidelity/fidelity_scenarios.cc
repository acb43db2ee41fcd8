#include "replay/fidelity/fidelity_scenarios.h"

namespace spindle::replay {

namespace {

using rm::HadoopLine;

constexpr int64_t kGb = 1024;
constexpr char kCs[] = "yarn.scheduler.capacity.";

const std::vector<HadoopLine> kAllLines = {HadoopLine::k2_6, HadoopLine::k2_7, HadoopLine::k3_3};

FidelityCheck Memory(int64_t at_s, FidelityMetric metric, const std::string& queue,
                     const std::string& who, int64_t expected_mb) {
  FidelityCheck c;
  c.at_s = at_s;
  c.metric = metric;
  c.queue = queue;
  if (metric == FidelityMetric::kUserMemoryMb) c.user = who;
  if (metric == FidelityMetric::kJobMemoryMb) c.job = who;
  c.expected = expected_mb;
  return c;
}

FidelityCheck Count(int64_t at_s, FidelityMetric metric, const std::string& queue,
                    int64_t expected) {
  FidelityCheck c;
  c.at_s = at_s;
  c.metric = metric;
  c.queue = queue;
  c.expected = expected;
  return c;
}

// Tasks that outlast every check (the last is at 80 s), so that what a user
// holds at a check is what it was given, not what churn left it; short
// enough that a staging cell's run ends soon after.
constexpr int64_t kLongTaskSeconds = 120;

// The scenarios about sharing one queue (user limits, ordering) read the
// steady state, not the outcome of the first moments. With tasks that
// outlast the run, whoever's asks reach the RM first keeps what it took:
// on 2.x a user alone active for a few ms has the whole queue as its limit
// (LeafQueue.computeUserLimit divides by the users active at that moment),
// and an RM that places asks as they arrive (Spindle's pool) can give it
// more than one RM handing out one off-switch container per node heartbeat
// (Hadoop). So these jobs churn: 20 s tasks, 48 per job, more than any job
// can start by the check (at most the whole queue, 16, in the first fill,
// then what its limit keeps, at most 9, at 20 s and 40 s: 34), so every
// job still asks at the check and every user stays active
// (AppSchedulingInfo.checkForDeactivation, every line, deactivates an app
// once no ANY ask has containers left). Every container the first
// moments gave has ended by the check and was given again by Hadoop's
// rules: to the apps in the queue's order (application id on 2.x; the
// ordering policy on 3.3), skipping a user whose usage is greater than
// the limit computed with the queue below its capacity (a freed container
// leaves it so). Timing, measured in the staging cell
// (speed 2; user-limit-4-users-mulp50): against the Java RM 2.6.0 with
// 200 ms node heartbeats the first containers came at about 6 s of trace,
// the queue was full by 9-11 s (its first fill gave one user 14-16 GB in
// 2 of 3 runs) and the churn had it at Hadoop's state by 29-32 s; with 1 s
// heartbeats (2 s of trace) the first containers came at about 10 s and
// the state was reached by 39 s. Spindle places the first fill at once, so
// its tasks end in waves at about 20, 41 and 62 s. The check at 50 s is
// after the Java RM's convergence and between Spindle's waves. A container
// freed on a Java RM waits for a heartbeat of its node to be given again,
// and tasks started in one heartbeat end in one, so a check may fall while
// one or two are on their way (the tolerance is one container; one of the
// Java runs measured at 50 s read such a sample: replay/README.md).
constexpr int64_t kChurnTaskSeconds = 20;
constexpr int32_t kChurnTasks = 48;
constexpr int64_t kSteadyCheckSeconds = 50;

FidelityJob Job(const std::string& id, const std::string& queue, const std::string& user,
                int64_t arrival_ms, int32_t tasks, int64_t task_seconds = kLongTaskSeconds) {
  FidelityJob j;
  j.id = id;
  j.queue = queue;
  j.user = user;
  j.arrival_ms = arrival_ms;
  j.tasks = tasks;
  j.task_seconds = task_seconds;
  return j;
}

// A job of a steady-state scenario, arriving at 0 (kChurnTaskSeconds).
FidelityJob ChurnJob(const std::string& id, const std::string& user) {
  return Job(id, "default", user, 0, kChurnTasks, kChurnTaskSeconds);
}

// Every scenario's jobs run as unmanaged AMs (the wind tunnel's and the
// staging cell's), which 2.7/3.3 count at the minimum allocation against the
// AM limit: scenarios about something else lift it (1.0) so that it does
// not decide, and the AM-limit scenario leaves Hadoop's default.
constexpr char kNoAmLimit[] = "1.0";

// 1. User-limit sharing among three users (the MULP-33 case).
// TestLeafQueue#testUserLimits and #testSingleQueueWithMultipleUsers take
// containers one assignment at a time and check each user against the
// limit; here three users ask for far more than the queue at once and the
// steady state is read, after every container of the first fill has ended
// and been given again (kChurnTaskSeconds).
//
// 12 GB, one leaf with all of it, MULP 33, ULF 1, 1 GB tasks of 20 s, the
// three users active throughout (each job still asks). A container is given
// when one has been freed, so the queue is below its capacity and the limit
// is:
//  2.6/2.7 LeafQueue.computeUserLimit: currentCapacity = 12 GB;
//    max(ceil(12 GB / 3 active users) = 4096, ceil(floor(12288 x 33) / 100)
//    = 4056) = 4096, min with capacity x ULF = 12288, rounded up to 1 GB:
//    4096 MB.
//  3.3 UsersManager.computeUserLimit: the fair part divides what the active
//    users hold plus one minimum allocation, ceil((used + 1024) / 3), which
//    stays below 4096 until the queue is full; the MULP part is the same
//    4056 -> 4096 after rounding up. 4096 MB.
// canAssignToUser (every line) refuses only when the user's usage is
// GREATER than the limit, so a user at exactly 4096 gets a fifth container.
// Apps are served in application-id order (2.x; 3.3 FifoOrderingPolicy, all
// priority 0): alice takes 5 GB, then bob 5 GB, and carol what is left, 2 GB.
// That state is where the churn goes from any start: a user above 5 GB
// gets nothing more (above 4096) and drops as its tasks end; a freed
// container goes to alice while she is at 4 GB or less, then to bob, so
// carol is offered one only while both hold 5 GB, and gets the 2 GB left.
// (With the queue full, 2.x's limit would be ceil((12288 + 1024) / 3) ->
// 5120, but no node has room then.) A user who took more in the first
// moments (8 GB for alice while bob and carol had not yet asked: the 2.x
// limit of a user alone is the queue) holds it only until those tasks end.
FidelityScenario UserLimitThreeUsers() {
  FidelityScenario s;
  s.name = "user-limit-3-users";
  s.summary = "three users share one queue, minimum-user-limit-percent 33";
  s.hadoop_tests = "TestLeafQueue#testUserLimits, TestLeafQueue#testSingleQueueWithMultipleUsers";
  s.derivation =
      "20 s tasks churn, every user active; a freed container leaves the queue below capacity: "
      "limit = max(ceil(12288/3), ceil(12288*33/100)) = 4096 MB (2.x computeUserLimit; 3.3 "
      "UsersManager: fair part ceil((used+1024)/3) <= 4096); a user is refused only when used > "
      "limit, so apps in id order hold 5 GB, 5 GB, and the 2 GB left";
  s.lines = kAllLines;
  s.nodes = 3;
  s.capacity_scheduler = {{std::string(kCs) + "root.queues", "default"},
                          {std::string(kCs) + "root.default.capacity", "100"},
                          {std::string(kCs) + "root.default.minimum-user-limit-percent", "33"},
                          {std::string(kCs) + "root.default.user-limit-factor", "1"},
                          {std::string(kCs) + "maximum-am-resource-percent", kNoAmLimit}};
  s.jobs = {ChurnJob("alice-1", "alice"), ChurnJob("bob-1", "bob"), ChurnJob("carol-1", "carol")};
  const int64_t at = kSteadyCheckSeconds;
  s.checks = {Memory(at, FidelityMetric::kQueueMemoryMb, "default", "", 12 * kGb),
              Memory(at, FidelityMetric::kUserMemoryMb, "default", "alice", 5 * kGb),
              Memory(at, FidelityMetric::kUserMemoryMb, "default", "bob", 5 * kGb),
              Memory(at, FidelityMetric::kUserMemoryMb, "default", "carol", 2 * kGb)};
  return s;
}

// 2. Minimum-user-limit-percent as a floor: four users, MULP 50. The same
// tests' rule with the MULP part larger than the fair part.
//
// 16 GB, one leaf, MULP 50, 20 s tasks that churn with the four users
// active (kChurnTaskSeconds). A freed container leaves the queue below its
// capacity: max(ceil(16384 / 4) = 4096 (3.3: ceil((used + 1024) / 4) =
// 4096), ceil(16384 x 50 / 100) = 8192) = 8192 MB. In id order u1 takes
// 8 GB + one container (9 GB), u2 the 7 GB left, u3 and u4 nothing: a
// container u1 frees leaves it at 8 GB, not over the limit, so it takes it
// again; one u2 frees goes to u2 (u1 over); u3 is offered one only if u1
// and u2 hold more than 8 GB each, which the queue cannot hold. A user who
// took more in the first moments (u1 alone: the 2.x limit is the queue)
// drops back as those tasks end; so do u3 and u4 if their asks were served
// before u1's or u2's.
FidelityScenario UserLimitFourUsersMulp50() {
  FidelityScenario s;
  s.name = "user-limit-4-users-mulp50";
  s.summary = "four users, minimum-user-limit-percent 50: the first two get the queue";
  s.hadoop_tests = "TestLeafQueue#testUserLimits, TestLeafQueue#testComputeUserLimitAndSetHeadroom";
  s.derivation =
      "20 s tasks churn, every user active; limit = max(ceil(16384/4) (3.3: "
      "ceil((used+1024)/4)), ceil(16384*50/100)) = 8192 MB; used > limit refuses, so in id order "
      "u1 holds 9216, u2 the 7168 left, u3 and u4 0";
  s.lines = kAllLines;
  s.nodes = 4;
  s.capacity_scheduler = {{std::string(kCs) + "root.queues", "default"},
                          {std::string(kCs) + "root.default.capacity", "100"},
                          {std::string(kCs) + "root.default.minimum-user-limit-percent", "50"},
                          {std::string(kCs) + "maximum-am-resource-percent", kNoAmLimit}};
  s.jobs = {ChurnJob("u1-1", "u1"), ChurnJob("u2-1", "u2"), ChurnJob("u3-1", "u3"),
            ChurnJob("u4-1", "u4")};
  const int64_t at = kSteadyCheckSeconds;
  s.checks = {Memory(at, FidelityMetric::kQueueMemoryMb, "default", "", 16 * kGb),
              Memory(at, FidelityMetric::kUserMemoryMb, "default", "u1", 9 * kGb),
              Memory(at, FidelityMetric::kUserMemoryMb, "default", "u2", 7 * kGb),
              Memory(at, FidelityMetric::kUserMemoryMb, "default", "u3", 0),
              Memory(at, FidelityMetric::kUserMemoryMb, "default", "u4", 0)};
  return s;
}

// 3. User-limit-factor: how far past its queue's capacity one user may go.
// TestLeafQueue#testSingleQueueWithOneUser (user-limit-factor with one
// user), #testHeadroomWithMaxCap.
//
// 16 GB; leaves a (25%, ULF 1), b (25%, ULF 2), c (50%, idle), every
// maximum 100%; one user in a and one in b, each asking for 16 GB. A
// leaf's capacity is 4096 MB; the user limit is capped by capacity x ULF
// (2.x computeUserLimit; 3.3 UsersManager: queueCapacity x ULF):
//  a: 4096 -> alice, at 4096, is not over it: 5 GB;
//  b: the fair part grows with usage (one user) up to the cap 8192 -> bob
//     9 GB. 5 + 9 = 14 GB fit the cluster: the queues do not compete.
FidelityScenario UserLimitFactor() {
  FidelityScenario s;
  s.name = "user-limit-factor";
  s.summary = "one user per queue, user-limit-factor 1 vs 2 past a 25% capacity";
  s.hadoop_tests = "TestLeafQueue#testSingleQueueWithOneUser, TestLeafQueue#testHeadroomWithMaxCap";
  s.derivation =
      "capacity 4096 MB; limit capped at capacity*ULF: a 4096 -> 5120 (used > limit refuses), "
      "b 8192 -> 9216";
  s.lines = kAllLines;
  s.nodes = 4;
  s.capacity_scheduler = {{std::string(kCs) + "root.queues", "a,b,c"},
                          {std::string(kCs) + "root.a.capacity", "25"},
                          {std::string(kCs) + "root.b.capacity", "25"},
                          {std::string(kCs) + "root.c.capacity", "50"},
                          {std::string(kCs) + "root.a.maximum-capacity", "100"},
                          {std::string(kCs) + "root.b.maximum-capacity", "100"},
                          {std::string(kCs) + "root.a.user-limit-factor", "1"},
                          {std::string(kCs) + "root.b.user-limit-factor", "2"},
                          {std::string(kCs) + "maximum-am-resource-percent", kNoAmLimit}};
  s.jobs = {Job("alice-1", "a", "alice", 0, 16), Job("bob-1", "b", "bob", 0, 16)};
  s.checks = {Memory(20, FidelityMetric::kUserMemoryMb, "a", "alice", 5 * kGb),
              Memory(20, FidelityMetric::kUserMemoryMb, "b", "bob", 9 * kGb),
              Memory(20, FidelityMetric::kQueueMemoryMb, "c", "", 0)};
  return s;
}

// 4. The AM limit holds applications pending and activates them as others
// finish. TestApplicationLimits#testActiveApplicationLimits and
// #testAMResourceLimit; TestLeafQueue#testActivateApplicationAfterQueueRefresh.
//
// 20 GB, one leaf, Hadoop's default maximum-am-resource-percent (10%).
// Five apps of one user arrive together; the first two's tasks end at 30 s.
// Every AM is unmanaged and counts the minimum allocation, 1 GB
// (FiCaSchedulerApp; 2.6 counts apps):
//  2.7/3.3: queue AM limit = normalizeUp(20480 x 0.1) = 2048; user AM limit
//    = normalizeUp(20480 x 0.1 x max(MULP 100%, 1/1) x ULF 1) = 2048;
//  2.6: max active = max(1, ceil(20480/1024 x 0.1)) = 2, per user 2.
// So two apps run and three wait; once the first two finish, two more are
// activated and one waits.
FidelityScenario AmLimit() {
  FidelityScenario s;
  s.name = "am-limit";
  s.summary = "maximum-am-resource-percent 10%: 2 of 5 apps active, the rest activated later";
  s.hadoop_tests =
      "TestApplicationLimits#testActiveApplicationLimits, "
      "TestApplicationLimits#testAMResourceLimit";
  s.derivation =
      "unmanaged AMs count 1024 MB (2.7/3.3 FiCaSchedulerApp); AM limit normalizeUp(20480*0.1) "
      "= 2048 (2.6: max(1, ceil(20*0.1)) = 2 apps): 2 active, 3 pending; after the first two "
      "finish (30 s), 2 active, 1 pending";
  s.lines = kAllLines;
  s.nodes = 5;
  s.capacity_scheduler = {{std::string(kCs) + "root.queues", "default"},
                          {std::string(kCs) + "root.default.capacity", "100"}};
  s.jobs = {Job("j1", "default", "alice", 0, 2, 30), Job("j2", "default", "alice", 0, 2, 30),
            Job("j3", "default", "alice", 0, 2), Job("j4", "default", "alice", 0, 2),
            Job("j5", "default", "alice", 0, 2)};
  s.checks = {Count(10, FidelityMetric::kActiveApps, "default", 2),
              Count(10, FidelityMetric::kPendingApps, "default", 3),
              Memory(10, FidelityMetric::kQueueMemoryMb, "default", "", 4 * kGb),
              Memory(10, FidelityMetric::kJobMemoryMb, "default", "j3", 0),
              Count(60, FidelityMetric::kActiveApps, "default", 2),
              Count(60, FidelityMetric::kPendingApps, "default", 1),
              Memory(60, FidelityMetric::kJobMemoryMb, "default", "j3", 2 * kGb),
              Memory(60, FidelityMetric::kJobMemoryMb, "default", "j5", 0)};
  return s;
}

// 5. maximum-applications refuses submissions, per queue and per user.
// TestApplicationLimits#testLimitsComputation and
// TestLeafQueue#testSetupQueueConfigsWithSpecifiedConfiguration (the
// per-user maximum derived from the queue's).
//
// One leaf, maximum-applications 4, MULP 50, ULF 1: per-user maximum =
// (int)(4 x 50/100 x 1) = 2 (LeafQueue.setupQueueConfigs, every line).
// alice submits three, bob one, carol two, a second apart: alice's third is
// refused ("already has 2 applications from user alice"), carol's second too
// ("already has 4 applications"). Four apps run.
FidelityScenario MaxApplications() {
  FidelityScenario s;
  s.name = "max-applications";
  s.summary = "maximum-applications 4 (2 per user): the 3rd app of a user and the 5th refused";
  s.hadoop_tests =
      "TestApplicationLimits#testLimitsComputation, "
      "TestLeafQueue#testSetupQueueConfigsWithSpecifiedConfiguration";
  s.derivation =
      "per-user maximum (int)(4*50/100*1) = 2: alice-3 refused; the queue's 4 reached: carol-2 "
      "refused; 4 apps active";
  s.lines = kAllLines;
  s.nodes = 2;
  s.capacity_scheduler = {{std::string(kCs) + "root.queues", "default"},
                          {std::string(kCs) + "root.default.capacity", "100"},
                          {std::string(kCs) + "root.default.maximum-applications", "4"},
                          {std::string(kCs) + "root.default.minimum-user-limit-percent", "50"},
                          {std::string(kCs) + "maximum-am-resource-percent", kNoAmLimit}};
  s.jobs = {
      Job("alice-1", "default", "alice", 0, 1),    Job("alice-2", "default", "alice", 1000, 1),
      Job("alice-3", "default", "alice", 2000, 1), Job("bob-1", "default", "bob", 3000, 1),
      Job("carol-1", "default", "carol", 4000, 1), Job("carol-2", "default", "carol", 5000, 1)};
  s.checks = {Count(10, FidelityMetric::kRejectedJobs, "", 2),
              Count(10, FidelityMetric::kActiveApps, "default", 4),
              Count(10, FidelityMetric::kPendingApps, "default", 0)};
  return s;
}

// 6/7. Ordering within a leaf. TestLeafQueue#testFifoAssignment and
// #testFairAssignment.
//
// 8 GB, one leaf, one user (MULP 100, ULF 1: the user may take the queue),
// two apps arriving together, each with more 20 s tasks than it can run by
// the check (kChurnTaskSeconds), read at steady state: what the first
// moments gave (the app whose asks arrived first may have taken more) has
// ended, and every freed container went by the order:
//  FIFO (3.3 FifoOrderingPolicy: priority, then application id; 2.x: id):
//    the first app is offered every container first, and it always asks:
//    8 GB and 0 (a container the second held goes to the first when it
//    ends).
//  fair (3.3 FairOrderingPolicy, size-based weight off): the app using less
//    memory goes first, re-sorted after each assignment: a freed container
//    goes to the app below the other, 4 GB each. 2.6 and 2.7 have no
//    ordering policies (rel/release-2.7.7 has no FairOrderingPolicy): fair
//    is a 3.3 scenario.
FidelityScenario Ordering(bool fair) {
  FidelityScenario s;
  s.name = fair ? "ordering-fair" : "ordering-fifo";
  s.summary = fair ? "ordering-policy fair: two apps of one user split the queue"
                   : "ordering-policy fifo: the first app takes the queue";
  s.hadoop_tests = fair ? "TestLeafQueue#testFairAssignment" : "TestLeafQueue#testFifoAssignment";
  s.derivation = fair ? "20 s tasks churn; FairOrderingPolicy serves the app with less memory "
                        "used first: 4096 each"
                      : "20 s tasks churn; FifoOrderingPolicy (2.x: application id order) serves "
                        "the first app first while it asks: 8192 and 0";
  s.lines = fair ? std::vector<HadoopLine>{HadoopLine::k3_3} : kAllLines;
  s.nodes = 2;
  s.capacity_scheduler = {{std::string(kCs) + "root.queues", "default"},
                          {std::string(kCs) + "root.default.capacity", "100"},
                          {std::string(kCs) + "maximum-am-resource-percent", kNoAmLimit}};
  if (fair) s.capacity_scheduler[std::string(kCs) + "root.default.ordering-policy"] = "fair";
  s.jobs = {ChurnJob("first", "alice"), ChurnJob("second", "alice")};
  const int64_t at = kSteadyCheckSeconds;
  s.checks = {
      Memory(at, FidelityMetric::kJobMemoryMb, "default", "first", fair ? 4 * kGb : 8 * kGb),
      Memory(at, FidelityMetric::kJobMemoryMb, "default", "second", fair ? 4 * kGb : 0)};
  return s;
}

// 8. An elastic queue grows to its maximum while the other is idle, and
// gives back down to its guarantee as its containers end and the other
// queue asks. TestParentQueue#testSingleLevelQueues (the child furthest
// below its guarantee is offered first), TestLeafQueue#testHeadroomWithMaxCap
// (a leaf up to its maximum capacity).
//
// 16 GB; leaves a and b, 50% each, maximum 100%, ULF 2 (one user may take
// the cluster). a's tasks last 10 s, its job asks for more than it can run
// by 80 s; b's job arrives at 30 s. At 20 s a holds all 16 GB (its maximum).
// From 30 s every container a task frees goes to the queue with the lower
// used/guaranteed (ParentQueue's child order; 3.3
// PriorityUtilizationQueueOrderingPolicy), b, until the two are level: at
// 80 s each holds its 8 GB guarantee (within one container, the one being
// handed over). Preemption off: no container is taken back.
FidelityScenario ElasticQueue() {
  FidelityScenario s;
  s.name = "elastic-queue";
  s.summary = "queue a grows to its 100% maximum while b is idle, back to 50% once b asks";
  s.hadoop_tests = "TestParentQueue#testSingleLevelQueues, TestLeafQueue#testHeadroomWithMaxCap";
  s.derivation =
      "a alone: up to its maximum (16384); once b asks, freed containers go to the child with "
      "the lower used/guaranteed: 8192 each";
  s.lines = kAllLines;
  s.nodes = 4;
  s.capacity_scheduler = {{std::string(kCs) + "root.queues", "a,b"},
                          {std::string(kCs) + "root.a.capacity", "50"},
                          {std::string(kCs) + "root.b.capacity", "50"},
                          {std::string(kCs) + "root.a.maximum-capacity", "100"},
                          {std::string(kCs) + "root.b.maximum-capacity", "100"},
                          {std::string(kCs) + "root.a.user-limit-factor", "2"},
                          {std::string(kCs) + "root.b.user-limit-factor", "2"},
                          {std::string(kCs) + "maximum-am-resource-percent", kNoAmLimit}};
  // Enough work to keep both asking past 80 s (a runs about 90 tasks by
  // then, b about 40).
  s.jobs = {Job("a-1", "a", "alice", 0, 120, 10), Job("b-1", "b", "bob", 30000, 80, 10)};
  s.checks = {Memory(20, FidelityMetric::kQueueMemoryMb, "a", "", 16 * kGb),
              Memory(20, FidelityMetric::kQueueMemoryMb, "b", "", 0),
              Memory(80, FidelityMetric::kQueueMemoryMb, "a", "", 8 * kGb),
              Memory(80, FidelityMetric::kQueueMemoryMb, "b", "", 8 * kGb)};
  return s;
}

}  // namespace

const std::vector<FidelityScenario>& FidelityScenarios() {
  static const std::vector<FidelityScenario> kScenarios = {
      UserLimitThreeUsers(), UserLimitFourUsersMulp50(),
      UserLimitFactor(),     AmLimit(),
      MaxApplications(),     Ordering(false),
      Ordering(true),        ElasticQueue()};
  return kScenarios;
}

const FidelityScenario* FindFidelityScenario(const std::string& name) {
  for (const FidelityScenario& s : FidelityScenarios()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace spindle::replay
