// A hook Storage calls on every allocation and free while someone (the
// profiler, core/engine/profiler.cc) has installed it: the storage layer sits
// below the engine and so cannot call the profiler directly.
#pragma once
#include <atomic>
#include <cstdint>

#include "core/base/context.h"

namespace weft {

// bytes: +size on Alloc, -size on Free; in_use: the device's bytes in use after it.
using StorageMemoryHook = void (*)(Context ctx, int64_t bytes, int64_t in_use);

// nullptr when nothing listens; Storage pays one relaxed load per call then.
std::atomic<StorageMemoryHook>& StorageMemoryHookSlot();

}  // namespace weft
