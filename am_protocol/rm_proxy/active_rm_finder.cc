#include "am_protocol/rm_proxy/active_rm_finder.h"

#include <glog/logging.h>

#include "am_protocol/rm_proxy/ha_service_client.h"
#include "rm/config/ha_config.h"
#include "rm/config/socket_address.h"

namespace spindle::am_protocol {

namespace {
constexpr char kCheckTimeoutKey[] = "ha.failover-controller.cli-check.rpc-timeout.ms";
}  // namespace

Result<std::unique_ptr<ActiveRmFinder>> ActiveRmFinder::Create(rm::Configuration conf,
                                                               std::string user) {
  ASSIGN_OR_RETURN(const int64_t timeout_ms, conf.GetInt(kCheckTimeoutKey, 20000));
  if (timeout_ms <= 0) {
    return Status::InvalidArgument(std::string(kCheckTimeoutKey) + " must be positive, not " +
                                   std::to_string(timeout_ms));
  }
  ipc::RpcClientOptions options;
  options.call_timeout = std::chrono::milliseconds(timeout_ms);
  options.connect_timeout = std::chrono::milliseconds(timeout_ms);
  return std::unique_ptr<ActiveRmFinder>(
      new ActiveRmFinder(std::move(conf), std::move(user), options));
}

ActiveRmFinder::ActiveRmFinder(rm::Configuration conf, std::string user,
                               ipc::RpcClientOptions options)
    : conf_(std::move(conf)),
      user_(std::move(user)),
      rm_ids_(conf_.GetTrimmedStrings("yarn.resourcemanager.ha.rm-ids")),
      client_(std::make_unique<ipc::RpcClient>(options)) {}

std::optional<std::string> ActiveRmFinder::FindActiveRmId() const {
  for (const std::string& rm_id : rm_ids_) {
    Result<std::string> text = rm::RmAddressOf(conf_, "yarn.resourcemanager.admin.address", rm_id);
    if (!text.ok()) continue;
    std::optional<rm::SocketAddress> address = rm::ParseSocketAddress(*text);
    if (!address.has_value()) continue;
    auto status = HaServiceClient(client_.get(), user_).GetServiceStatus(*address);
    if (!status.ok()) {
      VLOG(1) << "cannot tell whether " << rm_id << " is active: " << status.status().ToString();
      continue;
    }
    if (status->state() == hadoop::common::ACTIVE) return rm_id;
  }
  return std::nullopt;
}

std::optional<std::string> ActiveRmFinder::FindActiveWebUrl() const {
  std::optional<std::string> rm_id = FindActiveRmId();
  if (!rm_id.has_value()) return std::nullopt;
  Result<std::string> web = rm::RmAddressOf(conf_, "yarn.resourcemanager.webapp.address", *rm_id);
  if (!web.ok()) return std::nullopt;
  return "http://" + *web;
}

}  // namespace spindle::am_protocol
