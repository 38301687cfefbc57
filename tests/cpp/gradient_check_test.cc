// Numeric gradient checks of every operator with a gradient rule (docs/STYLE.md
// "Tests": one data-driven table over the registry). Each case composes one
// operator on variables, binds a GraphExecutor in float64 with grad_req
// write, runs backward with a random head gradient and compares the analytic
// gradients with central finite differences of sum_k <output_k, head_k> — or,
// for the loss operators whose gradient ignores the head gradient (MXNet's
// SoftmaxOutput, regression outputs, make_loss, BlockGrad), of the loss that
// gradient belongs to. A test fails naming any op with a rule but no case.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/executor/graph_executor.h"
#include "core/graph/subgraphs.h"
#include "core/graph/symbol.h"
#include "core/ndarray/imperative.h"
#include "core/op/custom/custom_op.h"
#include "core/opdef/dynamic_shape.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace {

using Values = std::vector<double>;
using Gen = std::function<Values(std::mt19937_64&, int64_t n)>;
using Attrs = std::map<std::string, std::string>;

// ---- input generators ----

Gen U(double lo = -1.0, double hi = 1.0) {
  return [lo, hi](std::mt19937_64& g, int64_t n) {
    std::uniform_real_distribution<double> d(lo, hi);
    Values v(static_cast<size_t>(n));
    for (double& x : v) x = d(g);
    return v;
  };
}

// Magnitudes in [lo, hi) with random signs: no kinks (abs, relu, sign) nearby.
Gen Away(double lo = 0.2, double hi = 1.5) {
  return [lo, hi](std::mt19937_64& g, int64_t n) {
    std::uniform_real_distribution<double> d(lo, hi);
    std::bernoulli_distribution s(0.5);
    Values v(static_cast<size_t>(n));
    for (double& x : v) x = s(g) ? d(g) : -d(g);
    return v;
  };
}

// Integers in [lo, hi] plus `offset` (0.5 keeps truncated indices away from
// the next integer, so finite differences of index inputs are zero).
Gen Ints(int64_t lo, int64_t hi, double offset = 0.0) {
  return [lo, hi, offset](std::mt19937_64& g, int64_t n) {
    std::uniform_int_distribution<int64_t> d(lo, hi);
    Values v(static_cast<size_t>(n));
    for (double& x : v) x = static_cast<double>(d(g)) + offset;
    return v;
  };
}

// k + f with f in (0.1, 0.4) or (0.6, 0.9): away from floor/ceil/round steps.
Gen Steps() {
  return [](std::mt19937_64& g, int64_t n) {
    std::uniform_int_distribution<int> k(-3, 3);
    std::uniform_real_distribution<double> f(0.1, 0.4);
    std::bernoulli_distribution hi(0.5);
    Values v(static_cast<size_t>(n));
    for (double& x : v) x = k(g) + f(g) + (hi(g) ? 0.5 : 0.0);
    return v;
  };
}

Gen Fixed(Values v) {
  return [v](std::mt19937_64&, int64_t n) {
    EXPECT_EQ(static_cast<int64_t>(v.size()), n);
    return v;
  };
}

// ---- the table ----

struct In {
  Shape shape;
  Gen gen;
  bool diff = true;  // checked against finite differences (indices, labels: no)
  DType dtype = DType::kUnknown;  // kUnknown: the case's dtype (an int32 input: hawkesll's marks)
};

In X(Shape s, Gen g = U()) { return In{std::move(s), std::move(g), true}; }
In I(Shape s, Gen g) { return In{std::move(s), std::move(g), false}; }

// The scalar whose gradient the op's rule computes, from the forward outputs,
// the inputs and the head gradients (one list per output / input).
using Loss = std::function<double(const std::vector<Values>& outs, const std::vector<Values>& ins,
                                  const std::vector<Values>& heads)>;

struct GradCase {
  std::string op;
  std::vector<In> inputs;
  Attrs attrs;
  std::string name;
  bool train = true;
  Loss loss;  // empty: sum_k <out_k, head_k>
  DType dtype = DType::kFloat64;
  double eps = 1e-6, rtol = 1e-5, atol = 1e-7;
  bool zero = false;  // the gradient is zero everywhere (else some element must not be)
};

GradCase C(std::string op, std::vector<In> inputs, Attrs attrs = {}, std::string name = "") {
  GradCase c;
  c.op = std::move(op);
  c.inputs = std::move(inputs);
  c.attrs = std::move(attrs);
  c.name = std::move(name);
  return c;
}

GradCase WithLoss(GradCase c, Loss l) {
  c.loss = std::move(l);
  return c;
}

// Ops whose gradient is zero (MXNet's MakeZeroGradNodes, BlockGrad).
GradCase Zero(GradCase c) {
  c.zero = true;
  return c;
}

GradCase Inference(GradCase c) {
  c.train = false;
  return c;
}

// Loss of SoftmaxOutput: scale * cross entropy of the output at the labels,
// data (rows, classes), label (rows,).
Loss CrossEntropy(double scale) {
  return [scale](const std::vector<Values>& outs, const std::vector<Values>& ins, const std::vector<Values>&) {
    const Values& p = outs[0];
    const Values& label = ins[1];
    const size_t classes = p.size() / label.size();
    double l = 0;
    for (size_t r = 0; r < label.size(); ++r) l -= std::log(p[r * classes + static_cast<size_t>(label[r])]);
    return scale * l;
  };
}

// Losses of the regression outputs (MXNet: gradient (out - label) * scale /
// num_output, num_output = label.size / label.shape[0], |.| for MAE).
Loss Regression(const std::string& kind, double scale, int64_t num_output) {
  return [kind, scale, num_output](const std::vector<Values>& outs, const std::vector<Values>& ins,
                                   const std::vector<Values>&) {
    double l = 0;
    for (size_t i = 0; i < outs[0].size(); ++i) {
      const double o = outs[0][i], y = ins[1][i];
      if (kind == "linear") l += 0.5 * (o - y) * (o - y);
      else if (kind == "mae") l += std::fabs(o - y);
      else l -= y * std::log(o) + (1 - y) * std::log(1 - o);
    }
    return l * scale / static_cast<double>(num_output);
  };
}

Loss SumOfOutput(double scale) {
  return [scale](const std::vector<Values>& outs, const std::vector<Values>&, const std::vector<Values>&) {
    double l = 0;
    for (double v : outs[0]) l += v;
    return scale * l;
  };
}

Loss Constant() {
  return [](const std::vector<Values>&, const std::vector<Values>&, const std::vector<Values>&) { return 0.0; };
}

void AddUnary(std::vector<GradCase>* t) {
  const Shape s{3, 4};
  for (const char* op : {"negative", "exp", "expm1", "square", "tanh", "sigmoid"}) t->push_back(C(op, {X(s)}));
  for (const char* op : {"abs", "relu"}) t->push_back(C(op, {X(s, Away())}));
  t->push_back(Zero(C("sign", {X(s, Away())})));
  for (const char* op : {"log", "log1p", "sqrt", "rsqrt", "cbrt"}) t->push_back(C(op, {X(s, U(0.5, 2.0))}));
  for (const char* op : {"sin", "cos"}) t->push_back(C(op, {X(s, U(-2.0, 2.0))}));
  t->push_back(C("tan", {X(s, U(-1.0, 1.0))}));
  t->push_back(C("reciprocal", {X(s, Away(0.5, 2.0))}));
  for (const char* op : {"floor", "ceil", "round"}) t->push_back(Zero(C(op, {X(s, Steps())})));
  t->push_back(Zero(C("zeros_like", {X(s)})));
  t->push_back(Zero(C("ones_like", {X(s)})));
  t->push_back(Zero(C("_npi_full_like", {X(s)}, {{"fill_value", "2.5"}})));
}

void AddBinary(std::vector<GradCase>* t) {
  const Shape s{3, 4};
  for (const char* op : {"elemwise_add", "elemwise_sub", "elemwise_mul", "_maximum", "_minimum"})
    t->push_back(C(op, {X(s), X(s)}));
  for (const char* op : {"_equal", "_not_equal", "_greater", "_greater_equal", "_lesser", "_lesser_equal"})
    t->push_back(Zero(C(op, {X(s), X(s)})));
  t->push_back(C("elemwise_div", {X(s), X(s, Away(0.5, 2.0))}));
  t->push_back(C("_power", {X(s, U(0.5, 2.0)), X(s, U(-1.5, 1.5))}));
  t->push_back(C("_mod", {X(s, U(-3.0, 3.0)), X(s, Away(0.7, 1.9))}));
  // Broadcast: rhs has fewer dims and size-1 axes on both sides.
  const Shape l{3, 1, 4}, r{2, 1};
  for (const char* op : {"broadcast_add", "broadcast_sub", "broadcast_mul", "broadcast_maximum", "broadcast_minimum"})
    t->push_back(C(op, {X(l), X(r)}));
  for (const char* op : {"broadcast_equal", "broadcast_not_equal", "broadcast_greater", "broadcast_greater_equal",
                         "broadcast_lesser", "broadcast_lesser_equal"})
    t->push_back(Zero(C(op, {X(l), X(r)})));
  t->push_back(C("broadcast_add", {X({2, 3}), X({2, 3})}, {}, "same_shape"));
  t->push_back(C("broadcast_div", {X(l), X(r, Away(0.5, 2.0))}));
  t->push_back(C("broadcast_power", {X(l, U(0.5, 2.0)), X(r, U(-1.5, 1.5))}));
  t->push_back(C("broadcast_mod", {X(l, U(-3.0, 3.0)), X(r, Away(0.7, 1.9))}));
  t->push_back(C("broadcast_to", {X({1, 3})}, {{"shape", "(4, 3)"}}));
  t->push_back(C("broadcast_to", {X({2, 1, 3})}, {{"shape", "(2, 4, 0)"}}, "keep_dim"));
  t->push_back(C("broadcast_axis", {X({2, 1, 1})}, {{"axis", "(1, 2)"}, {"size", "(3, 2)"}}));
  t->push_back(C("broadcast_like", {X({1, 3}), X({4, 3})}));
  t->push_back(C("broadcast_like", {X({1, 3}), X({2, 5})}, {{"lhs_axes", "(0,)"}, {"rhs_axes", "(-1,)"}}, "axes"));
}

void AddScalar(std::vector<GradCase>* t) {
  const Shape s{3, 4};
  auto sc = [&](const char* op, double v, Gen g = U(), bool zero = false) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%g", v);
    GradCase c = C(op, {X(s, std::move(g))}, {{"scalar", buf}});
    c.zero = zero;
    t->push_back(c);
  };
  sc("_plus_scalar", 0.7);
  sc("_minus_scalar", 0.7);
  sc("_rminus_scalar", 0.7);
  sc("_mul_scalar", -1.5);
  sc("_div_scalar", 1.5);
  sc("_rdiv_scalar", 1.5, Away(0.5, 2.0));
  sc("_power_scalar", 2.5, U(0.5, 2.0));
  sc("_rpower_scalar", 1.7);
  sc("_maximum_scalar", 0.1);
  sc("_minimum_scalar", 0.1);
  sc("_mod_scalar", 1.3, U(-3.0, 3.0));
  sc("_rmod_scalar", 2.7, Away(0.7, 1.9));
  for (const char* op : {"_equal_scalar", "_not_equal_scalar", "_greater_scalar", "_greater_equal_scalar",
                         "_lesser_scalar", "_lesser_equal_scalar"})
    sc(op, 0.1, U(), true);
}

void AddTensor(std::vector<GradCase>* t) {
  const Shape s{3, 4};
  t->push_back(C("where", {I(s, Ints(0, 1)), X(s), X(s)}));
  t->push_back(C("where", {I({3}, Fixed({1, 0, 1})), X(s), X(s)}, {}, "row_condition"));
  t->push_back(C("clip", {X(s, Away(0.1, 1.0))}, {{"a_min", "-0.5"}, {"a_max", "0.5"}}));
  // float64 -> float32 -> back: the float32 output rounds, so a larger step and tolerance.
  GradCase cast = C("Cast", {X(s)}, {{"dtype", "float32"}});
  cast.eps = 1e-3;
  cast.rtol = 1e-3;
  cast.atol = 1e-5;
  t->push_back(cast);

  const Shape d{2, 3, 4};
  t->push_back(C("sum", {X(d)}, {{"axis", "(1,)"}}));
  t->push_back(C("sum", {X(d)}, {}, "all_axes"));
  t->push_back(C("sum", {X(d)}, {{"axis", "(0, 2)"}, {"keepdims", "True"}}, "keepdims"));
  t->push_back(C("sum", {X(d)}, {{"axis", "(1,)"}, {"exclude", "True"}}, "exclude"));
  t->push_back(C("mean", {X(d)}, {{"axis", "(0, 2)"}}));
  t->push_back(C("mean", {X(d)}, {}, "all_axes"));
  t->push_back(C("max", {X(d)}, {{"axis", "(1,)"}}));
  t->push_back(C("min", {X(d)}, {{"axis", "(-1,)"}, {"keepdims", "True"}}));
  t->push_back(C("prod", {X(d, Away(0.5, 1.5))}, {{"axis", "(2,)"}}));
  t->push_back(C("nansum", {X(d)}, {{"axis", "(0,)"}}));
  t->push_back(C("nanprod", {X(d, Away(0.5, 1.5))}, {{"axis", "(1,)"}}));
  t->push_back(C("norm", {X(d)}, {{"axis", "(1,)"}}));
  t->push_back(C("norm", {X(d, Away())}, {{"ord", "1"}, {"axis", "(0, 2)"}}, "ord1"));
  // A float32 result (out_dtype): rounding needs a larger step and tolerance.
  GradCase norm32 = C("norm", {X(d)}, {{"axis", "(1,)"}, {"out_dtype", "float32"}, {"keepdims", "True"}}, "out_dtype");
  norm32.eps = 1e-3;
  norm32.rtol = 1e-3;
  norm32.atol = 1e-5;
  t->push_back(norm32);
  t->push_back(Zero(C("argmax", {X(d)}, {{"axis", "1"}})));
  t->push_back(Zero(C("argmin", {X(d)}, {})));
  // The NumPy-mode reductions of core/op/reduce/np_reduce.cc: MXNet 1.9.1 registers zero gradients
  // (MakeZeroGradNodes) even for std/var, whose input is therefore not differentiated here;
  // tests/python/test_np_nodes_npshape.py compares their backward with MXNet's.
  t->push_back(Zero(C("_npi_argmax", {X(d)}, {{"axis", "1"}})));
  t->push_back(Zero(C("_npi_argmin", {X(d)}, {})));
  t->push_back(Zero(C("_npi_std", {I(d, U())}, {{"axis", "1"}})));
  t->push_back(Zero(C("_npi_var", {I(d, U())}, {{"ddof", "1"}})));
  t->push_back(Zero(C("_npi_diag_indices_from", {X({3, 3})})));
  // np.average and np.ediff1d under MXNet's names (core/op/reduce/np_average.cc, np_ediff1d.cc); the
  // weights kept away from a zero sum.
  t->push_back(C("_npi_average", {X(d), X(d, U(0.5, 1.5))}, {{"axis", "(0, 2)"}}));
  t->push_back(C("_npi_average", {X({3, 4}), X({3}, U(0.5, 1.5))}, {{"axis", "0"}}, "weights_1d"));
  t->push_back(C("_npi_average", {X(d)}, {{"weighted", "False"}}, "unweighted"));
  t->push_back(C("_npi_ediff1d", {X({2, 3}), X({2}), X({1, 3})},
                 {{"to_begin_arr_given", "True"}, {"to_end_arr_given", "True"}}));
  t->push_back(C("_npi_ediff1d", {X({5}), X({2})}, {{"to_begin_scalar", "1.5"}, {"to_end_arr_given", "True"}},
                 "end_array"));
  // data[mask] = value (core/op/index/np_mask_assign_tensor.cc): the mask fixed, data and value differentiated.
  t->push_back(C("_npi_boolean_mask_assign_tensor", {X({4, 3}), I({4}, Fixed({1, 0, 1, 1})), X({3})},
                 {{"start_axis", "0"}}));
  t->push_back(C("_npi_boolean_mask_assign_tensor", {X({2, 4, 3}), I({4}, Fixed({0, 1, 1, 0})), X({2, 2, 1})},
                 {{"start_axis", "1"}}, "start_axis1"));
  t->push_back(Zero(C("_npi_percentile", {I(d, U())}, {{"q_scalar", "50"}, {"axis", "1"}})));
  // The NumPy-mode layout ops of core/op/shape/np_layout.cc.
  t->push_back(C("_np_moveaxis", {X({2, 3, 4})}, {{"source", "(0, 2)"}, {"destination", "(1, 0)"}}));
  t->push_back(C("_np_roll", {X({3, 4})}, {{"shift", "(1, -3)"}, {"axis", "(0, 1)"}}));
  t->push_back(C("_np_roll", {X({2, 3})}, {{"shift", "4"}}, "flat"));
  t->push_back(C("_npi_tril", {X({2, 3, 4})}, {{"k", "1"}}));
  t->push_back(C("_npi_tril", {X({4})}, {{"k", "-1"}}, "1d"));
  t->push_back(C("_npi_broadcast_to", {X({3, 1})}, {{"shape", "(2, 3, 4)"}}));
  t->push_back(C("_np_diagflat", {X({2, 2})}, {{"k", "-1"}}));
  t->push_back(C("_npi_rot90", {X({2, 3, 4})}, {{"k", "3"}, {"axes", "(2, 0)"}}));
  t->push_back(C("_npi_rot90", {X({2, 3})}, {}, "k1"));
  t->push_back(C("_np_atleast_2d", {X({3}), X({2, 3, 1})}, {{"num_args", "2"}}));
  t->push_back(C("_np_atleast_1d", {X({4})}, {{"num_args", "1"}}));
  t->push_back(C("_np_atleast_3d", {X({2, 3}), X({3})}, {{"num_args", "2"}}));
  // The NumPy-mode stacks of core/op/shape/np_stack.cc.
  t->push_back(C("_npi_vstack", {X({3}), X({2, 3})}, {{"num_args", "2"}}));
  t->push_back(C("_npi_hstack", {X({2, 1}), X({2, 3})}, {{"num_args", "2"}}));
  t->push_back(C("_npi_dstack", {X({2, 3}), X({2, 3, 2})}, {{"num_args", "2"}}));
  t->push_back(C("_npi_column_stack", {X({3}), X({3, 2})}, {{"num_args", "2"}}));

  t->push_back(C("Reshape", {X(d)}, {{"shape", "(4, -1)"}}));
  t->push_back(C("_np_reshape", {X(d)}, {{"newshape", "(-1, 2)"}}));
  t->push_back(C("Flatten", {X(d)}));
  t->push_back(C("expand_dims", {X(d)}, {{"axis", "1"}}));
  t->push_back(C("squeeze", {X({2, 1, 3})}));
  t->push_back(C("_copyto", {X(d)}));
  t->push_back(C("_CrossDeviceCopy", {X(d)}));
  t->push_back(C("_identity_with_attr_like_rhs", {X(d), X(d)}));  // rhs: zeros, as MXNet
  t->push_back(C("transpose", {X(d)}, {{"axes", "(1, 2, 0)"}}));
  t->push_back(C("transpose", {X(d)}, {}, "reverse"));

  t->push_back(C("dot", {X({2, 3}), X({3, 4})}));
  t->push_back(C("dot", {X({3, 2}), X({3, 4})}, {{"transpose_a", "True"}}, "transpose_a"));
  t->push_back(C("dot", {X({2, 3}), X({4, 3})}, {{"transpose_b", "True"}}, "transpose_b"));
  t->push_back(C("dot", {X({3, 2}), X({4, 3})}, {{"transpose_a", "True"}, {"transpose_b", "True"}}, "both"));
  t->push_back(C("dot", {X({2, 2, 3}), X({3, 2, 2})}, {}, "nd"));
  t->push_back(C("dot", {X({3, 2, 2}), X({2, 2, 3})}, {{"transpose_a", "True"}, {"transpose_b", "True"}},
                 "nd_transposed"));
  t->push_back(C("dot", {X({3}), X({3})}, {}, "vectors"));
  t->push_back(C("dot", {X({3}), X({3, 4})}, {}, "vector_matrix"));
  t->push_back(C("batch_dot", {X({2, 2, 3}), X({2, 3, 4})}));
  t->push_back(C("batch_dot", {X({2, 3, 2}), X({2, 4, 3})}, {{"transpose_a", "True"}, {"transpose_b", "True"}},
                 "transposed"));

  t->push_back(C("Concat", {X({2, 3}), X({2, 2}), X({2, 1})}, {{"num_args", "3"}, {"dim", "1"}}));
  t->push_back(C("Concat", {X({1, 3}), X({2, 3})}, {{"num_args", "2"}, {"dim", "0"}}, "dim0"));
  // RNN parameter pieces joined flat (MXNet 1.9.1 gives it Concat's gradient).
  t->push_back(C("_rnn_param_concat", {X({6}), X({4}), X({2})}, {{"num_args", "3"}, {"dim", "0"}}));
  t->push_back(C("stack", {X({2, 3}), X({2, 3}), X({2, 3})}, {{"num_args", "3"}, {"axis", "1"}}));
  t->push_back(C("stack", {X({2, 3}), X({2, 3})}, {{"num_args", "2"}, {"axis", "-1"}}, "last_axis"));
  t->push_back(C("SliceChannel", {X({2, 4})}, {{"num_outputs", "2"}, {"axis", "1"}}));
  t->push_back(C("SliceChannel", {X({2, 3})}, {{"num_outputs", "2"}, {"axis", "0"}, {"squeeze_axis", "True"}}, "squeeze"));

  t->push_back(
      C("slice", {X({3, 4, 5})}, {{"begin", "(1, None, 0)"}, {"end", "(3, None, 5)"}, {"step", "(1, None, 2)"}}));
  t->push_back(C("slice", {X({4, 3})}, {{"begin", "(None,)"}, {"end", "(0,)"}, {"step", "(-2,)"}}, "negative_step"));
  t->push_back(C("slice_axis", {X({3, 4, 5})}, {{"axis", "-1"}, {"begin", "1"}, {"end", "3"}}));
  t->push_back(C("slice_axis", {X({3, 4})}, {{"axis", "0"}, {"begin", "-2"}, {"end", "None"}}, "negative_begin"));

  t->push_back(C("take", {X({4, 3}), I({2, 2}, Fixed({0, 3, 3, 1}))}));
  t->push_back(C("take", {X({2, 3}), I({4}, Fixed({-1, 4, 1, 2}))}, {{"axis", "1"}, {"mode", "wrap"}}, "wrap"));
  t->push_back(C("take", {X({3, 2}), I({3}, Fixed({5, -1, 0}))}, {{"axis", "0"}, {"mode", "clip"}}, "clip"));
  t->push_back(C("pick", {X({3, 4}), I({3}, Fixed({0, 3, 1}))}, {{"axis", "1"}}));
  t->push_back(C("pick", {X({3, 2, 2}), I({1, 2, 2}, Fixed({2, 0, 1, 1}))}, {{"axis", "0"}, {"keepdims", "True"}},
                 "keepdims"));
  t->push_back(C("gather_nd", {X({3, 4}), I({2, 3}, Fixed({0, 2, 0, 3, 1, 3}))}));
  t->push_back(C("gather_nd", {X({3, 2, 2}), I({1, 2}, Fixed({2, -3}))}, {}, "slices"));
  t->push_back(Zero(C("one_hot", {X({4}, Ints(0, 2, 0.5))}, {{"depth", "3"}, {"dtype", "float64"}})));
}

void AddNN(std::vector<GradCase>* t) {
  const Shape s{3, 4};
  for (const char* act : {"sigmoid", "tanh", "softrelu", "softsign", "log_sigmoid", "mish"})
    t->push_back(C("Activation", {X(s, U(-2.0, 2.0))}, {{"act_type", act}}, act));
  t->push_back(C("Activation", {X(s, Away())}, {{"act_type", "relu"}}, "relu"));
  for (const char* act : {"leaky", "elu", "selu", "gelu"})
    t->push_back(C("LeakyReLU", {X(s, Away())}, {{"act_type", act}, {"slope", "0.2"}}, act));
  t->push_back(C("LeakyReLU", {X({2, 3, 2}, Away()), X({3}, U(0.1, 0.5))}, {{"act_type", "prelu"}}, "prelu"));
  // rrelu draws its slopes when training; inference uses their mean.
  t->push_back(Inference(C("LeakyReLU", {X(s, Away())}, {{"act_type", "rrelu"}}, "rrelu_inference")));

  t->push_back(C("FullyConnected", {X({2, 3, 2}), X({4, 6}), X({4})}, {{"num_hidden", "4"}}));
  t->push_back(C("FullyConnected", {X({2, 3}), X({4, 3})}, {{"num_hidden", "4"}, {"no_bias", "True"}}, "no_bias"));
  t->push_back(C("FullyConnected", {X({2, 3, 5}), X({4, 5}), X({4})}, {{"num_hidden", "4"}, {"flatten", "False"}},
                 "no_flatten"));
  t->push_back(C("Convolution", {X({2, 2, 5, 5}), X({3, 2, 3, 3}), X({3})},
                 {{"kernel", "(3, 3)"}, {"num_filter", "3"}, {"stride", "(2, 2)"}, {"pad", "(1, 1)"}}));
  t->push_back(C("Convolution", {X({1, 4, 7}), X({4, 2, 3})},
                 {{"kernel", "(3,)"}, {"num_filter", "4"}, {"num_group", "2"}, {"dilate", "(2,)"}, {"no_bias", "True"}},
                 "1d_grouped"));
  t->push_back(C("Deconvolution", {X({1, 2, 3, 3}), X({2, 3, 3, 3})},
                 {{"kernel", "(3, 3)"}, {"num_filter", "3"}, {"stride", "(2, 2)"}, {"pad", "(1, 1)"}}));
  t->push_back(C("Deconvolution", {X({2, 2, 4}), X({2, 1, 2}), X({1})},
                 {{"kernel", "(2,)"}, {"num_filter", "1"}, {"no_bias", "False"}}, "1d_bias"));
  const Shape img{1, 2, 4, 4};
  t->push_back(C("Pooling", {X(img)}, {{"kernel", "(2, 2)"}, {"stride", "(2, 2)"}, {"pool_type", "max"}}, "max"));
  t->push_back(C("Pooling", {X(img)}, {{"kernel", "(3, 3)"}, {"pad", "(1, 1)"}, {"pool_type", "avg"}}, "avg"));
  t->push_back(C("Pooling", {X(img)},
                 {{"kernel", "(3, 3)"}, {"pad", "(1, 1)"}, {"pool_type", "avg"}, {"count_include_pad", "False"}},
                 "avg_exclude_pad"));
  t->push_back(C("Pooling", {X(img)}, {{"kernel", "(2, 2)"}, {"pool_type", "sum"}}, "sum"));
  t->push_back(C("Pooling", {X(img, Away())}, {{"kernel", "(2, 2)"}, {"pool_type", "lp"}, {"p_value", "2"}}, "lp2"));
  t->push_back(C("Pooling", {X(img)}, {{"kernel", "(1, 1)"}, {"global_pool", "True"}, {"pool_type", "avg"}}, "global"));
  t->push_back(C("LRN", {X({2, 5, 2, 2}, U(-2.0, 2.0))}, {{"nsize", "3"}, {"alpha", "0.5"}, {"knorm", "1"}}));
  t->push_back(C("LRN", {X({1, 2, 3, 2}, U(-2.0, 2.0))},
                 {{"nsize", "5"}, {"alpha", "0.8"}, {"beta", "1.1"}, {"knorm", "0.7"}}, "channels_below_nsize"));

  const Shape bn{3, 2, 2};
  auto bn_inputs = [&] {
    return std::vector<In>{X(bn), X({2}, U(0.5, 1.5)), X({2}), I({2}, U()), I({2}, U(0.5, 1.5))};
  };
  t->push_back(C("BatchNorm", bn_inputs(), {{"fix_gamma", "False"}, {"eps", "1e-5"}}, "batch_stats"));
  t->push_back(C("BatchNorm", bn_inputs(), {{"fix_gamma", "True"}}, "fix_gamma"));
  t->push_back(C("BatchNorm", bn_inputs(), {{"fix_gamma", "False"}, {"use_global_stats", "True"}}, "global_stats"));
  t->push_back(Inference(C("BatchNorm", bn_inputs(), {{"fix_gamma", "False"}, {"axis", "-1"}}, "inference")));
  t->push_back(C("LayerNorm", {X({2, 3, 4}), X({4}, U(0.5, 1.5)), X({4})}));
  t->push_back(C("LayerNorm", {X({2, 3, 4}), X({3}, U(0.5, 1.5)), X({3})}, {{"axis", "1"}}, "axis1"));
  t->push_back(C("InstanceNorm", {X({2, 3, 4}), X({3}, U(0.5, 1.5)), X({3})}));
  // Training dropout is random; its rule is checked by DropoutTrainingUsesTheMask below.
  t->push_back(Inference(C("Dropout", {X(s)}, {{"p", "0.5"}}, "inference")));
  // RNN: data (seq, batch, input), the flat parameters (MXNet's packing), state[, state_cell].
  t->push_back(C("RNN", {X({3, 2, 2}), X({48}, U(-0.5, 0.5)), X({1, 2, 2}), X({1, 2, 2})},
                 {{"state_size", "2"}, {"num_layers", "1"}, {"mode", "lstm"}}, "lstm"));
  t->push_back(C("RNN", {X({3, 2, 2}), X({224}, U(-0.5, 0.5)), X({4, 2, 2}), X({4, 2, 2})},
                 {{"state_size", "2"}, {"num_layers", "2"}, {"mode", "lstm"}, {"bidirectional", "True"},
                  {"state_outputs", "True"}},
                 "lstm_2layer_bidir_states"));
  t->push_back(C("RNN", {X({3, 2, 2}), X({36}, U(-0.5, 0.5)), X({1, 2, 2})},
                 {{"state_size", "2"}, {"num_layers", "1"}, {"mode", "gru"}, {"state_outputs", "True"}}, "gru"));
  t->push_back(C("Embedding", {I({2, 3}, Fixed({0, 4, 2, 2, 1, 0})), X({5, 4})},
                 {{"input_dim", "5"}, {"output_dim", "4"}, {"dtype", "float64"}}));
  for (const char* mode : {"constant", "edge", "reflect"})
    t->push_back(C("Pad", {X({1, 2, 3, 3})}, {{"mode", mode}, {"pad_width", "(0, 0, 0, 0, 1, 2, 2, 1)"}}, mode));
  t->push_back(C("UpSampling", {X({1, 2, 2, 3})}, {{"scale", "2"}, {"sample_type", "nearest"}, {"num_args", "1"}}));
  t->push_back(C("UpSampling", {X({1, 2, 4, 4}), X({1, 1, 2, 2})},
                 {{"scale", "2"}, {"sample_type", "nearest"}, {"num_args", "2"}}, "concat"));
  t->push_back(C("UpSampling", {X({1, 2, 4, 4}), X({1, 2, 2, 2})},
                 {{"scale", "2"}, {"sample_type", "nearest"}, {"num_args", "2"}, {"multi_input_mode", "sum"}}, "sum"));
  const Shape seq{4, 3, 2};
  t->push_back(
      C("SequenceMask", {X(seq), I({3}, Fixed({1, 4, 2}))}, {{"use_sequence_length", "True"}, {"value", "-1"}}));
  t->push_back(C("SequenceMask", {X({3, 4, 2}), I({3}, Fixed({2, 3, 1}))},
                 {{"use_sequence_length", "True"}, {"axis", "1"}}, "axis1"));
  t->push_back(C("SequenceMask", {X(seq)}, {}, "no_lengths"));
  t->push_back(C("SequenceLast", {X(seq), I({3}, Fixed({1, 4, 2}))}, {{"use_sequence_length", "True"}}));
  t->push_back(C("SequenceLast", {X({3, 4, 2}), I({3}, Fixed({2, 3, 1}))},
                 {{"use_sequence_length", "True"}, {"axis", "1"}}, "axis1"));
  t->push_back(C("SequenceLast", {X(seq)}, {}, "no_lengths"));

  t->push_back(C("softmax", {X({2, 3, 4})}, {{"axis", "1"}, {"temperature", "2"}}));
  t->push_back(C("log_softmax", {X({2, 3, 4})}, {{"axis", "-1"}}));
  t->push_back(C("SoftmaxActivation", {X({2, 5})}, {}, "instance"));
  t->push_back(C("SoftmaxActivation", {X({2, 3, 2})}, {{"mode", "channel"}}, "channel"));
  t->push_back(C("softmax_cross_entropy", {X(s), I({3}, Fixed({0, 3, 1}))}));
  t->push_back(WithLoss(C("SoftmaxOutput", {X(s), I({3}, Fixed({0, 3, 1}))}, {{"grad_scale", "1.5"}}),
                        CrossEntropy(1.5)));
  t->push_back(WithLoss(C("SoftmaxOutput", {X(s), I({3}, Fixed({2, 2, 0}))}, {{"normalization", "batch"}}, "batch"),
                        CrossEntropy(1.0 / 3)));
  const Shape r{3, 2};
  t->push_back(WithLoss(C("LinearRegressionOutput", {X(r), I(r, U())}, {{"grad_scale", "2"}}),
                        Regression("linear", 2.0, 2)));
  t->push_back(WithLoss(C("MAERegressionOutput", {X(r), I(r, U())}), Regression("mae", 1.0, 2)));
  t->push_back(WithLoss(C("LogisticRegressionOutput", {X(r), I(r, U(0.0, 1.0))}, {{"grad_scale", "0.5"}}),
                        Regression("logistic", 0.5, 2)));
  t->push_back(C("smooth_l1", {X(s, Away(0.05, 2.0))}, {{"scalar", "1.5"}}));
  t->push_back(WithLoss(C("make_loss", {X(s)}), SumOfOutput(1.0)));
  t->push_back(WithLoss(C("MakeLoss", {X(s)}, {{"grad_scale", "2"}}), SumOfOutput(2.0)));
  t->push_back(WithLoss(C("MakeLoss", {X(s)}, {{"normalization", "batch"}}, "batch"), SumOfOutput(1.0 / 3)));
  t->push_back(Zero(WithLoss(C("BlockGrad", {X(s)}), Constant())));
  t->push_back(C("add_n", {X(s), X(s), X(s)}, {{"num_args", "3"}}));
}

// Backward operators with a rule of their own (second order, autograd.grad
// with create_graph): each input, out_grad included, is an independent
// variable here, so the check covers every term of the rule.
void AddSecondOrder(std::vector<GradCase>* t) {
  const Shape s{3, 4};
  for (const char* act : {"sigmoid", "tanh", "softrelu", "log_sigmoid"})
    t->push_back(C("_backward_Activation", {X(s), X(s, U(0.1, 0.9))}, {{"act_type", act}}, act));
  t->push_back(C("_backward_Activation", {X(s), X(s, Away())}, {{"act_type", "relu"}}, "relu"));
  t->push_back(C("_backward_FullyConnected", {X({2, 4}), X({2, 3, 2}), X({4, 6})}, {{"num_hidden", "4"}}));
  t->push_back(C("_backward_FullyConnected", {X({2, 3, 4}), X({2, 3, 5}), X({4, 5})},
                 {{"num_hidden", "4"}, {"flatten", "False"}, {"no_bias", "True"}}, "no_flatten_no_bias"));
  t->push_back(C("_backward_Convolution", {X({2, 3, 3, 3}), X({2, 2, 5, 5}), X({3, 2, 3, 3})},
                 {{"kernel", "(3, 3)"}, {"num_filter", "3"}, {"stride", "(2, 2)"}, {"pad", "(1, 1)"}}));
  t->push_back(C("_backward_Convolution", {X({1, 4, 3}), X({1, 4, 7}), X({4, 2, 3})},
                 {{"kernel", "(3,)"}, {"num_filter", "4"}, {"num_group", "2"}, {"dilate", "(2,)"}, {"no_bias", "True"}},
                 "1d_grouped"));
  t->push_back(C("_backward_Deconvolution", {X({1, 3, 5, 5}), X({1, 2, 3, 3}), X({2, 3, 3, 3})},
                 {{"kernel", "(3, 3)"}, {"num_filter", "3"}, {"stride", "(2, 2)"}, {"pad", "(1, 1)"}}));
  t->push_back(C("_backward_Deconvolution", {X({2, 1, 5}), X({2, 2, 4}), X({2, 1, 2})},
                 {{"kernel", "(2,)"}, {"num_filter", "1"}, {"no_bias", "False"}}, "1d_bias"));
  t->push_back(C("_backward_sum", {X({3, 2}), X({3, 4, 2})}, {{"axis", "(1,)"}}));
  t->push_back(C("_backward_mean", {X({1, 4, 1}), X({3, 4, 2})}, {{"axis", "(0, 2)"}, {"keepdims", "True"}}));
  t->push_back(C("_broadcast_backward", {X({2, 3, 4}), X({3, 1})}));
  t->push_back(C("_backward_softmax", {X({2, 3, 4}), X({2, 3, 4}, U(0.1, 0.9))}, {{"axis", "1"}, {"temperature", "2"}}));
  for (const char* act : {"leaky", "elu", "selu", "gelu"})
    t->push_back(C("_backward_LeakyReLU", {X(s), X(s, Away())}, {{"act_type", act}, {"slope", "0.3"}}, act));
  t->push_back(C("_backward_Pooling", {X({1, 2, 2, 3}), X({1, 2, 4, 5}), X({1, 2, 2, 3})},
                 {{"kernel", "(2, 3)"}, {"stride", "(2, 2)"}, {"pad", "(0, 1)"}, {"pool_type", "avg"}}, "avg"));
  t->push_back(C("_backward_Pooling", {X({1, 2, 3}), X({1, 2, 6}), X({1, 2, 3})},
                 {{"kernel", "(2,)"}, {"stride", "(2,)"}, {"pool_type", "sum"}}, "sum_1d"));
  t->push_back(C("_backward_reshape", {X({3, 4}), X({2, 6})}));
  t->push_back(C("_backward_slice_axis", {X({3, 2, 2}), X({3, 5, 2})}, {{"axis", "1"}, {"begin", "-4"}, {"end", "3"}}));
  // The mask is a draw: no gradient flows into it (an index-like input here).
  t->push_back(C("_backward_Dropout", {X({3, 4}), I({1, 4}, Fixed({0, 2, 2, 0}))}, {{"p", "0.5"}, {"axes", "(0,)"}}));
  t->push_back(C("_backward_log_softmax", {X({2, 3, 4}), X({2, 3, 4}, U(-2.0, -0.1))}, {{"axis", "-1"}}));
}

// ---- issue 17, helper nn: the MXNet 1.x layers in norm/, seq/, loss/, conv/, dense/, index/ ----

// SVMOutput's objective: the one-vs-all hinge loss whose gradient MXNet's backward returns.
Loss SvmLoss(double margin, double reg, bool linear) {
  return [=](const std::vector<Values>& outs, const std::vector<Values>& ins, const std::vector<Values>&) {
    const Values& o = outs[0];
    const Values& label = ins[1];
    const size_t classes = o.size() / label.size();
    double l = 0;
    for (size_t r = 0; r < label.size(); ++r)
      for (size_t x = 0; x < classes; ++x) {
        const double v = o[r * classes + x];
        const double h = x == static_cast<size_t>(label[r]) ? std::max(0.0, margin - v) : std::max(0.0, margin + v);
        l += linear ? h : h * h;
      }
    return reg * l;
  };
}

void AddNnMore(std::vector<GradCase>* t) {
  t->push_back(C("SequenceReverse", {X({4, 3, 2}), I({3}, Fixed({2, 4, 1}))}, {{"use_sequence_length", "True"}}));
  t->push_back(C("SequenceReverse", {X({3, 2})}, {}, "no_lengths"));
  t->push_back(C("L2Normalization", {X({3, 4})}));
  t->push_back(C("L2Normalization", {X({2, 3, 2})}, {{"mode", "channel"}}, "channel"));
  t->push_back(C("L2Normalization", {X({2, 2, 3})}, {{"mode", "spatial"}}, "spatial"));
  t->push_back(C("GroupNorm", {X({2, 4, 3}), X({2}, U(0.5, 1.5)), X({2})}, {{"num_groups", "2"}}));
  t->push_back(C("GroupNorm", {X({2, 3, 2, 2}), X({1}, U(0.5, 1.5)), X({1})}, {{"eps", "1e-3"}}, "one_group"));
  t->push_back(WithLoss(C("SVMOutput", {X({3, 4}), I({3}, Fixed({0, 3, 1}))}), SvmLoss(1.0, 1.0, false)));
  t->push_back(WithLoss(C("SVMOutput", {X({3, 4}), I({3}, Fixed({2, 2, 0}))},
                          {{"use_linear", "True"}, {"margin", "0.5"}, {"regularization_coefficient", "2"}}, "l1"),
                        SvmLoss(0.5, 2.0, true)));
  // The penalty is not the derivative of an objective (MXNet adds it to the gradient);
  // with penalty 0 the rule is checked here, the penalty in tests/python/test_nn_more_ops.py.
  t->push_back(C("IdentityAttachKLSparseReg", {X({3, 4}, U(0.1, 0.9)), I({4}, U(0.2, 0.8))}, {{"penalty", "0"}}));
  t->push_back(C("im2col", {X({1, 2, 4, 4})}, {{"kernel", "(3, 3)"}, {"stride", "(2, 1)"}, {"pad", "(1, 1)"}}));
  t->push_back(C("col2im", {X({1, 8, 4})}, {{"output_size", "(3, 3)"}, {"kernel", "(2, 2)"}}));
  t->push_back(C("_contrib_interleaved_matmul_selfatt_qk", {X({3, 2, 12})}, {{"heads", "2"}}));
  t->push_back(C("_contrib_interleaved_matmul_selfatt_valatt", {X({3, 2, 12}), X({4, 3, 3})}, {{"heads", "2"}}));
  t->push_back(C("_contrib_interleaved_matmul_encdec_qk", {X({3, 2, 4}), X({4, 2, 8})}, {{"heads", "2"}}));
  t->push_back(C("_contrib_interleaved_matmul_encdec_valatt", {X({4, 2, 8}), X({4, 3, 4})}, {{"heads", "2"}}));
  t->push_back(C("CTCLoss", {X({5, 2, 4}), I({2, 2}, Fixed({1, 2, 3, 0}))}));
  t->push_back(C("CTCLoss", {X({4, 2, 4}), I({2, 3}, Fixed({0, 0, 1, 2, -1, -1})), I({2}, Fixed({4, 3}))},
                 {{"blank_label", "last"}, {"use_data_lengths", "True"}}, "last_data_lengths"));
  const auto bn = [] { return std::vector<In>{X({3, 2, 2}), X({2}, U(0.5, 1.5)), X({2}), I({2}, U()), I({2}, U(0.5, 1.5))}; };
  t->push_back(C("_contrib_SyncBatchNorm", bn(), {{"fix_gamma", "False"}, {"key", "k"}}));
  t->push_back(C("_contrib_BatchNormWithReLU", bn(), {{"fix_gamma", "False"}}));
  t->push_back(C("_contrib_SparseEmbedding", {I({2, 3}, Fixed({0, 4, 2, 2, 1, 0})), X({5, 4})},
                 {{"input_dim", "5"}, {"output_dim", "4"}, {"dtype", "float64"}}));
}

// ---- linalg (core/op/linalg) and signal (core/op/signal) ----

Values Read(const NDArray& a);
void Write(const NDArray& a, const Values& v);

// A batch of n x n matrices built from uniform entries: symmetric positive
// definite (M M^T + n I), or with the diagonal moved away from zero by `shift`.
Gen Matrices(int64_t n, bool spd, double shift) {
  return [n, spd, shift](std::mt19937_64& g, int64_t size) {
    Values v = U()(g, size);
    for (int64_t b = 0; b < size / (n * n); ++b) {
      double* m = v.data() + b * n * n;
      if (spd) {
        Values s(static_cast<size_t>(n * n), 0.0);
        for (int64_t r = 0; r < n; ++r)
          for (int64_t c = 0; c < n; ++c)
            for (int64_t k = 0; k < n; ++k) s[static_cast<size_t>(r * n + c)] += m[r * n + k] * m[c * n + k];
        std::copy(s.begin(), s.end(), m);
      }
      for (int64_t r = 0; r < n; ++r) m[r * n + r] += m[r * n + r] >= 0 ? shift : -shift;
    }
    return v;
  };
}

// potrf and syevd read one triangle of a symmetric input and give the
// symmetric gradient (MXNet's): the gradient of <op((A + A^T) / 2), head>.
Loss Symmetrized(const std::string& op, int64_t n) {
  return [op, n](const std::vector<Values>&, const std::vector<Values>& ins, const std::vector<Values>& heads) {
    Values a = ins[0];
    for (size_t b = 0; b < a.size() / static_cast<size_t>(n * n); ++b)
      for (int64_t r = 0; r < n; ++r)
        for (int64_t c = 0; c < n; ++c)
          a[b * n * n + r * n + c] = 0.5 * (ins[0][b * n * n + r * n + c] + ins[0][b * n * n + c * n + r]);
    NDArray x(Shape{static_cast<int64_t>(a.size()) / (n * n), n, n}, Context::CPU(0), DType::kFloat64);
    Write(x, a);
    std::vector<NDArray> outs;
    Invoke(OpRegistry::Get()->FindOrThrow(op), {}, {x}, &outs);
    double f = 0;
    for (size_t k = 0; k < outs.size(); ++k) {
      const Values o = Read(outs[k]);
      for (size_t i = 0; i < o.size(); ++i) f += o[i] * heads[k][i];
    }
    return f;
  };
}

void AddLinalg(std::vector<GradCase>* t) {
  t->push_back(C("_linalg_gemm2", {X({3, 4}), X({4, 2})}, {{"alpha", "1.5"}}));
  t->push_back(C("_linalg_gemm2", {X({2, 4, 3}), X({2, 2, 4})}, {{"transpose_a", "True"}, {"transpose_b", "True"}},
                 "transposed"));
  t->push_back(C("_linalg_gemm2", {X({2, 3, 2, 2}), X({2, 2, 2, 3})}, {{"axis", "1"}}, "axis=1"));
  t->push_back(C("_linalg_gemm", {X({2, 3}), X({3, 4}), X({2, 4})}, {{"alpha", "0.5"}, {"beta", "2"}}));
  t->push_back(C("_linalg_trmm", {X({3, 3}), X({3, 2})}, {{"alpha", "2"}}));
  t->push_back(C("_linalg_trmm", {X({2, 3, 3}), X({2, 2, 3})},
                 {{"rightside", "True"}, {"lower", "False"}, {"transpose", "True"}}, "right upper transposed"));
  t->push_back(C("_linalg_trsm", {X({3, 3}, Matrices(3, false, 1.5)), X({3, 2})}, {{"alpha", "0.5"}}));
  t->push_back(C("_linalg_trsm", {X({2, 3, 3}, Matrices(3, false, 1.5)), X({2, 2, 3})},
                 {{"rightside", "True"}, {"lower", "False"}, {"transpose", "True"}}, "right upper transposed"));
  t->push_back(C("_linalg_syrk", {X({3, 2})}, {{"alpha", "1.5"}}));
  t->push_back(C("_linalg_syrk", {X({2, 2, 3})}, {{"transpose", "True"}}, "transposed"));
  t->push_back(WithLoss(C("_linalg_potrf", {X({3, 3}, Matrices(3, true, 3.0))}), Symmetrized("_linalg_potrf", 3)));
  t->push_back(C("_linalg_potri", {X({3, 3}, Matrices(3, false, 1.5))}));
  t->push_back(C("_linalg_potri", {X({2, 3, 3}, Matrices(3, false, 1.5))}, {{"lower", "False"}}, "upper"));
  t->push_back(C("_linalg_inverse", {X({2, 3, 3}, Matrices(3, false, 3.0))}));
  t->push_back(C("_linalg_det", {X({2, 3, 3}, Matrices(3, false, 3.0))}));
  t->push_back(C("_linalg_slogdet", {X({3, 3}, Matrices(3, false, 3.0))}));
  t->push_back(C("_linalg_sumlogdiag", {X({2, 3, 3}, Matrices(3, true, 3.0))}));
  t->push_back(C("_linalg_extractdiag", {X({2, 3, 3})}, {{"offset", "-1"}}));
  t->push_back(C("_linalg_makediag", {X({2, 3})}, {{"offset", "1"}}));
  t->push_back(C("_linalg_extracttrian", {X({2, 3, 3})}, {{"lower", "False"}}));
  t->push_back(C("_linalg_maketrian", {X({2, 3})}, {{"offset", "-1"}}));
  t->push_back(C("_linalg_gelqf", {X({2, 3})}));
  t->push_back(C("_linalg_gelqf", {X({2, 2, 2}, Matrices(2, false, 2.0))}, {}, "square batch"));
  t->push_back(WithLoss(C("_linalg_syevd", {X({3, 3}, Matrices(3, true, 0.0))}), Symmetrized("_linalg_syevd", 3)));
  // np.linalg (core/op/linalg/np_*.cc): the SVD's sign rule is locally constant, so plain heads work.
  t->push_back(C("_npi_svd", {X({3, 4})}));
  t->push_back(C("_npi_svd", {X({2, 4, 3})}, {}, "tall batch"));
  t->push_back(C("_npi_solve", {X({2, 3, 3}, Matrices(3, false, 3.0)), X({2, 3, 2})}));
  t->push_back(C("_npi_solve", {X({3, 3}, Matrices(3, false, 3.0)), X({3})}, {}, "vectors"));
  // NumPy's dot and matmul (core/op/dense/np_products.cc): blocks of a shared by several products sum.
  t->push_back(C("_np_dot", {X({2, 3}), X({3, 4})}));
  t->push_back(C("_np_dot", {X({2, 3}), X({2, 3, 2})}, {}, "N-d b"));
  t->push_back(C("_np_dot", {X({4}), X({4})}, {}, "inner"));
  t->push_back(C("_npi_matmul", {X({2, 1, 2, 3}), X({3, 3, 2})}, {}, "broadcast batch"));
  t->push_back(C("_npi_matmul", {X({3}), X({2, 3, 2})}, {}, "1-D a"));
  t->push_back(C("_npi_tensordot", {X({3, 2, 2}), X({3, 2, 4})}, {{"a_axes_summed", "(0, 1)"}, {"b_axes_summed", "(0, 1)"}},
                 "a transposed"));
  t->push_back(C("_npi_tensordot", {X({2, 3}), X({4, 3})}, {{"a_axes_summed", "(1,)"}, {"b_axes_summed", "(1,)"}},
                 "b transposed"));
  t->push_back(C("_npi_tensordot_int_axes", {X({2, 3, 2}), X({3, 2, 2})}, {{"axes", "2"}}));
  t->push_back(C("_np_trace", {X({2, 3, 4})}, {{"offset", "1"}, {"axis1", "2"}, {"axis2", "0"}}));
  t->push_back(C("_contrib_fft", {X({2, 4})}));
  t->push_back(C("_contrib_ifft", {X({2, 6})}));
  t->push_back(C("_contrib_count_sketch", {X({2, 5}), I({1, 5}, Fixed({0, 2, 1, 2, 0})), I({1, 5}, Fixed({1, -1, 1, 1, -1}))},
                 {{"out_dim", "3"}}));
  // hawkesll: the gradient of loglike in lda, alpha and beta (MXNet's rule: out_state's head is not used).
  In marks = I({2, 3}, Fixed({0, 1, 0, 1, 1, 0}));
  marks.dtype = DType::kInt32;
  t->push_back(WithLoss(
      C("_contrib_hawkesll", {X({2, 2}, U(0.3, 1.0)), X({2}, U(0.1, 0.5)), X({2}, U(0.5, 2.0)), I({2, 2}, U(0.0, 1.0)),
                              I({2, 3}, U(0.1, 1.0)), marks, I({2}, Fixed({3, 2})), I({2}, Fixed({4.0, 3.5}))}),
      [](const std::vector<Values>& outs, const std::vector<Values>&, const std::vector<Values>& heads) {
        double f = 0;
        for (size_t i = 0; i < outs[0].size(); ++i) f += outs[0][i] * heads[0][i];
        return f;
      }));
}

// The surrogate loss k <input 0, head 0> of the ops whose gradient is, by
// design, not the derivative of their output: the straight-through
// estimators (k = 1) and _contrib_gradientmultiplier (k = its scalar).
Loss ScaledInput(double k) {
  return [k](const std::vector<Values>&, const std::vector<Values>& ins, const std::vector<Values>& heads) {
    double l = 0;
    for (size_t i = 0; i < ins[0].size(); ++i) l += ins[0][i] * heads[0][i];
    return k * l;
  };
}

// Issue 17's elementwise ops (tests/python/op_cases/elemwise_more.py has their forward cases).
void AddElemwiseMore(std::vector<GradCase>* t) {
  const Shape s{3, 4};
  for (const char* op : {"arcsin", "arccos", "arctanh"}) t->push_back(C(op, {X(s, U(-0.8, 0.8))}));
  for (const char* op : {"arctan", "sinh", "cosh", "arcsinh", "erf", "degrees", "radians"})
    t->push_back(C(op, {X(s, U(-2.0, 2.0))}));
  t->push_back(C("arccosh", {X(s, U(1.2, 3.0))}));
  t->push_back(C("erfinv", {X(s, U(-0.9, 0.9))}));
  for (const char* op : {"gamma", "gammaln", "rcbrt", "log2", "log10"}) t->push_back(C(op, {X(s, U(0.5, 4.0))}));
  t->push_back(C("gamma", {X(s, U(-0.9, -0.1))}, {}, "negative"));
  t->push_back(C("softsign", {X(s, Away())}));
  for (const char* op : {"rint", "fix", "trunc"}) t->push_back(Zero(C(op, {X(s, Steps())})));
  for (const char* op : {"logical_not", "_contrib_isnan", "_contrib_isinf", "_contrib_isfinite"})
    t->push_back(Zero(C(op, {X(s)})));
  for (const char* op : {"_logical_and", "_logical_or", "_logical_xor"}) t->push_back(Zero(C(op, {X(s), X(s)})));
  for (const char* op : {"broadcast_logical_and", "broadcast_logical_or", "broadcast_logical_xor"})
    t->push_back(Zero(C(op, {X({3, 1, 4}), X({2, 1})})));
  for (const char* op : {"_logical_and_scalar", "_logical_or_scalar", "_logical_xor_scalar"})
    t->push_back(Zero(C(op, {X(s)}, {{"scalar", "1"}})));
  t->push_back(C("_hypot", {X(s, Away()), X(s, Away())}));
  t->push_back(C("broadcast_hypot", {X({3, 1, 4}, Away()), X({2, 1}, Away())}));
  t->push_back(C("_hypot_scalar", {X(s)}, {{"scalar", "0.7"}}));
  // hard_sigmoid: inputs away from the kinks at (0 - beta) / alpha and (1 - beta) / alpha
  t->push_back(C("hard_sigmoid", {X(s, Fixed({-3.1, -2.0, -1.0, 0.1, 0.5, 2.2, 2.9, 3.5, -4.0, 1.3, -0.7, 4.4}))}));
  t->push_back(C("hard_sigmoid", {X(s, U(-1.0, 1.0))}, {{"alpha", "0.3"}, {"beta", "0.4"}}, "alpha_beta"));
  t->push_back(C("_contrib_quadratic", {X(s)}, {{"a", "1.5"}, {"b", "-0.5"}, {"c", "2"}}));
  t->push_back(C("_contrib_div_sqrt_dim", {X({2, 9})}));
  t->push_back(WithLoss(C("_contrib_round_ste", {X(s, Steps())}), ScaledInput(1.0)));
  t->push_back(WithLoss(C("_contrib_sign_ste", {X(s, Away())}), ScaledInput(1.0)));
  t->push_back(WithLoss(C("_contrib_gradientmultiplier", {X(s)}, {{"scalar", "-2.5"}}), ScaledInput(-2.5)));
  t->push_back(C("_contrib_backward_gradientmultiplier", {X(s)}, {{"scalar", "0.5"}}));
  t->push_back(C("softmin", {X({2, 3, 4})}, {{"axis", "1"}, {"temperature", "2"}}));
  t->push_back(C("_backward_softmin", {X({2, 3, 4}), X({2, 3, 4}, U(0.1, 0.9))}, {{"axis", "1"}, {"temperature", "2"}}));
  t->push_back(C("_np_cumsum", {X({2, 3, 4})}, {{"axis", "1"}}));
  t->push_back(C("_np_cumsum", {X({2, 3})}, {}, "flattened"));
  t->push_back(C("_backward_np_cumsum", {X({6}), I({2, 3}, U())}, {}, "flattened"));
  t->push_back(C("_backward_np_cumsum", {X({2, 3, 4}), I({2, 3, 4}, U())}, {{"axis", "-1"}}));
  t->push_back(C("_npi_diff", {X({2, 5, 3})}, {{"n", "2"}, {"axis", "1"}}));
  t->push_back(C("_npi_diff", {X({7})}, {{"n", "3"}}, "1d"));
  t->push_back(C("_backward_npi_diff", {X({2, 3, 3}), I({2, 5, 3}, U())}, {{"n", "2"}, {"axis", "-2"}}));
  t->push_back(C("_npi_polyval", {X({4}), X({2, 3}, U(-1.5, 1.5))}));
  t->push_back(C("_npi_pad", {X({3, 2})}, {{"pad_width", "((2, 1), (3, 4))"}, {"mode", "reflect"}}, "reflect"));
  // NumPy's where: the condition (0/1) takes no finite differences; x and y broadcast into the output
  t->push_back(C("_npi_where", {I({2, 1, 3}, Ints(0, 1)), X({4, 1}), X({1, 3})}));
  t->push_back(C("_npi_where_lscalar", {I({3, 1}, Ints(0, 1)), X({1, 4})}, {{"scalar", "2.5"}}));
  t->push_back(C("_npi_where_rscalar", {I({3}, Ints(0, 1)), X({2, 3})}, {{"scalar", "-1"}}));
  t->push_back(C("_npi_boolean_mask_assign_scalar", {X({2, 3, 2}), I({3, 2}, Ints(0, 1))},
                 {{"value", "2"}, {"start_axis", "1"}}));
  // NumPy's arctan2/copysign/ldexp (+ scalar forms), around, nan_to_num: operands away from the
  // kinks (atan2 at the origin, copysign's sign flip at 0, around's steps)
  t->push_back(C("_npi_arctan2", {X({2, 3}, Away()), X({3}, Away())}));
  t->push_back(C("_npi_arctan2_scalar", {X({2, 3})}, {{"scalar", "1.5"}}));
  t->push_back(C("_npi_rarctan2_scalar", {X({2, 3})}, {{"scalar", "-2"}}));
  t->push_back(C("_npi_copysign", {X({2, 3}, Away()), X({3}, Away())}));
  t->push_back(C("_npi_copysign_scalar", {X({2, 3}, Away())}, {{"scalar", "-1"}}));
  t->push_back(Zero(C("_npi_rcopysign_scalar", {X({4}, Away())}, {{"scalar", "3"}})));
  t->push_back(C("_npi_ldexp", {X({2, 3}), X({3})}));
  t->push_back(C("_npi_ldexp_scalar", {X({2, 3})}, {{"scalar", "1.5"}}));
  t->push_back(C("_npi_rldexp_scalar", {X({2, 3})}, {{"scalar", "-0.5"}}));
  t->push_back(Zero(C("_npi_around", {X({2, 3}, Steps())})));
  t->push_back(C("_npi_nan_to_num", {X({2, 3})}));
  t->push_back(C("moments", {X({2, 3, 4})}, {{"axes", "(0, 2)"}}));
  t->push_back(C("moments", {X({3, 4})}, {{"axes", "(1,)"}, {"keepdims", "True"}}, "keepdims"));
  t->push_back(C("amp_cast", {X(s)}, {{"dtype", "float64"}}));
  t->push_back(C("amp_multicast", {X(s), X({2})}, {{"num_outputs", "2"}}));
  t->push_back(Zero(C("_contrib_arange_like", {X(s)})));
}

// The detection family (core/op/detect/). box_nms's gradient copies each
// kept row's head gradient back to its input row; the boxes are far from
// every threshold so a finite step changes no suppression. The other box ops
// back-propagate zeros by definition (MXNet's MakeZeroGradNodes), not their
// derivative: their inputs are marked as not differentiable (MultiBoxPrior's
// output does not depend on its data's values, so its zero is checked).
void AddDetect(std::vector<GradCase>* t) {
  t->push_back(C("_contrib_box_nms", {X({4, 6}, Fixed({7, 0.9, 0.1, 0.1, 0.5, 0.5,      //
                                                       5, 0.8, 0.12, 0.12, 0.52, 0.52,  // suppressed by row 0
                                                       3, 0.7, 0.6, 0.6, 0.9, 0.9,      //
                                                       2, 0.6, 0.1, 0.6, 0.3, 0.9}))},
                 {{"overlap_thresh", "0.5"}}));
  t->push_back(Zero(C("_contrib_MultiBoxPrior", {X({1, 2, 3, 3})}, {{"sizes", "(0.5, 0.2)"}})));
  t->push_back(Zero(C("_contrib_box_iou", {I({2, 4}, U(0.0, 0.4)), I({3, 4}, U(0.5, 0.9))})));
  t->push_back(Zero(C("_contrib_box_decode", {I({1, 2, 4}, U()), I({1, 2, 4}, U(0.2, 0.5))})));
  t->push_back(Zero(C("_contrib_box_encode", {I({1, 2}, Fixed({1, 1})), I({1, 2}, Fixed({0, 1})),
                                              I({1, 2, 4}, Fixed({0.1, 0.1, 0.4, 0.4, 0.5, 0.5, 0.9, 0.8})),
                                              I({1, 2, 4}, Fixed({0.1, 0.2, 0.5, 0.4, 0.4, 0.5, 0.8, 0.9})),
                                              I({4}, Fixed({0, 0, 0, 0})), I({4}, Fixed({1, 1, 1, 1}))})));
  t->push_back(Zero(C("_contrib_bipartite_matching", {I({3, 2}, U())}, {{"threshold", "-2"}})));
  t->push_back(Zero(C("_contrib_MultiBoxDetection", {I({1, 3, 2}, U(0.1, 0.9)), I({1, 8}, U()), I({1, 2, 4},
                                                     Fixed({0.1, 0.1, 0.4, 0.4, 0.5, 0.5, 0.9, 0.8}))})));
  t->push_back(Zero(C("_contrib_MultiBoxTarget", {I({1, 2, 4}, Fixed({0.1, 0.1, 0.4, 0.4, 0.5, 0.5, 0.9, 0.8})),
                                                  I({1, 1, 5}, Fixed({0, 0.1, 0.1, 0.4, 0.45})), I({1, 2, 2}, U())})));
  for (const char* op : {"_contrib_Proposal", "_contrib_MultiProposal"})
    t->push_back(Zero(C(op, {I({1, 2, 2, 2}, U(0.0, 1.0)), I({1, 4, 2, 2}, U()), I({1, 3}, Fixed({16, 16, 1}))},
                        {{"scales", "(1,)"}, {"ratios", "(1,)"}, {"feature_stride", "8"},
                         {"rpn_post_nms_top_n", "3"}, {"rpn_min_size", "1"}})));
}

// ---- the layout ops of core/op/shape/view_plan.h, reshape_like, shape_array, the sort family ----
void AddShapeMore(std::vector<GradCase>* t) {
  t->push_back(C("tile", {X({2, 3})}, {{"reps", "(2, 2)"}}));
  t->push_back(C("tile", {X({3})}, {{"reps", "(2, 1, 2)"}}, "long_reps"));
  t->push_back(C("_backward_tile", {X({4, 3}), X({2, 3})}, {{"reps", "(2, 1)"}}));
  t->push_back(C("repeat", {X({2, 3})}, {{"repeats", "2"}, {"axis", "1"}}));
  t->push_back(C("repeat", {X({2, 2})}, {{"repeats", "3"}}, "flat"));
  t->push_back(C("_backward_repeat", {X({2, 6}), X({2, 3})}, {{"repeats", "2"}, {"axis", "-1"}}));
  t->push_back(C("reverse", {X({2, 3, 2})}, {{"axis", "(0, 2)"}}));
  t->push_back(C("SwapAxis", {X({2, 3, 4})}, {{"dim1", "0"}, {"dim2", "2"}}));
  t->push_back(C("depth_to_space", {X({1, 8, 2, 1})}, {{"block_size", "2"}}));
  t->push_back(C("space_to_depth", {X({1, 2, 2, 4})}, {{"block_size", "2"}}));
  t->push_back(C("diag", {X({3, 4})}, {{"k", "1"}}));
  t->push_back(C("diag", {X({3})}, {{"k", "-1"}}, "vector"));
  t->push_back(C("diag", {X({2, 3, 3})}, {{"axis1", "1"}, {"axis2", "2"}}, "3d"));
  t->push_back(C("_backward_diag", {X({3}), X({3, 4})}, {{"k", "1"}}));
  t->push_back(C("_backward_diag", {X({4, 4}), X({3})}, {{"k", "-1"}}, "vector"));
  t->push_back(C("slice_like", {X({3, 4}), I({2, 2}, U())}, {{"axes", "(1,)"}}));
  t->push_back(C("_backward_slice_like", {X({2, 3}), I({3, 4}, U())}));
  t->push_back(C("Crop", {X({1, 2, 4, 5}), I({1, 1, 2, 3}, U())}, {{"num_args", "2"}, {"offset", "(1, 2)"}}));
  t->push_back(C("Crop", {X({1, 1, 4, 5})}, {{"num_args", "1"}, {"h_w", "(2, 2)"}, {"center_crop", "True"}}, "h_w"));
  t->push_back(C("reshape_like", {X({2, 6}), I({3, 4}, U())}));
  t->push_back(Zero(C("shape_array", {X({2, 3})})));
  t->push_back(Zero(C("size_array", {X({2, 3})})));
  t->push_back(C("topk", {X({3, 5})}, {{"k", "2"}, {"ret_typ", "value"}}));
  t->push_back(C("topk", {X({4, 3})}, {{"k", "2"}, {"axis", "0"}, {"ret_typ", "both"}, {"dtype", "float64"}}, "both"));
  t->push_back(Zero(C("topk", {X({3, 5})}, {{"k", "2"}, {"ret_typ", "mask"}, {"dtype", "float64"}}, "mask")));
  t->push_back(C("sort", {X({3, 4})}, {{"is_ascend", "False"}}));
  t->push_back(Zero(C("argsort", {X({3, 4})}, {{"dtype", "float64"}})));
  t->push_back(C("_split_v2", {X({2, 6})}, {{"sections", "3"}, {"axis", "1"}}));
  t->push_back(Zero(C("argmax_channel", {X({3, 4})})));
  t->push_back(C("_contrib_index_copy", {X({4, 3}), I({2}, Fixed({3, 1})), X({2, 3})}));
  t->push_back(C("scatter_nd", {X({3}), I({2, 3}, Fixed({0, 1, 2, 1, 0, 3}))}, {{"shape", "(3, 4)"}}));
  t->push_back(C("cast_storage", {X({2, 3})}, {{"stype", "default"}}));
  t->push_back(C("_split_v2", {X({5, 2})}, {{"indices", "(1, 3)"}}, "leading_part_dropped"));
  t->push_back(C("_split_v2", {X({2, 3})}, {{"indices", "(0, 1)"}, {"axis", "0"}, {"squeeze_axis", "True"}}, "squeeze"));
}

// ---- the spatial family (core/op/spatial/) ----
void AddSpatial(std::vector<GradCase>* t) {
  t->push_back(C("_contrib_BilinearResize2D", {X({1, 2, 3, 4})}, {{"height", "5"}, {"width", "3"}}, "align"));
  t->push_back(C("_contrib_BilinearResize2D", {X({1, 1, 4, 3})},
                 {{"height", "3"}, {"width", "7"}, {"align_corners", "False"}}, "noalign"));
  t->push_back(C("_contrib_BilinearResize2D", {X({1, 1, 3, 3}), X({1, 1, 5, 2})}, {{"mode", "like"}}, "like"));
  t->push_back(C("_contrib_AdaptiveAvgPooling2D", {X({2, 2, 5, 7})}, {{"output_size", "(3, 4)"}}));
  t->push_back(C("_contrib_ROIAlign", {X({2, 2, 5, 6}), I({2, 5}, Fixed({0, 0.5, 1.2, 3.7, 4.1, 1, 1.3, 0.2, 4.6, 3.9}))},
                 {{"pooled_size", "(2, 2)"}, {"spatial_scale", "1.0"}}));
  t->push_back(C("_contrib_ROIAlign", {X({1, 8, 5, 5}), I({2, 5}, Fixed({0, 0.5, 1.2, 3.7, 4.1, 0, 1.3, 0.2, 4.6, 3.9}))},
                 {{"pooled_size", "(2, 2)"}, {"spatial_scale", "1.0"}, {"position_sensitive", "True"},
                  {"aligned", "True"}, {"sample_ratio", "2"}},
                 "position_sensitive"));
  t->push_back(C("ROIPooling", {X({2, 2, 6, 6}), I({2, 5}, Fixed({0, 0, 0, 4, 3, 1, 1, 1, 5, 4}))},
                 {{"pooled_size", "(2, 2)"}, {"spatial_scale", "1.0"}}));
  t->push_back(C("GridGenerator", {X({2, 6})}, {{"transform_type", "affine"}, {"target_shape", "(3, 4)"}}, "affine"));
  t->push_back(C("GridGenerator", {X({1, 2, 3, 4})}, {{"transform_type", "warp"}}, "warp"));
  t->push_back(C("BilinearSampler", {X({1, 2, 4, 5}), X({1, 2, 3, 3}, U(-1.1, 1.1))}));
  t->push_back(C("SpatialTransformer", {X({1, 2, 4, 5}), X({1, 6}, Fixed({0.9, 0.1, 0.05, -0.15, 1.1, -0.1}))},
                 {{"target_shape", "(3, 4)"}, {"transform_type", "affine"}, {"sampler_type", "bilinear"}}));
  t->push_back(C("_contrib_DeformableConvolution", {X({1, 2, 4, 4}), X({1, 8, 3, 3}, U(-1.4, 1.4)), X({2, 2, 2, 2}), X({2})},
                 {{"kernel", "(2, 2)"}, {"num_filter", "2"}}));
  t->push_back(C("_contrib_ModulatedDeformableConvolution",
                 {X({1, 2, 4, 4}), X({1, 16, 3, 3}, U(-1.4, 1.4)), X({1, 8, 3, 3}, U(0.1, 0.9)), X({2, 1, 2, 2})},
                 {{"kernel", "(2, 2)"}, {"pad", "(1, 1)"}, {"stride", "(2, 2)"}, {"num_filter", "2"}, {"num_group", "2"},
                  {"num_deformable_group", "2"}, {"no_bias", "True"}}));
  t->push_back(C("_contrib_PSROIPooling", {X({1, 8, 5, 6}), I({2, 5}, Fixed({0, 0, 1, 4, 4, 0, 2, 0, 5, 3}))},
                 {{"spatial_scale", "1.0"}, {"output_dim", "2"}, {"pooled_size", "2"}}));
  t->push_back(C("Correlation", {X({1, 2, 5, 5}), X({1, 2, 5, 5})},
                 {{"kernel_size", "3"}, {"max_displacement", "1"}, {"pad_size", "2"}}, "multiply"));
  t->push_back(C("Correlation", {X({1, 2, 5, 4}), X({1, 2, 5, 4})},
                 {{"max_displacement", "2"}, {"stride2", "2"}, {"pad_size", "1"}, {"is_multiply", "False"}}, "absdiff"));
  t->push_back(C("_contrib_DeformablePSROIPooling",
                 {X({1, 8, 6, 6}), I({2, 5}, Fixed({0, 1, 0, 9, 8, 0, 3, 2, 11, 10})), X({2, 4, 2, 2}, U(-0.4, 0.4))},
                 {{"spatial_scale", "0.5"}, {"output_dim", "2"}, {"group_size", "2"}, {"pooled_size", "2"},
                  {"sample_per_part", "2"}, {"trans_std", "0.1"}}));
}

// The image family (core/op/image/): the deterministic ops with gradients.
void AddImage(std::vector<GradCase>* t) {
  t->push_back(C("_image_crop", {X({4, 5, 3})}, {{"x", "1"}, {"y", "1"}, {"width", "2"}, {"height", "3"}}));
  t->push_back(C("_image_flip_left_right", {X({3, 4, 3})}));
  t->push_back(C("_image_flip_top_bottom", {X({2, 3, 4, 1})}));
  t->push_back(C("_image_normalize", {X({3, 2, 4})}, {{"mean", "(0.1, 0.2, 0.3)"}, {"std", "(0.5, 1.0, 2.0)"}}));
}

// The densities of core/op/random (their gradients w.r.t. the parameters and,
// for the continuous ones, the sample). Discrete samples are not differentiated.
void AddRandomPdf(std::vector<GradCase>* t) {
  t->push_back(C("_random_pdf_normal", {X({2, 3}), X({2}), X({2}, U(0.5, 1.5))}));
  t->push_back(C("_random_pdf_normal", {X({2, 3}), X({2}), X({2}, U(0.5, 1.5))}, {{"is_log", "True"}}, "log"));
  t->push_back(C("_random_pdf_uniform", {I({2, 3}, U(0.0, 1.0)), X({2}, U(-1.0, -0.5)), X({2}, U(1.5, 2.0))}));
  t->push_back(C("_random_pdf_gamma", {X({2, 3}, U(0.5, 2.0)), X({2}, U(1.0, 3.0)), X({2}, U(0.5, 2.0))}));
  t->push_back(C("_random_pdf_exponential", {X({2, 3}, U(0.5, 2.0)), X({2}, U(0.5, 2.0))}));
  t->push_back(C("_random_pdf_poisson", {I({2, 3}, Fixed({0, 1, 3, 2, 5, 1})), X({2}, U(1.0, 3.0))}));
  t->push_back(C("_random_pdf_negative_binomial",
                 {I({2, 3}, Fixed({0, 1, 3, 2, 5, 1})), X({2}, U(1.0, 3.0)), X({2}, U(0.3, 0.7))}));
  t->push_back(C("_random_pdf_generalized_negative_binomial",
                 {I({2, 3}, Fixed({0, 1, 3, 2, 5, 1})), X({2}, U(1.0, 3.0)), X({2}, U(0.3, 1.0))}));
  t->push_back(C("_random_pdf_dirichlet",
                 {I({2, 2, 3}, Fixed({0.2, 0.3, 0.5, 0.6, 0.1, 0.3, 0.1, 0.1, 0.8, 0.4, 0.4, 0.2})),
                  X({2, 3}, U(1.0, 3.0))}));
  // One category: the draw is always 0, so only the log-probability output moves.
  t->push_back(C("_sample_multinomial", {X({2, 1}, U(0.9, 1.1))}, {{"get_prob", "True"}, {"dtype", "float64"}}));
}

// Custom (core/op/custom/): a C++ custom operator, y = scale * x^3 with
// scale a keyword argument given as a string; backward reads out_grad and
// data (declare_backward_dependency) and honours req.
class CubeOp final : public custom::CustomOperator {
 public:
  explicit CubeOp(double scale) : scale_(scale) {}
  void Forward(bool, Context, const std::vector<TensorView>& a, const std::vector<int>&,
               const std::vector<OpReq>& req) override {
    const double* x = a[0].ptr<double>();
    double* y = a[1].ptr<double>();
    for (int64_t i = 0; i < a[0].Size(); ++i) Store(y + i, req[1], scale_ * x[i] * x[i] * x[i]);
  }
  void Backward(Context, const std::vector<TensorView>& a, const std::vector<int>&,
                const std::vector<OpReq>& req) override {
    // out_grad, in_data, out_data (undeclared: no data), in_grad
    EXPECT_EQ(a[2].data, nullptr);
    const double* og = a[0].ptr<double>();
    const double* x = a[1].ptr<double>();
    double* g = a[3].ptr<double>();
    for (int64_t i = 0; i < a[1].Size(); ++i) Store(g + i, req[3], og[i] * 3 * scale_ * x[i] * x[i]);
  }

 private:
  static void Store(double* d, OpReq r, double v) {
    if (r == OpReq::kAddTo) *d += v;
    else if (r != OpReq::kNull) *d = v;
  }
  double scale_;
};

class CubeProp final : public custom::CustomProp {
 public:
  explicit CubeProp(double scale) : scale_(scale) {}
  std::vector<std::string> ListArguments() override { return {"data"}; }
  std::vector<std::string> ListOutputs() override { return {"output"}; }
  std::vector<std::string> ListAuxiliaryStates() override { return {}; }
  void InferShape(const std::vector<Shape>& args, std::vector<Shape>* all) override { *all = {args[0], args[0]}; }
  void InferType(const std::vector<DType>& args, std::vector<DType>* all) override { *all = {args[0], args[0]}; }
  bool NeedTopGrad() override { return true; }
  std::vector<int> DeclareBackwardDependency(const std::vector<int>& og, const std::vector<int>& in,
                                             const std::vector<int>&) override {
    return {og[0], in[0]};
  }
  std::shared_ptr<custom::CustomOperator> CreateOperator(Context, const std::vector<Shape>&,
                                                         const std::vector<DType>&) override {
    return std::make_shared<CubeOp>(scale_);
  }

 private:
  double scale_;
};

void AddCustom(std::vector<GradCase>* t) {
  custom::RegisterCustomOp("grad_check_cube", [](const std::vector<std::pair<std::string, std::string>>& kw) {
    double scale = 1.0;
    for (const auto& kv : kw)
      if (kv.first == "scale") scale = std::stod(kv.second);
    return std::make_shared<CubeProp>(scale);
  });
  t->push_back(C("Custom", {X({3, 4})}, {{"op_type", "grad_check_cube"}, {"scale", "0.5"}}));
}

// einsum, tensorinv and tensorsolve (core/op/dense/np_einsum.cc, core/op/linalg/np_tensor_solve.cc), and
// the tensordot pairings that run as einsum.
// Appended last in Table(): a case's inputs are drawn from a seed of its index, so cases added
// in the middle would change every later case's draws.
void AddNpContractions(std::vector<GradCase>* t) {
  // einsum: a product, a diagonal, a broadcast '...' and three operands.
  t->push_back(C("_npi_einsum", {X({2, 3}), X({3, 4})}, {{"num_args", "2"}, {"subscripts", "ij,jk->ik"}}));
  t->push_back(C("_npi_einsum", {X({3, 3}), X({3})}, {{"num_args", "2"}, {"subscripts", "ii,i->i"}}, "diagonal"));
  t->push_back(C("_npi_einsum", {X({2, 1, 3}), X({4, 3})}, {{"num_args", "2"}, {"subscripts", "...j,...j->..."}},
                 "broadcast ellipsis"));
  t->push_back(C("_npi_einsum", {X({2, 3}), X({3}), X({3, 2})}, {{"num_args", "3"}, {"subscripts", "ij,j,jk"}},
                 "three operands implicit"));
  // tensorinv / tensorsolve: well-conditioned (6, 6) matrices.
  t->push_back(C("_npi_tensorinv", {X({2, 3, 6}, Matrices(6, false, 3.0))}, {{"ind", "2"}}));
  t->push_back(C("_npi_tensorsolve", {X({2, 3, 6}, Matrices(6, false, 3.0)), X({2, 3})}));
  t->push_back(C("_npi_tensorsolve", {X({6, 2, 3}, Matrices(6, false, 3.0)), X({2, 3})}, {{"a_axes", "(0,)"}},
                 "axes moved"));
  // a tensordot pairing that is no single product (Note [Tensordot pairings as einsum])
  t->push_back(C("_npi_tensordot", {X({2, 3, 4}), X({4, 3, 2})}, {{"a_axes_summed", "(1, 2)"}, {"b_axes_summed", "(1, 0)"}},
                 "pairs as einsum"));
}

// np.linalg's eigh, eigvalsh and pinv (np_eigh.cc, np_pinv.cc: Note [Gradients of eigh, eigvalsh and pinv]),
// added last so that the seeds of the cases before them (1000 + their index) stay as they were.
void AddNpEighPinv(std::vector<GradCase>* t) {
  // eigh/eigvalsh read one triangle (the symmetrized loss, as syevd); pinv of full-rank matrices, rcond held.
  t->push_back(WithLoss(C("_npi_eigh", {X({3, 3}, Matrices(3, true, 0.0))}), Symmetrized("_npi_eigh", 3)));
  t->push_back(WithLoss(C("_npi_eigvalsh", {X({2, 3, 3}, Matrices(3, true, 0.0))}, {{"UPLO", "U"}}, "upper batch"),
                        Symmetrized("_npi_eigvalsh", 3)));
  t->push_back(C("_npi_pinv_scalar_rcond", {X({3, 4})}));
  t->push_back(WithLoss(C("_npi_pinv_scalar_rcond", {X({3, 3}, Matrices(3, true, 1.0))}, {{"hermitian", "True"}},
                          "hermitian"),
                        Symmetrized("_npi_pinv_scalar_rcond", 3)));
  t->push_back(C("_npi_pinv", {X({2, 4, 3}), I({2}, Fixed({1e-6, 1e-6}))}));
}

void AddNpSvdNorm(std::vector<GradCase>* t) {
  // _weft_np_svd_norm (np.linalg.norm ord=2/-2/'nuc'): random matrices have distinct nonzero singular values.
  t->push_back(C("_weft_np_svd_norm", {X({3, 4})}, {{"ord", "2"}}, "spectral"));
  t->push_back(C("_weft_np_svd_norm", {X({2, 4, 3})}, {{"ord", "-2"}, {"axis", "(2, 1)"}}, "smallest batch"));
  t->push_back(C("_weft_np_svd_norm", {X({3, 2, 4})}, {{"ord", "nuc"}, {"axis", "(0, 2)"}, {"keepdims", "True"}},
                 "nuclear keepdims"));
}

// MXNet's NumPy-mode reductions (core/op/reduce/np_reduce.cc, Note [NumPy sums and their dtypes]):
// a 0-d full reduction, axes with keepdims, axis=() and the extremes (ties have probability 0).
// Appended last in Table(), as the ones before.
void AddNpSums(std::vector<GradCase>* t) {
  t->push_back(C("_np_sum", {X({2, 3, 4})}, {{"axis", "(0, 2)"}}));
  t->push_back(C("_np_sum", {X({3, 2})}, {}, "full 0-d"));
  t->push_back(C("_np_sum", {X({2, 3})}, {{"axis", "()"}}, "no axis"));
  t->push_back(C("_npi_mean", {X({3, 4})}, {{"axis", "(1,)"}, {"keepdims", "True"}}));
  t->push_back(C("_np_prod", {X({2, 3})}, {{"axis", "(1,)"}}));
  t->push_back(C("_np_max", {X({3, 4})}, {{"axis", "(0,)"}}));
  t->push_back(C("_np_min", {X({3, 4})}, {}, "full 0-d"));
}

// _weft_np_norm (core/op/linalg/np_norm.cc, Note [Norms by the input's rank]): p-norms over one axis,
// a 1-D input's and a 2-D input's norm with axis=None (random values: no ties, no zeros).
void AddNpNorm(std::vector<GradCase>* t) {
  t->push_back(C("_weft_np_norm", {X({3, 4})}, {{"ord", "3"}, {"axis", "(1,)"}}, "ord 3"));
  t->push_back(C("_weft_np_norm", {X({5})}, {{"ord", "0.5"}}, "1-D ord 0.5"));
  t->push_back(C("_weft_np_norm", {X({3, 4})}, {{"ord", "inf"}, {"axis", "(0,)"}}, "inf"));
  t->push_back(C("_weft_np_norm", {X({3, 4})}, {{"ord", "1"}}, "2-D ord 1"));
  t->push_back(C("_weft_np_norm", {X({3, 4})}, {{"ord", "-inf"}, {"keepdims", "True"}}, "2-D ord -inf"));
  t->push_back(C("_weft_np_norm", {X({4, 3})}, {{"ord", "2"}}, "2-D ord 2"));
}

const std::vector<GradCase>& Table() {
  static const std::vector<GradCase> table = [] {
    std::vector<GradCase> t;
    AddUnary(&t);
    AddBinary(&t);
    AddScalar(&t);
    AddTensor(&t);
    AddNN(&t);
    AddSecondOrder(&t);
    AddNnMore(&t);
    AddLinalg(&t);
    AddElemwiseMore(&t);
    AddDetect(&t);
    AddShapeMore(&t);
    AddSpatial(&t);
    AddCustom(&t);
    AddImage(&t);
    AddRandomPdf(&t);
    AddNpContractions(&t);
    AddNpEighPinv(&t);
    AddNpSvdNorm(&t);
    AddNpSums(&t);
    AddNpNorm(&t);
    return t;
  }();
  return table;
}

// ---- running a case ----

Values Read(const NDArray& a) {
  Values v(static_cast<size_t>(a.Size()));
  if (a.dtype() == DType::kFloat64) {
    a.SyncCopyToHost(v.data(), v.size() * 8);
  } else if (a.dtype() == DType::kInt64) {  // shape_array, size_array
    std::vector<int64_t> n(v.size());
    a.SyncCopyToHost(n.data(), n.size() * 8);
    std::copy(n.begin(), n.end(), v.begin());
  } else {
    EXPECT_EQ(a.dtype(), DType::kFloat32) << "gradient check reads float32 or float64 arrays";
    std::vector<float> f(v.size());
    a.SyncCopyToHost(f.data(), f.size() * 4);
    std::copy(f.begin(), f.end(), v.begin());
  }
  return v;
}

void Write(const NDArray& a, const Values& v) {
  if (a.dtype() == DType::kFloat64) {
    a.SyncCopyFromHost(v.data(), v.size() * 8);
  } else if (a.dtype() == DType::kInt32) {
    std::vector<int32_t> iv(v.begin(), v.end());
    a.SyncCopyFromHost(iv.data(), iv.size() * 4);
  } else if (a.dtype() == DType::kInt64) {
    std::vector<int64_t> n(v.begin(), v.end());
    a.SyncCopyFromHost(n.data(), n.size() * 8);
  } else {
    std::vector<float> f(v.begin(), v.end());
    a.SyncCopyFromHost(f.data(), f.size() * 4);
  }
}

std::string Label(const GradCase& c) { return c.op + (c.name.empty() ? "" : " (" + c.name + ")"); }

// The op bound on variables named after its inputs, with every differentiable
// input's gradient requested with `req`.
struct Bound {
  std::vector<std::string> names;         // input names, in input order
  std::vector<NDArray> inputs;            // by input index
  std::vector<NDArray> grads;             // by input index (none when not differentiable)
  std::unique_ptr<GraphExecutor> exe;
};

Bound Bind(const GradCase& c, const std::vector<Values>& values, GradReq req) {
  const OpDef& op = OpRegistry::Get()->FindOrThrow(c.op);
  std::vector<std::pair<std::string, std::string>> attr_list(c.attrs.begin(), c.attrs.end());
  const Params params = Params::Parse(op, attr_list);
  Bound b;
  b.names = op.InputNames(params);
  EXPECT_EQ(b.names.size(), c.inputs.size()) << Label(c) << ": the case gives the wrong number of inputs";
  std::vector<Symbol> args;
  for (const std::string& n : b.names) args.push_back(Symbol::Variable(n));
  Symbol sym = Symbol::Compose(op, c.op, c.attrs, args, {});
  const DType input_dtype = c.dtype;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    b.inputs.emplace_back(c.inputs[i].shape, Context::CPU(0),
                          c.inputs[i].dtype == DType::kUnknown ? input_dtype : c.inputs[i].dtype);
    Write(b.inputs[i], values[i]);
    b.grads.emplace_back();
    if (c.inputs[i].diff) {
      b.grads[i] = NDArray(c.inputs[i].shape, Context::CPU(0), input_dtype);
      Write(b.grads[i], Values(static_cast<size_t>(c.inputs[i].shape.Size()), req == GradReq::kAdd ? 0.5 : 0.0));
    }
  }
  auto index_of = [&](const std::string& name) {
    return static_cast<size_t>(std::find(b.names.begin(), b.names.end(), name) - b.names.begin());
  };
  std::vector<NDArray> args_arr, grads_arr, aux_arr;
  std::vector<GradReq> reqs;
  for (const std::string& n : sym.ListArguments()) {
    const size_t i = index_of(n);
    args_arr.push_back(b.inputs[i]);
    grads_arr.push_back(b.grads[i]);
    reqs.push_back(c.inputs[i].diff ? req : GradReq::kNull);
  }
  for (const std::string& n : sym.ListAuxiliaryStates()) {
    const size_t i = index_of(n);
    EXPECT_FALSE(c.inputs[i].diff) << Label(c) << ": auxiliary state '" << n << "' cannot be differentiated";
    aux_arr.push_back(b.inputs[i]);
  }
  b.exe.reset(new GraphExecutor(sym, Context::CPU(0), args_arr, grads_arr, reqs, aux_arr));
  return b;
}

double Objective(const GradCase& c, Bound& b, const std::vector<Values>& inputs, const std::vector<Values>& heads) {
  b.exe->Forward(c.train);
  std::vector<Values> outs;
  for (const NDArray& o : b.exe->outputs()) outs.push_back(Read(o));
  if (c.loss) return c.loss(outs, inputs, heads);
  double f = 0;
  for (size_t k = 0; k < outs.size(); ++k)
    for (size_t i = 0; i < outs[k].size(); ++i) f += outs[k][i] * heads[k][i];
  return f;
}

void CheckCase(const GradCase& c, uint32_t seed) {
  SCOPED_TRACE(Label(c));
  std::mt19937_64 rng(seed);
  std::vector<Values> values;
  for (const In& in : c.inputs) values.push_back(in.gen(rng, in.shape.Size()));
  Bound b = Bind(c, values, GradReq::kWrite);
  std::vector<Values> heads;
  std::vector<NDArray> head_arrays;
  for (const NDArray& o : b.exe->outputs()) {
    heads.push_back(U(-1.0, 1.0)(rng, o.Size()));
    head_arrays.emplace_back(o.shape(), Context::CPU(0), o.dtype());
    Write(head_arrays.back(), heads.back());
  }
  b.exe->Forward(c.train);
  b.exe->Backward(head_arrays);
  std::vector<Values> analytic(c.inputs.size());
  for (size_t i = 0; i < c.inputs.size(); ++i)
    if (c.inputs[i].diff) analytic[i] = Read(b.grads[i]);

  double largest = 0;  // |numeric gradient|
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    if (!c.inputs[i].diff) continue;
    Values& x = values[i];
    for (size_t j = 0; j < x.size(); ++j) {
      const double old = x[j];
      x[j] = old + c.eps;
      Write(b.inputs[i], x);
      const double fp = Objective(c, b, values, heads);
      x[j] = old - c.eps;
      Write(b.inputs[i], x);
      const double fm = Objective(c, b, values, heads);
      x[j] = old;
      Write(b.inputs[i], x);
      const double numeric = (fp - fm) / (2 * c.eps);
      const double a = analytic[i][j];
      largest = std::max(largest, std::fabs(numeric));
      EXPECT_LE(std::fabs(a - numeric), c.atol + c.rtol * std::max(std::fabs(a), std::fabs(numeric)))
          << "gradient of input '" << b.names[i] << "' element " << j << ": analytic " << a << ", numeric "
          << numeric;
    }
  }
  // A case whose outputs do not depend on its inputs would check nothing.
  if (c.zero) EXPECT_EQ(largest, 0.0) << "the gradient should be zero";
  else EXPECT_GT(largest, 1e-3) << "every numeric gradient is zero: the case checks nothing";
}

TEST(GradientCheck, EveryCase) {
  const std::vector<GradCase>& table = Table();
  for (size_t k = 0; k < table.size(); ++k) {
    try {
      CheckCase(table[k], static_cast<uint32_t>(1000 + k));
    } catch (const Error& e) {
      ADD_FAILURE() << Label(table[k]) << ": " << e.what();
    }
  }
}

TEST(GradientCheck, EveryOpWithAGradientRuleHasACase) {
  std::set<std::string> covered;
  for (const GradCase& c : Table()) covered.insert(OpRegistry::Get()->FindOrThrow(c.op).name);
  int with_rule = 0;
  for (const std::string& name : OpRegistry::Get()->ListNames()) {
    const OpDef* op = OpRegistry::Get()->Find(name);
    if (!op->gradient) continue;
    // A bound executor refuses ops with data-dependent output shapes (Note
    // [Data-dependent output shapes]); tests/python/test_boolean_mask.py checks
    // their gradients by finite differences through autograd instead.
    if (FindDynamicShapeRule(*op) != nullptr) continue;
    // A control-flow node carries graphs a case here cannot give (Note [Subgraph
    // operators]); the harness's _backward_foreach/_while_loop/_cond cases and
    // tests/python/test_control_flow_symbolic.py check their gradients (closed
    // forms, central differences, the unrolled loop under autograd).
    if (IsSubgraphOp(*op)) continue;
    // The NumPy bit ops take integers and bools only, which have no finite
    // differences; tests/python/test_np_ufuncs.py checks through autograd
    // that their gradient rule gives zeros (MXNet's MakeZeroGradNodes).
    static const std::set<std::string> kIntegerOnly = {
        "_npi_bitwise_and",        "_npi_bitwise_or",        "_npi_bitwise_xor", "_npi_bitwise_not",
        "_npi_bitwise_and_scalar", "_npi_bitwise_or_scalar", "_npi_bitwise_xor_scalar"};
    if (kIntegerOnly.count(name)) continue;
    // np.all/np.any give bool outputs, whose head gradients this harness cannot write;
    // tests/python/test_np_nodes_npshape.py runs their backward in a bound graph and compares
    // it with MXNet's (zeros, MakeZeroGradNodes).
    if (name == "_np_all" || name == "_np_any") continue;
    // The NumPy comparisons and predicates write bool, and _npi_where_scalar2
    // reads its one input (the condition) only through `!= 0`: no finite
    // differences; tests/python/test_np_nodes_npmath.py checks through
    // autograd that their rule gives zeros (MXNet's MakeZeroGradNodes).
    static const std::set<std::string> kBoolValued = {
        "_npi_equal",        "_npi_not_equal",        "_npi_greater",        "_npi_greater_equal",
        "_npi_less",         "_npi_less_equal",       "_npi_equal_scalar",   "_npi_not_equal_scalar",
        "_npi_greater_scalar", "_npi_greater_equal_scalar", "_npi_less_scalar", "_npi_less_equal_scalar",
        "_npi_isnan",        "_npi_isinf",            "_npi_isfinite",       "_npi_isposinf",
        "_npi_isneginf",     "_npi_logical_not",      "_npi_where_scalar2"};
    if (kBoolValued.count(name)) continue;
    // lcm takes integers only (no finite differences); its rule gives zeros, as MXNet's.
    if (name == "_npi_lcm" || name == "_npi_lcm_scalar") continue;
    ++with_rule;
    EXPECT_TRUE(covered.count(name)) << "operator '" << name
                                     << "' has a gradient rule but no case in tests/cpp/gradient_check_test.cc";
  }
  EXPECT_GT(with_rule, 100);
}

// grad_req add: each backward adds its gradient to what the array holds.
TEST(GradientCheck, GradReqAddAccumulates) {
  for (const GradCase& c : {C("FullyConnected", {X({2, 3}), X({4, 3}), X({4})}, {{"num_hidden", "4"}}),
                            C("broadcast_mul", {X({3, 1}), X({1, 4})}), C("sum", {X({2, 3})}, {{"axis", "(1,)"}})}) {
    SCOPED_TRACE(Label(c));
    std::mt19937_64 rng(7);
    std::vector<Values> values;
    for (const In& in : c.inputs) values.push_back(in.gen(rng, in.shape.Size()));
    Bound once = Bind(c, values, GradReq::kWrite);
    Bound twice = Bind(c, values, GradReq::kAdd);  // gradients start at 0.5
    std::vector<NDArray> heads;
    for (const NDArray& o : once.exe->outputs()) {
      heads.emplace_back(o.shape(), Context::CPU(0), o.dtype());
      Write(heads.back(), U()(rng, o.Size()));
    }
    once.exe->Forward(true);
    once.exe->Backward(heads);
    for (int step = 0; step < 2; ++step) {
      twice.exe->Forward(true);
      twice.exe->Backward(heads);
    }
    for (size_t i = 0; i < c.inputs.size(); ++i) {
      const Values g = Read(once.grads[i]), acc = Read(twice.grads[i]);
      for (size_t j = 0; j < g.size(); ++j)
        EXPECT_NEAR(acc[j], 0.5 + 2 * g[j], 1e-12) << "input '" << once.names[i] << "' element " << j;
    }
  }
}

// Training dropout: the gradient is the head gradient times the mask the
// forward drew (output / input where the input is nonzero).
TEST(GradientCheck, DropoutTrainingUsesTheMask) {
  const GradCase c = C("Dropout", {X({4, 25}, Away())}, {{"p", "0.4"}});
  std::mt19937_64 rng(3);
  std::vector<Values> values = {c.inputs[0].gen(rng, 100)};
  Bound b = Bind(c, values, GradReq::kWrite);
  NDArray head(Shape{4, 25}, Context::CPU(0), DType::kFloat64);
  const Values h = U()(rng, 100);
  Write(head, h);
  b.exe->Forward(true);
  b.exe->Backward({head});
  const Values y = Read(b.exe->outputs()[0]), g = Read(b.grads[0]);
  int dropped = 0;
  for (size_t j = 0; j < y.size(); ++j) {
    EXPECT_NEAR(g[j], h[j] * y[j] / values[0][j], 1e-12) << "element " << j;
    dropped += y[j] == 0;
  }
  EXPECT_GT(dropped, 10);
  EXPECT_LT(dropped, 70);
}

// A graph that uses one variable twice: the two gradients are summed (add_n).
TEST(GradientCheck, SharedVariableGradientsAreSummed) {
  const OpDef& mul = OpRegistry::Get()->FindOrThrow("elemwise_mul");
  const OpDef& sum = OpRegistry::Get()->FindOrThrow("sum");
  Symbol x = Symbol::Variable("x");
  Symbol sq = Symbol::Compose(mul, "sq", {}, {x, x}, {});
  Symbol s = Symbol::Compose(sum, "s", {}, {sq}, {});
  NDArray xa(Shape{5}, Context::CPU(0), DType::kFloat64), ga(Shape{5}, Context::CPU(0), DType::kFloat64);
  const Values xv = {1, -2, 0.5, 3, -0.25};
  Write(xa, xv);
  GraphExecutor exe(s, Context::CPU(0), {xa}, {ga}, {GradReq::kWrite}, {});
  exe.Forward(true);
  exe.Backward({});
  const Values g = Read(ga);
  for (size_t j = 0; j < xv.size(); ++j) EXPECT_DOUBLE_EQ(g[j], 2 * xv[j]);
}

}  // namespace
}  // namespace weft
