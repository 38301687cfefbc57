// What profiler.cc (recording, configuration) and profiler_report.cc (trace
// file, aggregate table) share. Included by those two files only.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace weft {
namespace profiler {
namespace internal {

enum class Kind : uint8_t { kDuration, kCounter, kInstant };

// One recorded event (Note [Profiler recording]).
struct Record {
  Kind kind = Kind::kDuration;
  char scope = 'p';      // kInstant: Chrome's instant scope, g / p / t
  int dev_type = -1;     // weft::DevType of an op's device, -1 for none
  int dev_id = -1;
  std::string name;
  const char* cat = "";  // static or interned: never freed
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;   // kDuration only
  int64_t value = 0;     // kDuration: bytes allocated while it ran; kCounter: the value
};

// A drained record and the thread that recorded it.
struct Event {
  Record rec;
  int tid = 0;
};

struct ThreadInfo {
  int tid;
  std::string name;
};

// The records drained so far (guarded by the profiler's mutex).
struct Collected {
  std::vector<Event> trace;       // since the last dump(finished=True)
  std::vector<Event> aggregate;   // since the last dumps(reset=True), when aggregate_stats
  std::vector<ThreadInfo> threads;
};

std::string DeviceName(int dev_type, int dev_id);
// Both called with the profiler's mutex held.
std::string TraceJson(const Collected& c, int pid);
std::string AggregateText(const std::vector<Event>& events, bool json, int sort_by, bool ascending);

}  // namespace internal
}  // namespace profiler
}  // namespace weft
