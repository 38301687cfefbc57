// Elementwise operator families: registry names, write modes (kernels called
// directly on TensorViews, so kAddTo and kNull are reachable), float16
// rounding, broadcasting against a naive reference, integer edge cases, Cast
// between all dtypes, and the shape-mismatch error path.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/ndarray/imperative.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace {

const OpDef& OpNamed(const std::string& name) { return OpRegistry::Get()->FindOrThrow(name); }

template <typename T>
NDArray Make(const Shape& s, DType dt, const std::vector<T>& v) {
  NDArray a(s, Context::CPU(0), dt);
  EXPECT_EQ(static_cast<int64_t>(v.size()), s.Size());
  a.SyncCopyFromHost(v.data(), v.size() * sizeof(T));
  return a;
}

template <typename T>
std::vector<T> Read(const NDArray& a) {
  std::vector<T> h(static_cast<size_t>(a.Size()));
  a.SyncCopyToHost(h.data(), h.size() * sizeof(T));
  return h;
}

NDArray RunOp(const std::string& name, const std::vector<NDArray>& in, const AttrList& attrs = {}) {
  std::vector<NDArray> out;
  Invoke(OpNamed(name), attrs, in, &out);
  return out.at(0);
}

// Calls the registered kernel directly: the only way to reach kAddTo / kNull.
void Compute(const std::string& name, const AttrList& attrs, const std::vector<TensorView>& in,
             OpReq req, const TensorView& out) {
  const OpDef& op = OpNamed(name);
  Params p = Params::Parse(op, attrs);
  op.compute_cpu(OpContext{}, p, in, {req}, {out});
}

template <typename T>
TensorView View(std::vector<T>& v, DType dt, const Shape& s) {
  return TensorView{v.data(), dt, s};
}

TEST(ElemwiseOp, NamesAndAliasesResolve) {
  const std::vector<std::pair<const char*, const char*>> aliases = {
      {"_plus", "elemwise_add"},       {"_Plus", "elemwise_add"},     {"_add", "elemwise_add"},
      {"_Minus", "elemwise_sub"},      {"_Mul", "elemwise_mul"},      {"_Div", "elemwise_div"},
      {"_Power", "_power"},            {"_Maximum", "_maximum"},      {"_Minimum", "_minimum"},
      {"_Mod", "_mod"},                {"_Greater_Equal", "_greater_equal"},
      {"_PlusScalar", "_plus_scalar"}, {"_RMinusScalar", "_rminus_scalar"},
      {"_LesserEqualScalar", "_lesser_equal_scalar"},
      {"broadcast_plus", "broadcast_add"}, {"broadcast_minus", "broadcast_sub"},
      {"broadcast_axes", "broadcast_axis"}, {"cast", "Cast"}};
  for (const auto& a : aliases) {
    const OpDef* op = OpRegistry::Get()->Find(a.first);
    ASSERT_NE(op, nullptr) << a.first;
    EXPECT_EQ(op->name, a.second) << a.first;
  }
  for (const char* n : {"abs", "reciprocal", "relu", "sigmoid", "_rpower_scalar", "broadcast_lesser_equal",
                        "broadcast_to", "broadcast_like", "where", "clip"}) {
    const OpDef* op = OpRegistry::Get()->Find(n);
    ASSERT_NE(op, nullptr) << n;
    EXPECT_FALSE(op->doc.empty()) << n;
    for (const ParamSpec& p : op->params) EXPECT_FALSE(p.doc.empty()) << n << "." << p.name;
  }
  const OpDef& sc = OpNamed("_plus_scalar");
  ASSERT_NE(sc.FindParam("scalar"), nullptr);
  ASSERT_NE(sc.FindParam("is_int"), nullptr);
  EXPECT_EQ(sc.FindParam("is_int")->default_value, "True");
  EXPECT_EQ(OpNamed("exp").fusion, FusionClass::kElementwise);
  ASSERT_EQ(OpNamed("exp").inplace.size(), 1u);
}

TEST(ElemwiseOp, WriteModesUnaryBinaryScalar) {
  std::vector<float> x = {1, -2, 3, -4};
  std::vector<float> y = {10, 20, 30, 40};
  const Shape s{4};
  std::vector<float> out = {100, 100, 100, 100};

  Compute("negative", {}, {View(x, DType::kFloat32, s)}, OpReq::kWriteTo, View(out, DType::kFloat32, s));
  EXPECT_EQ(out, (std::vector<float>{-1, 2, -3, 4}));
  Compute("negative", {}, {View(x, DType::kFloat32, s)}, OpReq::kAddTo, View(out, DType::kFloat32, s));
  EXPECT_EQ(out, (std::vector<float>{-2, 4, -6, 8}));
  Compute("negative", {}, {View(x, DType::kFloat32, s)}, OpReq::kNull, View(out, DType::kFloat32, s));
  EXPECT_EQ(out, (std::vector<float>{-2, 4, -6, 8}));

  // In place: output aliases the input.
  std::vector<float> z = x;
  Compute("square", {}, {View(z, DType::kFloat32, s)}, OpReq::kWriteInplace, View(z, DType::kFloat32, s));
  EXPECT_EQ(z, (std::vector<float>{1, 4, 9, 16}));
  Compute("elemwise_add", {}, {View(z, DType::kFloat32, s), View(y, DType::kFloat32, s)}, OpReq::kWriteInplace,
          View(z, DType::kFloat32, s));
  EXPECT_EQ(z, (std::vector<float>{11, 24, 39, 56}));

  Compute("elemwise_sub", {}, {View(y, DType::kFloat32, s), View(x, DType::kFloat32, s)}, OpReq::kAddTo,
          View(out, DType::kFloat32, s));
  EXPECT_EQ(out, (std::vector<float>{7, 26, 21, 52}));

  // Scalars: kAddTo, and the _r* variant puts the scalar on the left.
  std::vector<int32_t> xi = {1, 2, 3, 4}, oi = {5, 5, 5, 5};
  Compute("_rminus_scalar", {{"scalar", "10"}}, {View(xi, DType::kInt32, s)}, OpReq::kAddTo,
          View(oi, DType::kInt32, s));
  EXPECT_EQ(oi, (std::vector<int32_t>{14, 13, 12, 11}));
  Compute("_div_scalar", {{"scalar", "2"}}, {View(xi, DType::kInt32, s)}, OpReq::kWriteTo,
          View(oi, DType::kInt32, s));
  EXPECT_EQ(oi, (std::vector<int32_t>{0, 1, 1, 2}));

  // kAddTo larger than the kernels' add block (512) and split across rows.
  std::vector<double> big(3000, 1.0), bout(3000, 0.5);
  Compute("_mul_scalar", {{"scalar", "3"}}, {View(big, DType::kFloat64, Shape{3000})}, OpReq::kAddTo,
          View(bout, DType::kFloat64, Shape{3000}));
  for (double v : bout) ASSERT_EQ(v, 3.5);
}

TEST(ElemwiseOp, WriteModesBroadcastWhereClipCast) {
  std::vector<float> a = {1, 2, 3, 4, 5, 6};  // (2, 3)
  std::vector<float> b = {10, 20};            // (2, 1)
  std::vector<float> out(6, 1.0f);
  Compute("broadcast_mul", {}, {View(a, DType::kFloat32, Shape{2, 3}), View(b, DType::kFloat32, Shape{2, 1})},
          OpReq::kAddTo, View(out, DType::kFloat32, Shape{2, 3}));
  EXPECT_EQ(out, (std::vector<float>{11, 21, 31, 81, 101, 121}));

  std::vector<float> row = {1, 2, 3};
  std::vector<float> bt(6, 100.0f);
  Compute("broadcast_to", {{"shape", "(2, 0)"}}, {View(row, DType::kFloat32, Shape{1, 3})}, OpReq::kAddTo,
          View(bt, DType::kFloat32, Shape{2, 3}));
  EXPECT_EQ(bt, (std::vector<float>{101, 102, 103, 101, 102, 103}));

  std::vector<uint8_t> cond = {1, 0};
  std::vector<float> w(6, 0.5f);
  Compute("where", {}, {View(cond, DType::kUint8, Shape{2}), View(a, DType::kFloat32, Shape{2, 3}),
                        View(out, DType::kFloat32, Shape{2, 3})},
          OpReq::kAddTo, View(w, DType::kFloat32, Shape{2, 3}));
  EXPECT_EQ(w, (std::vector<float>{1.5, 2.5, 3.5, 81.5, 101.5, 121.5}));

  std::vector<int8_t> c8 = {-100, 0, 100}, o8 = {1, 1, 1};
  Compute("clip", {{"a_min", "-5.5"}, {"a_max", "7"}}, {View(c8, DType::kInt8, Shape{3})}, OpReq::kAddTo,
          View(o8, DType::kInt8, Shape{3}));
  EXPECT_EQ(o8, (std::vector<int8_t>{-4, 1, 8}));  // a_min converts to int8 -5 first

  std::vector<float> cf = {1.9f, -2.9f};
  std::vector<int64_t> ci = {10, 10};
  Compute("Cast", {{"dtype", "int64"}}, {View(cf, DType::kFloat32, Shape{2})}, OpReq::kAddTo,
          View(ci, DType::kInt64, Shape{2}));
  EXPECT_EQ(ci, (std::vector<int64_t>{11, 8}));
}

uint16_t HalfBits(float f) { return half_t(f).bits; }
float HalfVal(uint16_t bits) { return half_t::ToFloat(bits); }

TEST(ElemwiseOp, Float16RoundsOnceToNearestEven) {
  const float one = 1.0f, ulp = 1.0f / 1024, half_ulp = 1.0f / 2048;
  // Ties go to the even neighbour: 1 + ulp/2 -> 1, (1 + ulp) + ulp/2 -> 1 + 2 ulp.
  NDArray l = Make<uint16_t>({3}, DType::kFloat16, {HalfBits(one), HalfBits(one + ulp), HalfBits(one)});
  NDArray r = Make<uint16_t>({3}, DType::kFloat16, {HalfBits(half_ulp), HalfBits(half_ulp), HalfBits(0.75f * ulp)});
  std::vector<uint16_t> sum = Read<uint16_t>(RunOp("elemwise_add", {l, r}));
  EXPECT_EQ(HalfVal(sum[0]), one);
  EXPECT_EQ(HalfVal(sum[1]), one + 2 * ulp);
  EXPECT_EQ(HalfVal(sum[2]), one + ulp);  // above the tie: rounds up

  // Computed in float, rounded once: 0.1h * 3 is not 0.1h + 0.1h + 0.1h rounded stepwise.
  NDArray p = Make<uint16_t>({1}, DType::kFloat16, {HalfBits(0.1f)});
  std::vector<uint16_t> m = Read<uint16_t>(RunOp("_mul_scalar", {p}, {{"scalar", "3"}}));
  EXPECT_EQ(m[0], HalfBits(HalfVal(HalfBits(0.1f)) * 3.0f));

  // Overflow to inf and exp in float.
  NDArray big = Make<uint16_t>({2}, DType::kFloat16, {HalfBits(60000.f), HalfBits(1.0f)});
  std::vector<uint16_t> sq = Read<uint16_t>(RunOp("square", {big}));
  EXPECT_TRUE(std::isinf(HalfVal(sq[0])));
  std::vector<uint16_t> ex = Read<uint16_t>(RunOp("exp", {big}));
  EXPECT_EQ(ex[1], HalfBits(std::exp(1.0f)));

  // Cast float32 -> float16 rounds to nearest even; 65520 overflows to inf.
  NDArray f = Make<float>({3}, DType::kFloat32, {0.1f, 65520.f, one + half_ulp});
  std::vector<uint16_t> h = Read<uint16_t>(RunOp("Cast", {f}, {{"dtype", "float16"}}));
  EXPECT_EQ(h[0], 0x2E66);
  EXPECT_EQ(h[1], 0x7C00);
  EXPECT_EQ(HalfVal(h[2]), one);

  // kAddTo accumulates in float and rounds once.
  std::vector<uint16_t> acc = {HalfBits(one), HalfBits(one)};
  std::vector<uint16_t> inc = {HalfBits(half_ulp), HalfBits(0.75f * ulp)};
  Compute("abs", {}, {View(inc, DType::kFloat16, Shape{2})}, OpReq::kAddTo, View(acc, DType::kFloat16, Shape{2}));
  EXPECT_EQ(HalfVal(acc[0]), one);
  EXPECT_EQ(HalfVal(acc[1]), one + ulp);
}

TEST(ElemwiseOp, BFloat16ComputesInFloatAndRoundsToNearestEven) {
  auto bits = [](float f) { return bf16_t(f).bits; };
  const float ulp = 1.0f / 128;  // bfloat16 keeps 7 mantissa bits
  NDArray l = Make<uint16_t>({2}, DType::kBFloat16, {bits(1.0f), bits(1.0f + ulp)});
  NDArray r = Make<uint16_t>({2}, DType::kBFloat16, {bits(ulp / 2), bits(ulp / 2)});
  std::vector<uint16_t> sum = Read<uint16_t>(RunOp("broadcast_add", {l, r}));
  EXPECT_EQ(sum[0], bits(1.0f));             // tie -> even
  EXPECT_EQ(sum[1], bits(1.0f + 2 * ulp));   // tie -> even (up)
  std::vector<uint16_t> gt = Read<uint16_t>(RunOp("_greater", {l, r}));
  EXPECT_EQ(gt[0], bits(1.0f));
}

// Naive reference: index each input through its left-padded, 1-broadcast shape.
std::vector<float> NaiveBroadcast(const std::vector<float>& a, const Shape& as, const std::vector<float>& b,
                                  const Shape& bs, const Shape& os, float (*f)(float, float)) {
  std::vector<float> out(static_cast<size_t>(os.Size()));
  const int nd = os.ndim();
  std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
  auto offset = [&](const Shape& s) {
    int64_t off = 0;
    const int pad = nd - s.ndim();
    for (int d = pad; d < nd; ++d) off = off * s[d - pad] + (s[d - pad] == 1 ? 0 : idx[d]);
    return off;
  };
  for (int64_t i = 0; i < os.Size(); ++i) {
    int64_t rem = i;
    for (int d = nd - 1; d >= 0; --d) {
      idx[d] = rem % os[d];
      rem /= os[d];
    }
    out[static_cast<size_t>(i)] = f(a[static_cast<size_t>(offset(as))], b[static_cast<size_t>(offset(bs))]);
  }
  return out;
}

std::vector<float> Iota(int64_t n, float start = 0.f) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = start + static_cast<float>(i % 97) * 0.5f;
  return v;
}

TEST(ElemwiseOp, BroadcastShapesMatchNaiveReference) {
  struct C {
    Shape l, r, o;
  };
  const std::vector<C> cases = {
      {{2, 3, 4}, {3, 1}, {2, 3, 4}},      {{1}, {2, 3}, {2, 3}},           {{4, 1, 5}, {1, 3, 1}, {4, 3, 5}},
      {{2, 3}, {2, 3}, {2, 3}},            {{}, {3, 2}, {3, 2}},             {{5, 1}, {1, 7}, {5, 7}},
      {{1, 1, 6}, {2, 3, 1}, {2, 3, 6}},   {{3, 1, 2, 1}, {4, 1, 5}, {3, 4, 2, 5}},
      {{0, 3}, {1, 3}, {0, 3}},            {{1, 1}, {1, 1}, {1, 1}},
      {{512, 1024}, {1024}, {512, 1024}},  {{600, 1}, {600, 700}, {600, 700}},  // threaded paths
      {{300000, 2}, {1, 2}, {300000, 2}},
  };
  for (const C& c : cases) {
    std::vector<float> a = Iota(c.l.Size(), 1.f), b = Iota(c.r.Size(), -3.f);
    NDArray out = RunOp("broadcast_sub", {Make<float>(c.l, DType::kFloat32, a), Make<float>(c.r, DType::kFloat32, b)});
    ASSERT_EQ(out.shape(), c.o) << c.l.ToString() << " - " << c.r.ToString();
    std::vector<float> ref = NaiveBroadcast(a, c.l, b, c.r, c.o, [](float x, float y) { return x - y; });
    ASSERT_EQ(Read<float>(out), ref) << c.l.ToString() << " - " << c.r.ToString();
  }
  // broadcast_axis / broadcast_like / broadcast_to reuse the copy kernel.
  std::vector<float> x = {1, 2};
  NDArray xa = Make<float>({1, 2, 1}, DType::kFloat32, x);
  NDArray ax = RunOp("broadcast_axis", {xa}, {{"axis", "(0, 2)"}, {"size", "(2, 3)"}});
  EXPECT_EQ(ax.shape(), (Shape{2, 2, 3}));
  EXPECT_EQ(Read<float>(ax), (std::vector<float>{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2}));
  NDArray like = RunOp("broadcast_like", {Make<float>({2}, DType::kFloat32, x), Make<float>({3, 2}, DType::kFloat32, Iota(6))},
                     {{"lhs_axes", "(0,)"}, {"rhs_axes", "(-1,)"}});
  EXPECT_EQ(like.shape(), (Shape{2}));  // lhs dim 2 already equals rhs dim 2
  NDArray bt = RunOp("broadcast_to", {xa}, {{"shape", "(3, 0, 2)"}});
  EXPECT_EQ(bt.shape(), (Shape{3, 2, 2}));
  EXPECT_EQ(Read<float>(bt), (std::vector<float>{1, 1, 2, 2, 1, 1, 2, 2, 1, 1, 2, 2}));
}

TEST(ElemwiseOp, ShapeMismatchThrowsNamingOpAndShapes) {
  NDArray a = Make<float>({2, 3}, DType::kFloat32, Iota(6));
  NDArray b = Make<float>({3, 2}, DType::kFloat32, Iota(6));
  for (const char* name : {"elemwise_add", "_plus", "_greater"}) {
    try {
      RunOp(name, {a, b});
      FAIL() << name << " accepted mismatched shapes";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::kShape);
      const std::string msg = e.what();
      EXPECT_NE(msg.find(OpNamed(name).name), std::string::npos) << msg;
      EXPECT_NE(msg.find("(2, 3)"), std::string::npos) << msg;
      EXPECT_NE(msg.find("(3, 2)"), std::string::npos) << msg;
    }
  }
  NDArray c = Make<float>({4, 3}, DType::kFloat32, Iota(12));
  try {
    RunOp("broadcast_add", {a, c});
    FAIL() << "broadcast_add accepted (2, 3) with (4, 3)";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kShape);
    EXPECT_NE(std::string(e.what()).find("broadcast_add"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(4, 3)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(RunOp("broadcast_to", {a}, {{"shape", "(4, 3)"}}), Error);
  EXPECT_THROW(RunOp("broadcast_axis", {a}, {{"axis", "0"}, {"size", "5"}}), Error);
  EXPECT_THROW(RunOp("where", {Make<float>({3}, DType::kFloat32, Iota(3)), a, a}), Error);
  EXPECT_THROW(RunOp("Cast", {a}), Error);  // dtype is required
  NDArray i = Make<int32_t>({2, 3}, DType::kInt32, {1, 2, 3, 4, 5, 6});
  try {
    RunOp("elemwise_mul", {a, i});
    FAIL() << "mixed dtypes accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kDType);
  }
}

TEST(ElemwiseOp, IntegerEdgeCasesAreDefined) {
  const int32_t kMin = std::numeric_limits<int32_t>::min();
  NDArray a = Make<int32_t>({5}, DType::kInt32, {5, -7, kMin, 7, -7});
  NDArray b = Make<int32_t>({5}, DType::kInt32, {0, 2, -1, -2, 0});
  EXPECT_EQ(Read<int32_t>(RunOp("elemwise_div", {a, b})), (std::vector<int32_t>{0, -3, kMin, -3, 0}));
  EXPECT_EQ(Read<int32_t>(RunOp("_mod", {a, b})), (std::vector<int32_t>{0, 1, 0, -1, 0}));
  EXPECT_EQ(Read<int32_t>(RunOp("_div_scalar", {a}, {{"scalar", "0"}})), (std::vector<int32_t>(5, 0)));
  EXPECT_EQ(Read<int32_t>(RunOp("_rdiv_scalar", {b}, {{"scalar", "6"}})), (std::vector<int32_t>{0, 3, -6, -3, 0}));
  EXPECT_EQ(Read<int32_t>(RunOp("reciprocal", {b})), (std::vector<int32_t>{0, 0, -1, 0, 0}));
  EXPECT_EQ(Read<int32_t>(RunOp("broadcast_mod", {a, Make<int32_t>({1}, DType::kInt32, {0})})), (std::vector<int32_t>(5, 0)));
  // Float modulo by zero is 0 too (MXNet), and takes the divisor's sign.
  NDArray f = Make<float>({3}, DType::kFloat32, {5.5f, -5.5f, 5.5f});
  NDArray g = Make<float>({3}, DType::kFloat32, {0.f, 2.f, -2.f});
  EXPECT_EQ(Read<float>(RunOp("_mod", {f, g})), (std::vector<float>{0.f, 0.5f, -0.5f}));
  // uint8 wraps; float -> integer results of math ops are defined.
  NDArray u = Make<uint8_t>({3}, DType::kUint8, {0, 1, 200});
  EXPECT_EQ(Read<uint8_t>(RunOp("negative", {u})), (std::vector<uint8_t>{0, 255, 56}));
  EXPECT_EQ(Read<uint8_t>(RunOp("log", {u})), (std::vector<uint8_t>{0, 0, 5}));  // log(0) = -inf -> clamp/wrap
  EXPECT_EQ(Read<uint8_t>(RunOp("_plus_scalar", {u}, {{"scalar", "-1"}})), (std::vector<uint8_t>{255, 0, 199}));
}

TEST(ElemwiseOp, BoolIsUint8ZeroOne) {
  NDArray a = Make<uint8_t>({4}, DType::kBool, {0, 0, 1, 1});
  NDArray b = Make<uint8_t>({4}, DType::kBool, {0, 1, 0, 1});
  EXPECT_EQ(Read<uint8_t>(RunOp("elemwise_add", {a, b})), (std::vector<uint8_t>{0, 1, 1, 1}));
  EXPECT_EQ(Read<uint8_t>(RunOp("elemwise_sub", {a, b})), (std::vector<uint8_t>{0, 1, 1, 0}));
  EXPECT_EQ(Read<uint8_t>(RunOp("elemwise_mul", {a, b})), (std::vector<uint8_t>{0, 0, 0, 1}));
  EXPECT_EQ(Read<uint8_t>(RunOp("_greater", {a, b})), (std::vector<uint8_t>{0, 0, 1, 0}));
  EXPECT_EQ(Read<uint8_t>(RunOp("broadcast_equal", {a, Make<uint8_t>({1}, DType::kBool, {1})})),
            (std::vector<uint8_t>{0, 0, 1, 1}));
  EXPECT_EQ(Read<uint8_t>(RunOp("_mul_scalar", {a}, {{"scalar", "5"}})), (std::vector<uint8_t>{0, 0, 1, 1}));
}

TEST(ElemwiseOp, CastBetweenAllDtypes) {
  const std::vector<DType> all = {DType::kFloat32, DType::kFloat64, DType::kFloat16, DType::kBFloat16, DType::kUint8,
                                  DType::kInt8,    DType::kInt32,   DType::kInt64,   DType::kBool};
  const std::vector<float> vals = {0, 1, 2, 3, 100, 0, 1, 7};
  NDArray base = Make<float>({8}, DType::kFloat32, vals);
  for (DType from : all) {
    NDArray src = RunOp("Cast", {base}, {{"dtype", DTypeName(from)}});
    ASSERT_EQ(src.dtype(), from);
    for (DType to : all) {
      NDArray dst = RunOp("cast", {src}, {{"dtype", DTypeName(to)}});
      ASSERT_EQ(dst.dtype(), to);
      std::vector<float> back = Read<float>(RunOp("Cast", {dst}, {{"dtype", "float32"}}));
      for (size_t i = 0; i < vals.size(); ++i) {
        const float want = (from == DType::kBool || to == DType::kBool) ? (vals[i] != 0 ? 1.f : 0.f) : vals[i];
        ASSERT_EQ(back[i], want) << DTypeName(from) << " -> " << DTypeName(to) << " at " << i;
      }
    }
  }
  NDArray odd = Make<float>({5}, DType::kFloat32, {300.f, 11.1f, 10.9f, -1.f, std::nanf("")});
  EXPECT_EQ(Read<uint8_t>(RunOp("Cast", {odd}, {{"dtype", "uint8"}})), (std::vector<uint8_t>{44, 11, 10, 255, 0}));
  EXPECT_EQ(Read<int8_t>(RunOp("Cast", {odd}, {{"dtype", "int8"}})), (std::vector<int8_t>{44, 11, 10, -1, 0}));
  EXPECT_EQ(Read<uint8_t>(RunOp("Cast", {odd}, {{"dtype", "bool"}})), (std::vector<uint8_t>{1, 1, 1, 1, 1}));
}

TEST(ElemwiseOp, WhereSelectsByElementOrRow) {
  NDArray x = Make<int64_t>({2, 2}, DType::kInt64, {1, 2, 3, 4});
  NDArray y = Make<int64_t>({2, 2}, DType::kInt64, {5, 6, 7, 8});
  NDArray c = Make<float>({2, 2}, DType::kFloat32, {0.f, 1.f, -1.f, 0.f});
  EXPECT_EQ(Read<int64_t>(RunOp("where", {c, x, y})), (std::vector<int64_t>{5, 2, 3, 8}));
  NDArray c1 = Make<int32_t>({2}, DType::kInt32, {0, 1});
  EXPECT_EQ(Read<int64_t>(RunOp("where", {c1, x, y})), (std::vector<int64_t>{5, 6, 3, 4}));
}

}  // namespace
}  // namespace weft
