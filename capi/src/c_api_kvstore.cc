// KVStore part of the C ABI (core/kvstore). All ZeroMQ-dependent code stays
// behind these functions: the portable build leaves this file out.
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "capi/src/c_api_common.h"
#include "core/kvstore/kvstore.h"
#include "core/kvstore/ps_config.h"
#include "core/kvstore/scheduler.h"
#include "core/kvstore/server.h"

using namespace weft;  // NOLINT: C ABI implementation file

struct weft_kvstore {
  std::unique_ptr<KVStore> kv;
};

namespace {

KVStore& Store(const weft_kvstore* h) {
  WEFT_CHECK(h != nullptr && h->kv != nullptr, kInvalidArgument) << "kvstore handle is NULL";
  return *h->kv;
}

void Gather(int num, const char* const* keys, weft_ndarray* const* arrays, const char* what,
            std::vector<std::string>* ks, std::vector<NDArray>* as) {
  WEFT_CHECK(num >= 0, kInvalidArgument) << "kvstore " << what << ": negative count " << num;
  WEFT_CHECK(num == 0 || (keys != nullptr && arrays != nullptr), kInvalidArgument)
      << "kvstore " << what << ": keys or arrays is NULL";
  for (int i = 0; i < num; ++i) {
    WEFT_CHECK(keys[i] != nullptr, kInvalidArgument) << "kvstore " << what << ": key " << i << " is NULL";
    WEFT_CHECK(arrays[i] != nullptr, kInvalidArgument)
        << "kvstore " << what << ": array for key '" << keys[i] << "' is NULL";
    ks->emplace_back(keys[i]);
    as->push_back(arrays[i]->arr);
  }
}

}  // namespace

extern "C" {

int weft_kvstore_create(const char* type, weft_kvstore** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(type);
  WEFT_CHECK_ARG(out);
  auto h = std::make_unique<weft_kvstore>();
  h->kv = KVStore::Create(type);
  *out = h.release();
  WEFT_API_END();
}

void weft_kvstore_free(weft_kvstore* kv) {
  if (kv == nullptr) return;
  try {
    if (kv->kv) kv->kv->Finalize();
  } catch (...) {
  }
  delete kv;
}

int weft_kvstore_type(const weft_kvstore* kv, const char** type) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(type);
  *type = Store(kv).type().c_str();
  WEFT_API_END();
}

int weft_kvstore_rank(const weft_kvstore* kv, int* rank) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(rank);
  *rank = Store(kv).rank();
  WEFT_API_END();
}

int weft_kvstore_num_workers(const weft_kvstore* kv, int* num_workers) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(num_workers);
  *num_workers = Store(kv).num_workers();
  WEFT_API_END();
}

int weft_kvstore_init(weft_kvstore* kv, int num, const char* const* keys, weft_ndarray* const* values) {
  WEFT_API_BEGIN();
  std::vector<std::string> ks;
  std::vector<NDArray> vs;
  Gather(num, keys, values, "init", &ks, &vs);
  Store(kv).Init(ks, vs);
  WEFT_API_END();
}

int weft_kvstore_push(weft_kvstore* kv, int num, const char* const* keys, weft_ndarray* const* values,
                      int priority) {
  WEFT_API_BEGIN();
  std::vector<std::string> ks;
  std::vector<NDArray> vs;
  Gather(num, keys, values, "push", &ks, &vs);
  Store(kv).Push(ks, vs, priority);
  WEFT_API_END();
}

int weft_kvstore_pull(weft_kvstore* kv, int num, const char* const* keys, weft_ndarray* const* outs,
                      int priority) {
  WEFT_API_BEGIN();
  std::vector<std::string> ks;
  std::vector<NDArray> os;
  Gather(num, keys, outs, "pull", &ks, &os);
  Store(kv).Pull(ks, os, priority);
  WEFT_API_END();
}

int weft_kvstore_pushpull(weft_kvstore* kv, int num_values, const char* const* value_keys,
                          weft_ndarray* const* values, int num_outs, const char* const* out_keys,
                          weft_ndarray* const* outs, int priority) {
  WEFT_API_BEGIN();
  std::vector<std::string> vk, ok;
  std::vector<NDArray> vs, os;
  Gather(num_values, value_keys, values, "pushpull", &vk, &vs);
  Gather(num_outs, out_keys, outs, "pushpull", &ok, &os);
  Store(kv).PushPull(vk, vs, ok, os, priority);
  WEFT_API_END();
}

int weft_kvstore_set_updater(weft_kvstore* kv, weft_kvstore_updater_fn fn, void* user_data) {
  WEFT_API_BEGIN();
  KVStore& store = Store(kv);
  if (fn == nullptr) {
    store.SetUpdater(nullptr);
  } else {
    store.SetUpdater([fn, user_data](const std::string& key, const NDArray& recv, const NDArray& stored) {
      int rc = fn(key.c_str(), capi::NewHandle(recv), capi::NewHandle(stored), user_data);
      WEFT_CHECK(rc == 0, kInvalidArgument) << "kvstore updater failed for key '" << key << "'";
    });
  }
  WEFT_API_END();
}

int weft_kvstore_set_optimizer(weft_kvstore* kv, const char* optimizer_json) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(optimizer_json);
  Store(kv).SetOptimizer(optimizer_json);
  WEFT_API_END();
}

int weft_kvstore_barrier(weft_kvstore* kv) {
  WEFT_API_BEGIN();
  Store(kv).Barrier();
  WEFT_API_END();
}

int weft_kvstore_abort(weft_kvstore* kv, const char* reason) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(reason);
  Store(kv).Abort(reason);
  WEFT_API_END();
}

int weft_kvstore_role(const char** role) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(role);
  const char* r = std::getenv("WEFT_ROLE");
  if (r == nullptr || *r == '\0') r = std::getenv("DMLC_ROLE");
  std::string v = r ? r : "";
  *role = v == "worker" ? "worker" : v == "server" ? "server" : v == "scheduler" ? "scheduler" : "";
  WEFT_API_END();
}

int weft_kvstore_run_node(int* exit_status) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(exit_status);
  ps::Config cfg = ps::Config::FromEnv();
  WEFT_CHECK(cfg.role != ps::Role::kWorker, kInvalidArgument)
      << "kvstore run_node: WEFT_ROLE=worker; workers run the training script, not a node loop";
  *exit_status = cfg.role == ps::Role::kScheduler ? ps::RunScheduler(cfg) : ps::RunServer(cfg);
  WEFT_API_END();
}

}  // extern "C"
