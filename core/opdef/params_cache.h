// A per-thread cache of parsed attributes for the C ABI's imperative calls.
//
// Note [Parse cache]
// An imperative loop calls the same op with the same attribute text over and
// over (`x * 1.0001` sends scalar="1.0001" each time). Parsing that text against
// the schema -- the key lookup, strtod, the bounds check, the defaults of every
// other parameter -- was a quarter of a small op's dispatch. Parse is a pure
// function of (op, attributes), and Params copies share their parsed values
// (params.h), so a hit hands back a copy of the earlier result. The cache is
// thread-local (no lock on the hot path), holds a bounded number of entries and
// skips attribute lists too long to be worth keeping; an attribute list that
// fails to parse is never cached, so every bad call still raises.
#pragma once
#include "core/opdef/op_def.h"
#include "core/opdef/params.h"

namespace weft {

// Params::Parse(op, {(keys[i], vals[i])}) through the calling thread's cache.
// Entries are keyed by op's address: op must live as long as the process, as
// every op in the registry does (the C ABI's op handles are registry ops).
Params ParseCached(const OpDef& op, int num_attrs, const char* const* keys, const char* const* vals);

}  // namespace weft
