// The profiler's outputs: the Chrome trace (chrome://tracing, Perfetto) and
// MXNet's aggregate table (profiler.dumps).
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "core/base/context.h"
#include "core/engine/profiler_internal.h"

namespace weft {
namespace profiler {
namespace internal {

namespace {

void AppendEscaped(std::string* out, const std::string& s) {
  out->push_back('"');
  for (unsigned char ch : s) {
    if (ch == '"' || ch == '\\') {
      out->push_back('\\');
      out->push_back(static_cast<char>(ch));
    } else if (ch < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", ch);
      *out += buf;
    } else {
      out->push_back(static_cast<char>(ch));
    }
  }
  out->push_back('"');
}

// Microseconds with nanosecond digits, so events on one thread keep their exact order.
std::string Micros(uint64_t ns) {
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%" PRIu64 ".%03u", ns / 1000, static_cast<unsigned>(ns % 1000));
  return buf;
}

}  // namespace

// MXNet's device names in traces and tables: "cpu/0", "gpu/1", "cpu pinned/0".
std::string DeviceName(int dev_type, int dev_id) {
  const char* t = "cpu";
  switch (static_cast<DevType>(dev_type)) {
    case DevType::kGPU: t = "gpu"; break;
    case DevType::kCPUPinned: t = "cpu pinned"; break;
    case DevType::kCPUShared: t = "cpu shared"; break;
    default: break;
  }
  return std::string(t) + "/" + std::to_string(dev_id);
}

namespace {

bool IsMemoryCat(const std::string& cat) { return cat == "Device Storage" || cat == "Pool Memory"; }

}  // namespace

std::string TraceJson(const Collected& c, int pid) {
  std::string out = "{\"traceEvents\": [\n";
  const std::string pid_s = std::to_string(pid);
  out += "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": " + pid_s + ", \"args\": {\"name\": \"weft\"}}";
  for (const ThreadInfo& t : c.threads) {
    out += ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": " + pid_s + ", \"tid\": " + std::to_string(t.tid) +
           ", \"args\": {\"name\": ";
    AppendEscaped(&out, t.name.empty() ? "thread " + std::to_string(t.tid) : t.name);
    out += "}}";
  }
  for (const Event& e : c.trace) {
    const Record& r = e.rec;
    out += ",\n{\"name\": ";
    AppendEscaped(&out, r.name);
    out += ", \"cat\": ";
    AppendEscaped(&out, r.cat);
    out += ", \"pid\": " + pid_s + ", \"tid\": " + std::to_string(e.tid) + ", \"ts\": " + Micros(r.start_ns);
    switch (r.kind) {
      case Kind::kDuration:
        out += ", \"ph\": \"X\", \"dur\": " + Micros(r.end_ns - r.start_ns);
        if (r.dev_type >= 0) {
          out += ", \"args\": {\"device\": ";
          AppendEscaped(&out, DeviceName(r.dev_type, r.dev_id));
          out += ", \"bytes_allocated\": " + std::to_string(r.value) + "}";
        }
        break;
      case Kind::kCounter:
        out += ", \"ph\": \"C\", \"args\": {";
        AppendEscaped(&out, r.name);
        out += ": " + std::to_string(r.value) + "}";
        break;
      case Kind::kInstant:
        out += ", \"ph\": \"i\", \"s\": \"";
        out.push_back(r.scope);
        out += "\"";
        break;
    }
    out += "}";
  }
  out += "\n],\n\"displayTimeUnit\": \"ms\"\n}\n";
  return out;
}

namespace {

struct Stat {
  bool counter = false;
  int64_t count = 0;
  double total = 0, min = 0, max = 0;  // durations: microseconds; counters: the values
  double Avg() const { return count > 0 ? total / static_cast<double>(count) : 0.0; }
};

using Table = std::map<std::string, std::map<std::string, Stat>>;  // category -> name -> stat

Table Aggregate(const std::vector<Event>& events) {
  Table t;
  for (const Event& e : events) {
    const Record& r = e.rec;
    if (r.kind == Kind::kInstant) continue;
    const double v =
        r.kind == Kind::kDuration ? static_cast<double>(r.end_ns - r.start_ns) / 1000.0 : static_cast<double>(r.value);
    Stat& s = t[r.cat][r.name];
    s.counter = r.kind == Kind::kCounter;
    if (s.count == 0 || v < s.min) s.min = v;
    if (s.count == 0 || v > s.max) s.max = v;
    s.total += v;
    ++s.count;
  }
  return t;
}

// MXNet's order: by the chosen statistic, largest first unless ascending.
std::vector<std::pair<std::string, const Stat*>> Sorted(const std::map<std::string, Stat>& rows, int sort_by,
                                                        bool ascending) {
  std::vector<std::tuple<double, std::string, const Stat*>> v;
  for (const auto& [name, s] : rows) {
    double key = 0;
    switch (sort_by) {
      case 0: key = s.total; break;
      case 1: key = s.Avg(); break;
      case 2: key = s.min; break;
      case 3: key = s.max; break;
      default: key = static_cast<double>(s.count); break;
    }
    v.emplace_back(ascending ? key : -key, name, &s);
  }
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
    return std::get<0>(a) != std::get<0>(b) ? std::get<0>(a) < std::get<0>(b) : std::get<1>(a) < std::get<1>(b);
  });
  std::vector<std::pair<std::string, const Stat*>> out;
  for (auto& [k, name, s] : v) out.emplace_back(name, s);
  return out;
}

// Durations are kept in microseconds and shown in ms; memory in bytes, shown
// in kB (1000 bytes, as MXNet 1.9.1); the other counters' values also / 1000.
double Scale(bool /*memory*/, double v) { return v / 1000.0; }

std::string TableText(const Table& t, int sort_by, bool ascending) {
  std::string out = "\nProfile Statistics:\n\tNote the difference in units for different entries.\n";
  char line[256];
  for (const auto& [cat, rows] : t) {
    const bool mem = IsMemoryCat(cat);
    out += cat + "\n=================\n";
    if (mem) {
      std::snprintf(line, sizeof(line), "%-25s%16s %16s %16s %16s\n", "Name", "Total Count", "Min Use  (kB)",
                    "Max Use  (kB)", "Avg Use  (kB)");
      out += line;
      std::snprintf(line, sizeof(line), "%-25s%16s %16s %16s %16s\n", "----", "-----------", "-------------",
                    "-------------", "-------------");
    } else {
      std::snprintf(line, sizeof(line), "%-25s%16s %16s %16s %16s %16s\n", "Name", "Total Count", "Time (ms)",
                    "Min Time (ms)", "Max Time (ms)", "Avg Time (ms)");
      out += line;
      std::snprintf(line, sizeof(line), "%-25s%16s %16s %16s %16s %16s\n", "----", "-----------", "---------",
                    "-------------", "-------------", "-------------");
    }
    out += line;
    for (const auto& [name, s] : Sorted(rows, sort_by, ascending)) {
      if (mem) {
        std::snprintf(line, sizeof(line), "%-25s%16" PRId64 " %16.4f %16.4f %16.4f\n", name.c_str(), s->count,
                      Scale(true, s->min), Scale(true, s->max), Scale(true, s->Avg()));
      } else {
        std::snprintf(line, sizeof(line), "%-25s%16" PRId64 " %16.4f %16.4f %16.4f %16.4f\n", name.c_str(), s->count,
                      Scale(false, s->total), Scale(false, s->min), Scale(false, s->max), Scale(false, s->Avg()));
      }
      out += line;
    }
    out += "\n";
  }
  return out;
}

std::string Num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.4f", v);
  return buf;
}

// MXNet's layout ({"Time": {cat: {name: {...}}}, "Memory": {...}, "Unit": {...}}),
// as valid JSON.
std::string Json(const Table& t, int sort_by, bool ascending) {
  std::string time_s, mem_s;
  for (const auto& [cat, rows] : t) {
    const bool mem = IsMemoryCat(cat);
    std::string* dst = mem ? &mem_s : &time_s;
    if (!dst->empty()) *dst += ",\n";
    *dst += "        ";
    AppendEscaped(dst, cat);
    *dst += ": {\n";
    bool first = true;
    for (const auto& [name, s] : Sorted(rows, sort_by, ascending)) {
      if (!first) *dst += ",\n";
      first = false;
      *dst += "            ";
      AppendEscaped(dst, name);
      *dst += ": {\"Count\": " + std::to_string(s->count);
      if (!mem) *dst += ", \"Total\": " + Num(s->total / 1000.0);
      *dst += ", \"Min\": " + Num(s->min / 1000.0) + ", \"Max\": " + Num(s->max / 1000.0) +
              ", \"Avg\": " + Num(s->Avg() / 1000.0) + "}";
    }
    *dst += "\n        }";
  }
  return "{\n    \"Time\": {\n" + time_s + "\n    },\n    \"Memory\": {\n" + mem_s +
         "\n    },\n    \"Unit\": {\"Time\": \"ms\", \"Memory\": \"kB\"}\n}\n";
}

}  // namespace

std::string AggregateText(const std::vector<Event>& events, bool json, int sort_by, bool ascending) {
  const auto t = Aggregate(events);
  return json ? Json(t, sort_by, ascending) : TableText(t, sort_by, ascending);
}

}  // namespace internal
}  // namespace profiler
}  // namespace weft
