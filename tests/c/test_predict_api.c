/* Plain C99 test of the predict API (weft/c_predict_api.h): a small
 * FullyConnected + relu model built here (parameters saved with and without
 * "arg:" prefixes, results checked against a computation done here), the CNN
 * written by MXNet 1.9.1 in ../shared/fixtures checked against MXNet's
 * recorded output (cnn-io.npz, read by the tiny .npz reader below), partial
 * outputs, reshape, and every kind of bad input — after each error the library
 * keeps working. Run from the repository root. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weft/c_api.h"
#include "weft/c_predict_api.h"

#include "expect.h"

/* The call fails (nonzero) and weft_last_error() contains `needle`. */
#define EXPECT_FAIL(call, needle)                                                                         \
  do {                                                                                                    \
    int rc_ = (call);                                                                                     \
    if (rc_ == 0 || strstr(weft_last_error(), (needle)) == NULL) {                                        \
      fprintf(stderr, "%s:%d: expected %s to fail with a message containing '%s'; got status %d, "       \
                      "message: %s\n",                                                                    \
              __FILE__, __LINE__, #call, (needle), rc_, weft_last_error());                              \
      g_failures++;                                                                                       \
    }                                                                                                     \
  } while (0)

#define FIXTURES "../shared/fixtures/"

/* ---- files ------------------------------------------------------------ */

static char* read_file(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    g_failures++;
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* buf = malloc((size_t)n + 1);
  size_t got = fread(buf, 1, (size_t)n, f);
  fclose(f);
  buf[got] = '\0';
  *size = got;
  return buf;
}

static uint32_t le32(const unsigned char* p) { return p[0] | (p[1] << 8) | (p[2] << 16) | ((uint32_t)p[3] << 24); }
static uint16_t le16(const unsigned char* p) { return (uint16_t)(p[0] | (p[1] << 8)); }

/* Finds `name`.npy among the stored (uncompressed) entries of a .npz and
 * returns its float32 data (little-endian, C order) and element count. NULL
 * when the entry is missing or not '<f4' stored uncompressed. */
static const float* npz_f32(const char* zip, size_t size, const char* name, size_t* count) {
  size_t pos = 0, want = strlen(name);
  while (pos + 30 <= size && le32((const unsigned char*)zip + pos) == 0x04034b50u) {
    const unsigned char* h = (const unsigned char*)zip + pos;
    uint16_t method = le16(h + 8), name_len = le16(h + 26), extra_len = le16(h + 28);
    uint64_t data_size = le32(h + 18);
    const char* entry = zip + pos + 30;
    const char* data = entry + name_len + extra_len;
    if (data > zip + size) return NULL;
    /* numpy writes zip64 entries: the sizes are in the 0x0001 extra field. */
    for (const unsigned char* x = (const unsigned char*)entry + name_len;
         data_size == 0xffffffffu && x + 4 <= (const unsigned char*)data;) {
      uint16_t id = le16(x), len = le16(x + 2);
      if (id == 1 && len >= 16) data_size = le32(x + 12) | ((uint64_t)le32(x + 16) << 32);
      x += 4 + len;
    }
    if (data_size > (uint64_t)(zip + size - data)) return NULL;
    if (name_len == want + 4 && memcmp(entry, name, want) == 0 && memcmp(entry + want, ".npy", 4) == 0) {
      if (method != 0 || data_size < 10 || memcmp(data, "\x93NUMPY", 6) != 0) return NULL;
      size_t header_len = (unsigned char)data[6] == 1 ? le16((const unsigned char*)data + 8)
                                                        : le32((const unsigned char*)data + 8);
      size_t header_at = (unsigned char)data[6] == 1 ? 10 : 12;
      char header[512];
      if (header_len >= sizeof header) return NULL;
      memcpy(header, data + header_at, header_len);
      header[header_len] = '\0';
      if (!strstr(header, "'<f4'") || strstr(header, "'fortran_order': True")) return NULL;
      *count = (data_size - header_at - header_len) / 4;
      return (const float*)(data + header_at + header_len);
    }
    pos = (size_t)(data - zip) + data_size;
  }
  return NULL;
}

/* b may point into a zip member at any byte offset: read it with memcpy. */
static float max_abs_diff(const float* a, const float* b, size_t n) {
  float m = 0;
  for (size_t i = 0; i < n; ++i) {
    float bi;
    memcpy(&bi, (const char*)b + i * sizeof(float), sizeof(float));
    float d = fabsf(a[i] - bi);
    if (!(d <= m)) m = d; /* NaN counts as a failure */
  }
  return m;
}

/* ---- a small model built here ----------------------------------------- */

static const char* kFcJson =
    "{\"nodes\": ["
    "{\"op\": \"null\", \"name\": \"data\", \"inputs\": []},"
    "{\"op\": \"null\", \"name\": \"fc_weight\", \"inputs\": []},"
    "{\"op\": \"null\", \"name\": \"fc_bias\", \"inputs\": []},"
    "{\"op\": \"FullyConnected\", \"name\": \"fc\", \"attrs\": {\"num_hidden\": \"2\"},"
    " \"inputs\": [[0, 0, 0], [1, 0, 0], [2, 0, 0]]},"
    "{\"op\": \"Activation\", \"name\": \"relu\", \"attrs\": {\"act_type\": \"relu\"}, \"inputs\": [[3, 0, 0]]}],"
    "\"arg_nodes\": [0, 1, 2], \"node_row_ptr\": [0, 1, 2, 3, 4, 5], \"heads\": [[4, 0, 0]],"
    "\"attrs\": {\"mxnet_version\": [\"int\", 10901]}}";

static const float kW[6] = {1, -2, 0.5f, -1, 0.25f, 3}; /* (2, 3) */
static const float kB[2] = {0.5f, -4};

/* Saves weight and bias (with the given names and weight shape) to a malloc'd buffer. */
static char* save_params(const char* wname, const char* bname, int64_t wcols, size_t* size) {
  int64_t ws[2] = {2, wcols}, bs[1] = {2};
  float w[8] = {0};
  memcpy(w, kW, sizeof kW);
  weft_ndarray* arrs[2] = {NULL, NULL};
  EXPECT(weft_ndarray_create(ws, 2, 0, 1, 0, &arrs[0]) == 0);
  EXPECT(weft_ndarray_copy_from_host(arrs[0], w, (size_t)(2 * wcols) * sizeof(float)) == 0);
  EXPECT(weft_ndarray_create(bs, 1, 0, 1, 0, &arrs[1]) == 0);
  EXPECT(weft_ndarray_copy_from_host(arrs[1], kB, sizeof kB) == 0);
  const char* keys[2] = {wname, bname};
  const char* buf = NULL;
  EXPECT(weft_ndarray_save_to_buffer(bname ? 2 : 1, arrs, keys, &buf, size) == 0);
  char* copy = malloc(*size);
  memcpy(copy, buf, *size);
  weft_ndarray_free(arrs[0]);
  weft_ndarray_free(arrs[1]);
  return copy;
}

/* relu(x W^T + b) for rows of 3 (pre_relu: without the relu). */
static void fc_reference(const float* x, int rows, int pre_relu, float* out) {
  for (int r = 0; r < rows; ++r)
    for (int j = 0; j < 2; ++j) {
      float s = kB[j];
      for (int k = 0; k < 3; ++k) s += x[r * 3 + k] * kW[j * 3 + k];
      out[r * 2 + j] = pre_relu || s > 0 ? s : 0;
    }
}

static weft_predictor* create_fc(const char* params, size_t size, int64_t batch) {
  const char* names[1] = {"data"};
  int64_t indptr[2] = {0, 2}, shape[2] = {batch, 3};
  weft_predictor* p = NULL;
  EXPECT(weft_pred_create(kFcJson, params, size, 1, 0, 1, names, indptr, shape, &p) == 0);
  return p;
}

/* Sets `x` (rows x 3), runs, and checks output 0 against the reference. */
static void check_fc_run(weft_predictor* p, const float* x, int rows, int pre_relu) {
  float got[16], want[16];
  EXPECT(weft_pred_set_input(p, "data", x, (size_t)rows * 3 * sizeof(float)) == 0);
  EXPECT(weft_pred_forward(p) == 0);
  EXPECT(weft_pred_get_output(p, 0, got, (size_t)rows * 2 * sizeof(float)) == 0);
  fc_reference(x, rows, pre_relu, want);
  EXPECT(max_abs_diff(got, want, (size_t)rows * 2) < 1e-5f);
}

static const float kX[12] = {1, 2, 3, -1, 0.5f, 2, 0, 0, 1, 4, -3, 0.5f};

static void test_fc_model(void) {
  size_t size = 0;
  char* params = save_params("arg:fc_weight", "arg:fc_bias", 3, &size);
  weft_predictor* p = create_fc(params, size, 2);
  if (!p) {
    free(params);
    return;
  }
  int n = 0, ndim = 0, dtype = -1;
  const char* name = NULL;
  const int64_t* shape = NULL;
  EXPECT(weft_pred_num_inputs(p, &n) == 0 && n == 1);
  EXPECT(weft_pred_input_name(p, 0, &name) == 0 && strcmp(name, "data") == 0);
  EXPECT(weft_pred_input_shape(p, 0, &shape, &ndim) == 0 && ndim == 2 && shape[0] == 2 && shape[1] == 3);
  EXPECT(weft_pred_input_dtype(p, 0, &dtype) == 0 && dtype == 0);
  EXPECT(weft_pred_num_outputs(p, &n) == 0 && n == 1);
  EXPECT(weft_pred_output_name(p, 0, &name) == 0 && strcmp(name, "relu_output") == 0);
  EXPECT(weft_pred_output_shape(p, 0, &shape, &ndim) == 0 && ndim == 2 && shape[0] == 2 && shape[1] == 2);
  EXPECT(weft_pred_output_dtype(p, 0, &dtype) == 0 && dtype == 0);
  check_fc_run(p, kX, 2, 0);
  check_fc_run(p, kX + 6, 2, 0); /* a second input through the same predictor */

  /* Reshape to batch 4: shares the parameter arrays; the original still works. */
  const char* names[1] = {"data"};
  int64_t indptr[2] = {0, 2}, shape4[2] = {4, 3};
  weft_predictor* p4 = NULL;
  EXPECT(weft_pred_reshape(p, 1, names, indptr, shape4, &p4) == 0);
  if (p4) {
    EXPECT(weft_pred_output_shape(p4, 0, &shape, &ndim) == 0 && ndim == 2 && shape[0] == 4 && shape[1] == 2);
    check_fc_run(p4, kX, 4, 0);
    /* Reshape with no names keeps the shapes. */
    weft_predictor* same = NULL;
    EXPECT(weft_pred_reshape(p4, 0, NULL, NULL, NULL, &same) == 0);
    if (same) check_fc_run(same, kX, 4, 0);
    weft_pred_free(same);
  }
  check_fc_run(p, kX, 2, 0);
  weft_pred_free(p4);

  /* Parameters without prefixes load too. */
  size_t plain_size = 0;
  char* plain = save_params("fc_weight", "fc_bias", 3, &plain_size);
  weft_predictor* q = create_fc(plain, plain_size, 4);
  if (q) check_fc_run(q, kX, 4, 0);
  weft_pred_free(q);
  free(plain);

  /* Partial outputs: an internal entry name and a node name. */
  const char* outs[2] = {"fc_output", "relu"};
  int64_t shape2[2] = {2, 3};
  weft_predictor* part = NULL;
  EXPECT(weft_pred_create_partial(kFcJson, params, size, 1, 0, 1, names, indptr, shape2, 2, outs, &part) == 0);
  if (part) {
    float got[4], want[4];
    EXPECT(weft_pred_num_outputs(part, &n) == 0 && n == 2);
    EXPECT(weft_pred_output_name(part, 0, &name) == 0 && strcmp(name, "fc_output") == 0);
    EXPECT(weft_pred_output_name(part, 1, &name) == 0 && strcmp(name, "relu_output") == 0);
    check_fc_run(part, kX, 2, 1);
    EXPECT(weft_pred_get_output(part, 1, got, sizeof got) == 0);
    fc_reference(kX, 2, 0, want);
    EXPECT(max_abs_diff(got, want, 4) < 1e-5f);
  }
  weft_pred_free(part);
  weft_pred_free(p);
  free(params);
}

/* ---- bad input ---------------------------------------------------------- */

static void test_errors(void) {
  size_t size = 0, missing_size = 0, wrong_size = 0;
  char* params = save_params("arg:fc_weight", "arg:fc_bias", 3, &size);
  char* missing = save_params("arg:fc_weight", NULL, 3, &missing_size); /* no fc_bias */
  char* wrong = save_params("arg:fc_weight", "arg:fc_bias", 4, &wrong_size);  /* weight (2, 4) */
  const char* names[1] = {"data"};
  const char* bad_names[1] = {"datum"};
  int64_t indptr[2] = {0, 2}, shape[2] = {2, 3};
  weft_predictor* p = NULL;

  EXPECT_FAIL(weft_pred_create("{\"nodes\": [", params, size, 1, 0, 1, names, indptr, shape, &p), "symbol");
  EXPECT(p == NULL);
  EXPECT_FAIL(weft_pred_create(kFcJson, missing, missing_size, 1, 0, 1, names, indptr, shape, &p), "fc_bias");
  EXPECT(p == NULL);
  EXPECT_FAIL(weft_pred_create(kFcJson, wrong, wrong_size, 1, 0, 1, names, indptr, shape, &p), "fc_weight");
  EXPECT(strstr(weft_last_error(), "(2, 4)") != NULL && strstr(weft_last_error(), "(2, 3)") != NULL);
  EXPECT(p == NULL);
  EXPECT_FAIL(weft_pred_create(kFcJson, params, size, 1, 0, 1, bad_names, indptr, shape, &p), "datum");
  EXPECT(p == NULL);
  EXPECT_FAIL(weft_pred_create(kFcJson, params, size / 2, 1, 0, 1, names, indptr, shape, &p), "parameter");
  EXPECT(p == NULL);
  EXPECT_FAIL(weft_pred_create(kFcJson, params, size, 7, 0, 1, names, indptr, shape, &p), "dev");
  EXPECT(p == NULL);
  EXPECT_FAIL(weft_pred_create(NULL, params, size, 1, 0, 1, names, indptr, shape, &p), "symbol_json");
  const char* no_such[1] = {"fc2_output"};
  EXPECT_FAIL(weft_pred_create_partial(kFcJson, params, size, 1, 0, 1, names, indptr, shape, 1, no_such, &p),
              "fc2_output");
  EXPECT(p == NULL);

  p = create_fc(params, size, 2);
  if (p) {
    float buf[6] = {0};
    const char* name = NULL;
    const int64_t* s = NULL;
    int ndim = 0;
    EXPECT_FAIL(weft_pred_set_input(p, "data", buf, 5 * sizeof(float)), "data");
    EXPECT(strstr(weft_last_error(), "24") != NULL && strstr(weft_last_error(), "20") != NULL);
    EXPECT_FAIL(weft_pred_set_input(p, "datum", buf, 6 * sizeof(float)), "datum");
    EXPECT(weft_pred_forward(p) == 0);
    EXPECT_FAIL(weft_pred_get_output(p, 0, buf, 3 * sizeof(float)), "relu_output");
    EXPECT_FAIL(weft_pred_get_output(p, 1, buf, 4 * sizeof(float)), "out of range");
    EXPECT_FAIL(weft_pred_get_output(p, -1, buf, 4 * sizeof(float)), "negative");
    EXPECT_FAIL(weft_pred_output_name(p, 3, &name), "out of range");
    EXPECT_FAIL(weft_pred_output_shape(p, 1, &s, &ndim), "out of range");
    EXPECT_FAIL(weft_pred_input_name(p, 1, &name), "out of range");
    EXPECT_FAIL(weft_pred_input_shape(p, -1, &s, &ndim), "out of range");
    weft_predictor* r = NULL;
    EXPECT_FAIL(weft_pred_reshape(p, 1, bad_names, indptr, shape, &r), "datum");
    EXPECT(r == NULL);
    int64_t bad_shape[2] = {2, 5}; /* the weight is (2, 3) */
    EXPECT_FAIL(weft_pred_reshape(p, 1, names, indptr, bad_shape, &r), "fc_weight");
    EXPECT(r == NULL);
    /* Still works after all of that. */
    check_fc_run(p, kX, 2, 0);
  }
  weft_pred_free(p);
  weft_pred_free(NULL);
  free(params);
  free(missing);
  free(wrong);
}

/* ---- the CNN written by MXNet 1.9.1 --------------------------------------- */

static void test_mxnet_cnn(void) {
  size_t json_size = 0, params_size = 0, npz_size = 0, n_in = 0, n_out = 0;
  char* json = read_file(FIXTURES "cnn-symbol.json", &json_size);
  char* params = read_file(FIXTURES "cnn-0000.params", &params_size);
  char* npz = read_file(FIXTURES "cnn-io.npz", &npz_size);
  const float* x = npz ? npz_f32(npz, npz_size, "data", &n_in) : NULL;
  const float* want = npz ? npz_f32(npz, npz_size, "output", &n_out) : NULL;
  EXPECT(x != NULL && n_in == 2 * 3 * 8 * 8);
  EXPECT(want != NULL && n_out == 2 * 5);
  if (!json || !params || !x || !want) goto done;

  const char* names[1] = {"data"};
  int64_t indptr[2] = {0, 4}, shape[4] = {2, 3, 8, 8};
  weft_predictor* p = NULL;
  EXPECT(weft_pred_create(json, params, params_size, 1, 0, 1, names, indptr, shape, &p) == 0);
  if (p) {
    float got[10];
    EXPECT(weft_pred_set_input(p, "data", x, n_in * sizeof(float)) == 0);
    EXPECT(weft_pred_forward(p) == 0);
    EXPECT(weft_pred_get_output(p, 0, got, sizeof got) == 0);
    EXPECT(max_abs_diff(got, want, 10) < 1e-4f);

    /* Batch 1 through a reshaped predictor: row 0 of MXNet's output. */
    int64_t shape1[4] = {1, 3, 8, 8};
    weft_predictor* p1 = NULL;
    EXPECT(weft_pred_reshape(p, 1, names, indptr, shape1, &p1) == 0);
    if (p1) {
      float one[5];
      EXPECT(weft_pred_set_input(p1, "data", x, n_in / 2 * sizeof(float)) == 0);
      EXPECT(weft_pred_forward(p1) == 0);
      EXPECT(weft_pred_get_output(p1, 0, one, sizeof one) == 0);
      EXPECT(max_abs_diff(one, want, 5) < 1e-4f);
    }
    weft_pred_free(p1);
  }
  weft_pred_free(p);

  /* Feature extraction: the flattened features and the first dense layer. */
  const char* outs[2] = {"cnn_flatten0_flatten0_output", "cnn_dense0_fwd"};
  weft_predictor* f = NULL;
  EXPECT(weft_pred_create_partial(json, params, params_size, 1, 0, 1, names, indptr, shape, 2, outs, &f) == 0);
  if (f) {
    const int64_t* s = NULL;
    int ndim = 0;
    EXPECT(weft_pred_output_shape(f, 0, &s, &ndim) == 0 && ndim == 2 && s[0] == 2 && s[1] == 64);
    EXPECT(weft_pred_output_shape(f, 1, &s, &ndim) == 0 && ndim == 2 && s[0] == 2 && s[1] == 16);
    float feats[2 * 64];
    EXPECT(weft_pred_set_input(f, "data", x, n_in * sizeof(float)) == 0);
    EXPECT(weft_pred_forward(f) == 0);
    EXPECT(weft_pred_get_output(f, 0, feats, sizeof feats) == 0);
    /* After relu and max pooling every feature is >= 0, and some are > 0. */
    int positive = 0, negative = 0;
    for (int i = 0; i < 2 * 64; ++i) {
      positive += feats[i] > 0;
      negative += feats[i] < 0;
    }
    EXPECT(positive > 0 && negative == 0);
  }
  weft_pred_free(f);

done:
  free(json);
  free(params);
  free(npz);
}

int main(void) {
  test_fc_model();
  test_errors();
  test_mxnet_cnn();
  if (g_failures) fprintf(stderr, "%d expectation(s) failed\n", g_failures);
  else printf("predict API: all expectations met\n");
  return g_failures ? 1 : 0;
}
