// How many ops the calling thread has pushed to an engine. A caller that
// remembers an op it pushed can tell whether this thread pushed anything after
// it (Note [In-place axpy fusion] in core/ndarray/axpy_fusion.h). Every
// Engine::Push implementation counts itself once.
#pragma once
#include <cstdint>

namespace weft {

uint64_t PushesFromThisThread();

namespace engine_internal {
void CountPush();
}  // namespace engine_internal

}  // namespace weft
