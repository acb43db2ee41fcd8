#include "web/metrics/jmx_servlet.h"

#include "base/json/json_writer.h"
#include "web/metrics/object_name.h"

namespace spindle::web {
namespace {

void WriteValue(json::JsonWriter* w, const BeanAttribute& a) {
  std::visit(
      [w](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, int64_t>) {
          w->Int(v);
        } else if constexpr (std::is_same_v<T, double>) {
          w->Num(v);
        } else if constexpr (std::is_same_v<T, bool>) {
          w->Bool(v);
        } else {
          w->Str(v);
        }
      },
      a.value);
}

bool Listable(const std::string& name) {
  return name != "modelerType" && name.find_first_of("=: ") == std::string::npos;
}

bool ValidCallback(const std::string& name) {
  if (name.empty() || name.size() > 128) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '$') {
      return false;
    }
  }
  return true;
}

// Java's String.split("::"): trailing empty parts are dropped.
std::vector<std::string> SplitColons(const std::string& s) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t at = s.find("::", start);
    if (at == std::string::npos) {
      parts.push_back(s.substr(start));
      break;
    }
    parts.push_back(s.substr(start, at - start));
    start = at + 2;
  }
  while (!parts.empty() && parts.back().empty()) parts.pop_back();
  return parts;
}

}  // namespace

HttpResponse HandleJmx(const HttpRequest& request, const std::vector<Bean>& beans) {
  const std::optional<std::string> callback = request.Query("callback");
  if (callback.has_value() && !ValidCallback(*callback)) {
    return HttpResponse::Text(400, "Bad callback name");
  }
  auto respond = [&](int status, std::string json) {
    HttpResponse response;
    response.status = status;
    if (callback.has_value()) {
      response.content_type = "application/javascript; charset=utf8";
      response.body = *callback + "(" + json + ");";
    } else {
      response.content_type = "application/json; charset=utf8";
      response.body = std::move(json);
    }
    response.headers.emplace_back("Access-Control-Allow-Methods", "GET");
    response.headers.emplace_back("Access-Control-Allow-Origin", "*");
    return response;
  };

  std::string query = "*:*";
  std::optional<std::string> attribute;
  if (auto get = request.Query("get")) {
    const std::vector<std::string> parts = SplitColons(*get);
    if (parts.size() != 2) {
      json::JsonWriter w;
      w.BeginObject();
      w.Field("result", "ERROR");
      w.Field("message", "query format is not as expected.");
      w.EndObject();
      return respond(400, w.Take());
    }
    query = parts[0];
    attribute = parts[1];
  } else if (auto qry = request.Query("qry")) {
    query = *qry;
  }
  auto pattern = ObjectName::Parse(query);
  // MalformedObjectNameException: Hadoop answers 400 after an opened object.
  if (!pattern.ok()) return respond(400, "{}");

  json::JsonWriter w;
  w.BeginObject();
  w.Key("beans");
  w.BeginArray();
  for (const Bean& bean : beans) {
    auto name = ObjectName::Parse(bean.name);
    if (!name.ok() || !pattern->Matches(*name)) continue;
    w.BeginObject();
    w.Field("name", bean.name);
    w.Field("modelerType", bean.modeler_type);
    if (attribute.has_value()) {
      const BeanAttribute* found = nullptr;
      for (const BeanAttribute& a : bean.attributes) {
        if (a.name == *attribute) found = &a;
      }
      if (found == nullptr) {
        w.Field("result", "ERROR");
        w.Field("message", "No attribute with name " + *attribute + " was found.");
        w.EndObject();
        w.EndArray();
        w.EndObject();
        return respond(404, w.Take());
      }
      w.Key(found->name);
      WriteValue(&w, *found);
    } else {
      for (const BeanAttribute& a : bean.attributes) {
        if (!Listable(a.name)) continue;
        w.Key(a.name);
        WriteValue(&w, a);
      }
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return respond(200, w.Take());
}

}  // namespace spindle::web
