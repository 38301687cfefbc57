/* Plain C99 test of the autograd and CachedOp C ABI: mark a variable, record
 * ops through weft_op_invoke, backward into the gradient array (write, then
 * add), autograd.grad through weft_autograd_backward with variables, the
 * recording flags, a CachedOp called while recording, and errors. */
#include <stdio.h>
#include <string.h>

#include "weft/c_api.h"

#include "expect.h"

static weft_ndarray* vec(const float* v, int64_t n) {
  weft_ndarray* a = NULL;
  EXPECT(weft_ndarray_create(&n, 1, 0, 1, 0, &a) == WEFT_OK);
  if (a && v) EXPECT(weft_ndarray_copy_from_host(a, v, (size_t)n * sizeof(float)) == WEFT_OK);
  return a;
}

static const weft_op* op(const char* name) {
  const weft_op* o = NULL;
  EXPECT(weft_op_find(name, &o) == WEFT_OK);
  return o;
}

/* One output of a binary op (a new handle owned by the caller). */
static weft_ndarray* binary(const char* name, weft_ndarray* a, weft_ndarray* b) {
  weft_ndarray* in[2] = {a, b};
  int n = 0;
  weft_ndarray** out = NULL;
  EXPECT(weft_op_invoke(op(name), 2, in, &n, &out, 0, NULL, NULL) == WEFT_OK && n == 1);
  return n == 1 ? out[0] : NULL;
}

static int equals(const weft_ndarray* a, const float* want, int n) {
  float got[8];
  if (weft_ndarray_copy_to_host(a, got, (size_t)n * sizeof(float)) != WEFT_OK) return 0;
  for (int i = 0; i < n; ++i) {
    float d = got[i] - want[i];
    if (d > 1e-5f || d < -1e-5f) return 0;
  }
  return 1;
}

int main(void) {
  const float xv[3] = {1.0f, 2.0f, 3.0f};
  weft_ndarray* x = vec(xv, 3);
  weft_ndarray* gx = vec(NULL, 3);
  int req = 1, prev = -1, on = -1;
  EXPECT(weft_autograd_mark_variables(1, &x, &req, &gx) == WEFT_OK);
  EXPECT(weft_ndarray_on_tape(x, &on) == WEFT_OK && on == 1);

  EXPECT(weft_autograd_set_recording(1, &prev) == WEFT_OK && prev == 0);
  EXPECT(weft_autograd_set_training(1, NULL) == WEFT_OK);
  EXPECT(weft_autograd_is_recording(&on) == WEFT_OK && on == 1);
  weft_ndarray* sq = binary("elemwise_mul", x, x); /* x^2 */
  weft_ndarray* cube = binary("elemwise_mul", sq, x); /* x^3 */
  EXPECT(weft_autograd_set_recording(0, &prev) == WEFT_OK && prev == 1);
  EXPECT(weft_autograd_set_training(0, NULL) == WEFT_OK);

  /* backward with retain_graph: d(x^3)/dx = 3x^2 written into gx. */
  EXPECT(weft_autograd_backward(1, &cube, NULL, 0, NULL, 1, 0, 1, NULL, NULL) == WEFT_OK);
  const float d1[3] = {3.0f, 12.0f, 27.0f};
  EXPECT(equals(gx, d1, 3));

  /* grad(): returned, gx untouched; a head gradient of 2. */
  const float twos[3] = {2.0f, 2.0f, 2.0f};
  weft_ndarray* hg = vec(twos, 3);
  int ng = 0;
  weft_ndarray** grads = NULL;
  EXPECT(weft_autograd_backward(1, &cube, &hg, 1, &x, 1, 0, 1, &ng, &grads) == WEFT_OK && ng == 1);
  const float d2[3] = {6.0f, 24.0f, 54.0f};
  if (ng == 1) {
    EXPECT(equals(grads[0], d2, 3));
    weft_ndarray_free(grads[0]);
  }
  EXPECT(equals(gx, d1, 3));

  /* Without retain_graph the tape is released; a second backward is an error. */
  EXPECT(weft_autograd_backward(1, &cube, NULL, 0, NULL, 0, 0, 1, NULL, NULL) == WEFT_OK);
  EXPECT(weft_autograd_backward(1, &cube, NULL, 0, NULL, 0, 0, 1, NULL, NULL) == WEFT_ERR_INVALID_ARGUMENT);
  EXPECT(strstr(weft_last_error(), "retain_graph") != NULL);

  /* A head that is not on the tape is named. */
  weft_ndarray* plain = vec(xv, 3);
  EXPECT(weft_autograd_backward(1, &plain, NULL, 0, NULL, 0, 0, 1, NULL, NULL) == WEFT_ERR_INVALID_ARGUMENT);
  EXPECT(strstr(weft_last_error(), "not on the autograd tape") != NULL);

  /* A CachedOp of y = x * x + x, called while recording. */
  weft_symbol *v = NULL, *m = NULL, *y = NULL;
  EXPECT(weft_symbol_create_variable("x", &v) == WEFT_OK);
  weft_symbol* pair[2] = {v, v};
  EXPECT(weft_symbol_compose(op("elemwise_mul"), "m", 0, NULL, NULL, 2, pair, 0, NULL, NULL, &m) == WEFT_OK);
  weft_symbol* pair2[2] = {m, v};
  EXPECT(weft_symbol_compose(op("elemwise_add"), "y", 0, NULL, NULL, 2, pair2, 0, NULL, NULL, &y) == WEFT_OK);
  weft_cached_op* cop = NULL;
  EXPECT(weft_cached_op_create(y, 0, NULL, NULL, &cop) == WEFT_OK);
  int add = 3;
  EXPECT(weft_autograd_mark_variables(1, &x, &add, &gx) == WEFT_OK); /* accumulate from 3x^2 */
  EXPECT(weft_autograd_set_recording(1, NULL) == WEFT_OK);
  int no = 0;
  weft_ndarray** outs = NULL;
  EXPECT(weft_cached_op_invoke(cop, 1, &x, &no, &outs) == WEFT_OK && no == 1);
  weft_ndarray* yo = no == 1 ? outs[0] : NULL;
  EXPECT(weft_autograd_set_recording(0, NULL) == WEFT_OK);
  const float yv[3] = {2.0f, 6.0f, 12.0f};
  EXPECT(yo && equals(yo, yv, 3));
  EXPECT(yo && weft_autograd_backward(1, &yo, NULL, 0, NULL, 0, 0, 1, NULL, NULL) == WEFT_OK);
  const float d3[3] = {3.0f + 3.0f, 12.0f + 5.0f, 27.0f + 7.0f}; /* + 2x + 1 */
  EXPECT(equals(gx, d3, 3));
  EXPECT(weft_cached_op_invoke(cop, 0, NULL, &no, &outs) == WEFT_ERR_INVALID_ARGUMENT);

  weft_ndarray_free(yo);
  weft_cached_op_free(cop);
  weft_cached_op_free(NULL);
  weft_symbol_free(v);
  weft_symbol_free(m);
  weft_symbol_free(y);
  weft_ndarray_free(plain);
  weft_ndarray_free(hg);
  weft_ndarray_free(sq);
  weft_ndarray_free(cube);
  weft_ndarray_free(x);
  weft_ndarray_free(gx);
  EXPECT(weft_wait_all() == WEFT_OK);
  if (g_failures) {
    fprintf(stderr, "%d expectation(s) failed\n", g_failures);
    return 1;
  }
  printf("autograd: all expectations passed\n");
  return 0;
}
