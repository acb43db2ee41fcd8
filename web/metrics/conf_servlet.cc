#include "web/metrics/conf_servlet.h"

#include <glog/logging.h>

#include <memory>
#include <regex>

#include "base/json/json_writer.h"
#include "base/markup_escape.h"
#include "base/strings/trim.h"

namespace spindle::web {

const char kDefaultSensitiveConfigKeys[] =
    "secret$,password$,username$,ssl.keystore.pass$,fs.s3.*[Ss]ecret.?[Kk]ey,"
    "fs.s3a.*.server-side-encryption.key,fs.s3a.encryption.algorithm,fs.s3a.encryption.key,"
    "fs.azure\\.account.key.*,credential$,oauth.*secret,oauth.*password,oauth.*token,"
    "hadoop.security.sensitive-config-keys";

namespace {

constexpr char kRedacted[] = "<redacted>";

std::vector<std::string> SplitTrimmed(const std::string& list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    const std::string_view part = TrimBlanks(std::string_view(list).substr(start, comma - start));
    if (!part.empty()) out.emplace_back(part);
    start = comma + 1;
  }
  return out;
}

}  // namespace

struct ConfigRedactor::Patterns {
  std::vector<std::regex> regexes;
};

ConfigRedactor::ConfigRedactor(const rm::Configuration& conf)
    : patterns_(std::make_unique<Patterns>()) {
  const std::string list =
      conf.Get("hadoop.security.sensitive-config-keys", kDefaultSensitiveConfigKeys);
  for (const std::string& regex : SplitTrimmed(list)) {
    try {
      patterns_->regexes.emplace_back(regex, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      LOG(WARNING) << "hadoop.security.sensitive-config-keys: ignoring bad regex '" << regex
                   << "': " << e.what();
    }
  }
}

ConfigRedactor::~ConfigRedactor() = default;

bool ConfigRedactor::IsSensitive(const std::string& key) const {
  for (const std::regex& r : patterns_->regexes) {
    if (std::regex_search(key, r)) return true;
  }
  return false;
}

std::string ConfigRedactor::Redact(const std::string& key, const std::string& value) const {
  return IsSensitive(key) ? kRedacted : value;
}

HttpResponse HandleConf(const HttpRequest& request, const rm::Configuration& conf) {
  std::string format;
  if (auto f = request.Query("format")) {
    format = *f;
  } else {
    format = request.Header("Accept").find("json") != std::string::npos ? "json" : "xml";
  }
  if (format != "json" && format != "xml") {
    return HttpResponse::Text(400, "Bad format: " + format);
  }
  std::vector<std::string> keys;
  const std::optional<std::string> name = request.Query("name");
  if (name.has_value()) {
    if (!conf.GetRaw(*name).has_value()) {
      return HttpResponse::Text(404, "Property " + *name + " not found");
    }
    keys.push_back(*name);
  } else {
    keys = conf.Keys();
  }
  const ConfigRedactor redactor(conf);
  if (format == "json") {
    json::JsonWriter w;
    w.BeginObject();
    auto property = [&](const std::string& key) {
      w.BeginObject();
      w.Field("key", key);
      w.Field("value", redactor.Redact(key, conf.Get(key).value_or("")));
      w.Field("isFinal", conf.IsFinal(key));
      w.Field("resource", conf.SourceOf(key));
      w.EndObject();
    };
    if (name.has_value()) {
      w.Key("property");
      property(keys.front());
    } else {
      w.Key("properties");
      w.BeginArray();
      for (const std::string& key : keys) property(key);
      w.EndArray();
    }
    w.EndObject();
    HttpResponse response = HttpResponse::Json(200, w.Take());
    response.content_type = "application/json; charset=utf-8";
    return response;
  }
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?><configuration>";
  for (const std::string& key : keys) {
    xml += "<property><name>" + EscapeMarkup(key, MarkupEscape::kAttribute) + "</name><value>" +
           EscapeMarkup(redactor.Redact(key, conf.GetRaw(key).value_or("")),
                        MarkupEscape::kAttribute) +
           "</value><final>" + (conf.IsFinal(key) ? "true" : "false") + "</final><source>" +
           EscapeMarkup(conf.SourceOf(key), MarkupEscape::kAttribute) + "</source></property>";
  }
  xml += "</configuration>";
  HttpResponse response = HttpResponse::Xml(200, std::move(xml));
  response.content_type = "text/xml; charset=utf-8";
  return response;
}

}  // namespace spindle::web
