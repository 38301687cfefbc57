/* Plain C99 test of the symbol and executor C ABI, end to end: variables, composition
 * (FullyConnected, Activation, SoftmaxOutput, BatchNorm), listing, attributes, JSON round
 * trip, shape / type inference, bind, forward, backward (checked against a computation done
 * here), grad_req add, internal bytes, and errors for bad input. Every handle is freed
 * (valgrind --leak-check=full clean). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weft/c_api.h"

#include "expect.h"

/* The call fails with status `code` and weft_last_error() contains `needle`. */
#define EXPECT_ERROR(call, code, needle)                                                               \
  do {                                                                                                 \
    int rc_ = (call);                                                                                  \
    if (rc_ != (code) || strstr(weft_last_error(), (needle)) == NULL) {                                \
      fprintf(stderr, "%s:%d: expected %s to fail with status %d and a message containing '%s'; got " \
                      "status %d, message: %s\n",                                                      \
              __FILE__, __LINE__, #call, (int)(code), (needle), rc_, weft_last_error());              \
      g_failures++;                                                                                    \
    }                                                                                                  \
  } while (0)

/* A call expected to fail leaves its result NULL (freed anyway, to stay leak-free). */
#define EXPECT_NO_SYMBOL(p)     \
  do {                          \
    EXPECT((p) == NULL);        \
    weft_symbol_free(p);        \
    (p) = NULL;                 \
  } while (0)
#define EXPECT_NO_EXECUTOR(p)   \
  do {                          \
    EXPECT((p) == NULL);        \
    weft_executor_free(p);      \
    (p) = NULL;                 \
  } while (0)

#define N 2  /* batch */
#define D 3  /* input features */
#define H 4  /* hidden units = classes */

static const weft_op* find_op(const char* name) {
  const weft_op* op = NULL;
  EXPECT(weft_op_find(name, &op) == WEFT_OK && op != NULL);
  return op;
}

static weft_ndarray* make_f32(const int64_t* shape, int ndim, const float* data, size_t n) {
  weft_ndarray* a = NULL;
  EXPECT(weft_ndarray_create(shape, ndim, 0, 1, 0, &a) == WEFT_OK);
  if (a && data) EXPECT(weft_ndarray_copy_from_host(a, data, n * sizeof(float)) == WEFT_OK);
  return a;
}

static void read_f32(const weft_ndarray* a, float* out, size_t n) {
  EXPECT(weft_ndarray_copy_to_host(a, out, n * sizeof(float)) == WEFT_OK);
}

/* No libm: the tests link only libweft (tests/CMakeLists.txt). */
static float abs_f(float x) { return x < 0.0f ? -x : x; }

static int close_to(float a, float b) { return abs_f(a - b) <= 1e-5f + 1e-4f * abs_f(b); }

/* exp(x) for the reference: x = k ln2 + r with |r| <= ln2 / 2, Taylor series for e^r. */
static double exp_d(double x) {
  const double ln2 = 0.69314718055994530942;
  int k = (int)(x / ln2 + (x < 0 ? -0.5 : 0.5));
  double r = x - k * ln2, term = 1.0, sum = 1.0;
  for (int i = 1; i < 30; ++i) {
    term *= r / i;
    sum += term;
  }
  for (; k > 0; --k) sum *= 2.0;
  for (; k < 0; ++k) sum *= 0.5;
  return sum;
}

/* 1 when the thread-local name list equals expected[0..n). */
static int names_equal(int n, const char** names, const char* const* expected, int n_expected) {
  if (n != n_expected) return 0;
  for (int i = 0; i < n; ++i)
    if (strcmp(names[i], expected[i]) != 0) return 0;
  return 1;
}

static int list_equals(const weft_symbol* s, int which, const char* const* expected, int n_expected) {
  int n = -1;
  const char** names = NULL;
  if (weft_symbol_list(s, which, &n, &names) != WEFT_OK) return 0;
  return names_equal(n, names, expected, n_expected);
}

/* data -> FullyConnected(fc1, H) -> Activation(relu1, relu) -> SoftmaxOutput(softmax).
 * fc1's weight is a variable given by input name, its bias is created by compose. */
static weft_symbol* build_net(void) {
  weft_symbol *data = NULL, *weight = NULL, *fc = NULL, *act = NULL, *net = NULL;
  EXPECT(weft_symbol_create_variable("data", &data) == WEFT_OK);
  EXPECT(weft_symbol_create_variable("fc1_weight", &weight) == WEFT_OK);
  {
    const char* keys[1] = {"num_hidden"};
    const char* vals[1] = {"4"};
    weft_symbol* args[1] = {data};
    const char* kw_names[1] = {"weight"};
    weft_symbol* kw_args[1] = {weight};
    EXPECT(weft_symbol_compose(find_op("FullyConnected"), "fc1", 1, keys, vals, 1, args, 1, kw_names, kw_args,
                               &fc) == WEFT_OK);
  }
  {
    const char* keys[1] = {"act_type"};
    const char* vals[1] = {"relu"};
    weft_symbol* args[1] = {fc};
    EXPECT(weft_symbol_compose(find_op("Activation"), "relu1", 1, keys, vals, 1, args, 0, NULL, NULL, &act) ==
           WEFT_OK);
  }
  {
    weft_symbol* args[1] = {act};
    EXPECT(weft_symbol_compose(find_op("SoftmaxOutput"), "softmax", 0, NULL, NULL, 1, args, 0, NULL, NULL, &net) ==
           WEFT_OK);
  }
  /* The composed symbol holds its own references to the inputs' nodes. */
  weft_symbol_free(data);
  weft_symbol_free(weight);
  weft_symbol_free(fc);
  weft_symbol_free(act);
  return net;
}

static void test_structure(const weft_symbol* net) {
  static const char* const args[] = {"data", "fc1_weight", "fc1_bias", "softmax_label"};
  static const char* const outs[] = {"softmax_output"};
  EXPECT(list_equals(net, 0, args, 4));
  EXPECT(list_equals(net, 1, outs, 1));
  EXPECT(list_equals(net, 2, NULL, 0));
  EXPECT(list_equals(net, 3, args, 4));
  int n = 0;
  const char** names = NULL;
  EXPECT_ERROR(weft_symbol_list(net, 7, &n, &names), WEFT_ERR_INVALID_ARGUMENT, "which");

  const char* name = NULL;
  EXPECT(weft_symbol_name(net, &name) == WEFT_OK && strcmp(name, "softmax") == 0);
  EXPECT(weft_symbol_num_outputs(net, &n) == WEFT_OK && n == 1);

  /* Internals: every output of every node, post order. */
  weft_symbol* internals = NULL;
  EXPECT(weft_symbol_get_internals(net, &internals) == WEFT_OK);
  static const char* const inner[] = {"data",        "fc1_weight",    "fc1_bias",      "fc1_output",
                                      "relu1_output", "softmax_label", "softmax_output"};
  EXPECT(list_equals(internals, 1, inner, 7));
  weft_symbol* relu_out = NULL;
  EXPECT(weft_symbol_get_output(internals, 4, &relu_out) == WEFT_OK);
  EXPECT(weft_symbol_name(relu_out, &name) == WEFT_OK && strcmp(name, "relu1") == 0);
  weft_symbol* bad = NULL;
  EXPECT_ERROR(weft_symbol_get_output(internals, 99, &bad), WEFT_ERR_INVALID_ARGUMENT, "out of range");
  EXPECT(bad == NULL);
  EXPECT(weft_symbol_get_output(internals, -1, &bad) == WEFT_ERR_INVALID_ARGUMENT && bad == NULL);

  /* Children of the head: relu1's output and the label variable. */
  weft_symbol* children = NULL;
  EXPECT(weft_symbol_get_children(net, &children) == WEFT_OK);
  static const char* const kids[] = {"relu1_output", "softmax_label"};
  EXPECT(list_equals(children, 1, kids, 2));

  /* A group of two outputs has no single name. */
  weft_symbol* parts[2] = {relu_out, (weft_symbol*)net};
  weft_symbol* group = NULL;
  EXPECT(weft_symbol_group(2, parts, &group) == WEFT_OK);
  EXPECT(weft_symbol_num_outputs(group, &n) == WEFT_OK && n == 2);
  EXPECT(weft_symbol_name(group, &name) == WEFT_OK && strcmp(name, "") == 0);
  static const char* const gouts[] = {"relu1_output", "softmax_output"};
  EXPECT(list_equals(group, 1, gouts, 2));

  /* BatchNorm: moving statistics are auxiliary states. */
  weft_symbol *x = NULL, *bn = NULL;
  EXPECT(weft_symbol_create_variable("x", &x) == WEFT_OK);
  const char* k[1] = {"fix_gamma"};
  const char* v[1] = {"False"};
  EXPECT(weft_symbol_compose(find_op("BatchNorm"), "bn", 1, k, v, 1, &x, 0, NULL, NULL, &bn) == WEFT_OK);
  static const char* const bn_args[] = {"x", "bn_gamma", "bn_beta"};
  static const char* const bn_aux[] = {"bn_moving_mean", "bn_moving_var"};
  static const char* const bn_all[] = {"x", "bn_gamma", "bn_beta", "bn_moving_mean", "bn_moving_var"};
  EXPECT(list_equals(bn, 0, bn_args, 3));
  EXPECT(list_equals(bn, 2, bn_aux, 2));
  EXPECT(list_equals(bn, 3, bn_all, 5));

  weft_symbol_free(internals);
  weft_symbol_free(relu_out);
  weft_symbol_free(children);
  weft_symbol_free(group);
  weft_symbol_free(x);
  weft_symbol_free(bn);
}

static void test_attributes(const weft_symbol* net) {
  /* Attributes are set on a copy: the original does not see them. */
  weft_symbol* copy = NULL;
  EXPECT(weft_symbol_copy(net, &copy) == WEFT_OK);
  const char* value = NULL;
  int found = -1;
  EXPECT(weft_symbol_set_attr(copy, "__ctx_group__", "dev1") == WEFT_OK);
  EXPECT(weft_symbol_get_attr(copy, "__ctx_group__", &value, &found) == WEFT_OK && found == 1 &&
         strcmp(value, "dev1") == 0);
  EXPECT(weft_symbol_get_attr(net, "__ctx_group__", &value, &found) == WEFT_OK && found == 0);
  EXPECT(weft_symbol_get_attr(copy, "no_such_key", &value, &found) == WEFT_OK && found == 0);
  EXPECT(weft_symbol_set_attr(copy, "__ctx_group__", "dev2") == WEFT_OK);
  EXPECT(weft_symbol_get_attr(copy, "__ctx_group__", &value, &found) == WEFT_OK && found == 1 &&
         strcmp(value, "dev2") == 0);
  EXPECT_ERROR(weft_symbol_set_attr(NULL, "k", "v"), WEFT_ERR_INVALID_ARGUMENT, "");

  /* The operator parameter as stored text, on fc1 (via the internals). */
  weft_symbol *internals = NULL, *fc = NULL;
  EXPECT(weft_symbol_get_internals(copy, &internals) == WEFT_OK);
  EXPECT(weft_symbol_get_output(internals, 3, &fc) == WEFT_OK);
  EXPECT(weft_symbol_get_attr(fc, "num_hidden", &value, &found) == WEFT_OK && found == 1 &&
         strcmp(value, "4") == 0);

  int n = 0;
  const char** pairs = NULL;
  EXPECT(weft_symbol_list_attr(copy, 0, &n, &pairs) == WEFT_OK && n == 1 &&
         strcmp(pairs[0], "__ctx_group__") == 0 && strcmp(pairs[1], "dev2") == 0);
  EXPECT(weft_symbol_list_attr(copy, 1, &n, &pairs) == WEFT_OK);
  int saw_fc = 0, saw_head = 0, saw_act = 0;
  for (int i = 0; i < n; ++i) {
    if (strcmp(pairs[2 * i], "fc1$num_hidden") == 0 && strcmp(pairs[2 * i + 1], "4") == 0) saw_fc = 1;
    if (strcmp(pairs[2 * i], "relu1$act_type") == 0 && strcmp(pairs[2 * i + 1], "relu") == 0) saw_act = 1;
    if (strcmp(pairs[2 * i], "softmax$__ctx_group__") == 0 && strcmp(pairs[2 * i + 1], "dev2") == 0) saw_head = 1;
  }
  EXPECT(saw_fc && saw_act && saw_head);

  weft_symbol_free(internals);
  weft_symbol_free(fc);
  weft_symbol_free(copy);
}

static void test_json(const weft_symbol* net) {
  const char* json = NULL;
  EXPECT(weft_symbol_to_json(net, &json) == WEFT_OK && json != NULL);
  if (!json) return;
  char* first = (char*)malloc(strlen(json) + 1);
  strcpy(first, json);
  EXPECT(strstr(first, "\"op\": \"FullyConnected\"") != NULL);
  EXPECT(strstr(first, "\"num_hidden\": \"4\"") != NULL);
  EXPECT(strstr(first, "\"mxnet_version\"") != NULL);

  weft_symbol* back = NULL;
  EXPECT(weft_symbol_from_json(first, &back) == WEFT_OK);
  if (back) {
    EXPECT(weft_symbol_to_json(back, &json) == WEFT_OK && strcmp(json, first) == 0);
    static const char* const args[] = {"data", "fc1_weight", "fc1_bias", "softmax_label"};
    EXPECT(list_equals(back, 0, args, 4));
  }
  weft_symbol_free(back);
  free(first);

  /* Bad input: garbage, an unknown operator, entries out of range. */
  weft_symbol* bad = NULL;
  EXPECT_ERROR(weft_symbol_from_json("garbage{", &bad), WEFT_ERR_IO, "invalid JSON");
  EXPECT_NO_SYMBOL(bad);
  EXPECT_ERROR(weft_symbol_from_json("", &bad), WEFT_ERR_IO, "JSON");
  EXPECT_NO_SYMBOL(bad);
  EXPECT_ERROR(weft_symbol_from_json("{\"nodes\": []}", &bad), WEFT_ERR_IO, "arg_nodes");
  EXPECT_NO_SYMBOL(bad);
  EXPECT_ERROR(weft_symbol_from_json("{\"nodes\": [{\"op\": \"null\", \"name\": \"x\", \"inputs\": []},"
                                     " {\"op\": \"NoSuchOp\", \"name\": \"y\", \"inputs\": [[0, 0, 0]]}],"
                                     " \"arg_nodes\": [0], \"heads\": [[1, 0, 0]]}",
                                     &bad),
               WEFT_ERR_IO, "unknown operator 'NoSuchOp'");
  EXPECT(strstr(weft_last_error(), "'y'") != NULL);
  EXPECT_NO_SYMBOL(bad);
  EXPECT_ERROR(weft_symbol_from_json("{\"nodes\": [{\"op\": \"null\", \"name\": \"x\", \"inputs\": []},"
                                     " {\"op\": \"relu\", \"name\": \"y\", \"inputs\": [[0, 0, 0]]}],"
                                     " \"arg_nodes\": [0], \"heads\": [[5, 0, 0]]}",
                                     &bad),
               WEFT_ERR_IO, "entry refers to node 5");
  EXPECT(strstr(weft_last_error(), "heads") != NULL);
  EXPECT_NO_SYMBOL(bad);
  EXPECT_ERROR(weft_symbol_from_json("{\"nodes\": [{\"op\": \"null\", \"name\": \"x\", \"inputs\": []},"
                                     " {\"op\": \"relu\", \"name\": \"y\", \"inputs\": [[3, 0, 0]]}],"
                                     " \"arg_nodes\": [0], \"heads\": [[1, 0, 0]]}",
                                     &bad),
               WEFT_ERR_IO, "entry refers to node 3");
  EXPECT_NO_SYMBOL(bad);
  EXPECT_ERROR(weft_symbol_from_json("{\"nodes\": [{\"op\": \"null\", \"name\": \"x\", \"inputs\": []},"
                                     " {\"op\": \"relu\", \"name\": \"y\", \"inputs\": [[0, 2, 0]]}],"
                                     " \"arg_nodes\": [0], \"heads\": [[1, 0, 0]]}",
                                     &bad),
               WEFT_ERR_IO, "output 2");
  EXPECT_NO_SYMBOL(bad);
  EXPECT_ERROR(weft_symbol_from_json(NULL, &bad), WEFT_ERR_INVALID_ARGUMENT, "");
  EXPECT_NO_SYMBOL(bad);
}

static void test_compose_errors(void) {
  const weft_op* op = NULL;
  EXPECT_ERROR(weft_op_find("NoSuchOp", &op), WEFT_ERR_NOT_FOUND, "NoSuchOp");
  weft_symbol *x = NULL, *out = NULL;
  EXPECT(weft_symbol_create_variable("x", &x) == WEFT_OK);
  const weft_op* fc = find_op("FullyConnected");
  /* Missing required parameter, unknown parameter, bad value, unknown input name. */
  EXPECT_ERROR(weft_symbol_compose(fc, "f", 0, NULL, NULL, 1, &x, 0, NULL, NULL, &out), WEFT_ERR_INVALID_ARGUMENT,
               "num_hidden");
  EXPECT_NO_SYMBOL(out);
  const char* k2[2] = {"num_hidden", "bogus"};
  const char* v2[2] = {"3", "1"};
  EXPECT_ERROR(weft_symbol_compose(fc, "f", 2, k2, v2, 1, &x, 0, NULL, NULL, &out), WEFT_ERR_INVALID_ARGUMENT,
               "bogus");
  EXPECT_NO_SYMBOL(out);
  const char* k1[1] = {"num_hidden"};
  const char* bad_v[1] = {"abc"};
  EXPECT_ERROR(weft_symbol_compose(fc, "f", 1, k1, bad_v, 1, &x, 0, NULL, NULL, &out), WEFT_ERR_INVALID_ARGUMENT,
               "abc");
  EXPECT_NO_SYMBOL(out);
  const char* v1[1] = {"3"};
  const char* kw[1] = {"wieght"};
  EXPECT_ERROR(weft_symbol_compose(fc, "f", 1, k1, v1, 1, &x, 1, kw, &x, &out), WEFT_ERR_INVALID_ARGUMENT,
               "wieght");
  EXPECT_NO_SYMBOL(out);
  EXPECT_ERROR(weft_symbol_compose(NULL, "f", 1, k1, v1, 1, &x, 0, NULL, NULL, &out), WEFT_ERR_INVALID_ARGUMENT,
               "");
  EXPECT_NO_SYMBOL(out);
  weft_symbol_free(x);
}

static void test_inference(const weft_symbol* net) {
  /* Only data's shape is given: fc1_weight (H, D) and fc1_bias (H) are inferred from it and
   * num_hidden, softmax_label (N) from the output. */
  const char* names[1] = {"data"};
  int ndims[1] = {2};
  int64_t shape_data[2] = {N, D};
  int64_t offsets[1] = {0};
  int complete = -1, n_arg = 0, n_out = 0, n_aux = -1;
  const int *arg_nd = NULL, *out_nd = NULL, *aux_nd = NULL;
  const int64_t* const* arg_d = NULL;
  const int64_t* const* out_d = NULL;
  const int64_t* const* aux_d = NULL;
  EXPECT(weft_symbol_infer_shape(net, 1, names, ndims, shape_data, offsets, 0, &complete, &n_arg, &arg_nd, &arg_d,
                                 &n_out, &out_nd, &out_d, &n_aux, &aux_nd, &aux_d) == WEFT_OK);
  EXPECT(complete == 1 && n_arg == 4 && n_out == 1 && n_aux == 0);
  if (n_arg == 4 && n_out == 1) {
    EXPECT(arg_nd[0] == 2 && arg_d[0][0] == N && arg_d[0][1] == D);
    EXPECT(arg_nd[1] == 2 && arg_d[1][0] == H && arg_d[1][1] == D);
    EXPECT(arg_nd[2] == 1 && arg_d[2][0] == H);
    EXPECT(arg_nd[3] == 1 && arg_d[3][0] == N);
    EXPECT(out_nd[0] == 2 && out_d[0][0] == N && out_d[0][1] == H);
  }

  /* Nothing given: partial inference reports unknown shapes; strict inference names them. */
  EXPECT(weft_symbol_infer_shape(net, 0, NULL, NULL, NULL, NULL, 1, &complete, &n_arg, &arg_nd, &arg_d, &n_out,
                                 &out_nd, &out_d, &n_aux, &aux_nd, &aux_d) == WEFT_OK);
  EXPECT(complete == 0 && n_arg == 4 && arg_nd[0] == -1);
  EXPECT_ERROR(weft_symbol_infer_shape(net, 0, NULL, NULL, NULL, NULL, 0, &complete, &n_arg, &arg_nd, &arg_d, &n_out,
                                       &out_nd, &out_d, &n_aux, &aux_nd, &aux_d),
               WEFT_ERR_SHAPE, "data");

  /* Contradicting shapes name the node; an unknown name is refused. */
  const char* names2[2] = {"data", "fc1_weight"};
  int ndims2[2] = {2, 2};
  int64_t shape2[4] = {N, D, H, D + 1};
  int64_t offsets2[2] = {0, 2};
  EXPECT_ERROR(weft_symbol_infer_shape(net, 2, names2, ndims2, shape2, offsets2, 0, &complete, &n_arg, &arg_nd,
                                       &arg_d, &n_out, &out_nd, &out_d, &n_aux, &aux_nd, &aux_d),
               WEFT_ERR_SHAPE, "fc1");
  const char* bad_names[1] = {"dta"};
  EXPECT_ERROR(weft_symbol_infer_shape(net, 1, bad_names, ndims, shape_data, offsets, 0, &complete, &n_arg, &arg_nd,
                                       &arg_d, &n_out, &out_nd, &out_d, &n_aux, &aux_nd, &aux_d),
               WEFT_ERR_INVALID_ARGUMENT, "dta");

  /* Types: float64 data makes the parameters and the output float64. */
  enum weft_dtype dtypes[1] = {WEFT_DTYPE_FLOAT64};
  int n_a = 0, n_o = 0, n_x = -1;
  const enum weft_dtype *at = NULL, *ot = NULL, *xt = NULL;
  EXPECT(weft_symbol_infer_type(net, 1, names, dtypes, &complete, &n_a, &at, &n_o, &ot, &n_x, &xt) == WEFT_OK);
  EXPECT(complete == 1 && n_a == 4 && n_o == 1 && n_x == 0);
  if (n_a == 4 && n_o == 1) {
    EXPECT(at[0] == 1 && at[1] == 1 && at[2] == 1 && at[3] == 1);
    EXPECT(ot[0] == 1);
  }
  /* Nothing given: float32 is assumed. */
  EXPECT(weft_symbol_infer_type(net, 0, NULL, NULL, &complete, &n_a, &at, &n_o, &ot, &n_x, &xt) == WEFT_OK);
  EXPECT(complete == 1 && n_o == 1 && ot[0] == 0 && at[1] == 0);
}

/* The test case: X (N x D), W (H x D), b (H), labels; reference computed here. */
static const float kX[N * D] = {0.5f, -1.0f, 2.0f, 1.5f, 0.25f, -0.75f};
static const float kW[H * D] = {0.1f, 0.2f, 0.3f, -0.4f, 0.5f, -0.6f, 0.7f, 0.8f, -0.9f, 0.3f, -0.2f, 0.1f};
static const float kB[H] = {0.1f, -0.2f, 0.3f, 0.05f};
static const float kLabel[N] = {2.0f, 0.0f};

typedef struct {
  float prob[N * H];
  float dX[N * D];
  float dW[H * D];
  float db[H];
} Reference;

static void reference(Reference* r) {
  float z[N * H], dz[N * H];
  for (int i = 0; i < N; ++i) {
    float mx = -1e30f, sum = 0.0f;
    for (int j = 0; j < H; ++j) {
      float acc = kB[j];
      for (int k = 0; k < D; ++k) acc += kX[i * D + k] * kW[j * D + k];
      z[i * H + j] = acc;
      float h = acc > 0.0f ? acc : 0.0f;
      r->prob[i * H + j] = h;
      if (h > mx) mx = h;
    }
    for (int j = 0; j < H; ++j) {
      r->prob[i * H + j] = (float)exp_d(r->prob[i * H + j] - mx);
      sum += r->prob[i * H + j];
    }
    for (int j = 0; j < H; ++j) {
      r->prob[i * H + j] /= sum;
      /* SoftmaxOutput's gradient (normalization 'null', grad_scale 1): p - one_hot(label),
       * then through the relu. */
      float g = r->prob[i * H + j] - ((int)kLabel[i] == j ? 1.0f : 0.0f);
      dz[i * H + j] = z[i * H + j] > 0.0f ? g : 0.0f;
    }
  }
  memset(r->dX, 0, sizeof(r->dX));
  memset(r->dW, 0, sizeof(r->dW));
  memset(r->db, 0, sizeof(r->db));
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < H; ++j) {
      r->db[j] += dz[i * H + j];
      for (int k = 0; k < D; ++k) {
        r->dW[j * D + k] += dz[i * H + j] * kX[i * D + k];
        r->dX[i * D + k] += dz[i * H + j] * kW[j * D + k];
      }
    }
}

static void test_executor(const weft_symbol* net) {
  Reference ref;
  reference(&ref);
  const int64_t s_data[2] = {N, D}, s_w[2] = {H, D}, s_b[1] = {H}, s_l[1] = {N};
  weft_ndarray* args[4] = {make_f32(s_data, 2, kX, N * D), make_f32(s_w, 2, kW, H * D), make_f32(s_b, 1, kB, H),
                           make_f32(s_l, 1, kLabel, N)};
  weft_ndarray* grads[4] = {make_f32(s_data, 2, NULL, 0), make_f32(s_w, 2, NULL, 0), make_f32(s_b, 1, NULL, 0),
                            NULL};
  const int reqs[4] = {1, 1, 1, 0};
  weft_executor* exe = NULL;
  EXPECT(weft_executor_bind(net, 1, 0, 4, args, grads, reqs, 0, NULL, &exe) == WEFT_OK);
  if (exe) {
    EXPECT(weft_executor_forward(exe, 1) == WEFT_OK);
    int n = 0;
    weft_ndarray** outs = NULL;
    EXPECT(weft_executor_outputs(exe, &n, &outs) == WEFT_OK && n == 1);
    if (n == 1) {
      weft_ndarray* out = outs[0];
      int ndim = 0;
      const int64_t* shape = NULL;
      EXPECT(weft_ndarray_shape(out, &ndim, &shape) == WEFT_OK && ndim == 2 && shape[0] == N && shape[1] == H);
      float prob[N * H];
      read_f32(out, prob, N * H);
      for (int i = 0; i < N * H; ++i) EXPECT(close_to(prob[i], ref.prob[i]));
      weft_ndarray_free(out);
    }
    EXPECT(weft_executor_backward(exe, 0, NULL) == WEFT_OK);
    float dX[N * D], dW[H * D], db[H];
    read_f32(grads[0], dX, N * D);
    read_f32(grads[1], dW, H * D);
    read_f32(grads[2], db, H);
    for (int i = 0; i < N * D; ++i) EXPECT(close_to(dX[i], ref.dX[i]));
    for (int i = 0; i < H * D; ++i) EXPECT(close_to(dW[i], ref.dW[i]));
    for (int i = 0; i < H; ++i) EXPECT(close_to(db[i], ref.db[i]));

    int64_t bytes = -1;
    EXPECT(weft_executor_internal_bytes(exe, &bytes) == WEFT_OK);
    /* fc1's and relu1's outputs (N x H float32 each) at most; at least one of them. */
    EXPECT(bytes >= (int64_t)(N * H * sizeof(float)) && bytes <= (int64_t)(4 * N * H * sizeof(float)));

    /* Head gradients: SoftmaxOutput ignores them; a wrong count is an error. */
    const int64_t s_out[2] = {N, H};
    weft_ndarray* hg[2] = {make_f32(s_out, 2, NULL, 0), make_f32(s_out, 2, NULL, 0)};
    EXPECT(weft_executor_backward(exe, 2, hg) != WEFT_OK && strlen(weft_last_error()) > 0);
    weft_ndarray_free(hg[0]);
    weft_ndarray_free(hg[1]);
  }
  weft_executor_free(exe);

  /* grad_req add (3): two backward passes accumulate into fc1_bias's gradient. */
  const int reqs_add[4] = {0, 0, 3, 0};
  weft_ndarray* grads_add[4] = {NULL, NULL, grads[2], NULL};
  const float zeros[H] = {0};
  EXPECT(weft_ndarray_copy_from_host(grads[2], zeros, sizeof(zeros)) == WEFT_OK);
  exe = NULL;
  EXPECT(weft_executor_bind(net, 1, 0, 4, args, grads_add, reqs_add, 0, NULL, &exe) == WEFT_OK);
  if (exe) {
    for (int rep = 0; rep < 2; ++rep) {
      EXPECT(weft_executor_forward(exe, 1) == WEFT_OK);
      EXPECT(weft_executor_backward(exe, 0, NULL) == WEFT_OK);
    }
    float db[H];
    read_f32(grads[2], db, H);
    for (int i = 0; i < H; ++i) EXPECT(close_to(db[i], 2.0f * ref.db[i]));
  }
  weft_executor_free(exe);

  /* Bind errors: a wrong shape names the argument and both shapes; wrong counts; bad grad_req. */
  const int64_t s_bad[2] = {H, D + 2};
  weft_ndarray* wrong = make_f32(s_bad, 2, NULL, 0);
  weft_ndarray* bad_args[4] = {args[0], wrong, args[2], args[3]};
  exe = NULL;
  EXPECT_ERROR(weft_executor_bind(net, 1, 0, 4, bad_args, NULL, NULL, 0, NULL, &exe), WEFT_ERR_SHAPE, "fc1_weight");
  EXPECT(strstr(weft_last_error(), "(4, 5)") != NULL && strstr(weft_last_error(), "(4, 3)") != NULL);
  EXPECT_NO_EXECUTOR(exe);
  EXPECT_ERROR(weft_executor_bind(net, 1, 0, 3, args, NULL, NULL, 0, NULL, &exe), WEFT_ERR_INVALID_ARGUMENT,
               "arguments");
  EXPECT_NO_EXECUTOR(exe);
  const int bad_reqs[4] = {2, 0, 0, 0};
  EXPECT_ERROR(weft_executor_bind(net, 1, 0, 4, args, grads, bad_reqs, 0, NULL, &exe), WEFT_ERR_INVALID_ARGUMENT,
               "grad_req");
  EXPECT_NO_EXECUTOR(exe);
  const int reqs_no_grad[4] = {0, 1, 0, 0};
  weft_ndarray* no_grads[4] = {NULL, NULL, NULL, NULL};
  EXPECT_ERROR(weft_executor_bind(net, 1, 0, 4, args, no_grads, reqs_no_grad, 0, NULL, &exe),
               WEFT_ERR_INVALID_ARGUMENT, "fc1_weight");
  EXPECT_NO_EXECUTOR(exe);
  weft_ndarray* wrong_grad[4] = {NULL, wrong, NULL, NULL};
  EXPECT_ERROR(weft_executor_bind(net, 1, 0, 4, args, wrong_grad, reqs_no_grad, 0, NULL, &exe), WEFT_ERR_SHAPE,
               "fc1_weight");
  EXPECT_NO_EXECUTOR(exe);
  EXPECT_ERROR(weft_executor_forward(NULL, 0), WEFT_ERR_INVALID_ARGUMENT, "");
  weft_ndarray_free(wrong);

  for (int i = 0; i < 4; ++i) {
    weft_ndarray_free(args[i]);
    weft_ndarray_free(grads[i]);
  }
}

/* A BatchNorm net bound with auxiliary states: training updates the moving mean. */
static void test_aux_bind(void) {
  weft_symbol *x = NULL, *bn = NULL;
  EXPECT(weft_symbol_create_variable("x", &x) == WEFT_OK);
  const char* k[1] = {"fix_gamma"};
  const char* v[1] = {"False"};
  EXPECT(weft_symbol_compose(find_op("BatchNorm"), "bn", 1, k, v, 1, &x, 0, NULL, NULL, &bn) == WEFT_OK);
  const int64_t s_x[2] = {2, 2}, s_c[1] = {2};
  const float xv[4] = {1.0f, 2.0f, 3.0f, 6.0f}, ones[2] = {1.0f, 1.0f}, zeros[2] = {0.0f, 0.0f};
  weft_ndarray* args[3] = {make_f32(s_x, 2, xv, 4), make_f32(s_c, 1, ones, 2), make_f32(s_c, 1, zeros, 2)};
  weft_ndarray* aux[2] = {make_f32(s_c, 1, zeros, 2), make_f32(s_c, 1, ones, 2)};
  weft_executor* exe = NULL;
  EXPECT_ERROR(weft_executor_bind(bn, 1, 0, 3, args, NULL, NULL, 1, aux, &exe), WEFT_ERR_INVALID_ARGUMENT,
               "auxiliary");
  EXPECT_NO_EXECUTOR(exe);
  EXPECT(weft_executor_bind(bn, 1, 0, 3, args, NULL, NULL, 2, aux, &exe) == WEFT_OK);
  if (exe) {
    EXPECT(weft_executor_forward(exe, 1) == WEFT_OK);
    float mean[2];
    read_f32(aux[0], mean, 2);
    /* moving = 0.9 * 0 + 0.1 * batch mean (2, 4). */
    EXPECT(close_to(mean[0], 0.2f) && close_to(mean[1], 0.4f));
    int n = 0;
    weft_ndarray** outs = NULL;
    EXPECT(weft_executor_outputs(exe, &n, &outs) == WEFT_OK && n == 1);
    for (int i = 0; i < n; ++i) weft_ndarray_free(outs[i]);
  }
  weft_executor_free(exe);
  for (int i = 0; i < 3; ++i) weft_ndarray_free(args[i]);
  for (int i = 0; i < 2; ++i) weft_ndarray_free(aux[i]);
  weft_symbol_free(x);
  weft_symbol_free(bn);
}

/* The bind-time passes through the C ABI: memory planning without allocating,
 * an optimizer update inside the graph, the executor's listing of its plan,
 * and re-composition. */
static void test_passes(const weft_symbol* net) {
  const char* names[2] = {"data", "softmax_label"};
  const int ndims[2] = {2, 1};
  const int64_t dims[3] = {N, D, N};
  const int64_t offsets[2] = {0, 2};
  int64_t st[6] = {0, 0, 0, 0, 0, 0};
  EXPECT(weft_symbol_plan_memory(net, 2, names, ndims, dims, offsets, "both", 1, st) == WEFT_OK);
  EXPECT(st[0] >= st[1] && st[1] > 0 && st[2] >= st[0] && st[3] >= 1 && st[4] >= 3);
  int64_t naive[6] = {0, 0, 0, 0, 0, 0};
  EXPECT(weft_symbol_plan_memory(net, 2, names, ndims, dims, offsets, "naive", 1, naive) == WEFT_OK);
  EXPECT(naive[0] == st[2]);
  EXPECT_ERROR(weft_symbol_plan_memory(net, 2, names, ndims, dims, offsets, "fast", 1, st),
               WEFT_ERR_INVALID_ARGUMENT, "fast");
  EXPECT_ERROR(weft_symbol_plan_memory(net, 0, NULL, NULL, NULL, NULL, "both", 0, st), WEFT_ERR_SHAPE, "data");

  /* One step with sgd_update in the graph equals w - lr * g from a plain bind. */
  const int64_t sx[2] = {N, D}, sw[2] = {H, D}, sb[1] = {H}, sl[1] = {N};
  weft_ndarray* args[2][4];
  weft_ndarray* grads[2][4];
  weft_executor* exe[2] = {NULL, NULL};
  const int reqs[4] = {0, 1, 1, 0};
  for (int k = 0; k < 2; ++k) {
    args[k][0] = make_f32(sx, 2, kX, N * D);
    args[k][1] = make_f32(sw, 2, kW, H * D);
    args[k][2] = make_f32(sb, 1, kB, H);
    args[k][3] = make_f32(sl, 1, kLabel, N);
    grads[k][0] = NULL;
    grads[k][1] = make_f32(sw, 2, NULL, 0);
    grads[k][2] = make_f32(sb, 1, NULL, 0);
    grads[k][3] = NULL;
  }
  const char* keys[1] = {"lr"};
  const char* vals[1] = {"0.5"};
  EXPECT(weft_executor_bind(net, 1, 0, 4, args[0], grads[0], reqs, 0, NULL, &exe[0]) == WEFT_OK);
  EXPECT(weft_executor_bind_update(net, 1, 0, 4, args[1], grads[1], reqs, 0, NULL, "sgd_update", 1, keys, vals,
                                   &exe[1]) == WEFT_OK);
  for (int k = 0; k < 2; ++k) {
    EXPECT(exe[k] && weft_executor_forward(exe[k], 1) == WEFT_OK);
    EXPECT(exe[k] && weft_executor_backward(exe[k], 0, NULL) == WEFT_OK);
  }
  float w0[H * D], g0[H * D], w1[H * D];
  read_f32(args[0][1], w0, H * D);
  read_f32(grads[0][1], g0, H * D);
  read_f32(args[1][1], w1, H * D);
  int agree = 1;
  for (int i = 0; i < H * D; ++i) agree = agree && close_to(w1[i], w0[i] - 0.5f * g0[i]);
  EXPECT(agree);
  const char* text = NULL;
  EXPECT(weft_executor_debug_str(exe[1], &text) == WEFT_OK && text != NULL);
  EXPECT(text && strstr(text, "sgd_update 'fc1_weight_update'") != NULL);
  EXPECT(text && strstr(text, "Memory plan: ") != NULL && strstr(text, "MB allocated") != NULL);
  weft_executor* bad = NULL;
  EXPECT_ERROR(weft_executor_bind_update(net, 1, 0, 4, args[1], grads[1], reqs, 0, NULL, "relu", 0, NULL, NULL,
                                         &bad),
               WEFT_ERR_INVALID_ARGUMENT, "not an optimizer update");
  EXPECT_NO_EXECUTOR(bad);
  for (int k = 0; k < 2; ++k) {
    weft_executor_free(exe[k]);
    for (int i = 0; i < 4; ++i) {
      weft_ndarray_free(args[k][i]);
      weft_ndarray_free(grads[k][i]);
    }
  }

  /* Re-composition: net(data=FullyConnected(x)). */
  weft_symbol *x = NULL, *pre = NULL, *composed = NULL, *wrong = NULL;
  EXPECT(weft_symbol_create_variable("x", &x) == WEFT_OK);
  const char* hk[1] = {"num_hidden"};
  const char* hv[1] = {"3"};
  EXPECT(weft_symbol_compose(find_op("FullyConnected"), "pre", 1, hk, hv, 1, &x, 0, NULL, NULL, &pre) == WEFT_OK);
  const char* kw[1] = {"data"};
  EXPECT(weft_symbol_substitute(net, 0, NULL, 1, kw, &pre, &composed) == WEFT_OK);
  static const char* const cargs[] = {"x", "pre_weight", "pre_bias", "fc1_weight", "fc1_bias", "softmax_label"};
  EXPECT(composed && list_equals(composed, 0, cargs, 6));
  static const char* const orig[] = {"data", "fc1_weight", "fc1_bias", "softmax_label"};
  EXPECT(list_equals(net, 0, orig, 4));
  const char* nope[1] = {"nope"};
  EXPECT_ERROR(weft_symbol_substitute(net, 0, NULL, 1, nope, &pre, &wrong), WEFT_ERR_INVALID_ARGUMENT,
               "'nope' is not an argument");
  EXPECT_NO_SYMBOL(wrong);
  weft_symbol_free(x);
  weft_symbol_free(pre);
  weft_symbol_free(composed);
}

int main(void) {
  weft_symbol* net = build_net();
  if (!net) {
    fprintf(stderr, "could not build the network: %s\n", weft_last_error());
    return 1;
  }
  test_structure(net);
  test_attributes(net);
  test_json(net);
  test_compose_errors();
  test_inference(net);
  test_executor(net);
  test_aux_bind();
  test_passes(net);
  weft_symbol_free(net);
  /* Every free function accepts NULL. */
  weft_symbol_free(NULL);
  weft_executor_free(NULL);
  weft_ndarray_free(NULL);
  EXPECT(weft_wait_all() == WEFT_OK);
  if (g_failures) {
    fprintf(stderr, "%d expectation(s) failed\n", g_failures);
    return 1;
  }
  printf("symbol_executor: all expectations passed\n");
  return 0;
}
