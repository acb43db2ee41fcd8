// What the HA tests share: starting a `spindle rm` child and waiting until
// it listens, and telling active from standby by getClusterMetrics on its
// client port (answered by the active, refused with
// org.apache.hadoop.ipc.StandbyException by a standby, unanswered by a dead
// or stopped one).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>

#include "base/child_process.h"
#include "integration/cell_support.h"
#include "integration/wait_for.h"
#include "rm/yarn_exceptions.h"
#include "wire/ipc/rpc_client.h"
#include "yarn_service_protos.pb.h"

namespace spindle::cell {

enum class HaAnswer { kActive, kStandby, kNone };

inline HaAnswer AskHaState(ipc::RpcClient& client, uint16_t client_port) {
  hadoop::yarn::GetClusterMetricsRequestProto request;
  hadoop::yarn::GetClusterMetricsResponseProto response;
  const Status s = client.Call({"127.0.0.1", client_port, kClient, "alice", std::nullopt},
                               "getClusterMetrics", request, &response);
  if (s.ok()) return HaAnswer::kActive;
  if (s.IsRemote() && s.java_class() == rm::yarn::kStandby) return HaAnswer::kStandby;
  return HaAnswer::kNone;
}

// `binary rm --conf <conf_dir> --ports-file <ports_file>`, output appended
// to `log`, once it has written its ports file (it listens); a child that is
// not running() if it exited first or did not listen within `timeout`.
inline ChildProcess StartListeningRm(const std::string& binary, const std::string& conf_dir,
                                     const std::string& ports_file, const std::string& log,
                                     std::chrono::milliseconds timeout) {
  ChildProcess rm = Spawn({binary, "rm", "--conf", conf_dir, "--ports-file", ports_file}, log);
  if (!rm.running()) return rm;
  const bool listening =
      WaitFor([&] { return rm.Exited() || std::filesystem::exists(ports_file); }, timeout);
  if (!listening) rm.Kill();
  return rm;
}

}  // namespace spindle::cell
