#include "replay/windtunnel/tunnel_driver.h"

#include <chrono>
#include <string>

#include "replay/windtunnel/real_driver.h"
#include "replay/windtunnel/virtual_driver.h"

namespace spindle::replay {

Result<ReplayModeResult> RunWindTunnel(const TunnelRunOptions& options, const TunnelSetup& setup,
                                       TraceReader* jobs, ReplayRecorder* recorder) {
  ASSIGN_OR_RETURN(TunnelSummary run, options.clock == TunnelClock::kVirtual
                                          ? RunOnVirtualClock(options, setup, jobs, recorder)
                                          : RunOnRealClock(options, setup, jobs, recorder));
  ReplayModeResult result = recorder->Finish(run.end);
  result.driver = "windtunnel";
  result.wall_seconds = run.wall_seconds;
  result.cut = run.cut;
  if (run.surplus_placements > 0) {
    result.violations.push_back(std::to_string(run.surplus_placements) +
                                " placements beyond what jobs asked for");
  }
  if (run.stalled) {
    result.violations.push_back("stalled at " +
                                std::to_string(std::chrono::duration<double>(run.end).count()) +
                                " s: " + std::to_string(run.tasks_waiting) + " tasks of " +
                                std::to_string(run.jobs_in_flight) + " jobs could not be placed");
  }
  if (!run.invariants_ok) result.violations.push_back("the cell state's invariants broke");
  return result;
}

}  // namespace spindle::replay
