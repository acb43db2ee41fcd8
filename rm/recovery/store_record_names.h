// What the stores kept in Hadoop's layouts (ZooKeeper, zk/; FileSystem, fs/)
// share about naming records: the ids persist::StateStore gives records, as
// they appear in znode and file names.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "persist/state_store.h"

namespace spindle::rm {

// A whole decimal int64 ("12", "-3"); nullopt for anything else.
std::optional<int64_t> ParseStoredNumber(std::string_view text);

// persist::ClusterFieldName's inverse.
std::optional<persist::ClusterField> ClusterFieldNamed(std::string_view name);

// The master-key family kept as Hadoop's AMRMTokenSecretManager state
// ("am-rm-tokens", key id 0).
const std::string& AmrmKeyFamily();

// An attempt id Hadoop's tree may hold ("appattempt_...", no '/'): the
// other records Spindle keeps beside attempts live in its own tree.
bool IsHadoopAttemptId(std::string_view id);

}  // namespace spindle::rm
