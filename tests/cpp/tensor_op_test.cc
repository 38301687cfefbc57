// Tensor operator families (reduce, dot, reshape, concat/split, slice,
// indexing, init, random): special values, naive-loop references, write
// modes called through FCompute directly, RNG reproducibility and messages.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/ndarray/imperative.h"
#include "core/opdef/op_def.h"
#include "core/op/random_state.h"

namespace weft {
namespace {

NDArray Array(const Shape& s, const std::vector<float>& v) {
  NDArray a(s, Context::CPU(0), DType::kFloat32);
  a.SyncCopyFromHost(v.data(), v.size() * sizeof(float));
  return a;
}

NDArray Iota(const Shape& s) {
  std::vector<float> v(static_cast<size_t>(s.Size()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
  return Array(s, v);
}

NDArray Random(const Shape& s, uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> v(static_cast<size_t>(s.Size()));
  for (float& x : v) x = d(g);
  return Array(s, v);
}

std::vector<float> Host(const NDArray& a) {
  std::vector<float> h(static_cast<size_t>(a.Size()));
  a.SyncCopyToHost(h.data(), h.size() * sizeof(float));
  return h;
}

std::vector<NDArray> RunOp(const std::string& name, const AttrList& attrs, const std::vector<NDArray>& in) {
  std::vector<NDArray> out;
  Invoke(OpRegistry::Get()->FindOrThrow(name), attrs, in, &out);
  return out;
}

// The message of the weft::Error that fn throws (with its status).
std::string ErrorOf(const std::function<void()>& fn, Status want) {
  try {
    fn();
  } catch (const Error& e) {
    EXPECT_EQ(static_cast<int>(e.status()), static_cast<int>(want)) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error thrown";
  return "";
}

Shape ReshapeTo(const Shape& in, const std::string& shape, bool reverse = false) {
  auto out = RunOp("Reshape", {{"shape", shape}, {"reverse", reverse ? "True" : "False"}}, {Iota(in)});
  EXPECT_EQ(Host(out[0]), Host(Iota(in))) << "data must be unchanged";
  return out[0].shape();
}

TEST(TensorOps, ReshapeSpecialValues) {
  const Shape s{2, 3, 4};
  EXPECT_EQ(ReshapeTo(s, "(4, 0, 2)"), (Shape{4, 3, 2}));
  EXPECT_EQ(ReshapeTo(s, "(6, 1, -1)"), (Shape{6, 1, 4}));
  EXPECT_EQ(ReshapeTo(s, "(0, -1)"), (Shape{2, 12}));
  EXPECT_EQ(ReshapeTo(s, "(-1,)"), (Shape{24}));
  EXPECT_EQ(ReshapeTo(s, "(-2,)"), (Shape{2, 3, 4}));
  EXPECT_EQ(ReshapeTo(s, "(2, -2)"), (Shape{2, 3, 4}));
  EXPECT_EQ(ReshapeTo(s, "(-2, 1, 1)"), (Shape{2, 3, 4, 1, 1}));
  EXPECT_EQ(ReshapeTo(s, "(-3, 4)"), (Shape{6, 4}));
  EXPECT_EQ(ReshapeTo(s, "(-3, -2)"), (Shape{6, 4}));
  EXPECT_EQ(ReshapeTo(s, "(0, -3)"), (Shape{2, 12}));
  EXPECT_EQ(ReshapeTo(s, "(-4, 1, 2, -2)"), (Shape{1, 2, 3, 4}));
  EXPECT_EQ(ReshapeTo(s, "(2, -4, -1, 3, -2)"), (Shape{2, 1, 3, 4}));
  EXPECT_EQ(ReshapeTo(Shape{10, 5, 4}, "(-1, 0)", true), (Shape{50, 4}));
  EXPECT_EQ(ReshapeTo(Shape{10, 5, 4}, "(-1, 0)", false), (Shape{40, 5}));
  // The deprecated target_shape (one 0 inferred).
  auto t = RunOp("Reshape", {{"target_shape", "(0, 4)"}}, {Iota(s)});
  EXPECT_EQ(t[0].shape(), (Shape{6, 4}));
}

TEST(TensorOps, ReshapeErrorsNameTheOpAndShapes) {
  std::string m = ErrorOf([] { RunOp("Reshape", {{"shape", "(4,)"}}, {Iota({2, 3})}); }, Status::kShape);
  EXPECT_NE(m.find("Reshape: cannot reshape (2, 3) to (4,)"), std::string::npos) << m;
  m = ErrorOf([] { RunOp("reshape", {{"shape", "(-1, -1)"}}, {Iota({2, 3})}); }, Status::kShape);
  EXPECT_NE(m.find("more than one -1"), std::string::npos) << m;
  m = ErrorOf([] { RunOp("Reshape", {{"shape", "(-4, 4, -1)"}}, {Iota({6})}); }, Status::kShape);
  EXPECT_NE(m.find("do not split"), std::string::npos) << m;
  m = ErrorOf([] { RunOp("Reshape", {{"shape", "(0, 0, 0)"}}, {Iota({6})}); }, Status::kShape);
  EXPECT_NE(m.find("Reshape"), std::string::npos) << m;
}

// Naive reference of dot for 2-D operands with optional transposes.
std::vector<float> NaiveDot(const std::vector<float>& a, const std::vector<float>& b, int64_t m, int64_t n,
                            int64_t k, bool ta, bool tb) {
  std::vector<float> c(static_cast<size_t>(m * n), 0.0f);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p) s += a[ta ? p * m + i : i * k + p] * b[tb ? j * k + p : p * n + j];
      c[i * n + j] = static_cast<float>(s);
    }
  return c;
}

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want, float tol = 1e-4f) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

TEST(TensorOps, DotMatchesNaiveLoop) {
  const int64_t m = 5, n = 3, k = 7;
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      NDArray a = Random(ta ? Shape{k, m} : Shape{m, k}, 1), b = Random(tb ? Shape{n, k} : Shape{k, n}, 2);
      auto c = RunOp("dot", {{"transpose_a", ta ? "True" : "False"}, {"transpose_b", tb ? "True" : "False"}}, {a, b});
      EXPECT_EQ(c[0].shape(), (Shape{m, n}));
      ExpectNear(Host(c[0]), NaiveDot(Host(a), Host(b), m, n, k, ta, tb));
    }
  // N-D: lhs flattened over all but its last axis.
  NDArray a = Random({2, 3, 4}, 3), b = Random({4, 5}, 4);
  auto c = RunOp("dot", {}, {a, b});
  EXPECT_EQ(c[0].shape(), (Shape{2, 3, 5}));
  ExpectNear(Host(c[0]), NaiveDot(Host(a), Host(b), 6, 5, 4, false, false));
  // 1-D x 1-D is an inner product of shape (1,).
  auto v = RunOp("dot", {}, {Iota({4}), Iota({4})});
  EXPECT_EQ(v[0].shape(), (Shape{1}));
  EXPECT_EQ(Host(v[0])[0], 14.0f);
}

TEST(TensorOps, BatchDotAndNonBlasDtypes) {
  NDArray a = Random({3, 2, 4}, 5), b = Random({3, 4, 6}, 6);
  auto c = RunOp("batch_dot", {}, {a, b});
  ASSERT_EQ(c[0].shape(), (Shape{3, 2, 6}));
  std::vector<float> ha = Host(a), hb = Host(b), hc = Host(c[0]);
  for (int t = 0; t < 3; ++t) {
    std::vector<float> at(ha.begin() + t * 8, ha.begin() + (t + 1) * 8), bt(hb.begin() + t * 24, hb.begin() + (t + 1) * 24);
    std::vector<float> ct(hc.begin() + t * 12, hc.begin() + (t + 1) * 12);
    ExpectNear(ct, NaiveDot(at, bt, 2, 6, 4, false, false));
  }
  // int32 goes through the plain loop.
  NDArray ia({2, 2}, Context::CPU(0), DType::kInt32), ib({2, 2}, Context::CPU(0), DType::kInt32);
  int32_t va[4] = {1, 2, 3, 4}, vb[4] = {5, 6, 7, 8}, vc[4];
  ia.SyncCopyFromHost(va, sizeof(va));
  ib.SyncCopyFromHost(vb, sizeof(vb));
  auto ic = RunOp("dot", {}, {ia, ib});
  ic[0].SyncCopyToHost(vc, sizeof(vc));
  EXPECT_EQ(vc[0], 19);
  EXPECT_EQ(vc[1], 22);
  EXPECT_EQ(vc[2], 43);
  EXPECT_EQ(vc[3], 50);
}

TEST(TensorOps, ConcatSplitRoundTrip) {
  NDArray a = Random({2, 3, 4}, 7), b = Random({2, 5, 4}, 8), c = Random({2, 1, 4}, 9);
  auto cat = RunOp("Concat", {{"num_args", "3"}, {"dim", "1"}}, {a, b, c});
  ASSERT_EQ(cat[0].shape(), (Shape{2, 9, 4}));
  auto parts = RunOp("split", {{"num_outputs", "3"}, {"axis", "1"}}, {cat[0]});
  ASSERT_EQ(parts.size(), 3u);
  auto back = RunOp("concat", {{"num_args", "3"}, {"dim", "1"}}, parts);
  EXPECT_EQ(Host(back[0]), Host(cat[0]));
  // Equal parts: split of a concat of equal arrays gives them back.
  auto cat2 = RunOp("Concat", {{"num_args", "2"}, {"dim", "-1"}}, {a, a});
  auto halves = RunOp("SliceChannel", {{"num_outputs", "2"}, {"axis", "-1"}}, {cat2[0]});
  EXPECT_EQ(Host(halves[0]), Host(a));
  EXPECT_EQ(Host(halves[1]), Host(a));
  auto st = RunOp("stack", {{"num_args", "2"}, {"axis", "1"}}, {a, a});
  EXPECT_EQ(st[0].shape(), (Shape{2, 2, 3, 4}));
  auto sq = RunOp("split", {{"num_outputs", "2"}, {"axis", "1"}, {"squeeze_axis", "True"}}, {st[0]});
  EXPECT_EQ(sq[1].shape(), (Shape{2, 3, 4}));
  EXPECT_EQ(Host(sq[1]), Host(a));
}

// Calls an op's kernel directly on host buffers with the given write mode.
void CallKernel(const std::string& name, const AttrList& attrs, const std::vector<TensorView>& in, OpReq req,
                const std::vector<TensorView>& out) {
  const OpDef& op = OpRegistry::Get()->FindOrThrow(name);
  Params p = Params::Parse(op, attrs);
  OpContext ctx;
  op.compute_cpu(ctx, p, in, std::vector<OpReq>(out.size(), req), out);
}

TEST(TensorOps, AddToThroughFCompute) {
  std::vector<float> x = {1, 2, 3, 4, 5, 6};
  TensorView xv{x.data(), DType::kFloat32, Shape{2, 3}};
  {  // sum over axis 1, accumulated onto 10, 20.
    std::vector<float> o = {10, 20};
    CallKernel("sum", {{"axis", "1"}}, {xv}, OpReq::kAddTo, {TensorView{o.data(), DType::kFloat32, Shape{2}}});
    EXPECT_EQ(o, (std::vector<float>{16, 35}));
    CallKernel("sum", {{"axis", "1"}}, {xv}, OpReq::kWriteTo, {TensorView{o.data(), DType::kFloat32, Shape{2}}});
    EXPECT_EQ(o, (std::vector<float>{6, 15}));
    CallKernel("sum", {{"axis", "1"}}, {xv}, OpReq::kNull, {TensorView{o.data(), DType::kFloat32, Shape{2}}});
    EXPECT_EQ(o, (std::vector<float>{6, 15}));
  }
  {  // transpose
    std::vector<float> o(6, 1.0f);
    CallKernel("transpose", {}, {xv}, OpReq::kAddTo, {TensorView{o.data(), DType::kFloat32, Shape{3, 2}}});
    EXPECT_EQ(o, (std::vector<float>{2, 5, 3, 6, 4, 7}));
  }
  {  // dot (BLAS beta = 1)
    std::vector<float> o(4, 1.0f);
    TensorView xt{x.data(), DType::kFloat32, Shape{3, 2}};
    CallKernel("dot", {}, {xv, xt}, OpReq::kAddTo, {TensorView{o.data(), DType::kFloat32, Shape{2, 2}}});
    // [[1,2,3],[4,5,6]] x [[1,2],[3,4],[5,6]] = [[22,28],[49,64]]
    EXPECT_EQ(o, (std::vector<float>{23, 29, 50, 65}));
  }
  {  // slice and take
    std::vector<float> o(2, 100.0f);
    CallKernel("slice", {{"begin", "(1, None)"}, {"end", "(None, None)"}, {"step", "(1, 2)"}}, {xv}, OpReq::kAddTo,
               {TensorView{o.data(), DType::kFloat32, Shape{1, 2}}});
    EXPECT_EQ(o, (std::vector<float>{104, 106}));
    std::vector<float> idx = {2, 0};
    std::vector<float> t(4, 1.0f);
    CallKernel("take", {{"axis", "1"}}, {xv, TensorView{idx.data(), DType::kFloat32, Shape{2}}}, OpReq::kAddTo,
               {TensorView{t.data(), DType::kFloat32, Shape{2, 2}}});
    EXPECT_EQ(t, (std::vector<float>{4, 2, 7, 5}));
  }
  {  // _ones
    std::vector<float> o(3, 2.0f);
    CallKernel("_ones", {{"shape", "(3,)"}}, {}, OpReq::kAddTo, {TensorView{o.data(), DType::kFloat32, Shape{3}}});
    EXPECT_EQ(o, (std::vector<float>{3, 3, 3}));
  }
}

TEST(TensorOps, RandomIsReproducibleAfterSeed) {
  const AttrList attrs = {{"low", "-2"}, {"high", "3"}, {"shape", "(1000,)"}};
  RandomState::SeedAll(42);
  std::vector<float> a = Host(RunOp("_random_uniform", attrs, {})[0]);
  std::vector<float> a2 = Host(RunOp("uniform", attrs, {})[0]);
  RandomState::SeedAll(42);
  std::vector<float> b = Host(RunOp("random_uniform", attrs, {})[0]);
  std::vector<float> b2 = Host(RunOp("_random_uniform", attrs, {})[0]);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a2, b2);
  EXPECT_NE(a, a2);
  double mean = 0;
  for (float v : a) {
    EXPECT_GE(v, -2.0f);
    EXPECT_LT(v, 3.0f);
    mean += v / a.size();
  }
  EXPECT_NEAR(mean, 0.5, 0.2);

  RandomState::SeedAll(7);
  std::vector<float> n1 = Host(RunOp("_random_normal", {{"loc", "1"}, {"scale", "2"}, {"shape", "(4000,)"}}, {})[0]);
  RandomState::SeedAll(7);
  std::vector<float> n2 = Host(RunOp("normal", {{"loc", "1"}, {"scale", "2"}, {"shape", "(4000,)"}}, {})[0]);
  EXPECT_EQ(n1, n2);
  double m = 0, sq = 0;
  for (float v : n1) m += v / n1.size();
  for (float v : n1) sq += (v - m) * (v - m) / n1.size();
  EXPECT_NEAR(m, 1.0, 0.15);
  EXPECT_NEAR(std::sqrt(sq), 2.0, 0.15);

  RandomState::SeedAll(3);
  auto r = RunOp("_random_randint", {{"low", "-3"}, {"high", "4"}, {"shape", "(500,)"}}, {});
  ASSERT_EQ(r[0].dtype(), DType::kInt32);
  std::vector<int32_t> ri(500);
  r[0].SyncCopyToHost(ri.data(), ri.size() * 4);
  std::vector<int> seen(7, 0);
  for (int32_t v : ri) {
    ASSERT_GE(v, -3);
    ASSERT_LT(v, 4);
    seen[static_cast<size_t>(v + 3)] = 1;
  }
  for (int s : seen) EXPECT_EQ(s, 1);
}

TEST(TensorOps, ErrorMessagesNameOpArgumentAndExpectation) {
  std::string m = ErrorOf([] { RunOp("take", {{"axis", "3"}}, {Iota({2, 3}), Iota({2})}); }, Status::kInvalidArgument);
  EXPECT_NE(m.find("take: axis 3 out of range for 2-D input 'a'"), std::string::npos) << m;
  m = ErrorOf([] { RunOp("Concat", {{"num_args", "2"}}, {Iota({2, 3}), Iota({3, 3})}); }, Status::kShape);
  EXPECT_NE(m.find("Concat: input 'arg1' has shape (3, 3)"), std::string::npos) << m;
  m = ErrorOf([] { RunOp("dot", {}, {Iota({2, 3}), Iota({4, 5})}); }, Status::kShape);
  EXPECT_NE(m.find("dot: inner dimensions differ (3 vs 4)"), std::string::npos) << m;
  m = ErrorOf([] { RunOp("split", {{"num_outputs", "2"}}, {Iota({2, 5})}); }, Status::kShape);
  EXPECT_NE(m.find("not divisible by num_outputs=2"), std::string::npos) << m;
  m = ErrorOf([] { RunOp("slice", {{"begin", "(0,)"}, {"end", "(2,)"}, {"step", "(0,)"}}, {Iota({4})}); },
              Status::kInvalidArgument);
  EXPECT_NE(m.find("slice: step[0] cannot be 0"), std::string::npos) << m;
  m = ErrorOf([] { RunOp("sum", {{"axis", "(0, 0)"}}, {Iota({2, 3})}); }, Status::kInvalidArgument);
  EXPECT_NE(m.find("sum: reduction axes have duplicates"), std::string::npos) << m;
  m = ErrorOf([] { RunOp("norm", {{"ord", "3"}}, {Iota({2, 3})}); }, Status::kInvalidArgument);
  EXPECT_NE(m.find("norm: parameter 'ord' must be 1 or 2"), std::string::npos) << m;
  m = ErrorOf([] { RunOp("squeeze", {{"axis", "1"}}, {Iota({2, 3})}); }, Status::kShape);
  EXPECT_NE(m.find("squeeze: cannot remove axis 1"), std::string::npos) << m;
  m = ErrorOf([] { RunOp("_random_uniform", {{"low", "2"}, {"high", "1"}, {"shape", "(2,)"}}, {}); },
              Status::kInvalidArgument);
  EXPECT_NE(m.find("'low' (2) must be <= 'high' (1)"), std::string::npos) << m;
  m = ErrorOf([] { RunOp("_random_normal", {{"dtype", "int32"}, {"shape", "(2,)"}}, {}); }, Status::kDType);
  EXPECT_NE(m.find("must be a floating-point type"), std::string::npos) << m;
  m = ErrorOf([] { RunOp("_slice_assign", {{"begin", "(0,)"}, {"end", "(2,)"}}, {Iota({4, 2}), Iota({3, 2})}); },
              Status::kShape);
  EXPECT_NE(m.find("_slice_assign: input 'rhs' has shape (3, 2), expected the region shape (2, 2)"),
            std::string::npos) << m;
  // A value error found by the kernel surfaces at the next wait, naming the op.
  m = ErrorOf(
      [] {
        auto o = RunOp("take", {{"mode", "raise"}}, {Iota({3}), Iota({5})});
        o[0].WaitToRead();
      },
      Status::kInvalidArgument);
  EXPECT_NE(m.find("take: index 3 out of range"), std::string::npos) << m;
}

TEST(TensorOps, SliceAssignInPlace) {
  NDArray a = Iota({3, 4});
  NDArray v = Array({2, 2}, {-1, -2, -3, -4});
  std::vector<NDArray> out = {a};
  Invoke(OpRegistry::Get()->FindOrThrow("_slice_assign"), {{"begin", "(1, 1)"}, {"end", "(3, None)"}, {"step", "(1, 2)"}},
         {a, v}, &out);
  EXPECT_EQ(Host(a), (std::vector<float>{0, 1, 2, 3, 4, -1, 6, -2, 8, -3, 10, -4}));
  Invoke(OpRegistry::Get()->FindOrThrow("_slice_assign_scalar"),
         {{"scalar", "9"}, {"begin", "(None,)"}, {"end", "(None,)"}, {"step", "(-2,)"}}, {a}, &out);
  EXPECT_EQ(Host(a), (std::vector<float>{9, 9, 9, 9, 4, -1, 6, -2, 9, 9, 9, 9}));
}

}  // namespace
}  // namespace weft
