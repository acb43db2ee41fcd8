#include "web/rest/java_hash_order.h"

#include <algorithm>

namespace spindle::web::rest {

int32_t JavaStringHash(const std::string& s) {
  uint32_t h = 0;  // Java's int arithmetic wraps; unsigned keeps it defined here
  for (const char c : s) h = 31 * h + static_cast<unsigned char>(c);
  return static_cast<int32_t>(h);
}

size_t JavaHashMapTableSize(size_t count) {
  size_t table = 16;
  while (static_cast<double>(count) > 0.75 * static_cast<double>(table)) table *= 2;
  return table;
}

size_t JavaHashSetCopyTableSize(size_t count) {
  const auto wanted = std::max<size_t>(static_cast<size_t>(static_cast<float>(count) / 0.75f) + 1,
                                       static_cast<size_t>(16));
  size_t table = 1;
  while (table < wanted) table *= 2;
  return table;
}

std::vector<std::string> InJavaHashOrder(const std::vector<std::string>& keys, size_t table_size) {
  auto bucket = [table_size](const std::string& key) {
    const auto h = static_cast<uint32_t>(JavaStringHash(key));
    return static_cast<size_t>(h ^ (h >> 16)) & (table_size - 1);
  };
  std::vector<std::string> ordered = keys;
  std::stable_sort(ordered.begin(), ordered.end(), [&](const std::string& a, const std::string& b) {
    return bucket(a) < bucket(b);
  });
  return ordered;
}

}  // namespace spindle::web::rest
