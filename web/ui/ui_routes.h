// The RM's web UI over HTTP: the single-page app's files (embedded at build
// time, embedded_assets.h) and the Spindle-specific pool endpoint its charts
// read.
//
//   GET /, /cluster, /cluster/*   index.html (the app routes in the browser)
//   GET /static/*                 the built JS/CSS; 404 for an unknown file
//   GET /ws/v1/spindle/pool       pool_endpoint.h (when UiDeps::core is set)
//
// Every file answer carries a strong ETag; a request whose If-None-Match
// names it gets 304 with no body. Files whose names carry a content hash are
// cacheable for a year (immutable); index.html must be revalidated
// (no-cache), so a new build is picked up at the next load.
//
// Thread-safety: the handlers are stateless over immutable data (and the
// core's thread-safe PoolStatus()); they may run on many threads.
#pragma once

#include <span>

#include "rm/core/client_facade.h"
#include "web/http/router.h"
#include "web/ui/embedded_assets.h"

namespace spindle::web {

struct UiDeps {
  // The RM core, whose PoolStatus() the pool endpoint reports; null: no
  // /ws/v1/spindle/pool route. Must outlive the router.
  const rm::ClientFacade* core = nullptr;
};

// Adds the UI's routes (the embedded build) to `router`.
void AddUiRoutes(Router* router, const UiDeps& deps);

// The same file routes over any set of assets (tests use their own). The
// set must contain "/index.html" and outlive the router.
void AddAssetRoutes(Router* router, std::span<const ui::EmbeddedAsset> assets);

}  // namespace spindle::web
