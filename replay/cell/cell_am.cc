#include "replay/cell/cell_am.h"

#include <glog/logging.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "am_protocol/am_service/am_service.h"
#include "nm_shim/agent/simulated/simulated_runtime.h"
#include "nm_shim/am_launcher/ipc_am_launcher.h"
#include "rm/containers/container_registry.h"
#include "rm/records/yarn_ids.h"
#include "rm/security/yarn_id_protos.h"
#include "rm/yarn_exceptions.h"

namespace spindle::replay {
namespace {

namespace y = hadoop::yarn;

int64_t Millis(Duration d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
}

std::string IdString(const y::ContainerIdProto& id) { return rm::FromProto(id).ToString(); }

bool IsNotRegistered(const Status& s) {
  return s.IsRemote() && s.java_class() == rm::yarn::kApplicationMasterNotRegistered;
}

// An RM that forgets the AM again right after each registration is broken,
// not failing over: the AM gives up after this many resyncs in a row.
constexpr int kMaxResyncsInARow = 5;

}  // namespace

CellAm::CellAm(const CellAmContext* context, int64_t job, const TraceJob* trace,
               ipc::ClientToken amrm)
    : context_(context),
      job_(job),
      trace_(trace),
      progress_(trace),
      asks_(trace, context->rack_of) {
  am_protocol::RmFailoverProxyOptions proxy;
  proxy.protocol = am_protocol::kApplicationMasterProtocol;
  proxy.user = trace_->user;
  proxy.token = std::move(amrm);
  proxy.policy = context_->policy;
  rm_ = std::make_unique<am_protocol::RmFailoverProxy>(context_->client, context_->schedulers,
                                                       std::move(proxy));
}

Status CellAm::CallRm(const std::string& method, const google::protobuf::MessageLite& request,
                      google::protobuf::MessageLite* response) {
  return rm_->Call(method, request, response);
}

Status CellAm::Register() {
  y::RegisterApplicationMasterRequestProto request;
  request.set_host("localhost");
  request.set_rpc_port(-1);
  y::RegisterApplicationMasterResponseProto response;
  RETURN_NOT_OK(CallRm("registerApplicationMaster", request, &response));
  // AMRMClientImpl counts a new registration's answers from 0.
  response_id_ = 0;
  return Status::OK();
}

Status CellAm::Resync(const std::string& why) {
  if (++resyncs_in_a_row_ > kMaxResyncsInARow) {
    return Status::Aborted(trace_->id + ": the RM forgot the AM " +
                           std::to_string(resyncs_in_a_row_) + " times in a row: " + why);
  }
  LOG(INFO) << trace_->id << ": the RM does not know this AM (" << why << "); registering again at "
            << rm_->current().ToString();
  RETURN_NOT_OK(Register());
  if (context_->resyncs != nullptr) ++*context_->resyncs;
  send_all_asks_ = true;
  // Releases sent but not confirmed go again; those queued stay queued.
  std::set<std::string> queued;
  for (const auto& id : to_release_) queued.insert(IdString(id));
  for (const auto& [key, id] : released_) {
    if (queued.count(key) == 0) to_release_.push_back(id);
  }
  return Status::OK();
}

void CellAm::AskReady(Duration now) {
  std::vector<TaskRef> ready;
  progress_.TakeReady(Millis(now) - trace_->arrival_ms, &ready);
  for (const TaskRef& t : ready) {
    asked_at_[{t.stage, t.task}] = now;
    asks_.Add(t);
  }
  if (!ready.empty()) {
    context_->recorder->OnTasksAsked(job_, static_cast<int64_t>(ready.size()), now);
  }
}

void CellAm::Release(const y::ContainerIdProto& id) {
  to_release_.push_back(id);
  released_[IdString(id)] = id;
}

Status CellAm::Heartbeat() {
  if (finished_) return Status::OK();
  if (progress_.done() && running_.empty()) return Unregister();
  AskReady(context_->trace_now());
  y::AllocateRequestProto request;
  request.set_response_id(response_id_);
  request.set_progress(progress_.tasks() == 0 ? 1.0f
                                              : static_cast<float>(progress_.finished()) /
                                                    static_cast<float>(progress_.tasks()));
  std::vector<AskRow> rows = asks_.TakeChanged();
  if (send_all_asks_) rows = asks_.AllRows();
  for (const AskRow& row : rows) {
    y::ResourceRequestProto* ask = request.add_ask();
    ask->mutable_priority()->set_priority(row.priority);
    ask->set_resource_name(row.resource_name);
    ask->mutable_capability()->set_memory(row.memory_mb);
    ask->mutable_capability()->set_virtual_cores(row.vcores);
    ask->set_num_containers(row.count);
    ask->set_relax_locality(true);
  }
  for (const auto& id : to_release_) *request.add_release() = id;
  y::AllocateResponseProto response;
  Status s = CallRm("allocate", request, &response);
  if (IsNotRegistered(s)) {
    // A failover (or a restart): the next heartbeat allocates again with
    // every ask and the unconfirmed releases.
    return Resync(s.UserMessage());
  }
  RETURN_NOT_OK(s);
  to_release_.clear();
  send_all_asks_ = false;
  if (response.has_a_m_command() && response.a_m_command() == y::AM_RESYNC) {
    return Resync("AM_RESYNC");
  }
  resyncs_in_a_row_ = 0;
  response_id_ = response.response_id();
  const Duration now = context_->trace_now();
  if (response.has_preempt() && (response.preempt().strictcontract().container_size() > 0 ||
                                 response.preempt().contract().container_size() > 0 ||
                                 response.preempt().contract().resource_size() > 0)) {
    if (context_->preemptions != nullptr) {
      ++(*context_->preemptions)[{trace_->queue, trace_->user}].messages;
    }
  }
  for (const auto& nm : response.nm_tokens()) {
    nm_tokens_[rm::FromProto(nm.nodeid()).ToString()] = nm.token();
  }
  // Completions first: what they free may be what was just allocated.
  for (const auto& status : response.completed_container_statuses()) OnCompleted(status, now);
  std::map<std::string, std::vector<const y::ContainerProto*>> by_node;
  for (const auto& c : response.allocated_containers()) {
    by_node[rm::FromProto(c.nodeid()).ToString()].push_back(&c);
  }
  for (const auto& [node, containers] : by_node) StartOnNode(containers, now);
  if (progress_.done() && running_.empty()) return Unregister();
  return Status::OK();
}

void CellAm::OnCompleted(const y::ContainerStatusProto& status, Duration now) {
  const std::string id = IdString(status.container_id());
  if (released_.erase(id) > 0) return;
  auto it = running_.find(id);
  if (it == running_.end()) {
    VLOG(1) << trace_->id << ": completion of unknown container " << id;
    return;
  }
  const Running r = it->second;
  running_.erase(it);
  if (status.exit_status() == rm::kExitPreempted) {
    if (context_->preemptions != nullptr) {
      ++(*context_->preemptions)[{trace_->queue, trace_->user}].containers;
    }
    context_->audit->OnPreempted(job_, r.task, now);
    asked_at_[{r.task.stage, r.task.task}] = now;
    asks_.Add(r.task);
    return;
  }
  if (status.exit_status() != 0) {
    context_->audit->Add(trace_->id + ": container " + id + " exited with " +
                         std::to_string(status.exit_status()) + " (" + status.diagnostics() + ")");
  }
  context_->recorder->OnTaskEnded(job_, now, r.memory_mb, r.vcores);
  context_->audit->OnEnded(job_, r.task, now);
  if (!progress_.OnFinished(r.task)) {
    context_->audit->Add(trace_->id + ": container " + id + " ended a task not running");
  }
}

void CellAm::StartOnNode(const std::vector<const y::ContainerProto*>& containers, Duration now) {
  const rm::NodeId node = rm::FromProto(containers.front()->nodeid());
  struct Start {
    const y::ContainerProto* container;
    TaskAssignment assignment;
  };
  std::vector<Start> starts;
  for (const y::ContainerProto* c : containers) {
    const std::string id = IdString(c->id());
    auto a = asks_.Assign(c->priority().priority(), node.host, c->resource().memory(),
                          c->resource().virtual_cores());
    if (!a.has_value()) {
      // More than asked for (the RM allocated before our lowered ask
      // arrived): hand it back, as an MR AM does.
      context_->audit->OnExtraContainer(node.host, id);
      Release(c->id());
      continue;
    }
    starts.push_back({c, *a});
  }
  if (starts.empty()) return;
  y::StartContainersRequestProto request;
  for (const Start& s : starts) {
    const TraceTask& task = trace_->stages[static_cast<size_t>(s.assignment.task.stage)]
                                .tasks[static_cast<size_t>(s.assignment.task.task)];
    y::StartContainerRequestProto* start = request.add_start_container_request();
    const int64_t wall_ms = std::max<int64_t>(
        1, static_cast<int64_t>(
               std::llround(static_cast<double>(task.duration_ms) / context_->speed)));
    y::StringStringMapProto* env = start->mutable_container_launch_context()->add_environment();
    env->set_key(nm::kSimulatedDurationEnv);
    env->set_value(std::to_string(wall_ms));
    *start->mutable_container_token() = s.container->container_token();
  }
  Status status = Status::OK();
  y::StartContainersResponseProto response;
  auto token = nm_tokens_.find(node.ToString());
  if (token == nm_tokens_.end()) {
    status = Status::NotFound("no NM token for " + node.ToString());
  } else {
    const ipc::ClientToken nm{token->second.identifier(), token->second.password(),
                              token->second.kind(), token->second.service()};
    const ipc::ConnectionSpec cmp{context_->nm_connect_host, static_cast<uint16_t>(node.port),
                                  nm_shim::kContainerManagementProtocol, trace_->user, nm};
    status = context_->client->Call(cmp, "startContainers", request, &response);
  }
  std::set<std::string> failed;
  if (status.ok()) {
    for (const auto& f : response.failed_requests()) {
      failed.insert(IdString(f.container_id()));
      LOG(WARNING) << trace_->id << ": " << IdString(f.container_id())
                   << " did not start: " << f.exception().message();
    }
  } else {
    LOG(WARNING) << trace_->id << ": startContainers on " << node.ToString() << ": "
                 << status.ToString();
  }
  for (const Start& s : starts) {
    const std::string id = IdString(s.container->id());
    const TraceTask& task = trace_->stages[static_cast<size_t>(s.assignment.task.stage)]
                                .tasks[static_cast<size_t>(s.assignment.task.task)];
    if (!status.ok() || failed.count(id) > 0) {
      // Ask again for the task; the container goes back.
      context_->audit->Add(trace_->id + ": container " + id + " on " + node.host +
                           " did not start" + (status.ok() ? "" : ": " + status.ToString()));
      asks_.Add(s.assignment.task);
      Release(s.container->id());
      continue;
    }
    running_[id] = Running{s.assignment.task, task.memory_mb, task.vcores};
    const auto asked = asked_at_.find({s.assignment.task.stage, s.assignment.task.task});
    const auto index = context_->node_index->find(node.host);
    context_->recorder->OnTaskPlaced(job_, asked == asked_at_.end() ? now : asked->second, now,
                                     index == context_->node_index->end() ? -1 : index->second,
                                     task.memory_mb, task.vcores, s.assignment.with_preference,
                                     s.assignment.preferred);
    context_->audit->OnStarted(job_, s.assignment.task, node.host, id, now);
  }
}

Status CellAm::Unregister() {
  y::FinishApplicationMasterRequestProto request;
  request.set_final_application_status(y::APP_SUCCEEDED);
  y::FinishApplicationMasterResponseProto response;
  Status s = CallRm("finishApplicationMaster", request, &response);
  if (IsNotRegistered(s)) {
    // Registered again, the next heartbeat finishes again.
    return Resync(s.UserMessage());
  }
  RETURN_NOT_OK(s);
  // Not yet: the next heartbeat asks again (as AMRMClient polls).
  finished_ = response.isunregistered();
  return Status::OK();
}

}  // namespace spindle::replay
