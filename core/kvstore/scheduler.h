// The scheduler node: membership (registration, ranks, the server address
// book), barriers, the end of the job, and liveness (Note [Liveness] in van.h).
#pragma once
#include "core/kvstore/ps_config.h"

namespace weft {
namespace ps {

// Runs until every worker has finalized (returns 0) or a node died (returns 1
// after telling the others). Throws kInvalidArgument/kIO for a bad setup.
int RunScheduler(const Config& cfg);

}  // namespace ps
}  // namespace weft
