// MasterKey: one secret of a token family (container tokens, NM tokens, AMRM
// tokens), as Hadoop's MasterKey record {key_id, bytes}. Token passwords are
// HMAC-SHA1(bytes, identifier) (WIRE.md 6.3). Never log `bytes`.
//
// Thread-safety: values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace spindle::rm {

struct MasterKey {
  int32_t key_id = 0;
  std::string bytes;  // raw key; Java makes 8 random bytes

  bool operator==(const MasterKey&) const = default;
};

// What a family's keys look like at one moment, and what the RM persists:
// `current` signs (container and NM tokens) and is what NMs get at
// registration; `next` exists between a roll and its activation.
struct KeyState {
  MasterKey current;
  std::optional<MasterKey> next;

  bool operator==(const KeyState&) const = default;
};

}  // namespace spindle::rm
