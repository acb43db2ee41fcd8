// The order in which Java's HashMap / HashSet of String iterates, for the
// REST lists Hadoop builds by walking one (QueueCapacities' and
// ResourceUsage's partitions, per queue): String.hashCode spread as
// HashMap.hash does (h ^ h >>> 16), bucket index hash & (table size - 1),
// buckets in index order, one bucket's keys in insertion order (tree bins,
// at 8 keys in one bucket of a 64-slot table, are not modelled).
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace spindle::web::rest {

// String.hashCode of `s` read as UTF-16 code units (node-label names are
// ASCII: letters, digits, '-' and '_').
int32_t JavaStringHash(const std::string& s);

// A HashMap's table size after `count` insertions into a default one (16,
// doubled whenever the size passes 0.75 of it).
size_t JavaHashMapTableSize(size_t count);
// The table size of `new HashSet<>(collection)` of `count` keys
// (tableSizeFor(max((int) (count / .75f) + 1, 16))).
size_t JavaHashSetCopyTableSize(size_t count);

// `keys` (distinct, in insertion order) in the iteration order of a hash
// table of `table_size` (a power of two) they were inserted into in that
// order.
std::vector<std::string> InJavaHashOrder(const std::vector<std::string>& keys, size_t table_size);

}  // namespace spindle::web::rest
