#include "tests/wire/captures/field_sets.h"

#include <algorithm>

namespace spindle::captures {
namespace {

namespace pb = google::protobuf;

bool IsSet(const pb::Message& m, const pb::FieldDescriptor* f) {
  const pb::Reflection* r = m.GetReflection();
  return f->is_repeated() ? r->FieldSize(m, f) > 0 : r->HasField(m, f);
}

}  // namespace

void CompareFieldSets(const pb::Message& apache, const pb::Message& ours, const std::string& path,
                      const NewerFields& newer, std::vector<std::string>* problems) {
  const pb::Descriptor* d = apache.GetDescriptor();
  const auto added = newer.find(d->full_name());
  for (int i = 0; i < d->field_count(); ++i) {
    const pb::FieldDescriptor* f = d->field(i);
    const bool a = IsSet(apache, f);
    const bool o = IsSet(ours, f);
    const std::string where = path + "." + f->name() + " (#" + std::to_string(f->number()) + ")";
    if (a && !o) problems->push_back(where + ": set by Apache 2.6.0, not by Spindle");
    if (!a && o && (added == newer.end() || added->second.count(f->number()) == 0)) {
      problems->push_back(where + ": set by Spindle, not by Apache 2.6.0");
    }
    if (!a || !o || f->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    const pb::Reflection* ra = apache.GetReflection();
    const pb::Reflection* ro = ours.GetReflection();
    if (!f->is_repeated()) {
      CompareFieldSets(ra->GetMessage(apache, f), ro->GetMessage(ours, f), where, newer, problems);
      continue;
    }
    const int n = std::min(ra->FieldSize(apache, f), ro->FieldSize(ours, f));
    for (int k = 0; k < n; ++k) {
      CompareFieldSets(ra->GetRepeatedMessage(apache, f, k), ro->GetRepeatedMessage(ours, f, k),
                       where + "[" + std::to_string(k) + "]", newer, problems);
    }
  }
}

}  // namespace spindle::captures
