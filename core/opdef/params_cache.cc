#include "core/opdef/params_cache.h"

#include <array>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace weft {
namespace {

constexpr size_t kEntries = 64;
constexpr size_t kMaxAttrText = 1024;  // longer lists are parsed every time

struct Entry {
  const OpDef* op = nullptr;
  std::vector<std::pair<std::string, std::string>> attrs;
  Params params;
};

struct Cache {
  std::array<Entry, kEntries> entries;
  size_t next = 0;  // round-robin replacement
  size_t last_hit = 0;
};

bool Matches(const Entry& e, const OpDef& op, int n, const char* const* keys, const char* const* vals) {
  if (e.op != &op || e.attrs.size() != static_cast<size_t>(n)) return false;
  for (int i = 0; i < n; ++i) {
    const auto& kv = e.attrs[static_cast<size_t>(i)];
    if (kv.first.compare(keys[i]) != 0 || kv.second.compare(vals[i]) != 0) return false;
  }
  return true;
}

}  // namespace

Params ParseCached(const OpDef& op, int num_attrs, const char* const* keys, const char* const* vals) {
  thread_local Cache cache;
  if (Matches(cache.entries[cache.last_hit], op, num_attrs, keys, vals)) return cache.entries[cache.last_hit].params;
  for (size_t i = 0; i < kEntries; ++i) {
    if (Matches(cache.entries[i], op, num_attrs, keys, vals)) {
      cache.last_hit = i;
      return cache.entries[i].params;
    }
  }
  std::vector<std::pair<std::string, std::string>> attrs;
  attrs.reserve(static_cast<size_t>(num_attrs));
  size_t text = 0;
  for (int i = 0; i < num_attrs; ++i) {
    attrs.emplace_back(keys[i], vals[i]);
    text += attrs.back().first.size() + attrs.back().second.size();
  }
  Params p = Params::Parse(op, attrs);  // throws on a bad list: nothing is cached
  if (text <= kMaxAttrText) {
    Entry& e = cache.entries[cache.next];
    e.op = &op;
    e.attrs = std::move(attrs);
    e.params = p;
    cache.last_hit = cache.next;
    cache.next = (cache.next + 1) % kEntries;
  }
  return p;
}

}  // namespace weft
