/* Plain C99 test of the C ABI: create, copy, op invoke, views, errors, save/load, stats, shutdown. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weft/c_api.h"

#include "expect.h"

static weft_ndarray* make_f32(const int64_t* shape, int ndim, const float* data, size_t n) {
  weft_ndarray* a = NULL;
  EXPECT(weft_ndarray_create(shape, ndim, 0, 1, 0, &a) == WEFT_OK);
  EXPECT(weft_ndarray_copy_from_host(a, data, n * sizeof(float)) == WEFT_OK);
  return a;
}

static void test_basics(void) {
  int64_t shape[2] = {2, 3};
  float x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {10, 20, 30, 40, 50, 60}, out[6];
  weft_ndarray* a = make_f32(shape, 2, x, 6);
  weft_ndarray* b = make_f32(shape, 2, y, 6);
  int ndim = 0, dev_id = -1;
  enum weft_dtype dtype = WEFT_DTYPE_UNKNOWN;
  enum weft_dev_type dev_type = WEFT_DEV_TYPE_GPU;
  const int64_t* s = NULL;
  EXPECT(weft_ndarray_shape(a, &ndim, &s) == WEFT_OK && ndim == 2 && s[0] == 2 && s[1] == 3);
  EXPECT(weft_ndarray_dtype(a, &dtype) == WEFT_OK && dtype == WEFT_DTYPE_FLOAT32 && dtype == 0);
  EXPECT(weft_ndarray_context(a, &dev_type, &dev_id) == WEFT_OK && dev_type == WEFT_DEV_TYPE_CPU && dev_id == 0);
  /* The enums carry the same codes plain ints did (the ABI is unchanged). */
  EXPECT(sizeof(enum weft_dtype) == sizeof(int) && sizeof(enum weft_dev_type) == sizeof(int));
  weft_ndarray* h = NULL;
  EXPECT(weft_ndarray_create(shape, 2, WEFT_DTYPE_BFLOAT16, WEFT_DEV_TYPE_CPU_PINNED, 0, &h) == WEFT_OK);
  EXPECT(weft_ndarray_dtype(h, &dtype) == WEFT_OK && dtype == WEFT_DTYPE_BFLOAT16 && dtype == 12);
  EXPECT(weft_ndarray_context(h, &dev_type, &dev_id) == WEFT_OK && dev_type == WEFT_DEV_TYPE_CPU_PINNED);
  weft_ndarray_free(h);

  const weft_op* add = NULL;
  EXPECT(weft_op_find("elemwise_add", &add) == WEFT_OK);
  weft_ndarray* ins[2] = {a, b};
  int nout = 0;
  weft_ndarray** outs = NULL;
  EXPECT(weft_op_invoke(add, 2, ins, &nout, &outs, 0, NULL, NULL) == WEFT_OK && nout == 1);
  weft_ndarray* c = outs[0];
  EXPECT(weft_ndarray_copy_to_host(c, out, sizeof(out)) == WEFT_OK);
  for (int i = 0; i < 6; ++i) EXPECT(out[i] == x[i] + y[i]);

  /* In place through out=: c = c + 1.5 */
  const weft_op* plus_scalar = NULL;
  EXPECT(weft_op_find("_plus_scalar", &plus_scalar) == WEFT_OK);
  const char* keys[1] = {"scalar"};
  const char* vals[1] = {"1.5"};
  weft_ndarray* cin[1] = {c};
  weft_ndarray* cout_arr[1] = {c};
  weft_ndarray** cout_ptr = cout_arr;
  nout = 1;
  EXPECT(weft_op_invoke(plus_scalar, 1, cin, &nout, &cout_ptr, 1, keys, vals) == WEFT_OK);
  EXPECT(weft_ndarray_copy_to_host(c, out, sizeof(out)) == WEFT_OK);
  for (int i = 0; i < 6; ++i) EXPECT(fabsf(out[i] - (x[i] + y[i] + 1.5f)) < 1e-6f);

  /* A view shares memory: row 1 of a. */
  weft_ndarray* row = NULL;
  int shares = 0;
  EXPECT(weft_ndarray_at(a, 1, &row) == WEFT_OK);
  EXPECT(weft_ndarray_shares_memory(a, row, &shares) == WEFT_OK && shares == 1);
  float r[3];
  EXPECT(weft_ndarray_copy_to_host(row, r, sizeof(r)) == WEFT_OK && r[0] == 4 && r[2] == 6);

  /* Errors: shape mismatch names the op; unknown op; bad attribute. */
  int64_t other[1] = {4};
  weft_ndarray* d = NULL;
  EXPECT(weft_ndarray_create(other, 1, 0, 1, 0, &d) == WEFT_OK);
  weft_ndarray* bad[2] = {a, d};
  nout = 0;
  EXPECT(weft_op_invoke(add, 2, bad, &nout, &outs, 0, NULL, NULL) == WEFT_ERR_SHAPE);
  EXPECT(strstr(weft_last_error(), "elemwise_add") != NULL);
  const weft_op* none = NULL;
  EXPECT(weft_op_find("no_such_op", &none) == WEFT_ERR_NOT_FOUND);
  const char* bkeys[1] = {"scalr"};
  nout = 0;
  EXPECT(weft_op_invoke(plus_scalar, 1, cin, &nout, &outs, 1, bkeys, vals) == WEFT_ERR_INVALID_ARGUMENT);
  EXPECT(strstr(weft_last_error(), "scalr") != NULL);
  EXPECT(weft_ndarray_create(shape, 2, 99, 1, 0, &d) == WEFT_ERR_DTYPE);
  EXPECT(weft_ndarray_copy_to_host(a, out, 3) == WEFT_ERR_SHAPE);

  /* Save / load round trip through a buffer. */
  const char* buf = NULL;
  size_t size = 0;
  weft_ndarray* arrs[1] = {a};
  const char* names[1] = {"arg:x"};
  EXPECT(weft_ndarray_save_to_buffer(1, arrs, names, &buf, &size) == WEFT_OK && size > 24);
  char* copy = (char*)malloc(size);
  memcpy(copy, buf, size);
  int n = 0, nkeys = 0;
  weft_ndarray** loaded = NULL;
  const char** lkeys = NULL;
  EXPECT(weft_ndarray_load_from_buffer(copy, size, &n, &loaded, &nkeys, &lkeys) == WEFT_OK);
  EXPECT(n == 1 && nkeys == 1 && strcmp(lkeys[0], "arg:x") == 0);
  if (n == 1) {
    float back[6];
    EXPECT(weft_ndarray_copy_to_host(loaded[0], back, sizeof(back)) == WEFT_OK);
    EXPECT(memcmp(back, x, sizeof(back)) == 0);
    weft_ndarray_free(loaded[0]);
  }
  EXPECT(weft_ndarray_load_from_buffer(copy, size - 3, &n, &loaded, &nkeys, &lkeys) == WEFT_ERR_IO);

  /* NumPy-shape mode: the same bytes but for the record's magic, V3 (0xF993FACA) for V2. */
  const char* npbuf = NULL;
  size_t npsize = 0;
  EXPECT(weft_ndarray_save_to_buffer_ex(1, arrs, names, 1, &npbuf, &npsize) == WEFT_OK && npsize == size);
  if (npsize == size) {
    uint32_t v2 = 0, v3 = 0;
    memcpy(&v2, copy + 24, 4);
    memcpy(&v3, npbuf + 24, 4);
    EXPECT(v2 == 0xF993FAC9u && v3 == 0xF993FACAu);
    EXPECT(memcmp(npbuf, copy, 24) == 0 && memcmp(npbuf + 28, copy + 28, size - 28) == 0);
  }
  EXPECT(weft_ndarray_save_to_buffer_ex(1, arrs, names, 0, &npbuf, &npsize) == WEFT_OK && npsize == size
         && memcmp(npbuf, copy, size) == 0);
  free(copy);

  weft_storage_stats st;
  EXPECT(weft_storage_stats_get(1, 0, &st) == WEFT_OK && st.bytes_in_use > 0 && st.peak_bytes_in_use >= st.bytes_in_use);
  EXPECT(weft_wait_all() == WEFT_OK);

  weft_ndarray_free(a);
  weft_ndarray_free(b);
  weft_ndarray_free(c);
  weft_ndarray_free(row);
  weft_ndarray_free(d);
  weft_ndarray_free(NULL);
}

static void test_listing(void) {
  int n = 0;
  const char** names = NULL;
  EXPECT(weft_op_list(&n, &names) == WEFT_OK && n > 50);
  const weft_op* op = NULL;
  EXPECT(weft_op_find(names[0], &op) == WEFT_OK);
  const char* json = NULL;
  EXPECT(weft_op_schema(op, &json) == WEFT_OK && strstr(json, "\"params\"") != NULL);
  EXPECT(weft_abi_version() == WEFT_ABI_VERSION);
  EXPECT(strlen(weft_version()) > 0);
}

/* Last: weft_shutdown is final for the process (Note [Engine shutdown] in core/engine/engine.h). */
static void test_shutdown(void) {
  int64_t shape[1] = {4};
  float x[4] = {1, 2, 3, 4}, out[4] = {0, 0, 0, 0};
  weft_ndarray* a = make_f32(shape, 1, x, 4);
  EXPECT(weft_shutdown() == WEFT_OK);
  EXPECT(weft_shutdown() == WEFT_OK); /* idempotent */
  EXPECT(weft_ndarray_copy_from_host(a, x, sizeof x) == WEFT_ERR_ENGINE);
  EXPECT(strstr(weft_last_error(), "engine was shut down") != NULL);
  EXPECT(weft_ndarray_copy_to_host(a, out, sizeof out) == WEFT_OK && out[3] == 4);
  weft_ndarray_free(a);
}

int main(void) {
  test_basics();
  test_listing();
  test_shutdown();
  if (g_failures) {
    fprintf(stderr, "%d expectation(s) failed\n", g_failures);
    return 1;
  }
  printf("c_api: all expectations passed\n");
  return 0;
}
