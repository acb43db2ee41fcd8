// /conf as Hadoop's ConfServlet: the daemon's configuration.
//   XML by default: <configuration><property><name/><value/><final/>
//     <source/></property>...</configuration> (values as written, like
//     Configuration.writeXml);
//   JSON when ?format=json, or without ?format when the Accept header
//     contains "json": {"properties":[{"key","value","isFinal","resource"}]}
//     (values expanded, like Configuration.dumpConfiguration);
//   ?format=<other> -> 400 "Bad format: <other>";
//   ?name=<key>: that property alone ({"property":{...}} in JSON); an unset
//     key -> 404 "Property <key> not found".
// Values of keys matching any regex of hadoop.security.sensitive-config-keys
// (default: Hadoop 3's list) are replaced by "<redacted>", as ConfigRedactor
// does (a regex that does not compile is ignored).
//
// Thread-safety: reads the Configuration's const methods.
#pragma once

#include <string>
#include <vector>

#include "rm/config/configuration.h"
#include "web/http/http_message.h"

namespace spindle::web {

// hadoop.security.sensitive-config-keys' default (Hadoop 3.4).
extern const char kDefaultSensitiveConfigKeys[];

// The regexes of `conf` (or the default), and whether `key` matches one.
class ConfigRedactor {
 public:
  explicit ConfigRedactor(const rm::Configuration& conf);
  ~ConfigRedactor();
  bool IsSensitive(const std::string& key) const;
  std::string Redact(const std::string& key, const std::string& value) const;

 private:
  struct Patterns;
  std::unique_ptr<Patterns> patterns_;
};

HttpResponse HandleConf(const HttpRequest& request, const rm::Configuration& conf);

}  // namespace spindle::web
