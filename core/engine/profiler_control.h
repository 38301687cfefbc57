// Switching the profiler and its user objects (MXNet's mx.profiler), for the C
// ABI (capi/src/c_api_profiler.cc). Recording itself: profiler.h.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace weft {
namespace profiler {

// MXNet 1.9.1's keys and defaults: profile_all (false), profile_symbolic,
// profile_imperative, profile_memory, profile_api (true), filename
// ("profile.json"), continuous_dump (true), dump_period (1.0 s),
// aggregate_stats (false), profile_process ("worker"). Keys not given keep
// their value. An unknown key or a bad value throws naming it; nothing changes then.
void SetConfig(const std::vector<std::pair<std::string, std::string>>& kv);
void SetState(bool run);
void SetPaused(bool paused);
// Writes the Chrome trace of everything recorded since the last finished dump
// to the configured file; finished: start the next trace afresh.
void Dump(bool finished);
// The aggregate table (format 0) or JSON (1) of what was recorded since the
// last reset; sort_by 0 total, 1 avg, 2 min, 3 max, 4 count (MXNet 1.9.1's codes).
std::string Dumps(bool reset, int format, int sort_by, bool ascending);
// MXNet's profiler scope: prefixes the names of the ops this thread pushes.
void SetScope(const std::string& scope);

// Domain, Task, Frame, Event, Counter (MXNet's profiling objects).
enum class ObjectKind { kDomain, kTask, kFrame, kEvent, kCounter };
struct Object;
Object* CreateObject(ObjectKind kind, const Object* domain, const std::string& name);
void DestroyObject(Object* obj);
void DurationStart(Object* obj);
void DurationStop(Object* obj);
void SetCounter(Object* obj, int64_t value);
void AdjustCounter(Object* obj, int64_t delta);
// scope: "global", "process", "thread", "task" or "marker".
void SetMarker(const Object* domain, const std::string& name, const std::string& scope);

}  // namespace profiler
}  // namespace weft
