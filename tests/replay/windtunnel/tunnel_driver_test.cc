#include "replay/windtunnel/tunnel_driver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "replay/trace/job_list_reader.h"
#include "replay/windtunnel/real_driver.h"
#include "replay/windtunnel/submitting_thread.h"
#include "rm/config/configuration.h"

namespace spindle::replay {
namespace {

// The jobs run as unmanaged AMs, which count the minimum allocation against
// the AM limit (2.7/3.3): these tests are about the engine, so the AM limit
// is lifted (Hadoop's default 10% would hold most of their jobs pending).
constexpr char kQueues[] = R"(<configuration>
  <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>1.0</value></property>
  <property><name>yarn.scheduler.capacity.root.queues</name><value>a,b,off</value></property>
  <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>70</value></property>
  <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>30</value></property>
  <property><name>yarn.scheduler.capacity.root.off.capacity</name><value>0</value></property>
  <property><name>yarn.scheduler.capacity.root.off.state</name><value>STOPPED</value></property>
</configuration>)";

rm::Configuration Conf() {
  rm::Configuration conf;
  CHECK(conf.AddResourceString(kQueues, "test").ok());
  return conf;
}

TraceStage Stage(const std::string& name, int tasks, int64_t ms, std::vector<int32_t> parents,
                 const std::string& host = "") {
  TraceStage s;
  s.name = name;
  s.parents = std::move(parents);
  for (int i = 0; i < tasks; ++i) {
    TraceTask t;
    t.duration_ms = ms;
    if (!host.empty()) t.preferred_nodes = {host};
    s.tasks.push_back(t);
  }
  return s;
}

std::vector<TraceJob> Jobs() {
  TraceJob mr;
  mr.id = "mr";
  mr.queue = "a";
  mr.stages = {Stage("map", 4, 1000, {}, "n1"), Stage("reduce", 1, 1000, {0})};
  mr.stages[1].priority = 10;
  TraceJob small;
  small.id = "small";
  small.queue = "root.b";
  small.arrival_ms = 500;
  small.stages = {Stage("tasks", 2, 3000, {})};
  small.stages[0].tasks[1].submit_offset_ms = 2000;
  TraceJob unknown = small;
  unknown.id = "unknown";
  unknown.queue = "nope";
  unknown.arrival_ms = 600;
  TraceJob stopped = small;
  stopped.id = "stopped";
  stopped.queue = "off";
  stopped.arrival_ms = 700;
  TraceJob huge = small;
  huge.id = "huge";
  huge.arrival_ms = 800;
  huge.stages[0].tasks[0].memory_mb = 100000;
  return {mr, small, unknown, stopped, huge};
}

TunnelSetup SmallCell(const rm::Configuration& conf) {
  TunnelSetup setup;
  setup.rm.conf = conf;
  setup.rm.pool.num_schedulers = 2;
  setup.rm.pool.num_partitions = 2;
  setup.rm.pool.sync_gap = std::chrono::milliseconds(100);
  for (int i = 1; i <= 4; ++i) {
    setup.nodes.push_back(TraceNode{"n" + std::to_string(i), i <= 2 ? "/r1" : "/r2", 4096, 4});
  }
  return setup;
}

RecorderOptions Recording() {
  RecorderOptions o;
  o.capacity_memory_mb = 4 * 4096;
  o.capacity_vcores = 16;
  o.queues = {{"a", 0.7}, {"b", 0.3}};
  return o;
}

TEST(TunnelDriverTest, VirtualReplayRunsEveryTaskOnceAndRejectsAsTheRmWould) {
  const rm::Configuration conf = Conf();
  JobListReader reader(Jobs());
  ReplayRecorder recorder(Recording());
  auto r = RunWindTunnel(TunnelRunOptions{}, SmallCell(conf), &reader, &recorder);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->violations.empty()) << r->violations.front();
  EXPECT_EQ(r->jobs_submitted, 5);
  EXPECT_EQ(r->jobs_finished, 2);
  EXPECT_EQ(r->jobs_rejected, 3);
  ASSERT_EQ(r->rejections.size(), 3u);
  EXPECT_NE(r->rejections[0].find("to unknown queue: nope"), std::string::npos);
  EXPECT_NE(r->rejections[1].find("STOPPED"), std::string::npos);
  EXPECT_NE(r->rejections[2].find("InvalidResourceRequestException"), std::string::npos);
  EXPECT_EQ(r->tasks_asked, 7);
  EXPECT_EQ(r->tasks_placed, 7);
  EXPECT_EQ(r->tasks_ended, 7);
  // The reduce waits for the maps: the MapReduce job takes two task
  // durations at least; the small job's second task starts at 2.5 s.
  ASSERT_EQ(r->jct_s.count, 2);
  EXPECT_GE(r->jct_s.cdf.front().first, 2.0);
  EXPECT_GE(r->jct_s.max, 5.0);
  EXPECT_GE(r->makespan_s, 5.0);
  // 4 maps preferring n1 (4 slots of 1 GB there): all on their node.
  EXPECT_DOUBLE_EQ(r->quality, 1.0);
  EXPECT_GT(r->utilisation_memory, 0);
  EXPECT_EQ(r->driver, "windtunnel");
}

TEST(TunnelDriverTest, VirtualReplayIsDeterministic) {
  const rm::Configuration conf = Conf();
  auto run = [&] {
    JobListReader reader(Jobs());
    ReplayRecorder recorder(Recording());
    auto r = RunWindTunnel(TunnelRunOptions{}, SmallCell(conf), &reader, &recorder);
    CHECK(r.ok());
    return *std::move(r);
  };
  const ReplayModeResult a = run();
  const ReplayModeResult b = run();
  EXPECT_EQ(a.delay_ms.mean, b.delay_ms.mean);
  EXPECT_EQ(a.jct_s.mean, b.jct_s.mean);
  EXPECT_EQ(a.end_s, b.end_s);
}

TEST(TunnelDriverTest, QueueMaximumHoldsTasksBack) {
  // b may use 30% (max 30% of 16 GB = 4.8 GB): 8 one-GB tasks run 4 at a
  // time, so the job takes two rounds.
  rm::Configuration conf;
  ASSERT_TRUE(conf.AddResourceString(R"(<configuration>
    <property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>
    <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>70</value></property>
    <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>30</value></property>
    <property><name>yarn.scheduler.capacity.root.b.maximum-capacity</name><value>30</value></property>
  </configuration>)",
                                     "test")
                  .ok());
  ASSERT_TRUE(rm::QueueTree::Parse(conf).ok());
  TraceJob job;
  job.id = "wide";
  job.queue = "b";
  job.stages = {Stage("tasks", 8, 1000, {})};
  JobListReader reader({job});
  ReplayRecorder recorder(Recording());
  auto r = RunWindTunnel(TunnelRunOptions{}, SmallCell(conf), &reader, &recorder);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->tasks_ended, 8);
  EXPECT_GE(r->jct_s.max, 2.0);
  for (const ReplaySeriesRow& row : r->series) EXPECT_LE(row.running, 4);
}

TEST(TunnelDriverTest, RealClockReplayFinishesTheSameWork) {
  const rm::Configuration conf = Conf();
  JobListReader reader(Jobs());
  ReplayRecorder recorder(Recording());
  TunnelRunOptions options;
  options.clock = TunnelClock::kReal;
  options.speed = 20;
  auto r = RunWindTunnel(options, SmallCell(conf), &reader, &recorder);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->violations.empty());
  EXPECT_EQ(r->jobs_finished, 2);
  EXPECT_EQ(r->tasks_ended, 7);
  EXPECT_GE(r->jct_s.max, 5.0) << "trace time, not wall time";
}

// The real clock starts its run once every scheduler has loaded its view:
// AwaitFirstSteps returns only once each has stepped, and at once when the
// run is stopped (a pool never started never steps).
TEST(TunnelDriverTest, TheRealClockWaitsForEverySchedulersFirstStep) {
  pool::PoolOptions o;
  o.mode = pool::SyncMode::kParSync;
  o.num_schedulers = 4;
  o.num_partitions = 4;
  o.sync_gap = std::chrono::milliseconds(100);
  o.min_unit = pool::Resource::Of(1024, 1);
  auto created = pool::SchedulerPool::Create(o, SystemClock::Get());
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  pool::SchedulerPool& pool = **created;
  pool::QueueSpec queue;
  queue.name = "default";
  ASSERT_TRUE(pool.SetQueues({queue}).ok());
  pool::NodeSpec node;
  node.total = pool::Resource::Of(2048, 2);
  for (int i = 0; i < 8; ++i) ASSERT_TRUE(pool.AddNode(node).ok());
  const std::atomic<bool> stopped{true};
  AwaitFirstSteps(pool, std::chrono::milliseconds(1), &stopped);
  for (const pool::SchedulerMetrics& s : pool.Metrics().schedulers) EXPECT_EQ(s.steps, 0);
  ASSERT_TRUE(pool.Start().ok());
  AwaitFirstSteps(pool, std::chrono::milliseconds(1), nullptr);
  const pool::PoolMetrics m = pool.Metrics();
  ASSERT_EQ(m.schedulers.size(), 4u);
  for (const pool::SchedulerMetrics& s : m.schedulers) {
    EXPECT_GT(s.steps, 0) << "scheduler " << s.scheduler;
    EXPECT_EQ(s.full_syncs, 4) << "the first step copies every partition";
  }
  pool.Stop();
}

TEST(TunnelDriverTest, ReaderErrorsStopTheRun) {
  const rm::Configuration conf = Conf();
  std::vector<TraceJob> jobs = Jobs();
  std::swap(jobs[0], jobs[1]);
  JobListReader reader(jobs);
  ReplayRecorder recorder(Recording());
  auto r = RunWindTunnel(TunnelRunOptions{}, SmallCell(conf), &reader, &recorder);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().ToString().find("arrives before"), std::string::npos);
}

// `jobs` jobs of `tasks` one-slot tasks of 1 s in queue a, one every
// `every_ms`.
std::vector<TraceJob> Stream(int jobs, int tasks, int64_t every_ms) {
  std::vector<TraceJob> out;
  for (int k = 0; k < jobs; ++k) {
    TraceJob job;
    job.id = "s" + std::to_string(k);
    job.queue = "a";
    job.arrival_ms = k * every_ms;
    job.stages = {Stage("tasks", tasks, 1000, {})};
    out.push_back(std::move(job));
  }
  return out;
}

ReplayModeResult Replay(const std::vector<TraceJob>& jobs, TunnelRunOptions options) {
  const rm::Configuration conf = Conf();
  JobListReader reader(jobs);
  ReplayRecorder recorder(Recording());
  auto r = RunWindTunnel(options, SmallCell(conf), &reader, &recorder);
  CHECK(r.ok()) << r.status().ToString();
  return *std::move(r);
}

// Trends on the virtual clock (the figures are simulated time, never the
// machine's): offered load beyond what the 16 slots hold makes tasks wait
// longer and keeps the cell busier than a light load does.
TEST(TunnelDriverTest, HeavierLoadWaitsLongerAndUsesMore) {
  // 10 tasks/s of 1 s on 16 slots, then 30 tasks/s.
  const ReplayModeResult light = Replay(Stream(40, 1, 100), TunnelRunOptions{});
  const ReplayModeResult heavy = Replay(Stream(40, 3, 100), TunnelRunOptions{});
  ASSERT_TRUE(light.violations.empty() && heavy.violations.empty());
  EXPECT_EQ(light.tasks_ended, 40);
  EXPECT_EQ(heavy.tasks_ended, 120);
  EXPECT_GT(heavy.delay_ms.p90, 2 * light.delay_ms.p90);
  EXPECT_GT(heavy.delay_ms.max, 500) << "a backlog of a second's work or more";
  EXPECT_GT(heavy.utilisation_memory, light.utilisation_memory);
}

// Each decision costs its scheduler simulated time: a dearer decision
// lengthens the delay of every task by at least the extra cost.
TEST(TunnelDriverTest, DearerDecisionsLengthenTheDelay) {
  TunnelRunOptions cheap;
  cheap.decision_cost = std::chrono::microseconds(100);
  TunnelRunOptions dear;
  dear.decision_cost = std::chrono::milliseconds(5);
  const ReplayModeResult a = Replay(Stream(20, 2, 200), cheap);
  const ReplayModeResult b = Replay(Stream(20, 2, 200), dear);
  EXPECT_EQ(a.tasks_ended, b.tasks_ended);
  EXPECT_GE(b.delay_ms.mean, a.delay_ms.mean + 4.9);
  EXPECT_GE(b.delay_ms.p50, 5.0);
}

// Idle schedulers syncing on their own clock (the bench's setting) change
// when views refresh, not the work done.
TEST(TunnelDriverTest, SyncingIdleSchedulersDoesTheSameWork) {
  TunnelRunOptions idle_sync;
  idle_sync.sync_idle_schedulers = true;
  const std::vector<TraceJob> jobs = Stream(30, 2, 150);
  const ReplayModeResult a = Replay(jobs, TunnelRunOptions{});
  const ReplayModeResult b = Replay(jobs, idle_sync);
  EXPECT_TRUE(b.violations.empty());
  EXPECT_EQ(a.tasks_ended, b.tasks_ended);
  EXPECT_EQ(a.jobs_finished, b.jobs_finished);
}

// stop_when_placed ends the run with the last placement (tasks still
// running); not_before keeps a run that would end earlier going (events
// and all) until then.
TEST(TunnelDriverTest, StopsWhenPlacedAndReportsUntilNotBefore) {
  TunnelRunOptions placed;
  placed.stop_when_placed = true;
  const ReplayModeResult r = Replay(Stream(5, 1, 100), placed);
  EXPECT_EQ(r.tasks_placed, 5);
  EXPECT_LT(r.tasks_ended, 5) << "tasks of 1 s still ran when the last was placed";
  EXPECT_LT(r.end_s, 1.0);
  TunnelRunOptions whole = placed;
  whole.not_before = std::chrono::seconds(30);
  const ReplayModeResult w = Replay(Stream(5, 1, 100), whole);
  EXPECT_EQ(w.tasks_ended, 5);
  EXPECT_DOUBLE_EQ(w.end_s, 30.0);
}

}  // namespace
}  // namespace spindle::replay

namespace spindle::replay {
namespace {

// The jobs are the RM's applications: submitted with an unmanaged AM,
// RUNNING while their AM works, FINISHED/SUCCEEDED once it unregisters.
// Submits a job of one task and places it.
void SubmitAndPlaceOne(ReplayTunnel& t, const ManualClock& clock) {
  TraceJob job;
  job.id = "one";
  job.queue = "a";
  job.user = "alice";
  job.stages = {Stage("tasks", 1, 1000, {})};
  ASSERT_TRUE(t.Submit(job, Duration(0)).ok());
  const pool::StepResult r = t.pool().RunAllOnce(clock.Now());
  ASSERT_EQ(r.placed, 1);
  int64_t got = 0;
  for (int s = 0; s < t.pool().num_schedulers(); ++s) {
    auto n = t.Collect(s, 1, std::chrono::milliseconds(1));
    ASSERT_TRUE(n.ok());
    got += *n;
  }
  ASSERT_EQ(got, 1);
}

TEST(ReplayTunnelTest, JobsRunAsApplicationsOfTheRmCore) {
  const rm::Configuration conf = Conf();
  ManualClock clock;
  ReplayRecorder recorder(Recording());
  auto tunnel = ReplayTunnel::Create(SmallCell(conf), &clock, &recorder);
  ASSERT_TRUE(tunnel.ok()) << tunnel.status().ToString();
  ReplayTunnel& t = **tunnel;
  ASSERT_NO_FATAL_FAILURE(SubmitAndPlaceOne(t, clock));
  std::vector<rm::RmApp> apps = t.rm().core().ApplicationReports();
  ASSERT_EQ(apps.size(), 1u);
  EXPECT_EQ(apps[0].state, rm::AppState::kRunning);
  EXPECT_EQ(apps[0].submission.name, "one");
  EXPECT_EQ(apps[0].submission.user, "alice");
  EXPECT_TRUE(apps[0].submission.unmanaged_am);
  ASSERT_TRUE(t.ReleaseDue(std::chrono::seconds(5)).ok());
  EXPECT_FALSE(t.reporting_busy()) << "no reporting thread: nothing in flight";
  EXPECT_EQ(t.jobs_in_flight(), 0);
  apps = t.rm().core().ApplicationReports();
  ASSERT_EQ(apps.size(), 1u);
  EXPECT_EQ(apps[0].state, rm::AppState::kFinished);
  EXPECT_EQ(apps[0].final_status, rm::FinalStatus::kSucceeded);
  // The RM took the app out of the pool.
  std::vector<pool::Placement> none;
  EXPECT_FALSE(t.pool().TakePlacements(apps[0].pool_app, &none).ok());
}

// The real clock's submitting thread submits each job to the RM once its
// arrival has come (here the manual clock's start), refused ones included,
// and the driver enters them in submission order when it takes them; a job
// whose arrival has not come when the thread stops is never submitted.
TEST(ReplayTunnelTest, TheSubmittingThreadSubmitsArrivedJobsAndTheDriverEntersThem) {
  const rm::Configuration conf = Conf();
  ManualClock clock;
  ReplayRecorder recorder(Recording());
  auto made = ReplayTunnel::Create(SmallCell(conf), &clock, &recorder);
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  ReplayTunnel& t = **made;
  t.set_origin(clock.Now());
  TraceJob first;
  first.id = "first";
  first.queue = "a";
  first.stages = {Stage("tasks", 2, 1000, {}, "n3")};
  TraceJob refused = first;
  refused.id = "refused";
  refused.queue = "nope";
  TraceJob later = first;
  later.id = "later";
  later.arrival_ms = 3600 * 1000;
  JobListReader reader({first, refused, later});
  SubmittingThread submitter(&t, &reader, &clock);
  int64_t entered = 0;
  // Until both arrived jobs are submitted (a bound, not a timing assert).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (entered < 2 && std::chrono::steady_clock::now() < deadline) {
    const Result<int64_t> n = submitter.TakeSubmitted();
    ASSERT_TRUE(n.ok()) << n.status().ToString();
    entered += *n;
    std::this_thread::yield();
  }
  ASSERT_EQ(entered, 2);
  EXPECT_EQ(t.jobs_submitted(), 2);
  EXPECT_EQ(t.jobs_in_flight(), 1);
  EXPECT_EQ(t.tasks_waiting(), 2) << "the first job's tasks were asked for";
  EXPECT_FALSE(submitter.done()) << "the last job has not arrived";
  const Result<int64_t> last = submitter.Stop();
  ASSERT_TRUE(last.ok()) << last.status().ToString();
  EXPECT_EQ(*last, 0);
  EXPECT_FALSE(submitter.done());
  // The refused job's app failed (an unknown queue); the later one never came.
  std::vector<rm::RmApp> apps = t.rm().core().ApplicationReports();
  ASSERT_EQ(apps.size(), 2u);
  std::sort(apps.begin(), apps.end(), [](const rm::RmApp& a, const rm::RmApp& b) {
    return a.submission.name < b.submission.name;
  });
  EXPECT_EQ(apps[0].submission.name, "first");
  EXPECT_EQ(apps[0].state, rm::AppState::kRunning);
  EXPECT_EQ(apps[1].submission.name, "refused");
  EXPECT_EQ(apps[1].state, rm::AppState::kFailed);
  // The entered job runs as a job submitted on the driver's thread does.
  ASSERT_EQ(t.pool().RunAllOnce(clock.Now()).placed, 2);
  int64_t got = 0;
  for (int s = 0; s < t.pool().num_schedulers(); ++s) {
    const Result<int64_t> n = t.Collect(s, 2, std::chrono::milliseconds(1));
    ASSERT_TRUE(n.ok()) << n.status().ToString();
    got += *n;
  }
  EXPECT_EQ(got, 2);
  EXPECT_EQ(t.tasks_running(), 2);
  const ReplayModeResult r = recorder.Finish(std::chrono::seconds(1));
  EXPECT_EQ(r.jobs_submitted, 2);
  EXPECT_EQ(r.jobs_rejected, 1);
}

// A small cell's tunnel with its reporting thread started and one task
// placed (SubmitAndPlaceOne).
class ReportingThreadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto made = ReplayTunnel::Create(SmallCell(conf_), &clock_, &recorder_);
    ASSERT_TRUE(made.ok()) << made.status().ToString();
    tunnel_ = std::move(*made);
    tunnel_->StartReportingThread();
    ASSERT_NO_FATAL_FAILURE(SubmitAndPlaceOne(*tunnel_, clock_));
  }

  const rm::Configuration conf_ = Conf();
  ManualClock clock_;
  ReplayRecorder recorder_{Recording()};
  std::unique_ptr<ReplayTunnel> tunnel_;
};

// The ended task's node reports it on that thread; the task is booked as
// ended (and its job finished) once the heartbeat is answered, at the next
// ReleaseDue or FlushReleases.
TEST_F(ReportingThreadTest, SendsHeartbeatsAndBooksThemAfter) {
  ReplayTunnel& t = *tunnel_;
  const rm::ApplicationAttemptId attempt =
      t.rm().core().ApplicationReports().at(0).current_attempt()->id;
  ASSERT_EQ(t.rm().core().ContainerReports(attempt).size(), 1u);
  ASSERT_TRUE(t.ReleaseDue(std::chrono::seconds(5)).ok());
  EXPECT_EQ(t.tasks_running(), 1) << "not booked before its heartbeat is answered";
  EXPECT_EQ(t.jobs_in_flight(), 1);
  ASSERT_TRUE(t.FlushReleases().ok());
  EXPECT_TRUE(t.rm().core().ContainerReports(attempt).empty()) << "its node reported it";
  EXPECT_EQ(t.tasks_running(), 0);
  EXPECT_EQ(t.jobs_in_flight(), 0);
  const std::vector<rm::RmApp> apps = t.rm().core().ApplicationReports();
  ASSERT_EQ(apps.size(), 1u);
  EXPECT_EQ(apps[0].state, rm::AppState::kFinished);
  EXPECT_TRUE(t.FlushReleases().ok()) << "nothing left in flight";
}

// A finished job's AM unregisters on that thread too, after the next
// batch's heartbeats (here a batch of none).
TEST_F(ReportingThreadTest, UnregistersAFinishedJobsAmAfterTheNextBatch) {
  ReplayTunnel& t = *tunnel_;
  ASSERT_TRUE(t.ReleaseDue(std::chrono::seconds(5)).ok());
  // Nothing more is due: this pass books the ended task (the job is done)
  // and sends its AM's unregistration on the reporting thread.
  ASSERT_TRUE(t.ReleaseDue(std::chrono::seconds(6)).ok());
  EXPECT_EQ(t.tasks_running(), 0);
  EXPECT_EQ(t.jobs_in_flight(), 0);
  ASSERT_TRUE(t.FlushReleases().ok());
  const std::vector<rm::RmApp> apps = t.rm().core().ApplicationReports();
  ASSERT_EQ(apps.size(), 1u);
  EXPECT_EQ(apps[0].state, rm::AppState::kFinished) << "its AM unregistered";
  EXPECT_EQ(apps[0].final_status, rm::FinalStatus::kSucceeded);
}

// The driver does not have to wait for the reporting thread: it asks
// whether the last batch is still being sent (reporting_busy), and the
// batch's tasks are booked as ended only when it next calls ReleaseDue,
// on its own thread, however long ago the heartbeats were answered.
TEST_F(ReportingThreadTest, ReportsWhetherBusyAndBooksOnlyOnTheDriversNextCall) {
  ReplayTunnel& t = *tunnel_;
  EXPECT_FALSE(t.reporting_busy()) << "nothing posted yet";
  ASSERT_TRUE(t.ReleaseDue(std::chrono::seconds(5)).ok());
  // Until the reporting thread answered (a bound, not a timing assert).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (t.reporting_busy() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  ASSERT_FALSE(t.reporting_busy());
  EXPECT_EQ(t.tasks_running(), 1) << "answered, not yet booked";
  EXPECT_EQ(t.jobs_in_flight(), 1);
  ASSERT_TRUE(t.ReleaseDue(std::chrono::seconds(6)).ok());
  EXPECT_EQ(t.tasks_running(), 0);
  EXPECT_EQ(t.jobs_in_flight(), 0);
  ASSERT_TRUE(t.FlushReleases().ok());
  EXPECT_FALSE(t.reporting_busy());
}

}  // namespace
}  // namespace spindle::replay

namespace spindle::replay {
namespace {

// Alibaba v2017's machine errors: a node unavailable takes no new task (its
// heartbeat says unhealthy), and takes them again once back.
TEST(TunnelDriverTest, NodeEventsMakeANodeUnavailableAndBack) {
  const rm::Configuration conf = Conf();
  TunnelSetup setup = SmallCell(conf);
  setup.nodes.resize(2);  // n1, n2
  setup.node_events = {TraceNodeEvent{0, 0, false, "softerror: machine_fail"},
                       TraceNodeEvent{60'000, 0, true, "added"}};
  TraceJob early;
  early.id = "early";
  early.queue = "a";
  early.stages = {Stage("tasks", 4, 1000, {}, "n1")};
  TraceJob late = early;
  late.id = "late";
  late.arrival_ms = 61'000;
  JobListReader reader({early, late});
  RecorderOptions recording = Recording();
  recording.capacity_memory_mb = 2 * 4096;
  recording.capacity_vcores = 8;
  ReplayRecorder recorder(recording);
  auto r = RunWindTunnel(TunnelRunOptions{}, setup, &reader, &recorder);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->violations.empty()) << r->violations.front();
  EXPECT_EQ(r->jobs_finished, 2);
  EXPECT_EQ(r->tasks_placed, 8);
  // The early job's tasks all ran on n2 within their first seconds (n1,
  // their preference, was unavailable); the late job's all on n1.
  EXPECT_DOUBLE_EQ(r->quality, 0.5);
  EXPECT_LT(r->jct_s.cdf.front().first, 10.0);
}

}  // namespace
}  // namespace spindle::replay
