#include "web/ui/ui_routes.h"

#include <glog/logging.h>

#include <string>
#include <string_view>

#include "web/ui/pool_endpoint.h"

namespace spindle::web {

namespace {

constexpr const char* kImmutable = "public, max-age=31536000, immutable";
constexpr const char* kRevalidate = "no-cache";

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// True if the If-None-Match value (a comma-separated list of entity tags, or
// "*") names `etag`. Weak comparison, as RFC 9110 asks for If-None-Match.
bool Matches(std::string_view if_none_match, std::string_view etag) {
  size_t start = 0;
  while (start <= if_none_match.size()) {
    size_t comma = if_none_match.find(',', start);
    if (comma == std::string_view::npos) comma = if_none_match.size();
    std::string_view tag = Trim(if_none_match.substr(start, comma - start));
    if (tag == "*") return true;
    if (tag.substr(0, 2) == "W/") tag.remove_prefix(2);
    if (!tag.empty() && tag == etag) return true;
    start = comma + 1;
  }
  return false;
}

HttpResponse Serve(const ui::EmbeddedAsset& asset, const HttpRequest& request) {
  HttpResponse response;
  response.headers.emplace_back("ETag", asset.etag);
  response.headers.emplace_back("Cache-Control", asset.hashed ? kImmutable : kRevalidate);
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  const std::string if_none_match = request.Header("If-None-Match");
  if (!if_none_match.empty() && Matches(if_none_match, asset.etag)) {
    response.status = 304;
    response.content_type = asset.content_type;
    response.body.clear();
    return response;
  }
  response.status = 200;
  response.content_type = asset.content_type;
  response.body.assign(reinterpret_cast<const char*>(asset.data), asset.size);
  return response;
}

const ui::EmbeddedAsset* Find(std::span<const ui::EmbeddedAsset> assets, std::string_view path) {
  for (const ui::EmbeddedAsset& asset : assets) {
    if (path == asset.path) return &asset;
  }
  return nullptr;
}

}  // namespace

void AddAssetRoutes(Router* router, std::span<const ui::EmbeddedAsset> assets) {
  const ui::EmbeddedAsset* index = Find(assets, "/index.html");
  CHECK(index != nullptr) << "the UI's assets have no /index.html";
  HttpHandler app = [index](const HttpRequest& request) { return Serve(*index, request); };
  router->Add(HttpMethod::kGet, "/", app);
  router->Add(HttpMethod::kGet, "/cluster", app);
  router->Add(HttpMethod::kGet, "/cluster/*", app);
  router->Add(HttpMethod::kGet, "/static/*", [assets](const HttpRequest& request) {
    const std::string path = "/static/" + request.PathParam("*");
    const ui::EmbeddedAsset* asset = Find(assets, path);
    if (asset == nullptr) return HttpResponse::Text(404, "Not found: " + request.path + "\n");
    return Serve(*asset, request);
  });
}

void AddUiRoutes(Router* router, const UiDeps& deps) {
  AddAssetRoutes(router, ui::EmbeddedAssets());
  if (deps.core != nullptr) {
    const rm::ClientFacade* core = deps.core;
    router->Add(HttpMethod::kGet, "/ws/v1/spindle/pool",
                [core](const HttpRequest& request) { return ServePool(request, *core); });
  }
}

}  // namespace spindle::web
