#include "core/kvstore/kvstore_local.h"

#include "core/base/error.h"

namespace weft {

LocalKVStore::Entry& LocalKVStore::Find(const std::string& key, const char* what) {
  auto it = entries_.find(key);
  WEFT_CHECK(it != entries_.end(), kNotFound) << "kvstore " << what << ": key '" << key
                                              << "' has not been initialised (call init first)";
  return it->second;
}

void LocalKVStore::Init(const std::vector<std::string>& keys, const std::vector<NDArray>& values) {
  std::vector<KeyGroup> groups = GroupByKey(keys, values, "init");
  for (const KeyGroup& g : groups) {
    WEFT_CHECK(entries_.count(g.key) == 0, kInvalidArgument) << "kvstore init: key '" << g.key
                                                              << "' is already initialised";
  }
  for (const KeyGroup& g : groups) {
    const NDArray& v = g.arrays[0];
    Context where = type_ == "device" ? v.ctx() : Context::CPU(0);
    Entry e;
    e.stored = NDArray(v.shape(), where, v.dtype());
    NDArray::Copy(v, e.stored);
    e.merged = NDArray(v.shape(), where, v.dtype());
    entries_.emplace(g.key, std::move(e));
  }
}

void LocalKVStore::Push(const std::vector<std::string>& keys, const std::vector<NDArray>& values, int) {
  std::vector<KeyGroup> groups = GroupByKey(keys, values, "push");
  // Check everything before pushing anything: a bad call changes nothing.
  for (const KeyGroup& g : groups) {
    Entry& e = Find(g.key, "push");
    for (const NDArray& v : g.arrays) CheckMatchesInit(g.key, v, e.stored.shape(), e.stored.dtype(), "push");
  }
  for (const KeyGroup& g : groups) {
    Entry& e = entries_.at(g.key);
    if (updater_) {
      ReduceInto(g.arrays, e.merged);
      updater_(g.key, e.merged, e.stored);
    } else {
      ReduceInto(g.arrays, e.stored);  // no updater: the store keeps the sum (MXNet)
    }
  }
}

void LocalKVStore::Pull(const std::vector<std::string>& keys, const std::vector<NDArray>& outs, int) {
  std::vector<KeyGroup> groups = GroupByKey(keys, outs, "pull");
  for (const KeyGroup& g : groups) {
    Entry& e = Find(g.key, "pull");
    for (const NDArray& o : g.arrays) CheckMatchesInit(g.key, o, e.stored.shape(), e.stored.dtype(), "pull");
  }
  for (const KeyGroup& g : groups) {
    const Entry& e = entries_.at(g.key);
    for (const NDArray& o : g.arrays) NDArray::Copy(e.stored, o);
  }
}

}  // namespace weft
