#include "nm_shim/agent/node_token_keys.h"

namespace spindle::nm {

void NodeTokenKeys::Apply(Family family, const rm::MasterKey& key) {
  MutexLock lock(&mu_);
  Pair& pair = Of(family);
  if (pair.current.has_value() && pair.current->key_id == key.key_id) return;
  pair.previous = std::move(pair.current);
  pair.current = key;
}

std::optional<std::string> NodeTokenKeys::Find(Family family, int32_t key_id) const {
  MutexLock lock(&mu_);
  const Pair& pair = Of(family);
  if (pair.current.has_value() && pair.current->key_id == key_id) return pair.current->bytes;
  if (pair.previous.has_value() && pair.previous->key_id == key_id) return pair.previous->bytes;
  return std::nullopt;
}

std::optional<rm::MasterKey> NodeTokenKeys::Current(Family family) const {
  MutexLock lock(&mu_);
  return Of(family).current;
}

bool NodeTokenKeys::Ready() const {
  MutexLock lock(&mu_);
  return container_.current.has_value() && nm_.current.has_value();
}

}  // namespace spindle::nm
