#include "replay/cell/staging_cell.h"

#include <glog/logging.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "am_protocol/client_service/client_rm_service.h"
#include "am_protocol/rm_proxy/rm_failover_proxy.h"
#include "base/child_process.h"
#include "replay/cell/cell_am.h"
#include "replay/cell/cell_config.h"
#include "replay/cell/tenant_census.h"
#include "rm/records/yarn_ids.h"
#include "rm/security/yarn_id_protos.h"
#include "rm/yarn_exceptions.h"
#include "wire/ipc/rpc_client.h"
#include "yarn_service_protos.pb.h"

namespace spindle::replay {
namespace {

namespace y = hadoop::yarn;
using Steady = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Every application the cell submits has this type (its census asks for it).
constexpr char kApplicationType[] = "SPINDLE-REPLAY";

struct RmPorts {
  uint16_t client = 0;
  uint16_t scheduler = 0;
  uint16_t resource_tracker = 0;
};

// `spindle rm --ports-file`: "name=port" lines, written whole once bound.
std::optional<RmPorts> ReadPorts(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::map<std::string, int> ports;
  for (std::string line; std::getline(in, line);) {
    const size_t eq = line.find('=');
    if (eq != std::string::npos) ports[line.substr(0, eq)] = std::atoi(line.c_str() + eq + 1);
  }
  RmPorts p;
  p.client = static_cast<uint16_t>(ports["client"]);
  p.scheduler = static_cast<uint16_t>(ports["scheduler"]);
  p.resource_tracker = static_cast<uint16_t>(ports["resource-tracker"]);
  if (p.client == 0 || p.scheduler == 0 || p.resource_tracker == 0) return std::nullopt;
  return p;
}

// A job submitted and waiting for its attempt (and AMRMToken).
struct Waiting {
  int64_t index = 0;
  std::unique_ptr<TraceJob> job;
  y::ApplicationIdProto app;
  // What was submitted, to submit again if a new active does not know it.
  y::SubmitApplicationRequestProto submission;
};

bool IsApplicationNotFound(const Status& s) {
  return s.IsRemote() && s.java_class() == rm::yarn::kApplicationNotFound;
}

struct Running {
  int64_t index = 0;
  y::ApplicationIdProto app;
  std::unique_ptr<TraceJob> job;
  std::unique_ptr<CellAm> am;
  Steady::time_point next_heartbeat;
};

class StagingCell {
 public:
  StagingCell(const CellOptions& options, ReplayRecorder* recorder)
      : options_(options), layout_(options.work_dir), recorder_(recorder), audit_(options.nodes) {
    for (size_t i = 0; i < options.nodes.size(); ++i) {
      rack_of_[options.nodes[i].host] = options.nodes[i].rack;
      node_index_[options.nodes[i].host] = static_cast<int64_t>(i);
    }
    ipc::RpcClientOptions client;
    client.connect_timeout = milliseconds(5000);
    client.call_timeout = milliseconds(30000);
    client_ = std::make_unique<ipc::RpcClient>(client);
  }

  ~StagingCell() { StopChildren(); }

  Status Start();
  Result<ReplayModeResult> Run(TraceReader* jobs, CellRunLog* log);

 private:
  Duration TraceNow() const {
    const double wall = std::chrono::duration<double, std::nano>(Steady::now() - start_).count();
    return Duration(static_cast<int64_t>(wall * options_.speed));
  }
  bool external() const { return !options_.external_rms.empty(); }
  bool ha() const { return rms_.size() > 1; }
  // The policy of every proxy (CellOptions::rm_retry's rule).
  am_protocol::RmRetryPolicy RetryPolicy() const;
  // An ApplicationClientProtocol call as `user`, through that user's proxy
  // (each user's YarnClient has its own RMProxy).
  Status ClientCall(const std::string& user, const std::string& method,
                    const google::protobuf::MessageLite& request,
                    google::protobuf::MessageLite* response);
  // What the cell's proxies and AMs saw of the pair, for the report.
  RmFailoverSummary FailoverSummary() const;
  // Notes the first failover a proxy made.
  void NoteFailovers(int64_t failovers);
  // OK while every child runs; IoError naming the one that exited.
  Status ChildrenAlive();
  Status StartRmChild();
  Result<std::vector<y::NodeReportProto>> RunningNodes();
  // External RM: none of the trace's hosts may be live in it already.
  Status CheckNoStaleNodes();
  Status WaitNodes();
  void StopChildren();
  // Submits `job` (index `index`); a refusal is recorded, not an error.
  void Submit(int64_t index, std::unique_ptr<TraceJob> job);
  // Polls the waiting jobs' reports; starts the AMs of those launched.
  void PollWaiting();
  void HeartbeatAms();
  // Whether the RM reports `r`'s application FINISHED (getApplicationReport
  // as the job's user).
  bool ReportsFinished(const Running& r);
  void SampleQueues();
  // getApplications -> the tenant census of this moment.
  void SampleTenants();

  const CellOptions& options_;
  const CellLayout layout_;
  ReplayRecorder* const recorder_;
  CellAudit audit_;
  std::map<std::string, std::string> rack_of_;
  std::map<std::string, int64_t> node_index_;
  std::unique_ptr<ipc::RpcClient> client_;
  ChildProcess rm_child_;
  std::vector<ChildProcess> nms_;
  // The RMs driven, in rm-ids order (the cell's own: one, no rm-id).
  std::vector<ExternalRm> rms_;
  am_protocol::RmRetryPolicy policy_;
  std::map<std::string, std::unique_ptr<am_protocol::RmFailoverProxy>> client_proxies_;
  int64_t am_failovers_ = 0;  // of AMs that ended
  int64_t am_resyncs_ = 0;
  int64_t resubmissions_ = 0;
  int64_t finishes_seen_in_report_ = 0;
  double first_failover_s_ = -1;
  Steady::time_point start_;
  CellAmContext context_;
  std::vector<Waiting> waiting_;
  std::vector<Running> running_;
  std::set<std::string> queues_;  // sampled
  int64_t finished_ = 0;
  PreemptionCounts preemptions_;
  std::vector<TenantSample> tenants_;
  // The latest QueueStatistics per queue (Hadoop 2.8+ and Spindle).
  std::map<std::string, y::QueueStatisticsProto> queue_stats_;
};

Status StagingCell::ChildrenAlive() {
  if (!external() && rm_child_.Exited()) {
    return Status::IoError("spindle rm exited (status " + std::to_string(rm_child_.wait_status()) +
                           "; see " + layout_.rm_log() + ")");
  }
  for (size_t i = 0; i < nms_.size(); ++i) {
    if (nms_[i].Exited()) {
      return Status::IoError("spindle nm " + std::to_string(i) + " exited (status " +
                             std::to_string(nms_[i].wait_status()) + "; see " +
                             layout_.nm_log(static_cast<int>(i)) + ")");
    }
  }
  return Status::OK();
}

void StagingCell::StopChildren() {
  // Agents first, so that they unregister from a live RM.
  for (ChildProcess& nm : nms_) nm.Signal(SIGTERM);
  for (ChildProcess& nm : nms_) nm.Stop(SIGTERM, std::chrono::seconds(10));
  if (!external()) rm_child_.Stop(SIGTERM, std::chrono::seconds(10));
}

Status StagingCell::StartRmChild() {
  const auto deadline = Steady::now() + options_.start_timeout;
  ChildOptions rm;
  rm.binary = options_.spindle_binary;
  rm.args = {"rm", "--conf", layout_.rm_conf(), "--ports-file", layout_.rm_ports()};
  rm.log_path = layout_.rm_log();
  ASSIGN_OR_RETURN(rm_child_, ChildProcess::Spawn(rm));
  std::optional<RmPorts> ports;
  while (!(ports = ReadPorts(layout_.rm_ports())).has_value()) {
    if (rm_child_.Exited()) {
      return Status::IoError("spindle rm did not start (status " +
                             std::to_string(rm_child_.wait_status()) + "; see " + layout_.rm_log() +
                             ")");
    }
    if (Steady::now() > deadline) {
      return Status::TimedOut("spindle rm did not listen within the start timeout (see " +
                              layout_.rm_log() + ")");
    }
    std::this_thread::sleep_for(milliseconds(10));
  }
  rms_ = {ExternalRm{{"127.0.0.1", ports->client},
                     {"127.0.0.1", ports->scheduler},
                     {"127.0.0.1", ports->resource_tracker},
                     ""}};
  LOG(INFO) << "staging cell: spindle rm listens on client " << ports->client << ", scheduler "
            << ports->scheduler << ", resource tracker " << ports->resource_tracker;
  return Status::OK();
}

Status StagingCell::Start() {
  RETURN_NOT_OK(options_.Validate());
  const auto agents = SplitNodes(options_.nodes, options_.nm_processes);
  RETURN_NOT_OK(WriteCellConfig(options_, layout_, agents));
  std::error_code ec;
  std::filesystem::remove(layout_.rm_ports(), ec);
  if (options_.store == CellStore::kRocksDb) std::filesystem::remove_all(layout_.rm_store(), ec);

  policy_ = RetryPolicy();
  if (external()) {
    rms_ = options_.external_rms;
    for (const ExternalRm& rm : rms_) {
      LOG(INFO) << "staging cell: driving the RM " << (rm.rm_id.empty() ? "" : rm.rm_id + " ")
                << "at client " << rm.client.ToString() << ", scheduler " << rm.scheduler.ToString()
                << ", resource tracker " << rm.tracker.ToString() << " (Hadoop "
                << options_.hadoop_line << ")";
    }
    RETURN_NOT_OK(CheckNoStaleNodes());
  } else {
    RETURN_NOT_OK(StartRmChild());
  }
  for (size_t i = 0; i < agents.size(); ++i) {
    ChildOptions nm;
    nm.binary = options_.spindle_binary;
    nm.args = {"nm",
               "--conf",
               layout_.nm_conf(),
               "--nodes-file",
               layout_.nodes_file(static_cast<int>(i)),
               "--resource-tracker",
               rms_.front().tracker.ToString()};
    nm.log_path = layout_.nm_log(static_cast<int>(i));
    ASSIGN_OR_RETURN(ChildProcess child, ChildProcess::Spawn(nm));
    nms_.push_back(std::move(child));
  }
  return WaitNodes();
}

Result<std::vector<y::NodeReportProto>> StagingCell::RunningNodes() {
  y::GetClusterNodesRequestProto request;
  request.add_nodestates(y::NS_RUNNING);
  y::GetClusterNodesResponseProto response;
  RETURN_NOT_OK(ClientCall("spindle", "getClusterNodes", request, &response));
  return std::vector<y::NodeReportProto>(response.nodereports().begin(),
                                         response.nodereports().end());
}

Status StagingCell::CheckNoStaleNodes() {
  const auto deadline = Steady::now() + options_.start_timeout;
  Result<std::vector<y::NodeReportProto>> nodes = RunningNodes();
  while (!nodes.ok() && Steady::now() < deadline) {
    std::this_thread::sleep_for(milliseconds(200));
    nodes = RunningNodes();
  }
  if (!nodes.ok()) {
    return Status::IoError("the RM at " + rms_.front().client.ToString() +
                           " does not answer getClusterNodes: " + nodes.status().ToString());
  }
  for (const auto& report : *nodes) {
    if (rack_of_.count(report.nodeid().host()) > 0) {
      // A Hadoop 2.6/2.7 node never unregisters: the RM keeps it RUNNING
      // until it expires, and it would take containers the cell's AMs
      // cannot start.
      return Status::Aborted(
          "the RM already has a running node " + report.nodeid().host() + ":" +
          std::to_string(report.nodeid().port()) +
          " of this trace (an earlier run's?); restart the RM or wait for the node to expire "
          "(yarn.nm.liveness-monitor.expiry-interval-ms)");
    }
  }
  return Status::OK();
}

Status StagingCell::WaitNodes() {
  const auto deadline = Steady::now() + options_.start_timeout;
  while (true) {
    RETURN_NOT_OK(ChildrenAlive());
    Result<std::vector<y::NodeReportProto>> nodes = RunningNodes();
    std::map<std::string, const y::NodeReportProto*> ours;
    if (nodes.ok()) {
      for (const auto& report : *nodes) {
        if (rack_of_.count(report.nodeid().host()) > 0) ours[report.nodeid().host()] = &report;
      }
    }
    // Our own RM must hold exactly the cell's nodes; another RM may hold
    // others as well.
    const bool all = ours.size() == options_.nodes.size() &&
                     (external() || nodes->size() == options_.nodes.size());
    if (all) {
      int64_t other_racks = 0;
      for (const auto& [host, report] : ours) {
        const std::string& rack = rack_of_.at(host);
        if (rack == report->rackname()) continue;
        if (external()) {
          ++other_racks;  // the RM's topology is the operator's
        } else {
          audit_.Add("node " + host + " is on rack " + report->rackname() + " in the RM, " + rack +
                     " in the trace");
        }
      }
      if (other_racks > 0) {
        LOG(WARNING) << "staging cell: " << other_racks
                     << " node(s) are on another rack in the RM than in the trace (the RM's "
                        "topology decides; locality figures follow it)";
      }
      LOG(INFO) << "staging cell: " << options_.nodes.size() << " nodes registered";
      return Status::OK();
    }
    if (Steady::now() > deadline) {
      return Status::TimedOut("only " + std::to_string(ours.size()) + " of " +
                              std::to_string(options_.nodes.size()) +
                              " nodes registered within the start timeout" +
                              (nodes.ok() ? "" : " (" + nodes.status().UserMessage() + ")") +
                              " (see " + layout_.work_dir + ")");
    }
    std::this_thread::sleep_for(milliseconds(50));
  }
}

void StagingCell::Submit(int64_t index, std::unique_ptr<TraceJob> job) {
  const Duration now = TraceNow();
  recorder_->OnJobSubmitted(index, job->id, job->queue, job->task_count(), now);
  audit_.AddJob(index, job.get());
  queues_.insert(job->queue);
  y::GetNewApplicationRequestProto new_request;
  y::GetNewApplicationResponseProto new_response;
  Status s = ClientCall(job->user, "getNewApplication", new_request, &new_response);
  y::SubmitApplicationRequestProto submit;
  if (s.ok()) {
    y::ApplicationSubmissionContextProto* c = submit.mutable_application_submission_context();
    *c->mutable_application_id() = new_response.application_id();
    c->set_application_name(job->id);
    c->set_queue(job->queue);
    c->mutable_priority()->set_priority(job->priority);
    c->set_applicationtype(kApplicationType);
    c->set_unmanaged_am(true);
    c->set_maxappattempts(1);
    c->mutable_resource()->set_memory(1);
    c->mutable_resource()->set_virtual_cores(1);
    c->mutable_am_container_spec();
    y::SubmitApplicationResponseProto submitted;
    s = ClientCall(job->user, "submitApplication", submit, &submitted);
  }
  if (!s.ok()) {
    LOG(WARNING) << "staging cell: " << job->id << " refused: " << s.ToString();
    recorder_->OnJobRejected(index, s.UserMessage(), now);
    return;
  }
  VLOG(1) << "staging cell: " << job->id << " submitted as "
          << rm::FromProto(new_response.application_id()).ToString();
  waiting_.push_back(
      Waiting{index, std::move(job), new_response.application_id(), std::move(submit)});
}

void StagingCell::PollWaiting() {
  for (size_t i = 0; i < waiting_.size();) {
    Waiting& w = waiting_[i];
    y::GetApplicationReportRequestProto request;
    *request.mutable_application_id() = w.app;
    y::GetApplicationReportResponseProto response;
    Status s = ClientCall(w.job->user, "getApplicationReport", request, &response);
    if (IsApplicationNotFound(s) && ha()) {
      // A failover before the old active stored the application: submit
      // the same context again, as YarnClientImpl.submitApplication does
      // when its poll finds the application gone (rel/release-3.3.0
      // YarnClientImpl.java lines 364-369).
      LOG(INFO) << "staging cell: " << w.job->id << " unknown to "
                << client_proxies_.at(w.job->user)->current().ToString() << "; submitting again";
      y::SubmitApplicationResponseProto submitted;
      s = ClientCall(w.job->user, "submitApplication", w.submission, &submitted);
      if (s.ok()) {
        ++resubmissions_;
        ++i;
        continue;
      }
    }
    const y::ApplicationReportProto& r = response.application_report();
    std::string refused;
    if (!s.ok()) {
      refused = s.UserMessage();
    } else if (r.yarn_application_state() == y::FAILED || r.yarn_application_state() == y::KILLED) {
      refused =
          y::YarnApplicationStateProto_Name(r.yarn_application_state()) + ": " + r.diagnostics();
    }
    if (!refused.empty()) {
      recorder_->OnJobRejected(w.index, refused, TraceNow());
      waiting_.erase(waiting_.begin() + static_cast<std::ptrdiff_t>(i));
      continue;
    }
    if (!r.has_am_rm_token()) {
      ++i;
      continue;
    }
    const auto& t = r.am_rm_token();
    ipc::ClientToken token{t.identifier(), t.password(), t.kind(),
                           t.service().empty() ? rms_.front().scheduler.ToString() : t.service()};
    Running run;
    run.index = w.index;
    run.app = w.app;
    run.job = std::move(w.job);
    run.am = std::make_unique<CellAm>(&context_, run.index, run.job.get(), std::move(token));
    waiting_.erase(waiting_.begin() + static_cast<std::ptrdiff_t>(i));
    Status registered = run.am->Register();
    NoteFailovers(run.am->failovers());
    if (!registered.ok()) {
      am_failovers_ += run.am->failovers();
      audit_.Add(run.job->id + ": registerApplicationMaster failed: " + registered.ToString());
      continue;
    }
    run.next_heartbeat = Steady::now();
    running_.push_back(std::move(run));
  }
}

void StagingCell::HeartbeatAms() {
  const auto now = Steady::now();
  for (size_t i = 0; i < running_.size();) {
    Running& r = running_[i];
    if (r.next_heartbeat > now) {
      ++i;
      continue;
    }
    r.next_heartbeat = now + options_.heartbeat_interval;
    const bool was_unregistering = r.am->unregistering();
    bool finished_by_report = false;
    Status s = r.am->Heartbeat();
    NoteFailovers(r.am->failovers());
    if (!s.ok() && was_unregistering && ha() && s.IsUnauthorized() && ReportsFinished(r)) {
      // The old active stored this AM's unregistration and died before
      // answering; the new active recovered the attempt as finished and, as
      // Hadoop 3.3 does (RMAppAttemptImpl.recoverAppAttemptCredentials skips
      // FINISHED/FAILED/KILLED attempts), not its AMRMToken, so the retried
      // finishApplicationMaster is refused (InvalidToken, as in
      // integration/rm_crash_test.cc). The job is done: its client sees
      // FINISHED in the application report.
      ++finishes_seen_in_report_;
      finished_by_report = true;
      s = Status::OK();
    }
    if (!s.ok()) {
      am_failovers_ += r.am->failovers();
      audit_.Add(r.job->id + ": its AM gave up: " + s.ToString());
      audit_.OnUnfinished(r.index, r.am->progress().finished());
      running_.erase(running_.begin() + static_cast<std::ptrdiff_t>(i));
      continue;
    }
    if (r.am->finished() || finished_by_report) {
      am_failovers_ += r.am->failovers();
      recorder_->OnJobFinished(r.index, TraceNow());
      ++finished_;
      running_.erase(running_.begin() + static_cast<std::ptrdiff_t>(i));
      continue;
    }
    ++i;
  }
}

bool StagingCell::ReportsFinished(const Running& r) {
  y::GetApplicationReportRequestProto request;
  *request.mutable_application_id() = r.app;
  y::GetApplicationReportResponseProto response;
  const Status s = ClientCall(r.job->user, "getApplicationReport", request, &response);
  return s.ok() && response.application_report().yarn_application_state() == y::FINISHED;
}

void StagingCell::SampleQueues() {
  for (const std::string& queue : queues_) {
    y::GetQueueInfoRequestProto request;
    request.set_queuename(queue);
    y::GetQueueInfoResponseProto response;
    if (!ClientCall("spindle", "getQueueInfo", request, &response).ok() ||
        !response.has_queueinfo()) {
      continue;
    }
    if (response.queueinfo().queueconfigurationsmap_size() == 0) {
      // Hadoop before 2.9 reports no effective limits; 2.8 has statistics.
      if (response.queueinfo().has_queuestatistics()) {
        queue_stats_[queue] = response.queueinfo().queuestatistics();
      }
      continue;
    }
    const auto& info = response.queueinfo();
    if (info.has_queuestatistics()) queue_stats_[queue] = info.queuestatistics();
    const auto& limits = info.queueconfigurationsmap(0).queueconfigurations();
    audit_.OnQueueSample(queue, info.queuestatistics().allocatedmemorymb(),
                         limits.effectivemaxcapacity().memory(), TraceNow());
  }
}

void StagingCell::SampleTenants() {
  y::GetApplicationsRequestProto request;
  request.add_application_types(kApplicationType);
  for (const auto state : {y::NEW, y::NEW_SAVING, y::SUBMITTED, y::ACCEPTED, y::RUNNING}) {
    request.add_application_states(state);
  }
  y::GetApplicationsResponseProto response;
  Status s = ClientCall("spindle", "getApplications", request, &response);
  if (!s.ok()) {
    LOG_EVERY_N(WARNING, 20) << "staging cell: getApplications: " << s.ToString();
    return;
  }
  const std::vector<y::ApplicationReportProto> apps(response.applications().begin(),
                                                    response.applications().end());
  TenantSample sample =
      CountTenants(std::chrono::duration<double>(TraceNow()).count(), apps, preemptions_);
  for (TenantRow& row : sample.rows) {
    if (!row.user.empty()) continue;
    auto stats = queue_stats_.find(row.queue);
    if (stats == queue_stats_.end()) continue;
    row.scheduler_apps_running = stats->second.numappsrunning();
    row.scheduler_apps_pending = stats->second.numappspending();
  }
  tenants_.push_back(std::move(sample));
}

am_protocol::RmRetryPolicy StagingCell::RetryPolicy() const {
  if (options_.rm_retry.has_value()) return *options_.rm_retry;
  if (options_.external_rms.size() > 1) {
    // Hadoop's defaults with HA (an empty configuration cannot be refused).
    return *am_protocol::RmRetryPolicy::FromConfiguration(rm::Configuration(), /*ha_enabled=*/true);
  }
  // One RM: a call is tried once.
  am_protocol::RmRetryPolicy once;
  once.max_retries = 0;
  return once;
}

Status StagingCell::ClientCall(const std::string& user, const std::string& method,
                               const google::protobuf::MessageLite& request,
                               google::protobuf::MessageLite* response) {
  std::unique_ptr<am_protocol::RmFailoverProxy>& proxy = client_proxies_[user];
  if (proxy == nullptr) {
    std::vector<am_protocol::RmProxyTarget> targets;
    for (const ExternalRm& rm : rms_) {
      targets.push_back({rm.rm_id, rm.client.host, rm.client.port});
    }
    am_protocol::RmFailoverProxyOptions o;
    o.protocol = client_service::kApplicationClientProtocol;
    o.user = user;
    o.policy = policy_;
    proxy = std::make_unique<am_protocol::RmFailoverProxy>(client_.get(), std::move(targets),
                                                           std::move(o));
  }
  Status s = proxy->Call(method, request, response);
  NoteFailovers(proxy->failovers());
  return s;
}

void StagingCell::NoteFailovers(int64_t failovers) {
  if (failovers > 0 && first_failover_s_ < 0 && start_ != Steady::time_point{}) {
    first_failover_s_ = std::chrono::duration<double>(TraceNow()).count();
  }
}

RmFailoverSummary StagingCell::FailoverSummary() const {
  RmFailoverSummary f;
  f.ha = ha();
  if (!f.ha) return f;
  for (const ExternalRm& rm : rms_) f.rm_ids += (f.rm_ids.empty() ? "" : ",") + rm.rm_id;
  for (const auto& [user, proxy] : client_proxies_) f.client_failovers += proxy->failovers();
  f.am_failovers = am_failovers_;
  f.am_resyncs = am_resyncs_;
  f.resubmissions = resubmissions_;
  f.finishes_seen_in_report = finishes_seen_in_report_;
  f.first_failover_s = first_failover_s_;
  if (auto it = client_proxies_.find("spindle"); it != client_proxies_.end()) {
    f.serving_at_end = it->second->current().rm_id;
  }
  return f;
}

Result<ReplayModeResult> StagingCell::Run(TraceReader* jobs, CellRunLog* log) {
  context_.client = client_.get();
  for (const ExternalRm& rm : rms_) {
    context_.schedulers.push_back({rm.rm_id, rm.scheduler.host, rm.scheduler.port});
  }
  context_.policy = policy_;
  context_.resyncs = &am_resyncs_;
  context_.preemptions = &preemptions_;
  context_.speed = options_.speed;
  context_.rack_of = &rack_of_;
  context_.node_index = &node_index_;
  context_.recorder = recorder_;
  context_.audit = &audit_;
  context_.trace_now = [this] { return TraceNow(); };
  for (const CellQueue& q : options_.queues) queues_.insert(q.name);

  start_ = Steady::now();
  const auto end = start_ + options_.run_timeout;
  auto next_sample = start_;
  std::unique_ptr<TraceJob> next;
  bool more = true;
  int64_t index = 0;
  while (true) {
    RETURN_NOT_OK(ChildrenAlive());
    // Jobs due by now.
    while (more) {
      if (next == nullptr) {
        next = std::make_unique<TraceJob>();
        ASSIGN_OR_RETURN(more, jobs->Next(next.get()));
        if (!more) {
          next.reset();
          break;
        }
      }
      const Duration due =
          std::chrono::duration_cast<Duration>(std::chrono::duration<double, std::milli>(
              static_cast<double>(next->arrival_ms) / options_.speed));
      if (Steady::now() - start_ < due) break;
      Submit(index++, std::move(next));
      next.reset();  // moved from: read the next job
    }
    PollWaiting();
    HeartbeatAms();
    if (Steady::now() >= next_sample) {
      SampleQueues();
      SampleTenants();
      next_sample = Steady::now() + options_.queue_sample_interval;
    }
    if (!more && waiting_.empty() && running_.empty()) break;
    if (Steady::now() > end) {
      LOG(WARNING) << "staging cell: run timeout with " << running_.size() << " AM(s) running and "
                   << waiting_.size() << " job(s) waiting for an attempt";
      for (const Running& r : running_) audit_.OnUnfinished(r.index, r.am->progress().finished());
      for (const Waiting& w : waiting_) audit_.OnUnfinished(w.index, 0);
      break;
    }
    // The next thing due: an AM heartbeat, an arrival or a report poll.
    auto wake = Steady::now() + options_.heartbeat_interval;
    for (const Running& r : running_) wake = std::min(wake, r.next_heartbeat);
    if (next != nullptr) {
      wake =
          std::min(wake, start_ + std::chrono::duration_cast<Steady::duration>(
                                      std::chrono::duration<double, std::milli>(
                                          static_cast<double>(next->arrival_ms) / options_.speed)));
    }
    if (!waiting_.empty()) wake = std::min(wake, Steady::now() + milliseconds(20));
    std::this_thread::sleep_until(std::max(wake, Steady::now() + milliseconds(1)));
  }
  SampleQueues();
  SampleTenants();
  ReplayModeResult result = recorder_->Finish(TraceNow());
  result.tenants = std::move(tenants_);
  if (external()) {
    std::string rms;
    for (const ExternalRm& rm : rms_) rms += (rms.empty() ? "" : "; ") + rm.ToString();
    result.rm = "--rm " + rms + " (Hadoop " + options_.hadoop_line + ")";
  } else {
    result.rm = "spindle rm started by the cell (Hadoop " + options_.hadoop_line + ")";
  }
  for (const Running& r : running_) am_failovers_ += r.am->failovers();
  result.failover = FailoverSummary();
  result.label = options_.label;
  result.driver = "cell";
  result.wall_seconds = std::chrono::duration<double>(Steady::now() - start_).count();
  for (const std::string& v : audit_.violations()) result.violations.push_back(v);
  if (log != nullptr) *log = audit_.log();
  LOG(INFO) << "staging cell: " << index << " job(s) submitted, " << finished_ << " finished, "
            << result.violations.size() << " violation(s), " << result.wall_seconds << " s wall";
  return result;
}

}  // namespace

Result<ReplayModeResult> RunStagingCell(const CellOptions& options, TraceReader* jobs,
                                        ReplayRecorder* recorder, CellRunLog* log) {
  StagingCell cell(options, recorder);
  RETURN_NOT_OK(cell.Start());
  return cell.Run(jobs, log);
}

RecorderOptions CellRecorderOptions(const CellOptions& options) {
  RecorderOptions r;
  for (const TraceNode& n : options.nodes) {
    r.capacity_memory_mb += n.memory_mb;
    r.capacity_vcores += n.vcores;
  }
  for (const CellQueue& q : ResolveQueues(options.queues)) {
    r.queues.push_back(QueueShareSpec{q.name, q.capacity / 100});
  }
  return r;
}

}  // namespace spindle::replay
