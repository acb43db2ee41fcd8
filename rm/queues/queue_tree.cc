#include "rm/queues/queue_tree.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <set>
#include <system_error>

#include "rm/config/hadoop_line.h"
#include "rm/queues/java_float.h"
#include "rm/queues/label_capacities.h"

namespace spindle::rm {

std::string_view Name(QueueState state) {
  switch (state) {
    case QueueState::kRunning:
      return "RUNNING";
    case QueueState::kStopped:
      return "STOPPED";
    case QueueState::kDraining:
      return "DRAINING";
  }
  return "?";
}

std::string_view Name(QueueAcl acl) {
  switch (acl) {
    case QueueAcl::kSubmitApplications:
      return "SUBMIT_APPLICATIONS";
    case QueueAcl::kAdministerQueue:
      return "ADMINISTER_QUEUE";
  }
  return "?";
}

int64_t CheckAndGetApplicationLifetime(const CsQueue& leaf, int64_t requested_seconds) {
  // The default never exceeds the maximum (the parser refuses that), so
  // only the request is capped.
  if (requested_seconds <= 0) return leaf.default_application_lifetime;
  if (leaf.maximum_application_lifetime > 0 &&
      requested_seconds > leaf.maximum_application_lifetime) {
    return leaf.maximum_application_lifetime;
  }
  return requested_seconds;
}

namespace {

// Hadoop's ParentQueue PRECISION (on fractions), in percent.
constexpr double kSumPrecisionPercent = 0.05;
// CSQueueUtils.EPSILON, on fractions.
constexpr double kAbsoluteEpsilon = 0.0001;
constexpr double kMinWeight = 1e-6;

std::string Key(const std::string& path, std::string_view suffix) {
  return std::string(kCapacitySchedulerPrefix) + path + "." + std::string(suffix);
}

// "50", "33.3", "0.5": short, like Hadoop prints floats in its messages.
std::string Number(double value) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.6g", value);
  return buf;
}

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Builds the tree; one per Parse() call.
class TreeParser {
 public:
  explicit TreeParser(const Configuration& conf) : conf_(conf) {}

  Status Run(std::vector<CsQueue>* out);

 private:
  // "<file>: <key> = '<value>'".
  std::string Where(const std::string& key) const {
    return conf_.SourceOf(key) + ": " + key + " = '" + conf_.Get(key, "") + "'";
  }
  Status Invalid(const std::string& key, const std::string& what) const {
    return Status::InvalidArgument(Where(key) + ": " + what);
  }

  Status ReadGlobals();
  Result<std::vector<std::string>> ChildNames(const CsQueue& queue) const;
  Status ReadQueue(CsQueue& queue, const CsQueue* parent) const;
  Status ReadLifetimes(CsQueue& queue, const CsQueue* parent) const;
  Status ReadUserWeights(CsQueue& queue, const CsQueue* parent) const;
  Status ReadOrdering(CsQueue& leaf) const;
  Status CheckUserWeights(const CsQueue& leaf) const;
  Result<double> ReadPercent(const std::string& key, double fallback, bool allow_minus_one) const;
  Status CheckChildren(const std::vector<CsQueue>& queues, const CsQueue& parent) const;
  Status CheckLeafNames(const std::vector<CsQueue>& queues) const;

  const Configuration& conf_;
  int64_t max_system_apps_ = 10000;
  int64_t global_queue_max_apps_ = 0;
  double global_am_fraction_ = 0.1;
  double global_user_limit_factor_ = 1;
  // spindle.compat.hadoop-version: where the lines' LeafQueues differ.
  HadoopLine line_ = kDefaultHadoopLine;
  // Every node label capacity-scheduler.xml names (label_capacities.h).
  std::set<std::string> named_labels_;
};

Status TreeParser::ReadGlobals() {
  const std::string prefix = kCapacitySchedulerPrefix;
  ASSIGN_OR_RETURN(line_, HadoopLineOf(conf_));
  named_labels_ = LabelsNamedIn(conf_);
  ASSIGN_OR_RETURN(max_system_apps_, conf_.GetInt(prefix + "maximum-applications", 10000));
  ASSIGN_OR_RETURN(global_queue_max_apps_,
                   conf_.GetInt(prefix + "global-queue-max-application", 0));
  ASSIGN_OR_RETURN(global_am_fraction_,
                   conf_.GetDouble(prefix + "maximum-am-resource-percent", 0.1));
  if (global_am_fraction_ < 0 || global_am_fraction_ > 1) {
    return Invalid(prefix + "maximum-am-resource-percent", "must be within [0, 1]");
  }
  ASSIGN_OR_RETURN(global_user_limit_factor_, conf_.GetDouble(prefix + "user-limit-factor", 1));
  return Status::OK();
}

Result<std::vector<std::string>> TreeParser::ChildNames(const CsQueue& queue) const {
  const std::string key = Key(queue.path, "queues");
  std::vector<std::string> names = conf_.GetTrimmedStrings(key);
  std::set<std::string> seen;
  for (const auto& name : names) {
    const bool bad = std::any_of(name.begin(), name.end(), [](char c) {
      return c == '.' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
    });
    if (bad) return Invalid(key, "illegal queue name '" + name + "' (no '.' or blanks allowed)");
    if (!seen.insert(name).second) return Invalid(key, "queue '" + name + "' is listed twice");
  }
  return names;
}

Result<double> TreeParser::ReadPercent(const std::string& key, double fallback,
                                       bool allow_minus_one) const {
  auto text = conf_.GetTrimmed(key);
  if (!text.has_value()) return fallback;
  if (text->front() == '[' || text->back() == 'w' || text->back() == 'W') {
    return Invalid(key,
                   "absolute-resource and weight capacities are not supported; use a "
                   "percentage");
  }
  ASSIGN_OR_RETURN(double value, conf_.GetDouble(key, fallback));
  if (allow_minus_one && value == -1) return 100.0;
  if (!std::isfinite(value) || value < 0 || value > 100) {
    return Invalid(key, "Illegal capacity of " + Number(value) + ": must be within [0, 100]" +
                            (allow_minus_one ? " or -1" : ""));
  }
  return value;
}

Status TreeParser::ReadQueue(CsQueue& queue, const CsQueue* parent) const {
  const std::string& path = queue.path;
  if (parent == nullptr) {
    // Root's capacity is fixed, as in Hadoop.
    queue.capacity = 100;
    queue.maximum_capacity = 100;
    queue.absolute_capacity = 1;
    queue.absolute_maximum_capacity = 1;
  } else {
    ASSIGN_OR_RETURN(queue.capacity, ReadPercent(Key(path, "capacity"), 0, false));
    ASSIGN_OR_RETURN(queue.maximum_capacity, ReadPercent(Key(path, "maximum-capacity"), 100, true));
    queue.absolute_capacity = parent->absolute_capacity * queue.capacity / 100;
    queue.absolute_maximum_capacity =
        parent->absolute_maximum_capacity * queue.maximum_capacity / 100;
    if (queue.absolute_maximum_capacity < queue.absolute_capacity - kAbsoluteEpsilon) {
      return Invalid(
          Key(path, "maximum-capacity"),
          "Illegal call to setMaxCapacity. Queue '" + path + "' has an absolute capacity (" +
              Number(queue.absolute_capacity) + ") greater than its absolute maximumCapacity (" +
              Number(queue.absolute_maximum_capacity) + "); " + Where(Key(path, "capacity")));
    }
  }

  const std::string state_key = Key(path, "state");
  auto state = conf_.GetTrimmed(state_key);
  if (!state.has_value()) {
    queue.state = parent == nullptr ? QueueState::kRunning : parent->state;
  } else if (Upper(*state) == "RUNNING") {
    queue.state = QueueState::kRunning;
    if (parent != nullptr && parent->state == QueueState::kStopped) {
      return Invalid(state_key, "the parent queue " + parent->path +
                                    " is STOPPED, so its child cannot be RUNNING");
    }
  } else if (Upper(*state) == "STOPPED") {
    queue.state = QueueState::kStopped;
  } else {
    return Invalid(state_key, "not RUNNING or STOPPED");
  }

  const std::string default_acl = parent == nullptr ? "*" : " ";
  queue.submit_acl =
      AccessControlList::Parse(conf_.Get(Key(path, "acl_submit_applications"), default_acl));
  queue.administer_acl =
      AccessControlList::Parse(conf_.Get(Key(path, "acl_administer_queue"), default_acl));

  ASSIGN_OR_RETURN(const bool monitors,
                   conf_.GetBool("yarn.resourcemanager.scheduler.monitor.enable", false));
  if (!monitors) {
    queue.preemption_disabled = true;
  } else if (line_ == HadoopLine::k2_6) {
    queue.preemption_disabled = false;
  } else {
    ASSIGN_OR_RETURN(queue.preemption_disabled,
                     conf_.GetBool(Key(path, "disable_preemption"),
                                   parent != nullptr && parent->preemption_disabled));
  }

  ASSIGN_OR_RETURN(queue.user_limit_factor,
                   conf_.GetDouble(Key(path, "user-limit-factor"), global_user_limit_factor_));
  const std::string user_limit_key = Key(path, "minimum-user-limit-percent");
  ASSIGN_OR_RETURN(const int64_t user_limit, conf_.GetInt(user_limit_key, 100));
  if (user_limit <= 0 || user_limit > 100)
    return Invalid(user_limit_key, "must be within (0, 100]");
  queue.minimum_user_limit_percent = static_cast<int32_t>(user_limit);
  ASSIGN_OR_RETURN(const int64_t max_apps, conf_.GetInt(Key(path, "maximum-applications"), -1));
  if (max_apps > INT32_MAX) {
    return Invalid(Key(path, "maximum-applications"), "too large");
  }
  queue.configured_maximum_applications = max_apps < 0 ? -1 : static_cast<int32_t>(max_apps);
  if (max_apps >= 0) {
    queue.maximum_applications = static_cast<int32_t>(max_apps);
  } else if (global_queue_max_apps_ > 0) {
    queue.maximum_applications = static_cast<int32_t>(
        std::min<int64_t>(global_queue_max_apps_, std::numeric_limits<int32_t>::max()));
  } else {
    queue.maximum_applications =
        static_cast<int32_t>(static_cast<double>(max_system_apps_) * queue.absolute_capacity);
  }
  // LeafQueue: (int)(maxApplications * (userLimit / 100.0f) * userLimitFactor)
  // in Java floats; 2.7 and 3.3 cap it at maxApplications, 2.6 does not
  // (the queue's own maximum refuses first either way).
  const auto per_user =
      static_cast<int32_t>(static_cast<float>(queue.maximum_applications) *
                           (static_cast<float>(queue.minimum_user_limit_percent) / 100.0f) *
                           static_cast<float>(queue.user_limit_factor));
  queue.maximum_applications_per_user =
      line_ == HadoopLine::k2_6 ? per_user : std::min(queue.maximum_applications, per_user);
  const std::string am_key = Key(path, "maximum-am-resource-percent");
  ASSIGN_OR_RETURN(queue.maximum_am_resource_fraction,
                   conf_.GetDouble(am_key, global_am_fraction_));
  if (queue.maximum_am_resource_fraction < 0 || queue.maximum_am_resource_fraction > 1) {
    return Invalid(am_key, "must be within [0, 1]");
  }

  RETURN_NOT_OK(ReadLifetimes(queue, parent));
  RETURN_NOT_OK(ReadUserWeights(queue, parent));

  const std::string labels_key = Key(path, "accessible-node-labels");
  if (parent == nullptr || !conf_.Get(labels_key).has_value()) {
    queue.accessible_node_labels =
        parent == nullptr ? std::vector<std::string>{"*"} : parent->accessible_node_labels;
  } else {
    queue.accessible_node_labels = conf_.GetTrimmedStrings(labels_key);
    if (std::find(queue.accessible_node_labels.begin(), queue.accessible_node_labels.end(), "*") !=
        queue.accessible_node_labels.end()) {
      queue.accessible_node_labels = {"*"};
    }
  }
  const std::string default_label_key = Key(path, "default-node-label-expression");
  if (auto label = conf_.GetTrimmed(default_label_key); label.has_value()) {
    queue.default_node_label_expression = *label;
  } else if (parent != nullptr) {
    queue.default_node_label_expression = parent->default_node_label_expression;
  }
  if (parent != nullptr) RETURN_NOT_OK(CheckAccessibleLabels(queue, *parent));
  return ReadLabelCapacities(conf_, line_, named_labels_, queue, parent);
}

// AbstractCSQueue.setupQueueConfigs (Hadoop 3.3) and its two helpers.
Status TreeParser::ReadLifetimes(CsQueue& queue, const CsQueue* parent) const {
  // CapacitySchedulerConfiguration.UNDEFINED.
  constexpr int64_t kUndefined = -1;
  const std::string max_key = Key(queue.path, "maximum-application-lifetime");
  const std::string default_key = Key(queue.path, "default-application-lifetime");
  ASSIGN_OR_RETURN(int64_t max_lifetime, conf_.GetInt(max_key, kUndefined));
  ASSIGN_OR_RETURN(int64_t default_lifetime, conf_.GetInt(default_key, kUndefined));
  queue.default_lifetime_configured =
      default_lifetime >= 0 || (parent != nullptr && parent->default_lifetime_configured);
  if (parent != nullptr) {
    // 0 overrides the parent's maximum (none); a negative value inherits it.
    if (max_lifetime < 0) max_lifetime = parent->maximum_application_lifetime;
    if (default_lifetime < 0) {
      // Unset here: an ancestor's default if one was configured and it is
      // within this queue's maximum (compared as Java compares, so a
      // maximum of -1 takes the maximum), else this queue's maximum.
      if (queue.default_lifetime_configured &&
          parent->default_application_lifetime <= max_lifetime) {
        default_lifetime = parent->default_application_lifetime;
      } else {
        default_lifetime = max_lifetime;
      }
    }
  }
  if (max_lifetime > 0 && default_lifetime > max_lifetime) {
    return Invalid(default_key, "Default lifetime " + std::to_string(default_lifetime) +
                                    " can't exceed maximum lifetime " +
                                    std::to_string(max_lifetime));
  }
  queue.maximum_application_lifetime = max_lifetime;
  queue.default_application_lifetime = default_lifetime > 0 ? default_lifetime : max_lifetime;
  return Status::OK();
}

Status TreeParser::CheckChildren(const std::vector<CsQueue>& queues, const CsQueue& parent) const {
  if (parent.children.empty()) return Status::OK();
  double sum = 0;
  std::string keys;
  for (int child : parent.children) {
    const CsQueue& q = queues[static_cast<size_t>(child)];
    sum += q.capacity;
    if (!keys.empty()) keys += ", ";
    keys += Where(Key(q.path, "capacity"));
  }
  const bool bad = (parent.capacity > 0 && std::abs(sum - 100) > kSumPrecisionPercent) ||
                   (parent.capacity == 0 && sum > 0);
  if (bad) {
    return Status::InvalidArgument("Illegal capacity of " + Number(sum) +
                                   " for children of queue " + parent.path + " (must sum to " +
                                   (parent.capacity == 0 ? "0" : "100") + "): " + keys);
  }
  return CheckChildLabelCapacities(queues, parent, named_labels_);
}

// 3.3 CapacitySchedulerConfiguration.getAppOrderingPolicy: the short names
// as written (trimmed, case-sensitive) or a policy class; its parameters
// are the keys under <path>.ordering-policy. (FifoOrderingPolicyForPendingApps
// is the pending apps' order, which rm/apps/am_activation applies whatever
// is configured; named here it orders as FIFO does.)
Status TreeParser::ReadOrdering(CsQueue& leaf) const {
  if (line_ != HadoopLine::k3_3) {
    leaf.ordering = pool::QueueOrdering::kApplicationId;
    return Status::OK();
  }
  const std::string key = Key(leaf.path, "ordering-policy");
  const std::string policy = conf_.GetTrimmed(key).value_or("fifo");
  constexpr std::string_view kPolicies =
      "org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.";
  const auto is = [&](std::string_view short_name, std::string_view class_name) {
    return policy == short_name || policy == std::string(kPolicies) + std::string(class_name);
  };
  if (is("fifo", "FifoOrderingPolicy") ||
      is("fifo-with-partitions", "FifoOrderingPolicyWithExclusivePartitions") ||
      is("fifo-for-pending-apps", "FifoOrderingPolicyForPendingApps")) {
    leaf.ordering = pool::QueueOrdering::kFifo;
  } else if (is("fair", "FairOrderingPolicy")) {
    leaf.ordering = pool::QueueOrdering::kFair;
  } else {
    return Invalid(key, "Unable to construct ordering policy for: " + policy +
                            " (Spindle has fifo, fifo-with-partitions and fair)");
  }
  if (leaf.ordering == pool::QueueOrdering::kFair) {
    // FairOrderingPolicy.configure: Boolean.parseBoolean, true only for
    // "true" in any case.
    const std::string weight_key = Key(leaf.path, "ordering-policy.fair.enable-size-based-weight");
    leaf.fair_size_based_weight = Lower(conf_.Get(weight_key, "false")) == "true";
  }
  return Status::OK();
}

// 3.3 getAllUserWeightsForQueue: keys <path>.user-settings.<user>.weight
// whose <user> is a word (\w+: letters, digits, '_'); values as Java's
// Float.valueOf reads them. Inherited from the parent, overridden here.
Status TreeParser::ReadUserWeights(CsQueue& queue, const CsQueue* parent) const {
  if (line_ != HadoopLine::k3_3) return Status::OK();
  if (parent != nullptr) queue.user_weights = parent->user_weights;
  const std::string prefix = Key(queue.path, "user-settings.");
  constexpr std::string_view kSuffix = ".weight";
  for (const std::string& key : conf_.KeysWithPrefix(prefix)) {
    if (!key.ends_with(kSuffix) || key.size() <= prefix.size() + kSuffix.size()) continue;
    const std::string user = key.substr(prefix.size(), key.size() - prefix.size() - kSuffix.size());
    const bool word = std::all_of(user.begin(), user.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
    });
    if (!word) continue;
    const std::string text = conf_.GetTrimmed(key).value_or("");
    std::string digits = text;
    if (!digits.empty() && std::strchr("fFdD", digits.back()) != nullptr) digits.pop_back();
    char* end = nullptr;
    const float weight = digits.empty() ? 0 : std::strtof(digits.c_str(), &end);
    if (digits.empty() || end != digits.c_str() + digits.size() || !std::isfinite(weight)) {
      return Invalid(key, "not a number (a user's weight, a float)");
    }
    queue.user_weights[user] = weight;
  }
  return Status::OK();
}

// LeafQueue.setupQueueConfigs: each weight within [0, 100 / MULP] (a weight
// above it would let more than the queue's guaranteed users in); an
// IOException that stops the queue's initialisation.
Status TreeParser::CheckUserWeights(const CsQueue& leaf) const {
  const int32_t queue_ul = std::min(100, leaf.minimum_user_limit_percent);
  const float bound = 100.0f / static_cast<float>(queue_ul);
  for (const auto& [user, weight] : leaf.user_weights) {
    if (weight < 0.0f || weight > bound) {
      // Named where it was set: the leaf or the nearest ancestor.
      std::string path = leaf.path;
      std::string key = Key(path, "user-settings." + user + ".weight");
      while (!conf_.IsSet(key) && path.find('.') != std::string::npos) {
        path.erase(path.rfind('.'));
        key = Key(path, "user-settings." + user + ".weight");
      }
      return Status::InvalidArgument(
          Where(key) + ": Weight (" + JavaFloat(weight) + ") for user \"" + user +
          "\" must be between 0 and 100 / " + std::to_string(queue_ul) + " (= " + JavaFloat(bound) +
          ", the number of concurrent active users in " + leaf.path + ")");
    }
  }
  return Status::OK();
}

Status TreeParser::CheckLeafNames(const std::vector<CsQueue>& queues) const {
  std::map<std::string, const CsQueue*> leaves;
  for (const auto& q : queues) {
    if (!q.is_leaf()) continue;
    auto [it, inserted] = leaves.emplace(q.name, &q);
    if (!inserted) {
      const std::string key = Key(q.path.substr(0, q.path.rfind('.')), "queues");
      return Status::InvalidArgument(Where(key) + ": Two leaf queues were named " + q.name + " (" +
                                     it->second->path + " and " + q.path +
                                     "). Leaf queue names must be distinct");
    }
  }
  if (leaves.size() > static_cast<size_t>(pool::QueueLedger::kMaxQueues)) {
    return Status::InvalidArgument("too many leaf queues: " + std::to_string(leaves.size()) +
                                   " (at most " + std::to_string(pool::QueueLedger::kMaxQueues) +
                                   ")");
  }
  return Status::OK();
}

Status TreeParser::Run(std::vector<CsQueue>* out) {
  RETURN_NOT_OK(ReadGlobals());
  std::vector<CsQueue> queues;
  CsQueue root;
  root.name = "root";
  root.path = "root";
  RETURN_NOT_OK(ReadQueue(root, nullptr));
  queues.push_back(std::move(root));
  ASSIGN_OR_RETURN(auto root_children, ChildNames(queues.front()));
  if (root_children.empty()) {
    const std::string key = Key("root", "queues");
    return Status::InvalidArgument(conf_.SourceOf(key) +
                                   ": Queue configuration missing child queue names for root (" +
                                   key + " is not set)");
  }
  // Depth-first pre-order without recursion: a stack of (queue, next child).
  struct Frame {
    int queue;
    std::vector<std::string> names;
    size_t next = 0;
  };
  std::vector<Frame> stack;
  stack.push_back(Frame{0, std::move(root_children)});
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next == top.names.size()) {
      RETURN_NOT_OK(CheckChildren(queues, queues[static_cast<size_t>(top.queue)]));
      stack.pop_back();
      continue;
    }
    const int parent_index = top.queue;
    CsQueue child;
    child.name = top.names[top.next++];
    child.path = queues[static_cast<size_t>(parent_index)].path + "." + child.name;
    child.parent = parent_index;
    RETURN_NOT_OK(ReadQueue(child, &queues[static_cast<size_t>(parent_index)]));
    ASSIGN_OR_RETURN(auto names, ChildNames(child));
    const int index = static_cast<int>(queues.size());
    queues[static_cast<size_t>(parent_index)].children.push_back(index);
    queues.push_back(std::move(child));
    // `top` may dangle after this push.
    stack.push_back(Frame{index, std::move(names)});
  }
  for (auto& q : queues) {
    // Ordering and the weights' bounds are a leaf's (a parent's
    // ordering-policy orders its child queues, which the pool does by weight).
    if (!q.is_leaf()) continue;
    RETURN_NOT_OK(ReadOrdering(q));
    RETURN_NOT_OK(CheckUserWeights(q));
  }
  RETURN_NOT_OK(CheckLeafNames(queues));
  *out = std::move(queues);
  return Status::OK();
}

}  // namespace

Result<QueueTree> QueueTree::Parse(const Configuration& conf) {
  QueueTree tree;
  TreeParser parser(conf);
  RETURN_NOT_OK(parser.Run(&tree.queues_));
  ASSIGN_OR_RETURN(const bool user_metrics,
                   conf.GetBool("yarn.scheduler.capacity.user-metrics.enable", false));
  tree.user_metrics_enabled_ = user_metrics;
  for (size_t i = 0; i < tree.queues_.size(); ++i) {
    const CsQueue& q = tree.queues_[i];
    const int index = static_cast<int>(i);
    tree.by_path_[q.path] = index;
    auto it = tree.by_name_.find(q.name);
    if (it == tree.by_name_.end() ||
        (q.is_leaf() && !tree.queues_[static_cast<size_t>(it->second)].is_leaf())) {
      tree.by_name_[q.name] = index;
    }
  }
  return tree;
}

const CsQueue* QueueTree::Find(std::string_view name) const {
  if (auto it = by_path_.find(name); it != by_path_.end()) {
    return &queues_[static_cast<size_t>(it->second)];
  }
  if (auto it = by_name_.find(name); it != by_name_.end()) {
    return &queues_[static_cast<size_t>(it->second)];
  }
  return nullptr;
}

const CsQueue* QueueTree::FindLeaf(std::string_view name) const {
  const CsQueue* q = Find(name);
  return q != nullptr && q->is_leaf() ? q : nullptr;
}

std::vector<const CsQueue*> QueueTree::Leaves() const {
  std::vector<const CsQueue*> out;
  for (const auto& q : queues_) {
    if (q.is_leaf()) out.push_back(&q);
  }
  return out;
}

bool QueueTree::HasAccess(const CsQueue& queue, QueueAcl acl, const std::string& user,
                          const std::vector<std::string>& groups) const {
  for (const CsQueue* q = &queue;; q = &parent_of(*q)) {
    const AccessControlList& list =
        acl == QueueAcl::kSubmitApplications ? q->submit_acl : q->administer_acl;
    if (list.IsUserAllowed(user, groups)) return true;
    if (q->is_root()) return false;
  }
}

namespace {

pool::UserLimitRules UserLimitRulesOf(HadoopLine line) {
  switch (line) {
    case HadoopLine::k2_6:
      return pool::UserLimitRules::kHadoop2_6;
    case HadoopLine::k2_7:
      return pool::UserLimitRules::kHadoop2_7;
    case HadoopLine::k3_3:
      break;
  }
  return pool::UserLimitRules::kHadoop3_3;
}

}  // namespace

namespace {

// A share of `total` (a partition's resources): min = absolute x total and
// max = absolute maximum x total, each rounded down per dimension; max is
// unlimited when the absolute maximum is the whole partition (so a node that
// joins before the next SetQueues is usable at once).
void ShareOf(double absolute, double absolute_maximum, const pool::Resource& total,
             pool::Resource* min, pool::Resource* max) {
  *max = pool::Resource::Unlimited();
  const bool whole = absolute_maximum >= 1 - kAbsoluteEpsilon;
  for (int i = 0; i < pool::kMaxResourceTypes; ++i) {
    const double all = static_cast<double>(std::max<int64_t>(total.Get(i), 0));
    min->Set(i, static_cast<int64_t>(std::floor(all * absolute)));
    if (!whole) max->Set(i, static_cast<int64_t>(std::floor(all * absolute_maximum)));
  }
  *min = min->Min(*max);
}

}  // namespace

std::vector<pool::QueueSpec> QueueTree::ToQueueSpecs(
    const pool::Resource& cluster, const UserLimitContext& users,
    const std::vector<LabelResources>& labels) const {
  std::vector<pool::QueueSpec> specs;
  for (const auto& q : queues_) {
    if (!q.is_leaf()) continue;
    pool::QueueSpec spec;
    spec.name = PoolQueueName(q);
    ShareOf(q.absolute_capacity, q.absolute_maximum_capacity, cluster, &spec.min, &spec.max);
    // Every cluster label is listed; a label the queue has no entry for
    // gets nothing (LabelCapacity's zeros), as does one the cluster gains
    // before the next call (kClosed).
    spec.unlisted_partitions = pool::UnlistedPartitions::kClosed;
    for (const LabelResources& label : labels) {
      const LabelCapacity share = q.CapacityIn(label.name);
      pool::PartitionShare partition;
      partition.label = label.name;
      ShareOf(share.absolute_capacity, share.absolute_maximum_capacity, label.resources,
              &partition.min, &partition.max);
      partition.weight = std::max(share.absolute_capacity, kMinWeight);
      spec.partitions.push_back(std::move(partition));
    }
    spec.weight = std::max(q.absolute_capacity, kMinWeight);
    spec.ordering = q.ordering;
    spec.fair_size_based_weight = q.fair_size_based_weight;
    // LeafQueue walks its applications in its order whichever scheduler of
    // the pool holds them.
    spec.pool_wide_order = true;
    pool::UserLimitSpec& limits = spec.user_limits;
    limits.enabled = true;
    limits.minimum_user_limit_percent = q.minimum_user_limit_percent;
    limits.user_limit_factor = q.user_limit_factor;
    limits.rules = UserLimitRulesOf(users.line);
    limits.capacity = pool::UserLimitCapacity(limits.rules, users.calculator, cluster,
                                              q.absolute_capacity, users.minimum_allocation);
    limits.minimum_allocation = users.minimum_allocation;
    limits.cluster = cluster.Max(pool::Resource());
    limits.calculator = users.calculator;
    for (const auto& [user, weight] : q.user_weights) {
      if (weight != 1.0f) limits.user_weights.push_back({user, pool::UserId(), weight});
    }
    specs.push_back(std::move(spec));
  }
  return specs;
}

Status QueueTree::CheckReplaceableBy(const QueueTree& next) const {
  for (const auto& q : queues_) {
    auto it = next.by_path_.find(q.path);
    if (it == next.by_path_.end()) {
      const CsQueue* same_name = next.Find(q.name);
      if (same_name != nullptr && same_name->name == q.name) {
        return Status::InvalidArgument("Queue " + q.name + " is moved from:" + q.path + " to:" +
                                       same_name->path + " after refresh, which is not allowed.");
      }
      return Status::InvalidArgument(q.path +
                                     " cannot be found during refresh! Queues cannot be removed.");
    }
    const CsQueue& n = next.queues_[static_cast<size_t>(it->second)];
    if (q.is_leaf() && !n.is_leaf()) {
      return Status::InvalidArgument(
          "Cannot turn leaf queue " + q.path + " into a parent queue on refresh (" +
          std::string(kCapacitySchedulerPrefix) + q.path + ".queues is now set)");
    }
    if (!q.is_leaf() && n.is_leaf()) {
      return Status::InvalidArgument(
          "Cannot turn parent queue " + q.path + " into a leaf queue on refresh (" +
          std::string(kCapacitySchedulerPrefix) + q.path + ".queues is no longer set)");
    }
  }
  return Status::OK();
}

Result<QueueTree> QueueTree::Reload(const QueueTree& current, const Configuration& conf) {
  ASSIGN_OR_RETURN(QueueTree next, Parse(conf));
  RETURN_NOT_OK(current.CheckReplaceableBy(next));
  return next;
}

}  // namespace spindle::rm
