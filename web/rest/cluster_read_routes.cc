#include "web/rest/cluster_read_routes.h"

#include <pwd.h>
#include <unistd.h>

#include <cctype>
#include <charconv>
#include <limits>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "am_protocol/client_service/record_protos.h"
#include "base/strings/trim.h"
#include "web/rest/app_info.h"
#include "web/rest/app_lookup.h"
#include "web/rest/app_statistics.h"
#include "web/rest/cluster_info.h"
#include "web/rest/cluster_metrics.h"
#include "web/rest/node_info.h"
#include "web/rest/rest_params.h"
#include "web/rest/rest_response.h"
#include "web/rest/scheduler_info.h"

namespace spindle::web::rest {

namespace y = hadoop::yarn;

namespace {

class Handlers {
 public:
  Handlers(WebCallerOptions options, ClusterWebDeps deps)
      : options_(std::move(options)), deps_(std::move(deps)) {}

  HttpResponse ClusterInfo(const HttpRequest& request) const {
    return RenderDocument(request, ClusterInfoDocument(ClusterIdentityNow(deps_)));
  }

  HttpResponse Metrics(const HttpRequest& request) const {
    return RenderDocument(request, ClusterMetricsDocument(deps_));
  }

  HttpResponse Scheduler(const HttpRequest& request) const {
    return RenderDocument(request, SchedulerDocument(deps_, WebCaller(request, options_)));
  }

  HttpResponse UserInfo(const HttpRequest& request) const {
    RestNode body;
    body.Str("rmLoginUser", LoginUser()).Str("requestedUser", WebCaller(request, options_));
    return RenderDocument(request, RestDocument("clusterUserInfo", std::move(body)));
  }

  HttpResponse Apps(const HttpRequest& request) const {
    RestError error;
    auto apps_request = AppsRequest(request, &error);
    if (!apps_request.ok()) return RenderError(request, error);
    // finalStatus: FinalApplicationStatus.valueOf, case-sensitive.
    const std::string final_status = request.Query("finalStatus").value_or("");
    if (!final_status.empty()) {
      static const std::set<std::string> kFinal = {"UNDEFINED", "SUCCEEDED", "FAILED", "KILLED",
                                                   "ENDED"};
      if (kFinal.count(final_status) == 0) {
        return RenderError(
            request,
            RestError::IllegalArgument(
                "No enum constant org.apache.hadoop.yarn.api.records.FinalApplicationStatus." +
                final_status));
      }
    }
    auto deselects = ParseDeSelects(request.QueryAll("deSelects"), &error);
    if (!deselects.has_value()) return RenderError(request, error);

    const std::string caller = WebCaller(request, options_);
    client_service::ClientRmService::Who who;
    who.user = caller;
    y::GetApplicationsResponseProto response;
    Status status = deps_.client->GetApplications(who, *apps_request, &response);
    if (!status.ok())
      return RenderError(request, RestError::Of("java.io.IOException", status.message()));
    std::vector<RestNode> items;
    for (const auto& report : response.applications()) {
      auto app = deps_.core->ApplicationReport(client_service::FromProto(report.applicationid()));
      if (!app.ok()) continue;  // removed meanwhile
      if (!final_status.empty() &&
          UpperAscii(std::string(rm::Name(app->final_status))) != UpperAscii(final_status)) {
        continue;
      }
      items.push_back(AppInfoNode(deps_, *app, deps_.client->CanView(caller, *app), *deselects));
    }
    RestNode body;
    body.Items("app", std::move(items));
    return RenderDocument(request, RestDocument("apps", std::move(body)));
  }

  HttpResponse App(const HttpRequest& request) const {
    RestError error;
    auto app = FindApp(request, &error);
    if (!app.has_value()) return RenderError(request, error);
    auto deselects = ParseDeSelects(request.QueryAll("deSelects"), &error);
    if (!deselects.has_value()) return RenderError(request, error);
    const bool access = deps_.client->CanView(WebCaller(request, options_), *app);
    return RenderDocument(request,
                          RestDocument("app", AppInfoNode(deps_, *app, access, *deselects)));
  }

  HttpResponse AppAttempts(const HttpRequest& request) const {
    RestError error;
    auto app = FindApp(request, &error);
    if (!app.has_value()) return RenderError(request, error);
    const bool access = deps_.client->CanView(WebCaller(request, options_), *app);
    return RenderDocument(request, AppAttemptsDocument(*app, access));
  }

  HttpResponse AppState(const HttpRequest& request) const {
    RestError error;
    auto app = FindApp(request, &error);
    if (!app.has_value()) return RenderError(request, error);
    return RenderDocument(request, AppStateDocument(*app));
  }

  HttpResponse Nodes(const HttpRequest& request) const {
    std::set<rm::NodeState> states;
    if (auto query = request.Query("states"); query.has_value()) {
      // NodeState.valueOf(upper(each)); String.split drops trailing empties
      // only, so "" and "a,,b" name the empty constant.
      std::string text = *query;
      std::vector<std::string> parts;
      size_t start = 0;
      while (true) {
        size_t comma = text.find(',', start);
        parts.push_back(
            text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
      while (parts.size() > 1 && parts.back().empty()) parts.pop_back();
      for (const auto& part : parts) {
        auto state = NodeStateOf(UpperAscii(part));
        if (!state.has_value()) {
          return RenderError(request,
                             RestError::IllegalArgument(
                                 "No enum constant org.apache.hadoop.yarn.api.records.NodeState." +
                                 UpperAscii(part)));
        }
        states.insert(*state);
      }
    }
    std::vector<RestNode> items;
    // num_containers: the live containers the RM placed there.
    for (const rm::NodeReport& node : deps_.core->NodeReports()) {
      if (!states.empty() && states.count(node.state) == 0) continue;
      items.push_back(NodeInfoNode(node, node.num_containers));
    }
    RestNode body;
    body.Items("node", std::move(items));
    return RenderDocument(request, RestDocument("nodes", std::move(body)));
  }

  // RMWebServices.getClusterNodeLabels (3.3): NodeLabelsInfo, one
  // nodeLabelInfo {name, exclusivity} per cluster label.
  HttpResponse ClusterNodeLabels(const HttpRequest& request) const {
    auto labels = deps_.core->ClusterNodeLabels();
    if (!labels.ok()) {
      return RenderError(request, RestError::Of("java.io.IOException", labels.status().message()));
    }
    std::vector<RestNode> items;
    for (const rm::ClusterNodeLabel& label : *labels) {
      RestNode item;
      item.Str("name", label.name).Bool("exclusivity", label.exclusive);
      items.push_back(std::move(item));
    }
    RestNode body;
    body.Items("nodeLabelInfo", std::move(items));
    return RenderDocument(request, RestDocument("nodeLabelsInfo", std::move(body)));
  }

  HttpResponse Node(const HttpRequest& request) const {
    const std::string text = request.PathParam("nodeid");
    // NodeId.fromString.
    size_t colon = text.find(':');
    if (colon == std::string::npos || text.find(':', colon + 1) != std::string::npos) {
      return RenderError(
          request, RestError::IllegalArgument("Invalid NodeId [" + text + "]. Expected host:port"));
    }
    int64_t port = 0;
    const std::string port_text = text.substr(colon + 1);
    if (!ParseJavaLong(port_text, &port) || port < std::numeric_limits<int32_t>::min() ||
        port > std::numeric_limits<int32_t>::max()) {
      return RenderError(request, RestError::IllegalArgument("Invalid port: " + port_text));
    }
    rm::NodeId id{std::string(TrimBlanks(text.substr(0, colon))), static_cast<int32_t>(port)};
    auto node = deps_.core->NodeReportOf(id);
    if (!node.has_value()) {
      return RenderError(request, RestError::NotFound("nodeId, " + text + ", is not found"));
    }
    return RenderDocument(request, RestDocument("node", NodeInfoNode(*node, node->num_containers)));
  }

  HttpResponse AppStatistics(const HttpRequest& request) const {
    RestError error;
    auto states = ParseAppStates(request.QueryAll("states"), &error);
    if (!states.has_value()) return RenderError(request, error);
    std::set<std::string> types;
    for (const auto& type : SplitQueries(request.QueryAll("applicationTypes"))) {
      types.insert(LowerAscii(type));
    }
    if (types.size() > 1) {
      return RenderError(
          request, RestError::BadRequest("# of applicationTypes = " + std::to_string(types.size()) +
                                         ", we temporarily support at most one applicationType"));
    }
    const std::string type = types.empty() ? "*" : *types.begin();
    return RenderDocument(request,
                          AppStatisticsDocument(deps_.core->ApplicationReports(), *states, type));
  }

 private:
  static std::string LoginUser() {
    if (const struct passwd* pw = getpwuid(geteuid()); pw != nullptr) return pw->pw_name;
    return "";
  }

  static std::optional<rm::NodeState> NodeStateOf(const std::string& name) {
    for (int i = 1; i <= 8; ++i) {
      const auto state = static_cast<rm::NodeState>(i);
      if (rm::Name(state) == name) return state;
    }
    return std::nullopt;
  }

  // WebAppUtils.parseApplicationId, then the app (RMWebServices).
  std::optional<rm::RmApp> FindApp(const HttpRequest& request, RestError* error) const {
    return FindAppParam(*deps_.core, request.PathParam("appid"), error);
  }

  // DeSelectFields.initFields.
  static std::optional<DeSelects> ParseDeSelects(const std::vector<std::string>& values,
                                                 RestError* error) {
    DeSelects out;
    for (const auto& literal : SplitQueries(values)) {
      const std::string l = LowerAscii(literal);
      if (l == "resourcerequests") {
        out.resource_requests = true;
      } else if (l == "timeouts") {
        out.timeouts = true;
      } else if (l == "appnodelabelexpression") {
        out.app_node_label_expression = true;
      } else if (l == "amnodelabelexpression") {
        out.am_node_label_expression = true;
      } else if (l == "resourceinfo") {
        out.resource_info = true;
      } else {
        *error = RestError::BadRequest(
            "Invalid deSelects string " + literal +
            " specified. It should be one of [RESOURCE_REQUESTS, TIMEOUTS, "
            "APP_NODE_LABEL_EXPRESSION, AM_NODE_LABEL_EXPRESSION, RESOURCE_INFO]");
        return std::nullopt;
      }
    }
    return out;
  }

  // ApplicationsRequestBuilder: parse, validate, build, in its order.
  Result<y::GetApplicationsRequestProto> AppsRequest(const HttpRequest& request,
                                                     RestError* error) const {
    auto fail = [&](RestError e) -> Status {
      *error = std::move(e);
      return Status::InvalidArgument(error->message.value_or(""));
    };
    auto number = [&](const char* param, int64_t fallback, int64_t* out) -> Status {
      *out = fallback;
      const std::string value = request.Query(param).value_or("");
      if (value.empty()) return Status::OK();
      if (!ParseJavaLong(value, out)) {
        return fail(RestError::BadRequest(std::string(param) + " value must be a number!"));
      }
      return Status::OK();
    };
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    int64_t started_begin, started_end, finished_begin, finished_end;
    if (Status s = number("startedTimeBegin", 0, &started_begin); !s.ok()) return s;
    if (Status s = number("startedTimeEnd", kMax, &started_end); !s.ok()) return s;
    if (Status s = number("finishedTimeBegin", 0, &finished_begin); !s.ok()) return s;
    if (Status s = number("finishedTimeEnd", kMax, &finished_end); !s.ok()) return s;

    const std::string queue = request.Query("queue").value_or("");
    if (!queue.empty() && deps_.core->QueueReport()->Find(queue) == nullptr) {
      return fail(RestError::BadRequest("Unknown queue: " + queue));
    }
    const std::string limit_text = request.Query("limit").value_or("");
    int64_t limit = 0;
    if (!limit_text.empty()) {
      if (!ParseJavaLong(limit_text, &limit)) {
        return fail(RestError::BadRequest("limit value must be a number!"));
      }
      if (limit <= 0) return fail(RestError::BadRequest("limit value must be greater then 0"));
    }
    if (started_begin < 0) {
      return fail(RestError::BadRequest("startedTimeBegin must be greater than 0"));
    }
    if (started_end < 0)
      return fail(RestError::BadRequest("startedTimeEnd must be greater than 0"));
    if (started_begin > started_end) {
      return fail(RestError::BadRequest("startedTimeEnd must be greater than startTimeBegin"));
    }
    if (finished_begin < 0) {
      return fail(RestError::BadRequest("finishTimeBegin must be greater than 0"));
    }
    if (finished_end < 0)
      return fail(RestError::BadRequest("finishTimeEnd must be greater than 0"));
    if (finished_begin > finished_end) {
      return fail(RestError::BadRequest("finishTimeEnd must be greater than finishTimeBegin"));
    }
    std::vector<std::string> state_values = request.QueryAll("states");
    if (auto state = request.Query("state"); state.has_value() && !state->empty()) {
      state_values.push_back(*state);
    }
    const std::optional<std::set<std::string>> states = ParseAppStates(state_values, error);
    if (!states.has_value()) return Status::InvalidArgument(error->message.value_or(""));

    y::GetApplicationsRequestProto out;
    for (const auto& state : *states) {
      out.add_application_states(
          static_cast<y::YarnApplicationStateProto>(*YarnAppStateNumber(state)));
    }
    if (auto user = request.Query("user"); user.has_value() && !user->empty()) out.add_users(*user);
    if (!queue.empty()) out.add_queues(queue);
    if (!limit_text.empty()) out.set_limit(limit);
    out.set_start_begin(started_begin);
    out.set_start_end(started_end);
    out.set_finish_begin(finished_begin);
    out.set_finish_end(finished_end);
    for (const auto& type : SplitQueries(request.QueryAll("applicationTypes"))) {
      out.add_application_types(LowerAscii(type));
    }
    for (const auto& tag : SplitQueries(request.QueryAll("applicationTags"))) {
      out.add_applicationtags(LowerAscii(tag));
    }
    if (auto name = request.Query("name"); name.has_value()) out.set_name(*name);
    out.set_scope(y::ALL);
    return out;
  }

  const WebCallerOptions options_;
  const ClusterWebDeps deps_;
};

}  // namespace

void AddClusterReadRoutes(Router* router, const WebCallerOptions& callers,
                          const ClusterWebDeps& deps) {
  auto handlers = std::make_shared<const Handlers>(callers, deps);
  auto add = [&](const std::string& path,
                 HttpResponse (Handlers::*method)(const HttpRequest&) const) {
    router->Add(HttpMethod::kGet, path, [handlers, method](const HttpRequest& request) {
      return ((*handlers).*method)(request);
    });
  };
  add("/ws/v1/cluster", &Handlers::ClusterInfo);
  add("/ws/v1/cluster/info", &Handlers::ClusterInfo);
  add("/ws/v1/cluster/metrics", &Handlers::Metrics);
  add("/ws/v1/cluster/scheduler", &Handlers::Scheduler);
  add("/ws/v1/cluster/userinfo", &Handlers::UserInfo);
  add("/ws/v1/cluster/apps", &Handlers::Apps);
  add("/ws/v1/cluster/apps/{appid}", &Handlers::App);
  add("/ws/v1/cluster/apps/{appid}/appattempts", &Handlers::AppAttempts);
  add("/ws/v1/cluster/apps/{appid}/state", &Handlers::AppState);
  add("/ws/v1/cluster/nodes", &Handlers::Nodes);
  add("/ws/v1/cluster/nodes/{nodeid}", &Handlers::Node);
  add("/ws/v1/cluster/get-node-labels", &Handlers::ClusterNodeLabels);
  add("/ws/v1/cluster/appstatistics", &Handlers::AppStatistics);
}

}  // namespace spindle::web::rest
