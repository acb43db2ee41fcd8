#include "replay/driver/job_progress.h"

#include <algorithm>

#include "glog/logging.h"

namespace spindle::replay {

namespace {
constexpr uint8_t kNew = 0;
constexpr uint8_t kHandedOut = 1;
constexpr uint8_t kFinished = 2;
}  // namespace

JobProgress::JobProgress(const TraceJob* job) : job_(job) {
  const size_t n = job->stages.size();
  stages_.resize(n);
  children_.resize(n);
  for (size_t s = 0; s < n; ++s) {
    const TraceStage& stage = job->stages[s];
    StageState& st = stages_[s];
    st.state.assign(stage.tasks.size(), kNew);
    st.order.resize(stage.tasks.size());
    for (size_t t = 0; t < stage.tasks.size(); ++t) st.order[t] = static_cast<int32_t>(t);
    // Stable: equal offsets keep the trace's order.
    std::stable_sort(st.order.begin(), st.order.end(), [&](int32_t a, int32_t b) {
      return stage.tasks[static_cast<size_t>(a)].submit_offset_ms <
             stage.tasks[static_cast<size_t>(b)].submit_offset_ms;
    });
    total_ += static_cast<int64_t>(stage.tasks.size());
    for (int32_t p : stage.parents) {
      // Readers guarantee parents < s; a bad index would deadlock the job.
      CHECK(p >= 0 && static_cast<size_t>(p) < s)
          << "stage " << s << " of job " << job->id << " has parent " << p;
      children_[static_cast<size_t>(p)].push_back(static_cast<int32_t>(s));
      ++st.waiting_parents;
    }
  }
  for (size_t s = 0; s < n; ++s) {
    if (stages_[s].waiting_parents == 0) OpenStage(static_cast<int32_t>(s));
  }
}

void JobProgress::OpenStage(int32_t stage) {
  StageState& st = stages_[static_cast<size_t>(stage)];
  st.open = true;
  if (st.order.empty()) {
    // An empty stage is complete at once: its children may open.
    for (int32_t c : children_[static_cast<size_t>(stage)]) {
      if (--stages_[static_cast<size_t>(c)].waiting_parents == 0) OpenStage(c);
    }
    return;
  }
  open_.push_back(stage);
}

void JobProgress::TakeReady(int64_t since_arrival_ms, std::vector<TaskRef>* out) {
  for (size_t i = 0; i < open_.size();) {
    const int32_t s = open_[i];
    StageState& st = stages_[static_cast<size_t>(s)];
    const TraceStage& stage = job_->stages[static_cast<size_t>(s)];
    while (st.next < st.order.size()) {
      const int32_t t = st.order[st.next];
      if (stage.tasks[static_cast<size_t>(t)].submit_offset_ms > since_arrival_ms) break;
      st.state[static_cast<size_t>(t)] = kHandedOut;
      out->push_back(TaskRef{s, t});
      ++st.next;
      ++handed_total_;
    }
    if (st.next == st.order.size()) {
      open_[i] = open_.back();
      open_.pop_back();
    } else {
      ++i;
    }
  }
}

int64_t JobProgress::NextOffsetMs() const {
  int64_t next = -1;
  for (int32_t s : open_) {
    const StageState& st = stages_[static_cast<size_t>(s)];
    if (st.next >= st.order.size()) continue;
    const int64_t at = job_->stages[static_cast<size_t>(s)]
                           .tasks[static_cast<size_t>(st.order[st.next])]
                           .submit_offset_ms;
    if (next < 0 || at < next) next = at;
  }
  return next;
}

bool JobProgress::OnFinished(const TaskRef& task) {
  if (task.stage < 0 || static_cast<size_t>(task.stage) >= stages_.size()) return false;
  StageState& st = stages_[static_cast<size_t>(task.stage)];
  if (task.task < 0 || static_cast<size_t>(task.task) >= st.state.size()) return false;
  uint8_t& state = st.state[static_cast<size_t>(task.task)];
  if (state != kHandedOut) return false;
  state = kFinished;
  ++st.finished;
  ++finished_total_;
  if (static_cast<size_t>(st.finished) == st.state.size()) {
    for (int32_t c : children_[static_cast<size_t>(task.stage)]) {
      if (--stages_[static_cast<size_t>(c)].waiting_parents == 0) OpenStage(c);
    }
  }
  return true;
}

}  // namespace spindle::replay
