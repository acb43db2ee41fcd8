#include "replay/windtunnel/tunnel_members.h"

#include <glog/logging.h>

#include <algorithm>
#include <string>

namespace spindle::replay {

Result<std::unique_ptr<TunnelMembers>> TunnelMembers::Create(pool::SchedulerPool* pool,
                                                             const Clock* clock, Wire wire) {
  pool::remote::CellStateService* service = pool->remote_service();
  const int k = pool->options().remote_schedulers;
  if (service == nullptr || k <= 0) {
    return Status::InvalidArgument("wind tunnel: remote members need remote scheduler slots");
  }
  std::unique_ptr<TunnelMembers> t(new TunnelMembers());
  t->clock_ = clock;
  t->first_slot_ = pool->num_schedulers();
  pool::remote::ThriftConnectionOptions connection;
  if (wire == Wire::kInMemory) {
    connection.in_memory = service;
  } else {
    ASSIGN_OR_RETURN(t->server_, pool::remote::ThriftCellServer::Start(service, "127.0.0.1", 0));
    connection.port = t->server_->port();
  }
  // Members stand in the sync rotation where in-process schedulers would.
  pool::remote::MemberOptions options;
  options.pool = pool->options();
  options.pool.num_schedulers = t->first_slot_ + k;
  options.pool.remote_schedulers = 0;
  for (int j = 0; j < k; ++j) {
    Member m;
    m.wire = std::make_unique<pool::remote::ThriftConnection>(connection);
    options.name = "tunnel-member-" + std::to_string(j);
    options.index = t->first_slot_ + j;
    m.member = std::make_unique<pool::remote::SchedulerMember>(m.wire.get(), clock, options);
    RETURN_NOT_OK(m.member->Join());
    t->members_.push_back(std::move(m));
  }
  return t;
}

TunnelMembers::~TunnelMembers() {
  Stop();
  for (Member& m : members_) {
    if (m.member->joined()) m.member->Leave().PermitUnchecked();  // best effort at the end
  }
}

Result<pool::StepResult> TunnelMembers::Step(int j, TimePoint now, int64_t* calls) {
  Member& m = members_[static_cast<size_t>(j)];
  const int64_t before = m.wire->stats().calls;
  Result<pool::StepResult> r = m.member->Step(now);
  if (!r.ok() && r.status().code() == Status::Code::kAborted) {
    // The lease lapsed (a member idle past it on the virtual clock does
    // not renew): its apps went to the others; it joins again.
    RETURN_NOT_OK(m.member->Join());
    r = pool::StepResult{};
  }
  *calls = m.wire->stats().calls - before;
  if (r.ok()) {
    placed_.fetch_add(r->placed, std::memory_order_relaxed);
    conflicts_.fetch_add(r->conflicts, std::memory_order_relaxed);
  }
  return r;
}

void TunnelMembers::Start(Duration poll) {
  stopping_.store(false);
  for (int j = 0; j < size(); ++j) threads_.emplace_back([this, j, poll] { Loop(j, poll); });
}

void TunnelMembers::Stop() {
  stopping_.store(true);
  for (std::thread& t : threads_) t.join();
  threads_.clear();
  if (server_ != nullptr) server_->Stop();
}

void TunnelMembers::Loop(int j, Duration poll) {
  pool::remote::SchedulerMember& member = *members_[static_cast<size_t>(j)].member;
  while (!stopping_.load(std::memory_order_relaxed)) {
    const TimePoint now = clock_->Now();
    Duration wait = poll;
    if (!member.joined()) {
      const Status joined = member.Join();
      if (!joined.ok()) LOG(WARNING) << "tunnel member " << j << ": " << joined.ToString();
    } else {
      Result<pool::StepResult> step = member.Step(now);
      if (step.ok()) {
        placed_.fetch_add(step->placed, std::memory_order_relaxed);
        conflicts_.fetch_add(step->conflicts, std::memory_order_relaxed);
        wait = step->placed > 0
                   ? Duration::zero()
                   : std::clamp<Duration>(step->next_sync - now, Duration::zero(), poll);
      } else if (step.status().code() == Status::Code::kAborted) {
        const Status joined = member.Join();
        if (!joined.ok()) LOG(WARNING) << "tunnel member " << j << ": " << joined.ToString();
      } else {
        LOG(WARNING) << "tunnel member " << j << ": " << step.status().ToString();
      }
    }
    if (wait > Duration::zero()) std::this_thread::sleep_for(wait);
  }
}

MemberFigures TunnelMembers::Figures() const {
  MemberFigures f;
  f.members = size();
  double staleness_sum = 0;
  int64_t samples = 0;
  for (const Member& m : members_) {
    const pool::remote::WireStats w = m.wire->stats();
    f.wire.calls += w.calls;
    f.wire.bytes_sent += w.bytes_sent;
    f.wire.bytes_received += w.bytes_received;
    const pool::Scheduler* s = m.member->scheduler();
    if (s == nullptr) continue;
    const pool::SchedulerMetrics sm = s->Metrics();
    f.placements += sm.placements;
    f.conflicts += sm.conflicts;
    staleness_sum += sm.staleness_sum_ms;
    samples += sm.staleness_samples;
    f.max_staleness_ms = std::max(f.max_staleness_ms, sm.max_staleness_ms);
  }
  f.mean_staleness_ms = samples == 0 ? 0 : staleness_sum / static_cast<double>(samples);
  return f;
}

}  // namespace spindle::replay
