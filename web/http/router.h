// Router: maps (method, path) to a handler. Patterns are literal segments
// and "{name}" segments that match one non-empty segment and land in
// HttpRequest::path_params ("/ws/v1/cluster/apps/{appid}/state"). A pattern
// ending in "/*" matches its prefix and anything below it (static assets);
// the rest lands in path_params["*"]. Literal segments win over "{name}",
// which wins over "/*"; a trailing slash on the request is ignored.
//
// An unknown path answers the not-found handler (default: 404 text); a
// known path with another method answers 405 with an Allow header. HEAD is
// served by the GET handler when no HEAD route exists (the server drops the
// body); OPTIONS on a known path without an OPTIONS route answers 200 with an
// empty body and the Allow header (the HTTP authentication handshake of
// Hadoop's clients starts with it).
//
// Thread-safety: Add() before serving; Dispatch() is const and may run on
// many threads.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "web/http/http_message.h"

namespace spindle::web {

class Router {
 public:
  Router();
  ~Router();
  Router(const Router&) = delete;
  Router& operator=(const Router&) = delete;

  // Registers `handler` for `method` on `pattern`. CHECK-fails on a
  // malformed pattern or a duplicate (method, pattern): both are bugs.
  void Add(HttpMethod method, const std::string& pattern, HttpHandler handler);
  // Answers paths no route matches.
  void SetNotFound(HttpHandler handler);

  HttpResponse Dispatch(const HttpRequest& request) const;

 private:
  struct Node;
  std::unique_ptr<Node> root_;
  HttpHandler not_found_;
};

}  // namespace spindle::web
