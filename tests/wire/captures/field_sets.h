// Golden comparison of an answer with Apache's: which fields are set,
// recursively, by field number (values may differ). Shared by the capture
// replays of each protocol.
#pragma once

#include <google/protobuf/message.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace spindle::captures {

// Fields Spindle may set that Apache Hadoop 2.6.0 had not yet defined:
// message full name -> field numbers.
using NewerFields = std::map<std::string, std::set<int>>;

// Appends to `problems` one line per field set by one side and not the
// other (except `newer` ones set by Spindle only), under `path`.
void CompareFieldSets(const google::protobuf::Message& apache,
                      const google::protobuf::Message& ours, const std::string& path,
                      const NewerFields& newer, std::vector<std::string>* problems);

}  // namespace spindle::captures
