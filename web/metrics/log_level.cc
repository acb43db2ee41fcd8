#include "web/metrics/log_level.h"

#include <glog/logging.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>
#include <optional>

namespace spindle::web {
namespace {

constexpr char kMarker[] = "<!-- OUTPUT -->";

std::mutex& LevelMutex() {
  static std::mutex mu;
  return mu;
}

// Module levels set through this page (glog has no getter without setting).
std::map<std::string, int>& ModuleLevels() {
  static std::map<std::string, int> levels;
  return levels;
}

std::string HtmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

struct GlobalLevel {
  int minloglevel;
  int v;
};

std::optional<GlobalLevel> ParseLevel(std::string level) {
  std::transform(level.begin(), level.end(), level.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (level == "OFF" || level == "FATAL") return GlobalLevel{3, 0};
  if (level == "ERROR") return GlobalLevel{2, 0};
  if (level == "WARN") return GlobalLevel{1, 0};
  if (level == "INFO") return GlobalLevel{0, 0};
  if (level == "DEBUG") return GlobalLevel{0, 1};
  if (level == "TRACE" || level == "ALL") return GlobalLevel{0, 2};
  return std::nullopt;
}

std::string GlobalName(int minloglevel, int v) {
  if (v >= 2) return "TRACE";
  if (v == 1) return "DEBUG";
  switch (minloglevel) {
    case 0:
      return "INFO";
    case 1:
      return "WARN";
    case 2:
      return "ERROR";
    default:
      return "FATAL";
  }
}

bool IsGlobal(const std::string& name) {
  return name.empty() || name == "root" || name.find('.') != std::string::npos;
}

constexpr char kForms[] =
    "\n<br /><hr /><h3>Get / Set</h3>"
    "\n<form>Class Name: <input type='text' size='50' name='log' /> "
    "<input type='submit' value='Get Log Level' /></form>"
    "\n<form>Class Name: <input type='text' size='50' name='log' /> "
    "Level: <input type='text' name='level' /> "
    "<input type='submit' value='Set Log Level' /></form>";

}  // namespace

HttpResponse HandleLogLevel(const HttpRequest& request) {
  std::string out = "<html>\n<title>Log Level</title>\n<body>\n<h1>Log Level</h1>\n";
  const std::optional<std::string> log = request.Query("log");
  const std::optional<std::string> level = request.Query("level");
  if (log.has_value()) {
    const std::string& name = *log;
    out += "<br /><hr /><h3>Results</h3>\n";
    out += std::string(kMarker) + "Submitted Class Name: <b>" + HtmlEscape(name) + "</b><br />\n";
    out += std::string(kMarker) + "Log Class: <b>" +
           (IsGlobal(name) ? "glog (process-wide)" : "glog module") + "</b><br />\n";
    if (level.has_value()) {
      out += std::string(kMarker) + "Submitted Level: <b>" + HtmlEscape(*level) + "</b><br />\n";
    }
    std::lock_guard<std::mutex> lock(LevelMutex());
    if (level.has_value()) {
      const std::optional<GlobalLevel> parsed = ParseLevel(*level);
      if (!parsed.has_value()) {
        out += std::string(kMarker) + "Bad Level : <b>" + HtmlEscape(*level) + "</b><br />\n";
      } else {
        if (IsGlobal(name)) {
          FLAGS_minloglevel = parsed->minloglevel;
          FLAGS_v = parsed->v;
        } else {
          google::SetVLOGLevel(name.c_str(), parsed->v);
          ModuleLevels()[name] = parsed->v;
        }
        LOG(INFO) << "logLevel: " << (name.empty() ? "root" : name) << " set to " << *level;
        out += std::string(kMarker) + "Setting Level to " + HtmlEscape(*level) + " ...<br />\n";
      }
    }
    std::string effective;
    auto module = ModuleLevels().find(name);
    if (!IsGlobal(name) && module != ModuleLevels().end()) {
      effective = GlobalName(FLAGS_minloglevel, std::max<int>(module->second, 0));
    } else {
      effective = GlobalName(FLAGS_minloglevel, FLAGS_v);
    }
    out += std::string(kMarker) + "Effective Level: <b>" + effective + "</b><br />\n";
  }
  out += kForms;
  out += "\n</body></html>\n";
  HttpResponse response = HttpResponse::Html(200, std::move(out));
  response.content_type = "text/html; charset=utf-8";
  return response;
}

}  // namespace spindle::web
