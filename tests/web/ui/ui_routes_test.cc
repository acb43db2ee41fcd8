#include "web/ui/ui_routes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace spindle::web {
namespace {

const unsigned char kIndex[] = "<!doctype html><title>ui</title>";
const unsigned char kJs[] = "console.log(1)";
const unsigned char kCss[] = "body{}";
const ui::EmbeddedAsset kAssets[] = {
    {"/index.html", "text/html; charset=utf-8", "\"idx1\"", kIndex, sizeof(kIndex) - 1, false},
    {"/static/main-ABCD2345.css", "text/css; charset=utf-8", "\"css1\"", kCss, sizeof(kCss) - 1,
     true},
    {"/static/main-ABCD2345.js", "text/javascript; charset=utf-8", "\"js1\"", kJs, sizeof(kJs) - 1,
     true},
};

HttpRequest Get(const std::string& path,
                std::vector<std::pair<std::string, std::string>> headers = {}) {
  HttpRequest request;
  request.method = HttpMethod::kGet;
  request.path = path;
  request.headers = std::move(headers);
  return request;
}

std::string HeaderOf(const HttpResponse& response, const std::string& name) {
  for (const auto& [k, v] : response.headers) {
    if (k == name) return v;
  }
  return "";
}

class AssetRoutesTest : public ::testing::Test {
 protected:
  AssetRoutesTest() { AddAssetRoutes(&router_, kAssets); }
  Router router_;
};

TEST_F(AssetRoutesTest, ServesFilesWithTheirContentTypesAndLongCacheForHashedNames) {
  HttpResponse js = router_.Dispatch(Get("/static/main-ABCD2345.js"));
  EXPECT_EQ(js.status, 200);
  EXPECT_EQ(js.content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(js.body, "console.log(1)");
  EXPECT_EQ(HeaderOf(js, "ETag"), "\"js1\"");
  EXPECT_EQ(HeaderOf(js, "Cache-Control"), "public, max-age=31536000, immutable");

  HttpResponse css = router_.Dispatch(Get("/static/main-ABCD2345.css"));
  EXPECT_EQ(css.status, 200);
  EXPECT_EQ(css.content_type, "text/css; charset=utf-8");
  EXPECT_EQ(css.body, "body{}");
}

TEST_F(AssetRoutesTest, SpaPathsServeIndexHtmlWhichIsRevalidated) {
  for (const char* path : {"/", "/cluster", "/cluster/", "/cluster/apps", "/cluster/nodes",
                           "/cluster/scheduler", "/cluster/app/application_1_0001"}) {
    SCOPED_TRACE(path);
    HttpResponse r = router_.Dispatch(Get(path));
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.content_type, "text/html; charset=utf-8");
    EXPECT_EQ(r.body, "<!doctype html><title>ui</title>");
    EXPECT_EQ(HeaderOf(r, "ETag"), "\"idx1\"");
    EXPECT_EQ(HeaderOf(r, "Cache-Control"), "no-cache");
  }
}

TEST_F(AssetRoutesTest, IfNoneMatchGivesNotModifiedWithoutABody) {
  for (const char* tag : {"\"js1\"", "W/\"js1\"", "\"other\", \"js1\"", "*"}) {
    SCOPED_TRACE(tag);
    HttpResponse r = router_.Dispatch(Get("/static/main-ABCD2345.js", {{"if-none-match", tag}}));
    EXPECT_EQ(r.status, 304);
    EXPECT_TRUE(r.body.empty());
    EXPECT_EQ(HeaderOf(r, "ETag"), "\"js1\"");
  }
  HttpResponse stale =
      router_.Dispatch(Get("/static/main-ABCD2345.js", {{"If-None-Match", "\"js0\""}}));
  EXPECT_EQ(stale.status, 200);
  EXPECT_EQ(stale.body, "console.log(1)");
  HttpResponse index = router_.Dispatch(Get("/cluster/apps", {{"If-None-Match", "\"idx1\""}}));
  EXPECT_EQ(index.status, 304);
  EXPECT_TRUE(index.body.empty());
}

TEST_F(AssetRoutesTest, UnknownStaticFilesAreNotFound) {
  for (const char* path : {"/static/main-ZZZZ9999.js", "/static/", "/static/index.html",
                           "/static/../index.html", "/static/main-ABCD2345.js/x"}) {
    SCOPED_TRACE(path);
    EXPECT_EQ(router_.Dispatch(Get(path)).status, 404);
  }
  EXPECT_EQ(router_.Dispatch(Get("/nothing")).status, 404);
}

TEST_F(AssetRoutesTest, OtherMethodsAreNotAllowed) {
  HttpRequest post = Get("/static/main-ABCD2345.js");
  post.method = HttpMethod::kPost;
  EXPECT_EQ(router_.Dispatch(post).status, 405);
  HttpRequest head = Get("/cluster");
  head.method = HttpMethod::kHead;
  EXPECT_EQ(router_.Dispatch(head).status, 200);
}

// The real build: index.html names a script and a stylesheet that are
// embedded under hashed names, with the right types.
TEST(EmbeddedUiTest, IndexReferencesEmbeddedHashedAssets) {
  Router router;
  AddUiRoutes(&router, UiDeps{});
  HttpResponse index = router.Dispatch(Get("/cluster"));
  ASSERT_EQ(index.status, 200);
  EXPECT_EQ(index.content_type, "text/html; charset=utf-8");
  int scripts = 0;
  int styles = 0;
  for (const ui::EmbeddedAsset& asset : ui::EmbeddedAssets()) {
    const std::string path = asset.path;
    if (path == "/index.html") continue;
    EXPECT_TRUE(asset.hashed) << path;
    EXPECT_NE(index.body.find("\"" + path + "\""), std::string::npos) << path;
    HttpResponse r = router.Dispatch(Get(path));
    EXPECT_EQ(r.status, 200) << path;
    EXPECT_EQ(r.body.size(), asset.size);
    if (path.ends_with(".js")) {
      ++scripts;
      EXPECT_EQ(r.content_type, "text/javascript; charset=utf-8");
    } else if (path.ends_with(".css")) {
      ++styles;
      EXPECT_EQ(r.content_type, "text/css; charset=utf-8");
    }
  }
  EXPECT_EQ(scripts, 1);
  EXPECT_EQ(styles, 1);
  // No pool: no pool route.
  EXPECT_EQ(router.Dispatch(Get("/ws/v1/spindle/pool")).status, 404);
  // Nothing is loaded from another host (the UI must work offline).
  EXPECT_EQ(index.body.find("http://"), std::string::npos);
  EXPECT_EQ(index.body.find("https://"), std::string::npos);
}

}  // namespace
}  // namespace spindle::web
