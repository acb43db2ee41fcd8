#include "am_protocol/rm_proxy/rm_failover_proxy.h"

#include <glog/logging.h>

#include <random>
#include <thread>

#include "rm/config/ha_config.h"

namespace spindle::am_protocol {

namespace {

double ThreadLocalUniform() {
  thread_local std::mt19937_64 generator{std::random_device{}()};
  return std::uniform_real_distribution<double>(0.0, 1.0)(generator);
}

Result<RmProxyTarget> TargetOf(const std::string& rm_id, const std::string& key,
                               const std::string& text) {
  std::optional<rm::SocketAddress> address = rm::ParseSocketAddress(text);
  if (!address.has_value()) {
    return Status::InvalidArgument("Does not contain a valid host:port authority: " + text + " (" +
                                   key + (rm_id.empty() ? "" : "." + rm_id) + ")");
  }
  return RmProxyTarget{rm_id, address->host, address->port};
}

}  // namespace

std::string RmProxyTarget::ToString() const {
  return (rm_id.empty() ? "" : rm_id + " at ") + host + ":" + std::to_string(port);
}

Result<std::vector<RmProxyTarget>> RmProxyTargets(const rm::Configuration& conf,
                                                  const std::string& address_key) {
  // A client needs no rm-id of its own: HAUtil.isHAEnabled and
  // getRMHAIds, as ConfiguredRMFailoverProxyProvider reads them.
  ASSIGN_OR_RETURN(const bool ha, conf.GetBool("yarn.resourcemanager.ha.enabled", false));
  const std::vector<std::string> rm_ids = conf.GetTrimmedStrings("yarn.resourcemanager.ha.rm-ids");
  std::vector<RmProxyTarget> targets;
  if (ha) {
    if (rm_ids.empty()) {
      return Status::InvalidArgument(
          "yarn.resourcemanager.ha.rm-ids is empty with yarn.resourcemanager.ha.enabled");
    }
    for (const std::string& rm_id : rm_ids) {
      ASSIGN_OR_RETURN(std::string text, rm::RmAddressOf(conf, address_key, rm_id));
      ASSIGN_OR_RETURN(RmProxyTarget target, TargetOf(rm_id, address_key, text));
      targets.push_back(std::move(target));
    }
    return targets;
  }
  const std::string host = conf.GetTrimmed("yarn.resourcemanager.hostname").value_or("0.0.0.0");
  const std::string text =
      conf.GetTrimmed(address_key)
          .value_or(host + ":" + std::to_string(rm::RmDefaultPort(address_key)));
  ASSIGN_OR_RETURN(RmProxyTarget target, TargetOf("", address_key, text));
  targets.push_back(std::move(target));
  return targets;
}

RmFailoverProxy::RmFailoverProxy(ipc::RpcClient* client, std::vector<RmProxyTarget> targets,
                                 RmFailoverProxyOptions options)
    : client_(client), targets_(std::move(targets)), options_(std::move(options)) {
  CHECK(!targets_.empty()) << "RmFailoverProxy needs at least one RM address";
}

Result<std::unique_ptr<RmFailoverProxy>> RmFailoverProxy::FromConfiguration(
    ipc::RpcClient* client, const rm::Configuration& conf, const std::string& address_key,
    RmFailoverProxyOptions options) {
  ASSIGN_OR_RETURN(std::vector<RmProxyTarget> targets, RmProxyTargets(conf, address_key));
  const bool ha = !targets.front().rm_id.empty();
  ASSIGN_OR_RETURN(options.policy, RmRetryPolicy::FromConfiguration(conf, ha));
  return std::make_unique<RmFailoverProxy>(client, std::move(targets), std::move(options));
}

RmProxyTarget RmFailoverProxy::current() const {
  MutexLock lock(&mu_);
  return targets_[current_];
}

int64_t RmFailoverProxy::failovers() const {
  MutexLock lock(&mu_);
  return failovers_;
}

ipc::ConnectionSpec RmFailoverProxy::SpecOf(const RmProxyTarget& target) const {
  return {target.host, target.port, options_.protocol, options_.user, options_.token};
}

Status RmFailoverProxy::Call(const std::string& method,
                             const google::protobuf::MessageLite& request,
                             google::protobuf::MessageLite* response) {
  int64_t retries = 0;
  int64_t failovers = 0;
  for (;;) {
    RmProxyTarget target;
    int64_t seen_failovers = 0;
    {
      MutexLock lock(&mu_);
      target = targets_[current_];
      seen_failovers = failovers_;
    }
    Status s = client_->Call(SpecOf(target), method, request, response);
    if (s.ok()) return s;
    const double uniform = options_.uniform ? options_.uniform() : ThreadLocalUniform();
    RmRetryPolicy::Action action = options_.policy.ShouldRetry(s, retries, failovers, uniform);
    if (action.decision == RmRetryPolicy::Decision::kFail) {
      // A first answer the policy does not retry reaches the caller as it
      // came (its exception class is what the caller acts on).
      if (retries == 0) return s;
      return s.WithContext(method + " to the RM (" + target.ToString() + ") failed after " +
                           std::to_string(retries) + " retries and " + std::to_string(failovers) +
                           " failovers: " + action.reason);
    }
    auto delay = action.delay;
    if (options_.deadline.has_value()) {
      const auto now = std::chrono::steady_clock::now();
      if (now >= *options_.deadline) {
        return s.WithContext(method + " to the RM (" + target.ToString() +
                             ") failed before the caller's deadline");
      }
      delay =
          std::min(delay, std::chrono::ceil<std::chrono::milliseconds>(*options_.deadline - now));
    }
    if (action.decision == RmRetryPolicy::Decision::kFailoverAndRetry) {
      ++failovers;
      MutexLock lock(&mu_);
      // Only the first of the calls that failed on this RM moves the proxy.
      if (failovers_ == seen_failovers) {
        current_ = (current_ + 1) % targets_.size();
        ++failovers_;
        LOG(INFO) << method << ": " << target.ToString() << " answered " << s.UserMessage()
                  << "; failing over to " << targets_[current_].ToString() << " after "
                  << delay.count() << " ms";
      }
    } else {
      LOG(WARNING) << method << ": " << target.ToString() << " answered " << s.UserMessage()
                   << "; retrying in " << delay.count() << " ms";
    }
    ++retries;
    if (delay.count() > 0) {
      if (options_.sleep) {
        options_.sleep(delay);
      } else {
        std::this_thread::sleep_for(delay);
      }
    }
  }
}

}  // namespace spindle::am_protocol
