// The KVStore factory and the helpers every store shares.
#include "core/kvstore/kvstore.h"

#include <unordered_map>

#include "core/base/error.h"
#include "core/kvstore/kvstore_local.h"
#include "core/kvstore/kvstore_dist.h"
#include "core/kvstore/kvstore_allreduce.h"
#include "core/ndarray/imperative.h"
#include "core/opdef/op_def.h"

namespace weft {

std::unique_ptr<KVStore> KVStore::Create(const std::string& type) {
  if (type == "local" || type == "device") return std::make_unique<LocalKVStore>(type);
  if (type == "dist_sync" || type == "dist_async" || type == "dist_device_sync" || type == "dist") {
    return std::make_unique<DistKVStore>(type == "dist" ? std::string("dist_sync") : type);
  }
  if (type == "allreduce") return std::make_unique<AllreduceKVStore>(type);
  WEFT_THROW(kInvalidArgument) << "kvstore: unknown type '" << type
                               << "' (expected local, device, dist_sync, dist_async, dist_device_sync or allreduce)";
}

void KVStore::SetUpdater(KVUpdater) {
  WEFT_THROW(kInvalidArgument) << "kvstore '" << type_
                               << "': set_updater is for local stores; a distributed store runs its optimizer "
                                  "on the servers (set_optimizer)";
}

void KVStore::SetOptimizer(const std::string&) {
  WEFT_THROW(kInvalidArgument) << "kvstore '" << type_
                               << "': the optimizer of a local store is an updater (the front end sets it)";
}

std::vector<KeyGroup> GroupByKey(const std::vector<std::string>& keys, const std::vector<NDArray>& arrays,
                                 const char* what) {
  WEFT_CHECK(keys.size() == arrays.size(), kInvalidArgument)
      << "kvstore " << what << ": " << keys.size() << " keys but " << arrays.size() << " arrays";
  std::vector<KeyGroup> groups;
  std::unordered_map<std::string, size_t> index;
  for (size_t i = 0; i < keys.size(); ++i) {
    WEFT_CHECK(!arrays[i].is_none(), kInvalidArgument) << "kvstore " << what << ": key '" << keys[i]
                                                       << "' has no array";
    auto it = index.find(keys[i]);
    if (it == index.end()) {
      index.emplace(keys[i], groups.size());
      groups.push_back(KeyGroup{keys[i], {arrays[i]}});
    } else {
      groups[it->second].arrays.push_back(arrays[i]);
    }
  }
  return groups;
}

void ReduceInto(const std::vector<NDArray>& values, const NDArray& dst) {
  std::vector<NDArray> local;
  local.reserve(values.size());
  for (const NDArray& v : values) local.push_back(v.ctx() == dst.ctx() ? v : v.CopyTo(dst.ctx()));
  if (local.size() == 1) {
    if (!local[0].SharesChunk(dst) || local[0].byte_offset() != dst.byte_offset()) NDArray::Copy(local[0], dst);
    return;
  }
  static const OpDef& add_n = OpRegistry::Get()->FindOrThrow("add_n");
  std::vector<NDArray> out{dst};
  Invoke(add_n, {{"num_args", std::to_string(local.size())}}, local, &out);
}

void CheckMatchesInit(const std::string& key, const NDArray& arr, const Shape& shape, DType dtype,
                      const char* what) {
  WEFT_CHECK(arr.shape() == shape, kShape) << "kvstore " << what << ": key '" << key << "' was initialised with shape "
                                           << shape.ToString() << " but got shape " << arr.shape().ToString();
  WEFT_CHECK(arr.dtype() == dtype, kDType) << "kvstore " << what << ": key '" << key << "' was initialised with dtype "
                                           << DTypeName(dtype) << " but got " << DTypeName(arr.dtype());
}

}  // namespace weft
