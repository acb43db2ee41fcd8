// HaState: where the RM core is in its lifecycle, as Hadoop's
// HAServiceState names it (what clusterInfo's haState and the front ends'
// standby answers read).
#pragma once

namespace spindle::rm {

enum class HaState { kInitializing, kStandby, kActive, kStopped };
// "INITIALIZING", "STANDBY", "ACTIVE", "STOPPED".
const char* HaStateName(HaState state);

}  // namespace spindle::rm
