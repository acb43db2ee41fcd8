#include "web/auth/filter_answers.h"

#include <strings.h>

#include "base/markup_escape.h"

namespace spindle::web::auth {

std::string RemoteExceptionJson(const std::string& message, const std::string& java_class) {
  std::string escaped;
  for (char c : message.substr(0, message.find('\n'))) {
    if (c == '"' || c == '\\') escaped += '\\';
    escaped += c;
  }
  const std::string simple = java_class.substr(java_class.rfind('.') + 1);
  return "{\"RemoteException\":{\"message\":\"" + escaped + "\",\"exception\":\"" + simple +
         "\",\"javaClassName\":\"" + java_class + "\"}}";
}

HttpResponse ErrorPage(int status, const std::string& message) {
  const std::string title = "Error " + std::to_string(status) + " " + message;
  return HttpResponse::Html(status,
                            "<html>\n<head>\n<meta http-equiv=\"Content-Type\" content=\"text/html;"
                            "charset=utf-8\"/>\n<title>" +
                                EscapeMarkup(title) + "</title>\n</head>\n<body><h2>HTTP ERROR " +
                                std::to_string(status) + "</h2>\n<p>" + EscapeMarkup(message) +
                                "</p>\n</body>\n</html>\n");
}

std::optional<std::string> DoAsParameter(const HttpRequest& request) {
  for (const auto& [name, value] : request.query) {
    if (strcasecmp(name.c_str(), "doAs") == 0) return value;
  }
  return std::nullopt;
}

}  // namespace spindle::web::auth
