/* Plain C99 test of the KVStore C ABI (level 1): create, init, push from two
 * devices (summed), pull to two devices, a C updater, and errors. */
#include <stdio.h>
#include <string.h>

#include "weft/c_api.h"

#include "expect.h"

static weft_ndarray* filled(float v, int dev_id) {
  int64_t n = 4;
  float d[4] = {v, v, v, v};
  weft_ndarray* a = NULL;
  EXPECT(weft_ndarray_create(&n, 1, 0, 1, dev_id, &a) == WEFT_OK);
  if (a) EXPECT(weft_ndarray_copy_from_host(a, d, sizeof(d)) == WEFT_OK);
  return a;
}

static float first(const weft_ndarray* a) {
  float d[4] = {0};
  EXPECT(weft_ndarray_copy_to_host(a, d, sizeof(d)) == WEFT_OK);
  return d[0];
}

static int g_updates = 0;

/* weight -= recv, by copying recv's negation would need an op; keep it simple:
 * record the call and copy recv into the weight. */
static int copy_updater(const char* key, weft_ndarray* recv, weft_ndarray* stored, void* user) {
  g_updates += strcmp(key, "w") == 0 && user == (void*)&g_updates;
  int rc = weft_ndarray_copy(recv, stored);
  weft_ndarray_free(recv);
  weft_ndarray_free(stored);
  return rc;
}

int main(void) {
  weft_kvstore* kv = NULL;
  EXPECT(weft_kvstore_create("device", &kv) == WEFT_OK);
  const char* type = NULL;
  int rank = -1, workers = -1;
  EXPECT(weft_kvstore_type(kv, &type) == WEFT_OK && strcmp(type, "device") == 0);
  EXPECT(weft_kvstore_rank(kv, &rank) == WEFT_OK && rank == 0);
  EXPECT(weft_kvstore_num_workers(kv, &workers) == WEFT_OK && workers == 1);

  const char* key[2] = {"w", "w"};
  weft_ndarray* init = filled(1.0f, 0);
  EXPECT(weft_kvstore_init(kv, 1, key, &init) == WEFT_OK);

  weft_ndarray* grads[2] = {filled(2.0f, 0), filled(3.0f, 1)};
  EXPECT(weft_kvstore_push(kv, 2, key, grads, 0) == WEFT_OK);
  weft_ndarray* outs[2] = {filled(0.0f, 0), filled(0.0f, 1)};
  EXPECT(weft_kvstore_pull(kv, 2, key, outs, 0) == WEFT_OK);
  EXPECT(first(outs[0]) == 5.0f && first(outs[1]) == 5.0f); /* no updater: the sum */

  EXPECT(weft_kvstore_set_updater(kv, copy_updater, &g_updates) == WEFT_OK);
  EXPECT(weft_kvstore_pushpull(kv, 2, key, grads, 2, key, outs, 0) == WEFT_OK);
  EXPECT(g_updates == 1);
  EXPECT(first(outs[0]) == 5.0f && first(outs[1]) == 5.0f);

  /* errors: wrong shape names the key; unknown key; dist type without a job; NULLs */
  int64_t three = 3;
  weft_ndarray* wrong = NULL;
  EXPECT(weft_ndarray_create(&three, 1, 0, 1, 0, &wrong) == WEFT_OK);
  EXPECT(weft_kvstore_push(kv, 1, key, &wrong, 0) == WEFT_ERR_SHAPE);
  EXPECT(strstr(weft_last_error(), "key 'w'") != NULL);
  const char* missing = "missing";
  EXPECT(weft_kvstore_pull(kv, 1, &missing, outs, 0) == WEFT_ERR_NOT_FOUND);
  EXPECT(weft_kvstore_create("bogus", &kv) == WEFT_ERR_INVALID_ARGUMENT);
  EXPECT(weft_kvstore_push(kv, 1, key, NULL, 0) == WEFT_ERR_INVALID_ARGUMENT);
  EXPECT(weft_kvstore_barrier(kv) == WEFT_OK);

  weft_ndarray_free(wrong);
  weft_ndarray_free(init);
  for (int i = 0; i < 2; ++i) {
    weft_ndarray_free(grads[i]);
    weft_ndarray_free(outs[i]);
  }
  weft_kvstore_free(kv);
  weft_kvstore_free(NULL);
  if (g_failures) fprintf(stderr, "%d expectation(s) failed\n", g_failures);
  return g_failures ? 1 : 0;
}
