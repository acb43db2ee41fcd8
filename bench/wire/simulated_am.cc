#include "bench/wire/simulated_am.h"

#include <glog/logging.h>

#include "am_protocol/am_service/am_service.h"
#include "bench/wire/async_call.h"
#include "rm/security/yarn_id_protos.h"
#include "rm/yarn_exceptions.h"
#include "wire/ipc/error_mapping.h"

namespace spindle::bench::wire {

namespace y = hadoop::yarn;

SimulatedAm::SimulatedAm(AmContext* context, rm::ApplicationAttemptId attempt,
                         ipc::ClientToken amrm, Done done)
    : context_(context),
      attempt_(attempt),
      amrm_(std::move(amrm)),
      done_(std::move(done)),
      timer_(*context->io) {}

namespace {

bool IsNotRegistered(const Status& s) {
  return s.IsRemote() && s.java_class() == rm::yarn::kApplicationMasterNotRegistered;
}

}  // namespace

template <typename Req, typename Resp>
void SimulatedAm::Call(const std::string& method, const Req& request,
                       std::function<void(Status, const Resp&, SteadyTime answered_at)> then) {
  context_->rm->Call<Resp>(context_->client, &RmAddresses::scheduler,
                           am_protocol::kApplicationMasterProtocol, context_->user, amrm_, method,
                           std::make_shared<Req>(request), std::move(then));
}

void SimulatedAm::Start() {
  CHECK(state_ == State::kNew);
  Register();
}

void SimulatedAm::Register() {
  state_ = State::kRegistering;
  y::RegisterApplicationMasterRequestProto request;
  request.set_host("spindle-bench-wire");
  request.set_rpc_port(-1);
  const SteadyTime sent = std::chrono::steady_clock::now();
  Call<y::RegisterApplicationMasterRequestProto, y::RegisterApplicationMasterResponseProto>(
      "registerApplicationMaster", request,
      [this, sent](Status s, const y::RegisterApplicationMasterResponseProto&,
                   SteadyTime answered_at) {
        if (s.ok()) context_->register_latency.Record(answered_at - sent);
        OnRegistered(std::move(s));
      });
}

void SimulatedAm::OnRegistered(Status s) {
  if (state_ != State::kRegistering) return;
  if (s.IsRemote() && s.java_class() == rm::yarn::kInvalidApplicationMasterRequest &&
      s.message().find("already registered") == std::string::npos &&
      ++register_retries_ <= context_->spec.max_register_retries) {
    // Our AM "process" starts the moment its container does, before the RM
    // may have taken in startContainers' answer (attempt still ALLOCATED);
    // a real AM takes longer to start. Registering again shortly is what
    // that start-up time would have done.
    context_->register_retries.fetch_add(1, std::memory_order_relaxed);
    timer_.expires_after(std::chrono::milliseconds(5));
    timer_.async_wait([this](const boost::system::error_code& ec) {
      if (!ec && state_ == State::kRegistering) Register();
    });
    return;
  }
  if (!s.ok()) {
    CountError("registerApplicationMaster", s);
    Fail("registerApplicationMaster: " + s.UserMessage());
    return;
  }
  register_retries_ = 0;
  // A new registration's answers count from 0 (AMRMClientImpl sets
  // lastResponseId to 0 when it registers).
  response_id_ = 0;
  if (registered_at_ == SteadyTime{}) registered_at_ = std::chrono::steady_clock::now();
  if (finish_after_register_) {
    finish_after_register_ = false;
    Finish();
    return;
  }
  state_ = State::kRunning;
  Tick();
}

void SimulatedAm::Resync(const std::string& why, bool finishing) {
  ++resyncs_;
  ++context_->resyncs;
  LOG(INFO) << attempt_.ToString() << ": the RM does not know this AM (" << why
            << "); registering again";
  // What the previous RM handed out and the AM has not had confirmed: the
  // new RM may not know it (never started on a node).
  for (const rm::ContainerId& id : awaiting_completion_) unconfirmed_.insert(id);
  awaiting_completion_.clear();
  asked_ = false;
  finish_after_register_ = finishing;
  timer_.cancel();
  Register();
}

void SimulatedAm::ScheduleTick() {
  timer_.expires_after(context_->spec.allocate_interval);
  timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) Tick();
  });
}

void SimulatedAm::Tick() {
  if (state_ != State::kRunning) return;
  const SteadyTime now = std::chrono::steady_clock::now();
  while (!held_.empty() && held_.front().first <= now) {
    to_release_.push_back(std::move(held_.front().second));
    held_.pop_front();
  }
  y::AllocateRequestProto request;
  request.set_response_id(response_id_);
  request.set_progress(static_cast<float>(completed_) /
                       static_cast<float>(context_->spec.containers));
  if (!asked_) {
    // What is still lacking: all of it at first, less what was kept after
    // a resync (asks are absolute, so a re-sent one replaces what the RM
    // recovered).
    y::ResourceRequestProto* ask = request.add_ask();
    ask->mutable_priority()->set_priority(1);
    ask->set_resource_name("*");
    ask->mutable_capability()->set_memory(context_->spec.memory_mb);
    ask->mutable_capability()->set_virtual_cores(context_->spec.vcores);
    ask->set_num_containers(static_cast<int32_t>(context_->spec.containers - allocated_));
    ask->set_relax_locality(true);
  }
  std::vector<y::ContainerIdProto> sent_releases;
  sent_releases.swap(to_release_);
  for (const auto& id : sent_releases) *request.add_release() = id;
  context_->allocate_calls.fetch_add(1, std::memory_order_relaxed);
  Call<y::AllocateRequestProto, y::AllocateResponseProto>(
      "allocate", request,
      [this, sent_releases = std::move(sent_releases), now](
          Status s, const y::AllocateResponseProto& response, SteadyTime answered_at) mutable {
        OnAllocated(std::move(s), response, std::move(sent_releases), now, answered_at);
      });
}

void SimulatedAm::OnAllocated(Status s, const y::AllocateResponseProto& response,
                              std::vector<y::ContainerIdProto> sent_releases, SteadyTime sent,
                              SteadyTime answered_at) {
  if (state_ != State::kRunning) return;
  const SteadyTime now = std::chrono::steady_clock::now();
  if (IsNotRegistered(s)) {
    // The releases go again after the registration.
    for (auto& id : sent_releases) to_release_.push_back(std::move(id));
    Resync(s.UserMessage(), /*finishing=*/false);
    return;
  }
  if (!s.ok()) {
    CountError("allocate", s);
    // The releases go again with the next call.
    for (auto& id : sent_releases) to_release_.push_back(std::move(id));
    if (++failures_in_a_row_ >= context_->spec.max_failures) {
      Fail("allocate failed " + std::to_string(failures_in_a_row_) +
           " times in a row: " + s.UserMessage());
      return;
    }
    ScheduleTick();
    return;
  }
  failures_in_a_row_ = 0;
  // The RPC's latency: up to the answer's arrival, not its turn on the
  // driver thread (async_call.h).
  context_->allocate_latency.Record(answered_at - sent);
  if (context_->killed_at.has_value() && answered_at > *context_->killed_at &&
      context_->first_allocate_after_kill == SteadyTime{}) {
    context_->first_allocate_after_kill = answered_at;
    context_->containers_at_first_allocate_after_kill = context_->containers_allocated.load();
  }
  if (response.has_a_m_command() && response.a_m_command() == y::AM_RESYNC) {
    // As MapReduce's RMContainerAllocator and Spindle's shell AM: register
    // again and re-send.
    for (auto& id : sent_releases) to_release_.push_back(std::move(id));
    Resync("AM_RESYNC", /*finishing=*/false);
    return;
  }
  if (response.has_a_m_command()) {
    Fail("the RM sent " + y::AMCommandProto_Name(response.a_m_command()));
    return;
  }
  if (!asked_) {
    asked_ = true;
    if (first_ask_at_ == SteadyTime{}) first_ask_at_ = sent;
  }
  response_id_ = response.response_id();
  released_ += static_cast<int64_t>(sent_releases.size());
  for (const auto& proto : sent_releases) {
    const rm::ContainerId id = rm::FromProto(proto);
    auto it = seen_.find(id);
    // Allocated before the last resync: the RM now may not know it.
    if (it != seen_.end() && it->second < resyncs_) {
      unconfirmed_.insert(id);
    } else {
      awaiting_completion_.insert(id);
    }
  }
  const SteadyTime release_at = now + context_->spec.hold;
  for (const auto& container : response.allocated_containers()) {
    const auto [it, inserted] = seen_.emplace(rm::FromProto(container.id()), resyncs_);
    if (!inserted) {
      if (it->second < resyncs_) {
        ++redelivered_;
      } else {
        ++duplicates_;
      }
      continue;
    }
    if (allocated_ >= context_->spec.containers) {
      ++excess_;
      to_release_.push_back(container.id());
      continue;
    }
    if (allocated_ == 0) first_container_at_ = now;
    ++allocated_;
    context_->containers_allocated.fetch_add(1, std::memory_order_relaxed);
    held_.emplace_back(release_at, container.id());
  }
  for (const auto& status : response.completed_container_statuses()) {
    const rm::ContainerId id = rm::FromProto(status.container_id());
    if (awaiting_completion_.erase(id) > 0 || unconfirmed_.erase(id) > 0) {
      ++completed_;
    } else {
      ++unexpected_completions_;
    }
  }
  if (AllDone()) {
    Finish();
    return;
  }
  ScheduleTick();
}

bool SimulatedAm::AllDone() const {
  return allocated_ == context_->spec.containers && held_.empty() && to_release_.empty() &&
         awaiting_completion_.empty();
}

void SimulatedAm::Finish() {
  state_ = State::kFinishing;
  y::FinishApplicationMasterRequestProto request;
  request.set_final_application_status(y::APP_SUCCEEDED);
  Call<y::FinishApplicationMasterRequestProto, y::FinishApplicationMasterResponseProto>(
      "finishApplicationMaster", request,
      [this](Status s, const y::FinishApplicationMasterResponseProto& response, SteadyTime) {
        if (state_ != State::kFinishing) return;
        if (IsNotRegistered(s)) {
          Resync(s.UserMessage(), /*finishing=*/true);
          return;
        }
        if (s.IsRemote() && s.java_class() == ipc::java::kInvalidToken &&
            context_->killed_at.has_value()) {
          // The new RM recovered the attempt ended (see Abort).
          FinishedUnanswered(s.UserMessage());
          return;
        }
        if (!s.ok()) {
          CountError("finishApplicationMaster", s);
          if (++failures_in_a_row_ >= context_->spec.max_failures) {
            Fail("finishApplicationMaster: " + s.UserMessage());
            return;
          }
        } else if (response.isunregistered()) {
          state_ = State::kDone;
          timer_.cancel();
          done_(this);
          return;
        }
        // Not yet unregistered (as AMRMClientImpl, ask again shortly).
        timer_.expires_after(std::chrono::milliseconds(20));
        timer_.async_wait([this](const boost::system::error_code& ec) {
          if (!ec && state_ == State::kFinishing) Finish();
        });
      });
}

void SimulatedAm::Abort(const std::string& why) {
  if (state_ == State::kDone || state_ == State::kFailed) return;
  if (state_ == State::kFinishing && context_->killed_at.has_value()) {
    // finishApplicationMaster reached the killed RM, which stored the end
    // and died before answering; the new one recovered the application
    // ended and cleans its AM container up. The final report says whether
    // it ended SUCCEEDED.
    FinishedUnanswered(why);
    return;
  }
  Fail(why);
}

void SimulatedAm::FinishedUnanswered(const std::string& why) {
  LOG(INFO) << attempt_.ToString() << ": finishApplicationMaster unanswered across the failover ("
            << why << "); the final report decides";
  ++context_->finishes_unanswered;
  state_ = State::kDone;
  timer_.cancel();
  done_(this);
}

void SimulatedAm::Fail(const std::string& why) {
  state_ = State::kFailed;
  failure_ = why;
  timer_.cancel();
  LOG(WARNING) << attempt_.ToString() << ": simulated AM failed: " << why;
  done_(this);
}

void SimulatedAm::CountError(const std::string& method, const Status& s) {
  ++context_->rpc_errors[method + ": " + s.UserMessage().substr(0, 160)];
}

}  // namespace spindle::bench::wire
