#include "web/rest/app_statistics.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "web/rest/app_info.h"

namespace spindle::web::rest {

namespace {

std::string Lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

RestDocument AppStatisticsDocument(const std::vector<rm::RmApp>& apps,
                                   const std::set<std::string>& states, const std::string& type) {
  std::vector<RestNode> items;
  const std::vector<std::string>& names = YarnAppStateNames();
  for (size_t i = 0; i < names.size(); ++i) {
    if (!states.empty() && states.count(Lower(names[i])) == 0) continue;
    int64_t count = 0;
    for (const rm::RmApp& app : apps) {
      if (static_cast<size_t>(app.yarn_state()) != i + 1) continue;
      if (type != "*" && Lower(app.submission.type) != type) continue;
      ++count;
    }
    RestNode item;
    item.Str("state", names[i]).Str("type", type).Int("count", count);
    items.push_back(std::move(item));
  }
  RestNode body;
  body.Items("statItem", std::move(items));
  return RestDocument("appStatInfo", std::move(body));
}

}  // namespace spindle::web::rest
