#include "web/http/router.h"

#include <glog/logging.h>

#include <map>

namespace spindle::web {

namespace {

std::vector<std::string> Segments(const std::string& path) {
  std::vector<std::string> segments;
  size_t start = 0;
  while (start < path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    if (slash > start) segments.push_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return segments;
}

std::string Allow(const std::map<HttpMethod, HttpHandler>& handlers) {
  std::string allow;
  bool get = false;
  bool head = false;
  for (const auto& [method, handler] : handlers) {
    if (!allow.empty()) allow += ", ";
    allow += MethodName(method);
    get = get || method == HttpMethod::kGet;
    head = head || method == HttpMethod::kHead;
  }
  if (get && !head) allow += ", HEAD";
  return allow;
}

}  // namespace

struct Router::Node {
  std::map<std::string, std::unique_ptr<Node>> literal;
  std::unique_ptr<Node> param;
  std::string param_name;
  // Handlers of the route ending here, and of a "/*" route rooted here.
  std::map<HttpMethod, HttpHandler> handlers;
  std::map<HttpMethod, HttpHandler> subtree;
};

Router::Router()
    : root_(std::make_unique<Node>()), not_found_([](const HttpRequest& request) {
        return HttpResponse::Text(404, "Not found: " + request.path + "\n");
      }) {}

Router::~Router() = default;

void Router::Add(HttpMethod method, const std::string& pattern, HttpHandler handler) {
  CHECK(!pattern.empty() && pattern[0] == '/') << "route pattern must start with '/': " << pattern;
  std::vector<std::string> segments = Segments(pattern);
  const bool subtree = !segments.empty() && segments.back() == "*";
  if (subtree) segments.pop_back();
  Node* node = root_.get();
  for (const std::string& segment : segments) {
    CHECK(segment != "*") << "'*' must end a route pattern: " << pattern;
    if (segment.size() > 2 && segment.front() == '{' && segment.back() == '}') {
      const std::string name = segment.substr(1, segment.size() - 2);
      if (node->param == nullptr) {
        node->param = std::make_unique<Node>();
        node->param_name = name;
      }
      CHECK_EQ(node->param_name, name) << "two names for one path parameter: " << pattern;
      node = node->param.get();
    } else {
      auto& child = node->literal[segment];
      if (child == nullptr) child = std::make_unique<Node>();
      node = child.get();
    }
  }
  auto& handlers = subtree ? node->subtree : node->handlers;
  CHECK(handlers.emplace(method, std::move(handler)).second)
      << "route registered twice: " << MethodName(method) << " " << pattern;
}

void Router::SetNotFound(HttpHandler handler) { not_found_ = std::move(handler); }

HttpResponse Router::Dispatch(const HttpRequest& request) const {
  const std::vector<std::string> segments = Segments(request.path);
  std::map<std::string, std::string> params;
  // The deepest "/*" route passed on the way, and where its rest starts.
  const Node* subtree = nullptr;
  size_t subtree_at = 0;
  std::map<std::string, std::string> subtree_params;
  const Node* node = root_.get();
  size_t i = 0;
  for (; node != nullptr; ++i) {
    if (!node->subtree.empty()) {
      subtree = node;
      subtree_at = i;
      subtree_params = params;
    }
    if (i == segments.size()) break;
    auto literal = node->literal.find(segments[i]);
    if (literal != node->literal.end()) {
      node = literal->second.get();
    } else if (node->param != nullptr) {
      params[node->param_name] = segments[i];
      node = node->param.get();
    } else {
      node = nullptr;
    }
  }
  const std::map<HttpMethod, HttpHandler>* handlers = nullptr;
  if (node != nullptr && !node->handlers.empty()) {
    handlers = &node->handlers;
  } else if (subtree != nullptr) {
    handlers = &subtree->subtree;
    params = std::move(subtree_params);
    std::string rest;
    for (size_t k = subtree_at; k < segments.size(); ++k) {
      if (!rest.empty()) rest += '/';
      rest += segments[k];
    }
    params["*"] = std::move(rest);
  }
  if (handlers == nullptr) return not_found_(request);
  auto it = handlers->find(request.method);
  if (it == handlers->end() && request.method == HttpMethod::kHead) {
    it = handlers->find(HttpMethod::kGet);
  }
  if (it == handlers->end() && request.method == HttpMethod::kOptions) {
    // What the Java RM's servlets and Jersey resources answer: 200 with the
    // methods in Allow. hadoop-auth's KerberosAuthenticator and
    // PseudoAuthenticator open their handshake with OPTIONS and go on only
    // on 200/201/202 (AuthenticatedURL.extractToken): `yarn top` does.
    HttpResponse response = HttpResponse::Text(200, "");
    response.headers.emplace_back("Allow", Allow(*handlers) + ", OPTIONS");
    return response;
  }
  if (it == handlers->end()) {
    HttpResponse response =
        HttpResponse::Text(405, std::string("Method ") + MethodName(request.method) +
                                    " not allowed on " + request.path + "\n");
    response.headers.emplace_back("Allow", Allow(*handlers));
    return response;
  }
  HttpRequest routed = request;
  routed.path_params = std::move(params);
  return it->second(routed);
}

}  // namespace spindle::web
