// Level 1: one process, several devices. `local` keeps each weight on cpu(0),
// `device` on the device of the value it was initialised with (MXNet reduces
// on a GPU there). A push sums the copies into a merge buffer and hands it to
// the updater (or stores the sum); a pull copies the stored weight to every
// destination. All of it is engine ops.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "core/kvstore/kvstore.h"

namespace weft {

class LocalKVStore : public KVStore {
 public:
  explicit LocalKVStore(const std::string& type) : KVStore(type) {}

  void Init(const std::vector<std::string>& keys, const std::vector<NDArray>& values) override;
  void Push(const std::vector<std::string>& keys, const std::vector<NDArray>& values, int priority) override;
  void Pull(const std::vector<std::string>& keys, const std::vector<NDArray>& outs, int priority) override;
  void SetUpdater(KVUpdater updater) override { updater_ = std::move(updater); }

 private:
  struct Entry {
    NDArray stored;  // the weight
    NDArray merged;  // the reduced push, handed to the updater
  };
  Entry& Find(const std::string& key, const char* what);

  std::map<std::string, Entry> entries_;
  KVUpdater updater_;
};

}  // namespace weft
