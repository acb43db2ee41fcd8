#include "rm/apps/app_manager.h"

#include <glog/logging.h>

#include <algorithm>
#include <tuple>

#include "rm/yarn_exceptions.h"

namespace spindle::rm {

namespace {

// The attempt's AM request still wants its container (a managed AM's
// attempt, SCHEDULED, none placed yet) or the AM's asks want some.
bool AsksForContainers(const RmApp& app, const RmAttempt& attempt) {
  const bool am_request = !app.submission.unmanaged_am &&
                          attempt.state == AttemptState::kScheduled &&
                          !attempt.am_container.has_value();
  return am_request || attempt.asks_outstanding;
}

// A recovered app in a final state whose attempt records say otherwise: the
// RM stopped after storing the app's end and before storing its attempt's
// (finishApplicationMaster stores the app first). Left as it was, such an
// attempt would show its AM container running for ever, a container no node
// reports and nothing completes. The attempts end as the app did (Hadoop 3.3
// RMAppAttemptImpl.AttemptRecoveredTransition); the container the node may
// still run is not taken back and is cleaned up (RecoverContainer).
void EndAttemptsOfRecoveredFinalApp(RmApp& app) {
  for (RmAttempt& attempt : app.attempts) {
    if (IsFinal(attempt.state)) continue;
    LOG(WARNING) << app.submission.id.ToString() << " final state (" << Name(app.state)
                 << ") was recorded, but " << attempt.id.ToString()
                 << " final state was not: it ends as its application";
    attempt.state = AttemptStateOfFinalApp(app.state);
    if (attempt.final_status == FinalStatus::kUndefined) attempt.final_status = app.final_status;
    if (attempt.finish_time_ms == 0) attempt.finish_time_ms = app.finish_time_ms;
  }
}

}  // namespace

ApplicationManager::ApplicationManager(const ApplicationManagerOptions& options,
                                       pool::SchedulerPool* pool, ContainerRegistry* containers,
                                       AmLauncher* launcher, const NodeDirectory* nodes,
                                       const Clock* clock, AppStore* store)
    : options_(options),
      pool_(pool),
      containers_(containers),
      launcher_(launcher),
      nodes_(nodes),
      clock_(clock),
      store_(store),
      cluster_timestamp_(options.cluster_timestamp_ms > 0 ? options.cluster_timestamp_ms
                                                          : clock->WallMillis()) {
  MutexLock lock(&mu_);
  // The user AM limit counts Hadoop's active users: those whose apps have
  // outstanding requests (am_activation.h). AmActivation runs only under mu_.
  am_activation_.SetActiveUsersCount([this](const std::string& queue) {
    mu_.AssertHeld();
    return active_apps_.ActiveUsers(queue);
  });
}

void ApplicationManager::SetListener(Listener listener) {
  MutexLock lock(&mu_);
  listener_ = std::move(listener);
}

void ApplicationManager::SetClientToAmTokens(ClientToAmTokenSecretManager* keys) {
  MutexLock lock(&mu_);
  client_to_am_tokens_ = keys;
}

Result<ApplicationId> ApplicationManager::NewApplicationId() {
  MutexLock lock(&mu_);
  if (store_ != nullptr && next_app_seq_ > reserved_app_seq_) {
    const int32_t reserve = next_app_seq_ + std::max(options_.app_id_block, 1) - 1;
    Status reserved = store_->ReserveAppIds(reserve);
    if (!reserved.ok()) {
      LOG(ERROR) << "cannot reserve application ids in the state store: " << reserved.ToString();
      return Status::Remote(
          "java.io.IOException",
          "The ResourceManager cannot store new application ids: " + reserved.message());
    }
    reserved_app_seq_ = reserve;
  }
  return ApplicationId{cluster_timestamp_, next_app_seq_++};
}

void ApplicationManager::Run(Actions& actions) {
  for (auto& action : actions) action();
  actions.clear();
}

RmApp* ApplicationManager::FindLocked(const ApplicationId& id) {
  auto it = apps_.find(id);
  return it == apps_.end() ? nullptr : &it->second;
}

Result<RmApp*> ApplicationManager::FindOrNotFoundLocked(const ApplicationId& id) {
  RmApp* app = FindLocked(id);
  if (app == nullptr) {
    return Status::Remote(yarn::kApplicationNotFound,
                          "Application with id '" + id.ToString() + "' doesn't exist in RM.");
  }
  return app;
}

Status ApplicationManager::Submit(Submission submission) {
  Actions actions;
  const ApplicationId submission_id = submission.id;
  std::optional<RmApp> record;
  {
    MutexLock lock(&mu_);
    const ApplicationId id = submission.id;
    if (apps_.count(id) != 0) {
      return Status::Remote(yarn::kYarnException, "Application with id " + id.ToString() +
                                                      " is already present! Cannot add a "
                                                      "duplicate!");
    }
    if (!submission.unmanaged_am) {
      // Checked against the maximum as RMAppManager.validateResourceRequest
      // checks it.
      pool::Resource& am = submission.am_resource;
      const int64_t memory = am.memory_mb();
      const int64_t vcores = am.vcores();
      if (memory < 0 || memory > options_.max_allocation.memory_mb()) {
        return Status::Remote(
            yarn::kInvalidResourceRequest,
            "Invalid resource request, requested memory < 0, or requested memory > max "
            "configured, requestedMemory=" +
                std::to_string(memory) +
                ", maxMemory=" + std::to_string(options_.max_allocation.memory_mb()));
      }
      if (vcores < 0 || vcores > options_.max_allocation.vcores()) {
        return Status::Remote(
            yarn::kInvalidResourceRequest,
            "Invalid resource request, requested virtual cores < 0, or requested virtual cores "
            "> max configured, requestedVirtualCores=" +
                std::to_string(vcores) +
                ", maxVirtualCores=" + std::to_string(options_.max_allocation.vcores()));
      }
      // The scheduler normalises the AM's request as every other
      // (CapacityScheduler.allocate -> SchedulerUtils.normalizeRequests).
      am = ResourceNormalizer(options_.resource_calculator, options_.min_allocation,
                              options_.max_allocation)
               .Normalize(am);
    }
    RmApp app;
    app.max_attempts = submission.max_attempts <= 0
                           ? options_.max_attempts
                           : std::min(submission.max_attempts, options_.max_attempts);
    app.submit_time_ms = clock_->WallMillis();
    app.start_time_ms = app.submit_time_ms;
    app.pool_app = pool::AppId(next_pool_app_++);
    app.pool_held = false;
    app.submission = std::move(submission);
    RmApp& stored = apps_.emplace(id, std::move(app)).first->second;
    LOG(INFO) << "application " << id.ToString() << " submitted by " << stored.submission.user
              << " to queue " << stored.submission.queue;
    AppEventLocked(stored, AppEvent::kStart, &actions);
    // RMAppNewlySavingTransition: the lifetime counts from submission.
    if (stored.submission.lifetime_seconds > 0) {
      stored.lifetime_expiry_ms = stored.submit_time_ms + stored.submission.lifetime_seconds * 1000;
      lifetimes_.Register(id, *stored.lifetime_expiry_ms);
      LOG(INFO) << "application " << id.ToString()
                << " is registered for timeout monitor, type=LIFETIME value="
                << stored.submission.lifetime_seconds << " seconds";
    }
    if (store_ != nullptr) record = stored;
  }
  // The client is answered once the app is durable. The write is made
  // without the lock, so that submissions share syncs; while the app is
  // NEW_SAVING nothing else changes it (kills wait, moves are refused).
  if (record.has_value()) {
    Status saved = store_->SaveApp(*record);
    if (!saved.ok()) {
      LOG(ERROR) << "cannot store application " << record->submission.id.ToString() << ": "
                 << saved.ToString();
      MutexLock lock(&mu_);
      lifetimes_.Unregister(record->submission.id);
      apps_.erase(record->submission.id);
      return Status::Remote("java.io.IOException", "The ResourceManager cannot store application " +
                                                       record->submission.id.ToString() + ": " +
                                                       saved.message());
    }
  }
  {
    MutexLock lock(&mu_);
    RmApp& stored = apps_.at(submission_id);
    AppEventLocked(stored, AppEvent::kSaved, &actions);
    // The scheduler's acceptance.
    auto queue = PoolQueueLocked(stored.submission.queue);
    std::string full;
    if (!queue.ok()) {
      RejectLocked(stored,
                   "Application " + submission_id.ToString() + " submitted by user " +
                       stored.submission.user + " to unknown queue: " + stored.submission.queue,
                   &actions);
    } else if (!stored.submission.rejection.empty()) {
      // LeafQueue.submitApplication's ACL check comes before its state and
      // limits (Hadoop 2.6/2.7).
      RejectLocked(stored, stored.submission.rejection, &actions);
    } else if (full =
                   QueueFullLocked(stored, stored.submission.queue, stored.submission.queue_limits);
               !full.empty()) {
      // CapacityScheduler.addApplication rejects with the exception's text.
      RejectLocked(stored, "org.apache.hadoop.security.AccessControlException: " + full, &actions);
    } else {
      Status added = pool_->AddApp({stored.pool_app, *queue, stored.submission.priority,
                                    pool_->InternUser(stored.submission.user)});
      if (!added.ok()) {
        RejectLocked(stored, added.message(), &actions);
      } else {
        SetInPoolLocked(stored, true);
        AppEventLocked(stored, AppEvent::kAccepted, &actions);
        StartAttemptLocked(stored, &actions);
      }
    }
  }
  Run(actions);
  return Status::OK();
}

void ApplicationManager::RejectLocked(RmApp& app, const std::string& diagnostics,
                                      Actions* actions) {
  LOG(WARNING) << "application " << app.submission.id.ToString() << " rejected: " << diagnostics;
  app.diagnostics = diagnostics;
  AppEventLocked(app, AppEvent::kRejected, actions);
}

Result<bool> ApplicationManager::Kill(const ApplicationId& id, const std::string& diagnostics) {
  Actions actions;
  bool done = false;
  {
    MutexLock lock(&mu_);
    RmApp* app = FindLocked(id);
    if (app == nullptr) {
      return Status::Remote(yarn::kApplicationNotFound,
                            "Trying to kill an absent application " + id.ToString());
    }
    if (app->state == AppState::kNewSaving) return false;
    KillLocked(*app, diagnostics, &actions);
    done = IsFinal(app->state);
  }
  Run(actions);
  return done;
}

void ApplicationManager::KillLocked(RmApp& app, const std::string& diagnostics, Actions* actions) {
  if (app.state == AppState::kNewSaving || IsFinal(app.state) || app.state == AppState::kKilling ||
      app.state == AppState::kFinishing) {
    return;
  }
  app.diagnostics = diagnostics.empty() ? "Application killed by user." : diagnostics;
  AppEventLocked(app, AppEvent::kKill, actions);
  if (app.state == AppState::kKilling) {
    RmAttempt* attempt = app.current_attempt();
    if (attempt != nullptr) {
      AttemptEventLocked(app, *attempt, AttemptEvent::kKill, actions);
    } else {
      AppEventLocked(app, AppEvent::kAttemptKilled, actions);
    }
  }
}

Result<RmApp> ApplicationManager::GetApp(const ApplicationId& id) const {
  MutexLock lock(&mu_);
  auto it = apps_.find(id);
  if (it == apps_.end()) {
    return Status::Remote(yarn::kApplicationNotFound,
                          "Application with id '" + id.ToString() + "' doesn't exist in RM.");
  }
  return it->second;
}

std::vector<RmApp> ApplicationManager::ListApps() const {
  MutexLock lock(&mu_);
  std::vector<RmApp> out;
  out.reserve(apps_.size());
  for (const auto& [id, app] : apps_) out.push_back(app);
  return out;
}

Result<RmAttempt*> ApplicationManager::CurrentAttemptLocked(const ApplicationAttemptId& id,
                                                            RmApp** app_out) {
  RmApp* app = FindLocked(id.app);
  RmAttempt* attempt = app == nullptr ? nullptr : app->current_attempt();
  if (attempt == nullptr || attempt->id != id) {
    return Status::Remote(yarn::kApplicationAttemptNotFound,
                          "Application attempt " + id.ToString() +
                              " doesn't exist in ApplicationMasterService cache.");
  }
  *app_out = app;
  return attempt;
}

Status ApplicationManager::RegisterAm(const ApplicationAttemptId& id, const std::string& host,
                                      int32_t rpc_port, const std::string& tracking_url) {
  Actions actions;
  {
    MutexLock lock(&mu_);
    RmApp* app = nullptr;
    ASSIGN_OR_RETURN(RmAttempt * attempt, CurrentAttemptLocked(id, &app));
    if (attempt->state != AttemptState::kLaunched) {
      if (attempt->state == AttemptState::kRunning) {
        return Status::Remote(yarn::kInvalidApplicationMasterRequest,
                              "Application Master is already registered : " + id.app.ToString());
      }
      return Status::Remote(yarn::kInvalidApplicationMasterRequest,
                            "Application Master for " + id.ToString() + " cannot register in " +
                                std::string(Name(attempt->state)) + " state");
    }
    attempt->host = host;
    attempt->rpc_port = rpc_port;
    attempt->tracking_url = tracking_url;
    attempt->last_heard = clock_->Now();
    AttemptEventLocked(*app, *attempt, AttemptEvent::kRegistered, &actions);
    AppEventLocked(*app, AppEvent::kAttemptRegistered, &actions);
    LOG(INFO) << "AM registered for " << id.ToString() << " at " << host << ":" << rpc_port;
  }
  Run(actions);
  return Status::OK();
}

Result<ApplicationManager::AmHeartbeatFacts> ApplicationManager::AmHeartbeat(
    const ApplicationAttemptId& id, float progress) {
  MutexLock lock(&mu_);
  RmApp* app = nullptr;
  ASSIGN_OR_RETURN(RmAttempt * attempt, CurrentAttemptLocked(id, &app));
  if (attempt->state == AttemptState::kLaunched || attempt->state == AttemptState::kAllocated) {
    return Status::Remote(yarn::kApplicationMasterNotRegistered,
                          "AM is not registered for known application attempt: " + id.ToString() +
                              " or RM had restarted after AM registered. AM "
                              "should re-register.");
  }
  if (attempt->state != AttemptState::kRunning && attempt->state != AttemptState::kFinishing) {
    return Status::Remote(
        yarn::kApplicationAttemptNotFound,
        "Application attempt " + id.ToString() + " is " + std::string(Name(attempt->state)));
  }
  attempt->last_heard = clock_->Now();
  if (progress >= 0 && progress <= 1) app->progress = progress;
  const Submission& submission = app->submission;
  return AmHeartbeatFacts{submission.user, submission.queue, submission.app_label_expression,
                          submission.priority};
}

Result<bool> ApplicationManager::FinishAm(const ApplicationAttemptId& id, FinalStatus final_status,
                                          const std::string& diagnostics,
                                          const std::string& tracking_url) {
  Actions actions;
  bool unregistered = false;
  {
    MutexLock lock(&mu_);
    RmApp* app = nullptr;
    ASSIGN_OR_RETURN(RmAttempt * attempt, CurrentAttemptLocked(id, &app));
    // Once the attempt is over for whatever reason (it finished, or the app
    // was killed under it) its AM may unregister and exit cleanly, as with
    // Hadoop, which answers isUnregistered once the final state is stored.
    if (attempt->state == AttemptState::kFinishing || IsFinal(attempt->state)) return true;
    if (attempt->state != AttemptState::kRunning) {
      return Status::Remote(yarn::kApplicationMasterNotRegistered,
                            "Application Master is trying to unregister before registering "
                            "for: " +
                                id.ToString());
    }
    attempt->final_status = final_status;
    attempt->diagnostics = diagnostics;
    if (!tracking_url.empty()) attempt->tracking_url = tracking_url;
    attempt->last_heard = clock_->Now();
    app->final_status = final_status;
    if (!diagnostics.empty()) app->diagnostics = diagnostics;
    AppEventLocked(*app, AppEvent::kAttemptUnregistered, &actions);
    AttemptEventLocked(*app, *attempt,
                       app->submission.unmanaged_am ? AttemptEvent::kUnregisteredUnmanaged
                                                    : AttemptEvent::kUnregistered,
                       &actions);
    unregistered = true;
  }
  Run(actions);
  return unregistered;
}

Result<pool::AppId> ApplicationManager::PoolAppOf(const ApplicationAttemptId& id) const {
  MutexLock lock(&mu_);
  auto it = apps_.find(id.app);
  if (it == apps_.end() || it->second.current_attempt() == nullptr ||
      it->second.current_attempt()->id != id || !it->second.in_pool) {
    return Status::Remote(yarn::kApplicationAttemptNotFound,
                          "Application attempt " + id.ToString() + " is not active");
  }
  return it->second.pool_app;
}

Result<ContainerId> ApplicationManager::NextContainerId(const ApplicationAttemptId& id) {
  return NextContainerIds(id, 1);
}

Result<ContainerId> ApplicationManager::NextContainerIds(const ApplicationAttemptId& id,
                                                         int64_t count) {
  if (count <= 0) return Status::InvalidArgument("container ids: count must be positive");
  MutexLock lock(&mu_);
  RmApp* app = nullptr;
  ASSIGN_OR_RETURN(RmAttempt * attempt, CurrentAttemptLocked(id, &app));
  const ContainerId first{id, attempt->next_container_sequence};
  attempt->next_container_sequence += count;
  NoteAllocationLocked(*attempt);
  return first;
}

void ApplicationManager::OnAsksUpdated(const ApplicationAttemptId& id,
                                       const AskActivity& activity) {
  MutexLock lock(&mu_);
  RmApp* app = FindLocked(id.app);
  RmAttempt* attempt = app == nullptr ? nullptr : app->current_attempt();
  if (attempt == nullptr || attempt->id != id || IsFinal(app->state)) return;
  attempt->asks_outstanding = activity.outstanding;
  if (activity.newly_asking) ActivateAppLocked(*app);
  if (activity.emptied) CheckDeactivationLocked(*app, *attempt);
}

std::map<std::string, QueueActivity> ApplicationManager::ActivityReport() const {
  MutexLock lock(&mu_);
  return active_apps_.Report();
}

void ApplicationManager::ActivateAppLocked(const RmApp& app) {
  const std::string& queue = app.submission.queue;
  const std::string& user = app.submission.user;
  active_apps_.Activate(am_activation_.context().line, queue, user, app.submission.id,
                        am_activation_.ActiveAppsOf(queue, user));
}

void ApplicationManager::CheckDeactivationLocked(const RmApp& app, const RmAttempt& attempt) {
  if (AsksForContainers(app, attempt)) return;
  active_apps_.Deactivate(app.submission.queue, app.submission.user, app.submission.id);
}

void ApplicationManager::NoteAllocationLocked(RmAttempt& attempt) {
  if (!attempt.first_allocation_ms.has_value()) attempt.first_allocation_ms = clock_->WallMillis();
}

bool ApplicationManager::OnContainerFinished(const ContainerId& container, int32_t exit_status,
                                             const std::string& diagnostics) {
  Actions actions;
  {
    MutexLock lock(&mu_);
    auto it = am_containers_.find(container);
    if (it == am_containers_.end()) return false;
    const ApplicationAttemptId attempt_id = it->second;
    am_containers_.erase(it);
    RmApp* app = FindLocked(attempt_id.app);
    if (app == nullptr) return true;
    for (auto& attempt : app->attempts) {
      if (attempt.id != attempt_id) continue;
      attempt.am_exit_status = exit_status;
      // RMAppAttemptImpl.amContainerFinished: a node that may be at fault is
      // avoided by the next attempts' AM containers.
      if (options_.am_blacklisting_enabled && attempt.am_container.has_value() &&
          CountsTowardsAmBlacklisting(exit_status)) {
        app->am_blacklist.Add(attempt.am_container->placement.node);
      }
      if (attempt.state != AttemptState::kFinishing && !IsFinal(attempt.state)) {
        attempt.diagnostics = "AM Container for " + attempt_id.ToString() +
                              " exited with  exitCode: " + std::to_string(exit_status) +
                              (diagnostics.empty() ? "" : "\n" + diagnostics);
      }
      AttemptEventLocked(*app, attempt, AttemptEvent::kContainerFinished, &actions);
    }
  }
  Run(actions);
  return true;
}

void ApplicationManager::PickUpAmContainerLocked(RmApp& app, RmAttempt& attempt, Actions* actions) {
  std::vector<pool::Placement> placements;
  if (!pool_->TakePlacements(app.pool_app, &placements).ok()) return;
  for (const auto& p : placements) {
    if (p.allocation_request_id != kAmAllocationRequestId ||
        attempt.state != AttemptState::kScheduled) {
      // Not ours to use now: give the resources back.
      pool_->Release(p).PermitUnchecked();
      continue;
    }
    auto node = nodes_->Find(p.node);
    if (!node.has_value()) {
      // The node left between commit and pick-up: ask again.
      pool_->Release(p).PermitUnchecked();
      pool_->SetAsks(app.pool_app, {AmAskOf(app)}).PermitUnchecked();
      continue;
    }
    AmContainer am;
    am.id = ContainerId{attempt.id, attempt.next_container_sequence++};
    am.node = node->id;
    am.node_http_address = node->http_address;
    am.placement = p;
    am.created_ms = clock_->WallMillis();
    attempt.am_container = am;
    NoteAllocationLocked(attempt);
    CheckDeactivationLocked(app, attempt);
    am_containers_[am.id] = attempt.id;
    Status recorded = containers_->Add(RmContainer{am.id, am.node, p, /*is_am=*/true});
    if (!recorded.ok()) LOG(ERROR) << recorded.ToString();
    if (options_.am_blacklisting_enabled && app.am_blacklist.size() > 0) {
      pool_->SetBlacklist(app.pool_app, {}, {}).PermitUnchecked();  // the AM's own from now
    }
    AttemptEventLocked(app, attempt, AttemptEvent::kContainerAllocated, actions);
    SaveAttemptLocked(app, attempt);
    AttemptStoredLocked(attempt);
    AttemptEventLocked(app, attempt, AttemptEvent::kSaved, actions);
  }
}

void ApplicationManager::Tick() {
  Actions actions;
  {
    MutexLock lock(&mu_);
    const TimePoint now = clock_->Now();
    // AM containers to pick up: only the apps whose attempt waits for one
    // (a walk of every app under this lock, every tick, cost the RM's
    // callers their turn once thousands of apps were in flight).
    std::vector<ApplicationId> waiting(am_pickups_.begin(), am_pickups_.end());
    am_pickups_.clear();
    for (const ApplicationId& id : waiting) {
      RmApp* app = FindLocked(id);
      if (app == nullptr || IsFinal(app->state)) continue;
      RmAttempt* attempt = app->current_attempt();
      if (attempt == nullptr || attempt->state != AttemptState::kScheduled) continue;
      PickUpAmContainerLocked(*app, *attempt, &actions);
      if (const RmAttempt* current = app->current_attempt();
          current != nullptr && current->state == AttemptState::kScheduled) {
        am_pickups_.insert(id);  // not placed yet
      }
    }
    // Silent AMs: the walk only once the least recently heard live attempt
    // may have expired (heard_floor_ stays at or below every live current
    // attempt's last_heard: exact after a walk, and an attempt heard of or
    // started since has a later time).
    if (now - heard_floor_ > options_.am_expiry) {
      TimePoint floor = now;
      for (auto& [id, app] : apps_) {
        RmAttempt* attempt = app.current_attempt();
        if (attempt == nullptr || IsFinal(app.state)) continue;
        const bool watched = attempt->state == AttemptState::kLaunched ||
                             attempt->state == AttemptState::kRunning ||
                             attempt->state == AttemptState::kFinishing;
        if (watched && now - attempt->last_heard > options_.am_expiry) {
          LOG(WARNING) << "AM for " << attempt->id.ToString() << " expired";
          if (attempt->state != AttemptState::kFinishing) {
            attempt->diagnostics =
                "ApplicationMaster for attempt " + attempt->id.ToString() + " timed out";
          }
          AttemptEventLocked(app, *attempt, AttemptEvent::kExpired, &actions);
        }
        if (const RmAttempt* current = app.current_attempt();
            current != nullptr && !IsFinal(app.state)) {
          floor = std::min(floor, current->last_heard);
        }
      }
      heard_floor_ = floor;
    }
    // RMAppLifetimeMonitor.expire: a KILL with Hadoop's diagnostics. An app
    // still being saved is killed on a later Tick.
    for (const ApplicationId& id : lifetimes_.Expired(clock_->WallMillis())) {
      RmApp* app = FindLocked(id);
      if (app == nullptr) {
        lifetimes_.Unregister(id);
        continue;
      }
      if (app->state == AppState::kNewSaving || app->state == AppState::kKilling) continue;
      LOG(INFO) << "application " << id.ToString() << " has exceeded its lifetime: killing it";
      KillLocked(*app, kLifetimeExceededDiagnostics, &actions);
      // Finishing or already over: nothing to kill.
      if (app->state != AppState::kKilling && !IsFinal(app->state)) lifetimes_.Unregister(id);
    }
  }
  Run(actions);
}

void ApplicationManager::AppEventLocked(RmApp& app, AppEvent event, Actions* actions) {
  const AppTransition t = NextAppState(app.state, event);
  if (!t.valid) {
    LOG(WARNING) << "application " << app.submission.id.ToString() << ": can't handle event "
                 << Name(event) << " at state " << Name(app.state);
    return;
  }
  if (t.next == app.state) return;
  if (t.next == AppState::kFinalSaving) {
    if (app.state != AppState::kKilling) app.before_special = app.state;
    app.after_saving = t.after_saving;
    app.state = AppState::kFinalSaving;
    // What is stored is what the app will end as.
    app.finish_time_ms = clock_->WallMillis();
    if (app.after_saving == AppState::kFailed) app.final_status = FinalStatus::kFailed;
    if (app.after_saving == AppState::kKilled) app.final_status = FinalStatus::kKilled;
    SaveAppLocked(app);
    EnterAppState(app, app.after_saving, actions);
    return;
  }
  if (t.next == AppState::kKilling) app.before_special = app.state;
  EnterAppState(app, t.next, actions);
}

void ApplicationManager::EnterAppState(RmApp& app, AppState next, Actions* actions) {
  VLOG(1) << "application " << app.submission.id.ToString() << " " << Name(app.state) << " -> "
          << Name(next);
  app.state = next;
  if (IsFinal(next)) {
    app.finish_time_ms = clock_->WallMillis();
    if (next == AppState::kFailed) app.final_status = FinalStatus::kFailed;
    if (next == AppState::kKilled) app.final_status = FinalStatus::kKilled;
    if (app.in_pool) {
      pool_->RemoveApp(app.pool_app).PermitUnchecked();
      SetInPoolLocked(app, false);
    }
    if (const RmAttempt* attempt = app.current_attempt(); attempt != nullptr) {
      LeaveAmQueueLocked(attempt->id);
    }
    // LeafQueue.finishApplication.
    active_apps_.Deactivate(app.submission.queue, app.submission.user, app.submission.id);
    containers_->OnApplicationFinished(app.submission.id);
    lifetimes_.Unregister(app.submission.id);
    LOG(INFO) << "application " << app.submission.id.ToString() << " " << Name(next)
              << " (final status " << Name(app.final_status) << ")";
    completed_order_.push_back(app.submission.id);
    RetireCompletedLocked();
  }
}

void ApplicationManager::StartAttemptLocked(RmApp& app, Actions* actions) {
  RmAttempt attempt;
  attempt.id =
      ApplicationAttemptId{app.submission.id, static_cast<int32_t>(app.attempts.size()) + 1};
  attempt.start_time_ms = clock_->WallMillis();
  attempt.last_heard = clock_->Now();
  attempt.next_container_sequence = FirstContainerSequence();
  if (client_to_am_tokens_ != nullptr) {
    attempt.client_token_master_key = ClientToAmTokenSecretManager::CreateMasterKey();
  }
  app.attempts.push_back(std::move(attempt));
  RmAttempt& current = app.attempts.back();
  AttemptEventLocked(app, current, AttemptEvent::kStart, actions);
  if (listener_.attempt_started) {
    auto callback = listener_.attempt_started;
    RmApp app_copy = app;
    RmAttempt attempt_copy = current;
    actions->push_back([callback, app_copy, attempt_copy] { callback(app_copy, attempt_copy); });
  }
  if (app.submission.unmanaged_am) {
    AttemptEventLocked(app, current, AttemptEvent::kScheduledUnmanaged, actions);
    SaveAttemptLocked(app, current);
    AttemptStoredLocked(current);
    AttemptEventLocked(app, current, AttemptEvent::kSaved, actions);
    current.last_heard = clock_->Now();
    // Counted among the queue's apps like any (with no AM resource).
    JoinAmQueueLocked(app, current);
    return;
  }
  AttemptEventLocked(app, current, AttemptEvent::kScheduled, actions);
  // The AM container is asked for once the attempt is active.
  JoinAmQueueLocked(app, app.attempts.back());
  // Hadoop's AppSchedulingInfo holds the AM request from the moment
  // LeafQueue added the attempt (RMAppAttemptImpl.ScheduleTransition),
  // whether or not the AM limits let it go.
  ActivateAppLocked(app);
}

pool::Ask ApplicationManager::AmAskOf(const RmApp& app) const {
  pool::Ask ask;
  ask.priority = 0;
  ask.allocation_request_id = kAmAllocationRequestId;
  ask.capability = app.submission.am_resource;
  ask.count = 1;
  // In the partition its label expression resolved to, never lent a
  // non-exclusive one.
  ask.label = pool_->InternLabel(app.submission.am_partition);
  ask.am_container = true;
  return ask;
}

void ApplicationManager::AskForAmContainerLocked(RmApp& app) {
  const RmAttempt* current = app.current_attempt();
  if (current == nullptr || current->state != AttemptState::kScheduled) return;
  Status asked = pool_->SetAsks(app.pool_app, {AmAskOf(app)});
  if (!asked.ok()) {
    LOG(ERROR) << "cannot ask for the AM container of " << current->id.ToString() << ": "
               << asked.ToString();
  }
  if (options_.am_blacklisting_enabled && app.am_blacklist.size() > 0) {
    // Each attempt has a pool app of its own: this list is the AM
    // container's only, and is lifted once it is placed.
    std::vector<pool::NodeId> avoid = app.am_blacklist.NodesToAvoid(
        nodes_->NumUsableNodes(), options_.am_blacklist_disable_threshold);
    LOG(INFO) << "AM container of " << current->id.ToString() << " avoids " << avoid.size()
              << " node(s) earlier AM containers failed on";
    pool_->SetBlacklist(app.pool_app, std::move(avoid), {}).PermitUnchecked();
  }
}

void ApplicationManager::SetAmLimits(std::shared_ptr<const QueueTree> tree,
                                     const AmLimitContext& context) {
  MutexLock lock(&mu_);
  if (context.line == HadoopLine::k3_3 && tree != nullptr) {
    // AbstractCSQueue.initializeQueueState on refresh: RUNNING -> STOPPED
    // is stopQueue() (DRAINING while it has apps); RUNNING again ends it.
    for (const CsQueue* leaf : tree->Leaves()) {
      const std::string& name = QueueTree::PoolQueueName(*leaf);
      if (leaf->state == QueueState::kRunning) {
        draining_.erase(name);
        continue;
      }
      const CsQueue* before = am_tree_ == nullptr ? nullptr : am_tree_->Find(leaf->path);
      if (before != nullptr && before->state == QueueState::kRunning &&
          in_queue_.count(name) != 0) {
        LOG(INFO) << "queue " << leaf->path << " is DRAINING: " << in_queue_.at(name).apps
                  << " applications still in it";
        draining_.insert(name);
      }
    }
  } else {
    draining_.clear();
  }
  am_tree_ = std::move(tree);
  am_activation_.SetContext(context);
  RefreshAmInputsLocked();
  for (const std::string& queue : am_activation_.Queues()) {
    ApplyAmPassLocked(am_activation_.Activate(queue));
  }
}

bool ApplicationManager::DrainingLocked(const CsQueue& queue) const {
  if (draining_.empty() || am_tree_ == nullptr) return false;
  if (queue.is_leaf()) return draining_.count(QueueTree::PoolQueueName(queue)) != 0;
  // ParentQueue.stopQueue: a stopped parent drains while apps remain below.
  if (queue.state == QueueState::kRunning) return false;
  for (int child : queue.children) {
    if (DrainingLocked(am_tree_->queues()[static_cast<size_t>(child)])) return true;
  }
  return false;
}

QueueState ApplicationManager::QueueStateOf(const CsQueue& queue) const {
  MutexLock lock(&mu_);
  return DrainingLocked(queue) ? QueueState::kDraining : queue.state;
}

Status ApplicationManager::CheckQueueRefresh(const QueueTree& next) const {
  MutexLock lock(&mu_);
  if (am_tree_ == nullptr) return Status::OK();
  for (const CsQueue& queue : next.queues()) {
    const CsQueue* now = am_tree_->Find(queue.path);
    if (queue.state == QueueState::kRunning && now != nullptr && DrainingLocked(*now)) {
      return Status::Remote("java.io.IOException", "The queue:" + queue.path +
                                                       " is in the Stopping process. Please wait "
                                                       "for the queue getting fully STOPPED.");
    }
  }
  return Status::OK();
}

QueueAmReport ApplicationManager::AmReport(const std::string& queue) const {
  MutexLock lock(&mu_);
  return am_activation_.Report(queue);
}

bool ApplicationManager::AmActive(const ApplicationAttemptId& attempt) const {
  MutexLock lock(&mu_);
  return am_activation_.IsActive(attempt);
}

void ApplicationManager::RefreshAmInputsLocked() {
  if (am_tree_ == nullptr) {
    am_activation_.SetLeafInputs({});
    return;
  }
  am_activation_.SetLeafInputs(
      LeafAmInputsOf(*am_tree_, am_activation_.context(), [this](const std::string& name) {
        auto queue = pool_->FindQueue(name);
        return queue.ok() ? pool_->queues().Usage(*queue) : pool::Resource();
      }));
}

AmApplicant ApplicationManager::AmApplicantOf(const RmApp& app, const RmAttempt& attempt) const {
  AmApplicant applicant;
  applicant.attempt = attempt.id;
  applicant.user = app.submission.user;
  // An unmanaged AM asks for no container, yet holds a place under the AM
  // limits: 2.7's FiCaSchedulerApp constructor (release-2.7.7 lines 79-89)
  // and 3.3's (release-3.3.0 lines 148-160) set its AM resource to the
  // scheduler's minimum allocation when the app has no AM resource request,
  // and LeafQueue.activateApplications adds that to the queue's and the
  // user's AM usage (2.7.7 lines 618-665, 3.3.0 lines 807-879). 2.6 counts
  // active apps, not AM resources (2.6.0 LeafQueue lines 610-631), so an
  // unmanaged AM takes one of the active-app places there whatever this is.
  // (The wind tunnel and the staging cell, whose jobs are unmanaged AMs, set
  // their own queues' maximum-am-resource-percent to 1.0.)
  applicant.am_resource =
      app.submission.unmanaged_am ? options_.min_allocation : app.submission.am_resource;
  applicant.priority = app.submission.priority;
  return applicant;
}

void ApplicationManager::JoinAmQueueLocked(RmApp& app, const RmAttempt& attempt) {
  AmApplicant applicant = AmApplicantOf(app, attempt);
  applicant.recovering = recovering_;
  RefreshAmInputsLocked();
  ApplyAmPassLocked(am_activation_.Add(app.submission.queue, applicant));
}

void ApplicationManager::LeaveAmQueueLocked(const ApplicationAttemptId& attempt) {
  if (auto queue = am_activation_.Remove(attempt); queue.has_value()) {
    ActivateAmQueueLocked(*queue);
  }
}

void ApplicationManager::ActivateAmQueueLocked(const std::string& queue) {
  RefreshAmInputsLocked();
  ApplyAmPassLocked(am_activation_.Activate(queue));
}

void ApplicationManager::ApplyAmPassLocked(const AmActivationPass& pass) {
  for (const ApplicationAttemptId& id : pass.activated) {
    RmApp* app = FindLocked(id.app);
    RmAttempt* attempt = app == nullptr ? nullptr : app->current_attempt();
    if (attempt == nullptr || attempt->id != id) continue;
    VLOG(1) << "attempt " << id.ToString() << " of user " << app->submission.user
            << " activated in queue " << app->submission.queue;
    attempt->am_launch_diagnostics.clear();
    if (!app->submission.unmanaged_am) AskForAmContainerLocked(*app);
    SetPoolHeldLocked(*app, false);  // after its AM ask, in the same inbox
  }
  const bool diagnose = am_activation_.context().line == HadoopLine::k3_3;
  for (const AmWait& wait : pass.waiting) {
    RmApp* app = FindLocked(wait.attempt.app);
    RmAttempt* attempt = app == nullptr ? nullptr : app->current_attempt();
    if (attempt == nullptr || attempt->id != wait.attempt) continue;
    SetPoolHeldLocked(*app, true);
    if (diagnose) attempt->am_launch_diagnostics = PendingAmDiagnostics(wait, clock_->WallMillis());
  }
}

void ApplicationManager::AttemptEventLocked(RmApp& app, RmAttempt& attempt, AttemptEvent event,
                                            Actions* actions) {
  const AttemptTransition t = NextAttemptState(attempt.state, event);
  if (!t.valid) {
    LOG(WARNING) << "attempt " << attempt.id.ToString() << ": can't handle event " << Name(event)
                 << " at state " << Name(attempt.state);
    return;
  }
  if (t.next == attempt.state) return;
  if (t.next == AttemptState::kFinalSaving) {
    attempt.before_saving = attempt.state;
    attempt.after_saving = t.after_saving;
    attempt.state = AttemptState::kFinalSaving;
    attempt.finish_time_ms = clock_->WallMillis();
    SaveAttemptLocked(app, attempt);
    EnterAttemptState(app, attempt, attempt.after_saving, actions);
    return;
  }
  EnterAttemptState(app, attempt, t.next, actions);
}

void ApplicationManager::EnterAttemptState(RmApp& app, RmAttempt& attempt, AttemptState next,
                                           Actions* actions) {
  VLOG(1) << "attempt " << attempt.id.ToString() << " " << Name(attempt.state) << " -> "
          << Name(next);
  attempt.state = next;
  if (next == AttemptState::kScheduled) am_pickups_.insert(app.submission.id);
  if (next == AttemptState::kAllocated && attempt.am_container.has_value()) {
    AmLaunch launch;
    launch.attempt = attempt.id;
    launch.container = attempt.am_container->id;
    launch.node = attempt.am_container->node;
    launch.user = app.submission.user;
    launch.submission_context = app.submission.context_bytes;
    launch.submit_time_ms = app.submit_time_ms;
    launch.resource = attempt.am_container->placement.resource;
    launch.max_attempts = app.max_attempts;
    const ApplicationAttemptId attempt_id = attempt.id;
    actions->push_back([this, launch, attempt_id] {
      launcher_->Launch(launch, [this, attempt_id](Status status) {
        Actions after;
        {
          MutexLock lock(&mu_);
          RmApp* a = FindLocked(attempt_id.app);
          RmAttempt* current = a == nullptr ? nullptr : a->current_attempt();
          if (current == nullptr || current->id != attempt_id) return;
          if (status.ok()) {
            current->last_heard = clock_->Now();
            AttemptEventLocked(*a, *current, AttemptEvent::kLaunched, &after);
          } else {
            current->diagnostics =
                "Error launching " + attempt_id.ToString() + ". Got exception: " + status.message();
            AttemptEventLocked(*a, *current, AttemptEvent::kLaunchFailed, &after);
          }
        }
        Run(after);
      });
    });
  }
  if (IsFinal(next)) {
    attempt.finish_time_ms = clock_->WallMillis();
    AttemptEndedLocked(app, attempt, actions);
  }
}

void ApplicationManager::AttemptEndedLocked(RmApp& app, RmAttempt& attempt, Actions* actions) {
  LOG(INFO) << "attempt " << attempt.id.ToString() << " " << Name(attempt.state);
  // LeafQueue.removeApplicationAttempt: its place (and AM resource) goes
  // to the queue's pending attempts.
  LeaveAmQueueLocked(attempt.id);
  if (listener_.attempt_ended) {
    auto callback = listener_.attempt_ended;
    RmApp app_copy = app;
    RmAttempt attempt_copy = attempt;
    actions->push_back([callback, app_copy, attempt_copy] { callback(app_copy, attempt_copy); });
  }
  // The attempt's containers end with it (the AM's own as well; a kept
  // task container survives into the next attempt).
  containers_->OnAttemptEnded(attempt.id, app.submission.keep_containers_across_attempts &&
                                              attempt.state == AttemptState::kFailed);
  // Stop the AM container unless it already exited.
  if (attempt.am_container.has_value() && !attempt.am_exit_status.has_value()) {
    AmLaunch launch;
    launch.attempt = attempt.id;
    launch.container = attempt.am_container->id;
    launch.node = attempt.am_container->node;
    launch.user = app.submission.user;
    actions->push_back([this, launch] { launcher_->Cleanup(launch); });
  }
  switch (attempt.state) {
    case AttemptState::kFinished:
      AppEventLocked(app, AppEvent::kAttemptFinished, actions);
      break;
    case AttemptState::kKilled:
      AppEventLocked(app, AppEvent::kAttemptKilled, actions);
      break;
    case AttemptState::kFailed: {
      // Infrastructure failures (lost node, preemption, RM kill) and those
      // past the validity interval do not count (attempt_retry_rule.h).
      AttemptRetryOptions rule;
      rule.single_attempt_never_retried = options_.single_attempt_never_retried;
      rule.global_max_attempts = options_.max_attempts;
      const bool retry =
          app.state != AppState::kKilling && RetryAfterFailure(app, rule, clock_->WallMillis());
      if (!retry) app.diagnostics = AttemptsExhaustedDiagnostics(app, rule, attempt.diagnostics);
      LOG(INFO) << "attempt " << attempt.id.ToString() << " failed (AM exit status "
                << attempt.am_exit_status.value_or(kExitInvalid) << "); counted failures "
                << CountedAttemptFailures(app, clock_->WallMillis()) << " of " << app.max_attempts
                << (retry ? ": retrying" : ": failing the application");
      if (retry && app.in_pool) {
        // A new attempt starts from a clean slate: drop the old asks and
        // placements the failed AM never took.
        pool_->RemoveApp(app.pool_app).PermitUnchecked();
        auto queue = PoolQueueLocked(app.submission.queue);
        if (queue.ok()) {
          app.pool_app = pool::AppId(next_pool_app_++);
          app.pool_held = false;
          SetInPoolLocked(app, pool_
                                   ->AddApp({app.pool_app, *queue, app.submission.priority,
                                             pool_->InternUser(app.submission.user)})
                                   .ok());
        } else {
          SetInPoolLocked(app, false);
        }
      }
      AppEventLocked(app, retry ? AppEvent::kAttemptFailedRetry : AppEvent::kAttemptFailedFinal,
                     actions);
      if (retry && app.state == AppState::kAccepted) StartAttemptLocked(app, actions);
      break;
    }
    default:
      break;
  }
}

void ApplicationManager::RetireCompletedLocked() {
  while (static_cast<int32_t>(completed_order_.size()) > options_.max_completed_apps) {
    const ApplicationId oldest = completed_order_.front();
    completed_order_.erase(completed_order_.begin());
    apps_.erase(oldest);
    containers_->ForgetApplication(oldest);
    if (store_ != nullptr) {
      Status removed = store_->RemoveApp(oldest);
      if (!removed.ok()) {
        LOG(ERROR) << "cannot remove application " << oldest.ToString()
                   << " from the state store: " << removed.ToString();
      }
    }
  }
}

Result<pool::QueueId> ApplicationManager::PoolQueueLocked(const std::string& name) const {
  auto queue = pool_->FindQueue(name);
  if (!queue.ok()) queue = pool_->FindQueue("root." + name);
  return queue;
}

std::string ApplicationManager::QueueFullLocked(const RmApp& app, const std::string& queue,
                                                const QueueLimits& limits) const {
  // LeafQueue counts its pending and active applications: every app the
  // scheduler accepted into it that has not finished (`app` itself aside).
  int32_t in_queue = 0;
  int32_t of_user = 0;
  if (auto it = in_queue_.find(queue); it != in_queue_.end()) {
    in_queue = it->second.apps;
    if (auto user = it->second.by_user.find(app.submission.user);
        user != it->second.by_user.end()) {
      of_user = user->second;
    }
  }
  if (app.in_pool && app.submission.queue == queue) {
    --in_queue;
    --of_user;
  }
  const std::string path = limits.path.empty() ? queue : limits.path;
  // LeafQueue.validateSubmitApplication: the queue's state first.
  if (const CsQueue* leaf = am_tree_ == nullptr ? nullptr : am_tree_->FindLeaf(queue);
      leaf != nullptr && (leaf->state != QueueState::kRunning || DrainingLocked(*leaf))) {
    return "Queue " + leaf->path +
           " is STOPPED. Cannot accept submission of application: " + app.submission.id.ToString();
  }
  if (limits.max_apps >= 0 && in_queue >= limits.max_apps) {
    return "Queue " + path + " already has " + std::to_string(in_queue) +
           " applications, cannot accept submission of application: " +
           app.submission.id.ToString();
  }
  if (limits.max_apps_per_user >= 0 && of_user >= limits.max_apps_per_user) {
    return "Queue " + path + " already has " + std::to_string(of_user) +
           " applications from user " + app.submission.user +
           " cannot accept submission of application: " + app.submission.id.ToString();
  }
  return "";
}

pool::AppSpec ApplicationManager::PoolSpecLocked(const RmApp& app, pool::QueueId queue,
                                                 int32_t priority) const {
  pool::AppSpec spec(app.pool_app, queue, priority);
  spec.held = app.pool_held;
  return spec;
}

// Hadoop 2.x counts the user of an app waiting on the AM limit as active
// (its AM request is outstanding); the pool applies the line's rule
// (scheduler_pool/user_limit.h). The update follows the app's AM ask
// through its scheduler's inbox, so the user never looks idle in between.
void ApplicationManager::SetPoolHeldLocked(RmApp& app, bool held) {
  if (!app.in_pool || app.pool_held == held) return;
  auto queue = PoolQueueLocked(app.submission.queue);
  if (!queue.ok()) return;
  app.pool_held = held;
  pool_->UpdateApp(PoolSpecLocked(app, *queue, app.submission.priority)).PermitUnchecked();
}

void ApplicationManager::SetInPoolLocked(RmApp& app, bool in_pool) {
  if (app.in_pool == in_pool) return;
  app.in_pool = in_pool;
  CountInQueueLocked(app, in_pool ? +1 : -1);
}

void ApplicationManager::CountInQueueLocked(const RmApp& app, int32_t delta) {
  QueueCount& count = in_queue_[app.submission.queue];
  count.apps += delta;
  int32_t& of_user = count.by_user[app.submission.user];
  of_user += delta;
  CHECK_GE(count.apps, 0) << app.submission.queue;
  CHECK_GE(of_user, 0) << app.submission.user;
  if (of_user == 0) count.by_user.erase(app.submission.user);
  if (count.apps == 0) {
    in_queue_.erase(app.submission.queue);
    // AbstractCSQueue.appFinished: a DRAINING queue's last app is gone.
    if (draining_.erase(app.submission.queue) != 0) {
      LOG(INFO) << "queue " << app.submission.queue << " is STOPPED: its last application left";
    }
  }
}

Status ApplicationManager::Move(const ApplicationId& id, const std::string& queue_name,
                                const QueueLimits& limits) {
  MutexLock lock(&mu_);
  RmApp* app = FindLocked(id);
  if (app == nullptr) {
    return Status::Remote(yarn::kApplicationNotFound,
                          "Application with id '" + id.ToString() + "' doesn't exist in RM.");
  }
  // ClientRMService.ACTIVE_APP_STATES.
  switch (app->state) {
    case AppState::kNew:
    case AppState::kSubmitted:
    case AppState::kAccepted:
    case AppState::kRunning:
      break;
    default:
      return Status::Remote(yarn::kYarnException,
                            "App in " + std::string(Name(app->state)) + " state cannot be moved.");
  }
  if (queue_name == app->submission.queue) return Status::OK();
  ASSIGN_OR_RETURN(const pool::QueueId target, PoolQueueLocked(queue_name));
  if (const std::string full = QueueFullLocked(*app, queue_name, limits); !full.empty()) {
    return Status::Remote(yarn::kYarnException,
                          "org.apache.hadoop.security.AccessControlException: " + full);
  }
  if (app->in_pool) {
    RETURN_NOT_OK(pool_->UpdateApp(PoolSpecLocked(*app, target, app->submission.priority)));
    containers_->MoveApplicationQueue(id, target);
  }
  LOG(INFO) << "application " << id.ToString() << " moved from queue " << app->submission.queue
            << " to " << queue_name;
  if (app->in_pool) CountInQueueLocked(*app, -1);
  // AppSchedulingInfo.move: inactive in the source queue, then (below)
  // active in the target.
  active_apps_.Deactivate(app->submission.queue, app->submission.user, id);
  app->submission.queue = queue_name;
  if (app->in_pool) CountInQueueLocked(*app, +1);
  app->submission.queue_limits = limits;
  // CapacityScheduler.moveApplication: the attempt leaves the source queue
  // (freeing its AM resource there) and is submitted to the target, where it
  // is pending until that queue's limits let it go.
  if (RmAttempt* attempt = app->current_attempt(); attempt != nullptr) {
    const bool was_active = am_activation_.IsActive(attempt->id);
    if (std::optional<std::string> source = am_activation_.Remove(attempt->id)) {
      if (was_active && attempt->state == AttemptState::kScheduled) {
        // Its AM container is not placed yet: the ask waits for the target.
        pool::Ask withdrawn;
        withdrawn.priority = 0;
        withdrawn.allocation_request_id = kAmAllocationRequestId;
        withdrawn.capability = app->submission.am_resource;
        withdrawn.count = 0;
        pool_->SetAsks(app->pool_app, {withdrawn}).PermitUnchecked();
      }
      ActivateAmQueueLocked(*source);
      JoinAmQueueLocked(*app, *attempt);
    }
    // 2.6 / 2.7 activate the app in the target whatever it asks; 3.3 only
    // while it asks for something (its AM container or the AM's own asks).
    if (am_activation_.context().line != HadoopLine::k3_3 || AsksForContainers(*app, *attempt)) {
      ActivateAppLocked(*app);
    }
  }
  SaveAppLocked(*app);
  return Status::OK();
}

Result<int32_t> ApplicationManager::UpdatePriority(const ApplicationId& id, int32_t priority) {
  MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(RmApp * app, FindOrNotFoundLocked(id));
  // Hadoop leaves a completed app's priority alone (RMAppImpl's completed
  // states) and says so by echoing it.
  if (IsFinal(app->state) || app->state == AppState::kFinalSaving ||
      app->state == AppState::kFinishing || app->state == AppState::kKilling) {
    return app->submission.priority;
  }
  if (app->state != AppState::kAccepted && app->state != AppState::kRunning) {
    return Status::Remote(yarn::kYarnException, "Application in " + std::string(Name(app->state)) +
                                                    " state cannot update priority.");
  }
  if (priority == app->submission.priority) return priority;
  if (app->in_pool) {
    ASSIGN_OR_RETURN(const pool::QueueId queue, PoolQueueLocked(app->submission.queue));
    RETURN_NOT_OK(pool_->UpdateApp(PoolSpecLocked(*app, queue, priority)));
  }
  LOG(INFO) << "application " << id.ToString() << " priority " << app->submission.priority << " -> "
            << priority;
  app->submission.priority = priority;
  if (const RmAttempt* attempt = app->current_attempt(); attempt != nullptr) {
    am_activation_.UpdatePriority(attempt->id, priority);
  }
  SaveAppLocked(*app);
  return priority;
}

Status ApplicationManager::FailAttempt(const ApplicationAttemptId& id,
                                       const std::string& diagnostics) {
  Actions actions;
  {
    MutexLock lock(&mu_);
    RmApp* app = FindLocked(id.app);
    RmAttempt* attempt = nullptr;
    if (app != nullptr) {
      for (auto& a : app->attempts) {
        if (a.id == id) attempt = &a;
      }
    }
    if (attempt == nullptr) {
      return Status::Remote(
          yarn::kApplicationAttemptNotFound,
          "ApplicationAttempt with id '" + id.ToString() + "' doesn't exist in RM.");
    }
    if (attempt != app->current_attempt() || IsFinal(attempt->state) ||
        attempt->state == AttemptState::kFinalSaving ||
        attempt->state == AttemptState::kFinishing || app->state == AppState::kKilling) {
      return Status::OK();
    }
    attempt->diagnostics = diagnostics;
    LOG(INFO) << "attempt " << id.ToString() << " failed on request: " << diagnostics;
    AttemptEventLocked(*app, *attempt, AttemptEvent::kFail, &actions);
  }
  Run(actions);
  return Status::OK();
}

Result<ApplicationManager::LifetimeUpdate> ApplicationManager::UpdateLifetime(
    const ApplicationId& id, int64_t expiry_ms) {
  MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(RmApp * app, FindOrNotFoundLocked(id));
  switch (app->state) {
    case AppState::kSubmitted:
    case AppState::kAccepted:
    case AppState::kRunning:
      break;
    case AppState::kNew:
    case AppState::kNewSaving:
      return Status::Remote(
          yarn::kYarnException,
          "Application is in " + std::string(Name(app->state)) + " state can not update timeout.");
    default:
      return LifetimeUpdate::kAppCompleted;
  }
  if (store_ != nullptr) {
    RmApp updated = *app;
    updated.lifetime_expiry_ms = expiry_ms;
    Status saved = store_->SaveApp(updated);
    if (!saved.ok()) {
      LOG(ERROR) << "cannot store the lifetime of " << id.ToString() << ": " << saved.ToString();
      return Status::Remote(yarn::kYarnException, "java.io.IOException: " + saved.message());
    }
  }
  app->lifetime_expiry_ms = expiry_ms;
  lifetimes_.Register(id, expiry_ms);
  LOG(INFO) << "application " << id.ToString() << " lifetime now ends at " << expiry_ms;
  return LifetimeUpdate::kUpdated;
}

void ApplicationManager::SaveAppLocked(const RmApp& app) {
  if (store_ == nullptr) return;
  Status saved = store_->SaveApp(app);
  if (!saved.ok()) {
    LOG(ERROR) << "cannot store application " << app.submission.id.ToString() << ": "
               << saved.ToString();
  }
}

void ApplicationManager::SaveAttemptLocked(const RmApp& app, const RmAttempt& attempt) {
  if (store_ == nullptr) return;
  Status saved = store_->SaveAttempt(app, attempt);
  if (!saved.ok()) {
    LOG(ERROR) << "cannot store attempt " << attempt.id.ToString() << ": " << saved.ToString();
  }
}

void ApplicationManager::AttemptStoredLocked(const RmAttempt& attempt) {
  // Registered only once stored: a token handed out before would not
  // validate with the key a restarted RM recovers.
  if (client_to_am_tokens_ != nullptr && !attempt.client_token_master_key.empty()) {
    client_to_am_tokens_->RegisterApplication(attempt.id, attempt.client_token_master_key);
  }
}

void ApplicationManager::Recover(std::vector<RmApp> apps, int32_t last_app_id) {
  Actions actions;
  {
    MutexLock lock(&mu_);
    CHECK(apps_.empty()) << "Recover() after applications arrived";
    recovering_ = true;
    next_app_seq_ = std::max(next_app_seq_, last_app_id + 1);
    reserved_app_seq_ = next_app_seq_ - 1;
    // Finished apps retire oldest first, as they would have.
    std::sort(apps.begin(), apps.end(), [](const RmApp& a, const RmApp& b) {
      return std::tie(a.finish_time_ms, a.submission.id) <
             std::tie(b.finish_time_ms, b.submission.id);
    });
    size_t resumed = 0;
    for (auto& recovered : apps) {
      const ApplicationId id = recovered.submission.id;
      if (id.cluster_timestamp == cluster_timestamp_) {
        next_app_seq_ = std::max(next_app_seq_, id.id + 1);
      }
      auto [it, inserted] = apps_.emplace(id, std::move(recovered));
      if (!inserted) continue;
      RmApp& app = it->second;
      // As RMAppImpl's constructor, on recovery too: the context's maximum
      // (0 in a record a Java RM wrote without one) bounded by the RM's.
      app.max_attempts = app.max_attempts <= 0 ? options_.max_attempts
                                               : std::min(app.max_attempts, options_.max_attempts);
      // RMAppManager.recoverApplication normalises the AM request again: a
      // 2.6 Java RM stores it as submitted (Spindle's records hold it
      // normalised already, which normalising keeps).
      if (!app.submission.unmanaged_am) {
        app.submission.am_resource =
            ResourceNormalizer(options_.resource_calculator, options_.min_allocation,
                               options_.max_allocation)
                .Normalize(app.submission.am_resource);
      }
      if (IsFinal(app.state)) {
        EndAttemptsOfRecoveredFinalApp(app);
        completed_order_.push_back(id);
      } else {
        ++resumed;
        // RMAppRecoveredTransition: the stored expiry is watched again.
        if (app.lifetime_expiry_ms.has_value()) lifetimes_.Register(id, *app.lifetime_expiry_ms);
        ResumeLocked(app, &actions);
      }
    }
    recovering_ = false;
    LOG(INFO) << "recovered " << apps_.size() << " applications (" << resumed
              << " unfinished); application ids continue at " << next_app_seq_;
    RetireCompletedLocked();
  }
  Run(actions);
}

void ApplicationManager::ResumeLocked(RmApp& app, Actions* actions) {
  // An attempt is stored once its AM container is placed (or its unmanaged
  // AM may start); a record without either never got that far.
  while (!app.attempts.empty() && !IsFinal(app.attempts.back().state) &&
         !app.attempts.back().am_container.has_value() && !app.submission.unmanaged_am) {
    app.attempts.pop_back();
  }
  app.state = AppState::kSubmitted;
  auto queue = PoolQueueLocked(app.submission.queue);
  if (!queue.ok()) {
    RejectLocked(app,
                 "Application " + app.submission.id.ToString() +
                     " recovered into a queue that no longer exists: " + app.submission.queue,
                 actions);
    return;
  }
  app.pool_app = pool::AppId(next_pool_app_++);
  app.pool_held = false;
  Status added = pool_->AddApp(
      {app.pool_app, *queue, app.submission.priority, pool_->InternUser(app.submission.user)});
  if (!added.ok()) {
    RejectLocked(app, added.message(), actions);
    return;
  }
  SetInPoolLocked(app, true);
  app.state = AppState::kAccepted;
  RmAttempt* attempt = app.current_attempt();
  if (attempt == nullptr) {
    StartAttemptLocked(app, actions);
    return;
  }
  if (!IsFinal(attempt->state)) {
    // Its AM ran, or was being launched, when the RM stopped: it is given
    // the AM expiry interval to re-register. Its containers come back as
    // their nodes report them.
    attempt->state = AttemptState::kLaunched;
    attempt->last_heard = clock_->Now();
    attempt->next_container_sequence = FirstContainerSequence();
    // recoverAppAttemptCredentials: the running AM holds the stored key, so
    // tokens this RM hands out must be made with it. With security off
    // Hadoop's attempt keeps none (nor does its next record).
    if (client_to_am_tokens_ == nullptr) {
      attempt->client_token_master_key.clear();
    } else if (!attempt->client_token_master_key.empty()) {
      client_to_am_tokens_->RegisterApplication(attempt->id, attempt->client_token_master_key);
    }
    // Its AM is (or was) running: active in its queue whatever the limits,
    // its AM resource counted.
    AmApplicant applicant = AmApplicantOf(app, *attempt);
    applicant.recovering = true;
    am_activation_.AddActive(app.submission.queue, applicant);
    if (attempt->am_container.has_value()) {
      am_containers_[attempt->am_container->id] = attempt->id;
      unconfirmed_am_containers_[attempt->am_container->node].insert(attempt->am_container->id);
    }
    return;
  }
  // The attempt ended but the RM stopped before the app took note: the app
  // goes on from the attempt's end as it would have.
  app.state = attempt->state == AttemptState::kFinished ? AppState::kFinishing
              : attempt->state == AttemptState::kKilled ? AppState::kKilling
                                                        : AppState::kRunning;
  if (app.final_status == FinalStatus::kUndefined) app.final_status = attempt->final_status;
  AttemptEndedLocked(app, *attempt, actions);
  // FINISHING -> FINISHED is not a saving transition: its record was made
  // when the AM unregistered, which this app never got to.
  if (app.state == AppState::kFinished) SaveAppLocked(app);
}

void ApplicationManager::OnNodeReregistered(const NodeId& node) {
  std::set<ContainerId> missing;
  {
    MutexLock lock(&mu_);
    auto it = unconfirmed_am_containers_.find(node);
    if (it == unconfirmed_am_containers_.end()) return;
    missing = std::move(it->second);
    unconfirmed_am_containers_.erase(it);
  }
  for (const ContainerId& id : missing) {
    LOG(WARNING) << "AM container " << id.ToString() << " is not on " << node.ToString()
                 << " after the restart";
    OnContainerFinished(id, kExitAborted,
                        "Container " + id.ToString() + " was not found on node " + node.ToString() +
                            " after the ResourceManager restarted");
  }
}

bool ApplicationManager::RecoverContainer(const ReportedRunningContainer& reported) {
  MutexLock lock(&mu_);
  RmApp* app = FindLocked(reported.id.attempt.app);
  if (app == nullptr || !app->in_pool || IsFinal(app->state)) return false;
  RmAttempt* current = app->current_attempt();
  if (current == nullptr || IsFinal(current->state)) return false;
  const bool is_am = current->am_container.has_value() && current->am_container->id == reported.id;
  if (reported.id.attempt != current->id && !app->submission.keep_containers_across_attempts) {
    return false;
  }
  auto placement = pool_->RecoverPlacement(
      app->pool_app, reported.pool_node, reported.resource, reported.priority,
      is_am ? kAmAllocationRequestId : reported.allocation_request_id);
  if (!placement.ok()) {
    LOG(WARNING) << "cannot recover container " << reported.id.ToString() << " on "
                 << reported.node.ToString() << ": " << placement.status().ToString();
    return false;
  }
  Status added = containers_->Add(
      RmContainer{reported.id, reported.node, *placement, is_am, reported.created_ms});
  if (!added.ok()) {
    pool_->Release(*placement).PermitUnchecked();
    return false;
  }
  // A container of an earlier attempt the app kept is this attempt's too
  // (AppSchedulingInfo.recoverContainer runs for each).
  NoteAllocationLocked(*current);
  if (is_am) {
    current->am_container->placement = *placement;
    current->am_container->created_ms = reported.created_ms;
    am_containers_[reported.id] = current->id;
    if (auto it = unconfirmed_am_containers_.find(reported.node);
        it != unconfirmed_am_containers_.end()) {
      it->second.erase(reported.id);
    }
  }
  VLOG(1) << "recovered container " << reported.id.ToString() << " on " << reported.node.ToString();
  return true;
}

}  // namespace spindle::rm
