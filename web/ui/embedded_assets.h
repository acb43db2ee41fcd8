// The UI's built files, embedded in the binary at build time (the CMake step
// in web/ui/CMakeLists.txt runs npm ci, build.mjs and embed.mjs, which
// generates the definition of EmbeddedAssets()).
//
// Thread-safety: immutable data.
#pragma once

#include <cstddef>
#include <span>

namespace spindle::web::ui {

struct EmbeddedAsset {
  const char* path;          // URL path: "/index.html", "/static/main-ABCD1234.js"
  const char* content_type;  // "text/javascript; charset=utf-8"
  const char* etag;          // strong ETag, quoted: "\"0123abcd...\""
  const unsigned char* data;
  size_t size;
  bool hashed;  // the name carries a content hash: cacheable for ever
};

// Every embedded file, sorted by path.
std::span<const EmbeddedAsset> EmbeddedAssets();

}  // namespace spindle::web::ui
