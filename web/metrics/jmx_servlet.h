// /jmx as Hadoop's JMXJsonServlet: {"beans":[{"name":..,"modelerType":..,
// <attribute>:<value>...}]}.
//   ?qry=<ObjectName pattern>  only the matching beans (default "*:*");
//                              a malformed pattern -> 400
//   ?get=<bean>::<attribute>   one attribute of each matching bean; not
//                              exactly one "::" -> 400 {"result":"ERROR",
//                              "message":"query format is not as expected."};
//                              a bean without it -> 404 with that bean's
//                              "result":"ERROR","message":"No attribute with
//                              name <a> was found."
//   ?callback=<name>           JSONP, as Hadoop 2's servlet did (name
//                              restricted to [A-Za-z0-9_.$], else 400)
// Attributes whose names hold '=', ':' or ' ' are not listed (as Hadoop).
//
// Thread-safety: pure function of its arguments.
#pragma once

#include <vector>

#include "web/http/http_message.h"
#include "web/metrics/rm_beans.h"

namespace spindle::web {

HttpResponse HandleJmx(const HttpRequest& request, const std::vector<Bean>& beans);

}  // namespace spindle::web
