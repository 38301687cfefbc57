// BatchNorm (forward train/inference, backward) and LayerNorm (forward): the
// oneDNN path (core/op/norm/norm_dnnl.cc) against the portable kernels,
// selected per call with WEFT_USE_DNNL as in nn_conv_test.cc. Compared: the
// outputs, BatchNorm's hidden mean and inverse std, the moving statistics
// updated in training, and the gradients; plus the fallbacks (axis != 1,
// kAddTo) giving the same results on both settings.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core/op/common/nn_path.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace {

using Attrs = std::vector<std::pair<std::string, std::string>>;

struct Buf {
  Shape shape;
  std::vector<float> v;
  TensorView view() { return TensorView{v.data(), DType::kFloat32, shape}; }
};

Buf Random(const Shape& s, uint32_t seed, float lo = -1, float hi = 1) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  Buf b{s, std::vector<float>(static_cast<size_t>(s.Size()))};
  for (float& x : b.v) x = d(g);
  return b;
}

// Runs the op's CPU kernel; `in` may be modified (BatchNorm's moving statistics).
std::vector<Buf> RunOp(const std::string& name, const Attrs& attrs, std::vector<Buf>& in, bool train, OpReq req,
                     std::vector<Buf>* prefilled = nullptr) {
  const OpDef& op = OpRegistry::Get()->FindOrThrow(name);
  Params p = Params::Parse(op, attrs);
  std::vector<Shape> ishapes, oshapes;
  for (auto& b : in) ishapes.push_back(b.shape);
  oshapes.assign(static_cast<size_t>(op.NumOutputs(p)), Shape::Unknown());
  EXPECT_TRUE(op.InferShape(p, &ishapes, &oshapes));
  std::vector<Buf> out;
  if (prefilled) out = *prefilled;
  else
    for (const Shape& s : oshapes) out.push_back(Buf{s, std::vector<float>(static_cast<size_t>(s.Size()), 0.f)});
  std::vector<TensorView> iv, ov;
  for (auto& b : in) iv.push_back(b.view());
  for (auto& b : out) ov.push_back(b.view());
  OpContext ctx;
  ctx.is_train = train;
  op.compute_cpu(ctx, p, iv, std::vector<OpReq>(ov.size(), req), ov);
  return out;
}

void ExpectNear(const Buf& a, const Buf& b, double tol, const std::string& what) {
  ASSERT_EQ(a.shape, b.shape) << what;
  double worst = 0;
  size_t at = 0;
  for (size_t i = 0; i < a.v.size(); ++i) {
    const double d = std::fabs(double(a.v[i]) - double(b.v[i])) / (1.0 + std::fabs(double(b.v[i])));
    if (d > worst) { worst = d; at = i; }
  }
  EXPECT_LE(worst, tol) << what << ": element " << at << " is " << a.v[at] << " vs " << b.v[at];
}

class DnnlEnv {
 public:
  explicit DnnlEnv(bool on) { setenv("WEFT_USE_DNNL", on ? "all" : "0", 1); }
  ~DnnlEnv() { unsetenv("WEFT_USE_DNNL"); }
};

// (data, gamma, beta, moving_mean, moving_var); moving_var positive.
std::vector<Buf> BnInputs(const Shape& d, int axis, uint32_t seed) {
  const Shape c{d[static_cast<size_t>(axis)]};
  return {Random(d, seed, -2, 3), Random(c, seed + 1, 0.5f, 1.5f), Random(c, seed + 2), Random(c, seed + 3),
          Random(c, seed + 4, 0.5f, 2.f)};
}

struct BnCase {
  Shape data;
  Attrs attrs;
};

std::vector<BnCase> BnCases() {
  return {
      {Shape{4, 6, 5, 7}, {{"fix_gamma", "False"}}},
      {Shape{4, 6, 5, 7}, {{"fix_gamma", "True"}, {"eps", "1e-5"}, {"momentum", "0.8"}}},
      {Shape{8, 5}, {{"fix_gamma", "False"}}},
      {Shape{3, 4, 9}, {{"fix_gamma", "False"}, {"use_global_stats", "True"}}},
      {Shape{2, 3, 4, 5, 3}, {{"fix_gamma", "False"}, {"eps", "1e-4"}}},
      {Shape{4, 6, 5, 7}, {{"fix_gamma", "False"}, {"axis", "-1"}}},  // falls back on both settings
  };
}

int AxisOf(const BnCase& c) {
  for (auto& kv : c.attrs)
    if (kv.first == "axis") return std::stoi(kv.second) < 0 ? int(c.data.ndim()) + std::stoi(kv.second) : std::stoi(kv.second);
  return 1;
}

TEST(DnnlNorm, BatchNormAgreesWithPortable) {
  if (!nn_cpu::DnnlCompiledIn()) GTEST_SKIP() << "built without oneDNN (WEFT_USE_DNNL=OFF): one path only";
  for (const BnCase& c : BnCases()) {
    for (bool train : {true, false}) {
      const std::string what = c.data.ToString() + " " + c.attrs[0].second + (c.attrs.size() > 1 ? "+" : "") +
                               (train ? " train" : " inference");
      std::vector<Buf> r[2], in[2], g[2];
      for (int dnnl = 0; dnnl < 2; ++dnnl) {
        DnnlEnv env(dnnl == 1);
        in[dnnl] = BnInputs(c.data, AxisOf(c), 17);
        r[dnnl] = RunOp("BatchNorm", c.attrs, in[dnnl], train, OpReq::kWriteTo);
        // _backward_BatchNorm: (out_grad, mean, var, data, gamma, beta, moving_mean, moving_var)
        std::vector<Buf> bin{Random(c.data, 99), r[dnnl][1], r[dnnl][2], in[dnnl][0], in[dnnl][1],
                             in[dnnl][2], in[dnnl][3], in[dnnl][4]};
        g[dnnl] = RunOp("_backward_BatchNorm", c.attrs, bin, train, OpReq::kWriteTo);
      }
      ExpectNear(r[1][0], r[0][0], 2e-5, what + " output");
      ExpectNear(r[1][1], r[0][1], 2e-5, what + " mean");
      ExpectNear(r[1][2], r[0][2], 2e-5, what + " invstd");
      ExpectNear(in[1][3], in[0][3], 2e-5, what + " moving_mean");
      ExpectNear(in[1][4], in[0][4], 2e-5, what + " moving_var");
      for (int i = 0; i < 3; ++i) ExpectNear(g[1][i], g[0][i], 1e-4, what + " gradient " + std::to_string(i));
    }
  }
}

// In training the moving statistics move; in inference they are untouched.
TEST(DnnlNorm, BatchNormMovingStatistics) {
  for (bool train : {true, false}) {
    std::vector<Buf> in = BnInputs(Shape{4, 3, 6, 6}, 1, 5);
    const std::vector<Buf> before = in;
    RunOp("BatchNorm", {{"fix_gamma", "False"}}, in, train, OpReq::kWriteTo);
    if (train) {
      EXPECT_NE(in[3].v, before[3].v);
      EXPECT_NE(in[4].v, before[4].v);
    } else {
      EXPECT_EQ(in[3].v, before[3].v);
      EXPECT_EQ(in[4].v, before[4].v);
    }
  }
}

// kAddTo (portable fallback for the data, scratch for the statistics) on both settings.
TEST(DnnlNorm, WriteModes) {
  for (bool dnnl : {false, true}) {
    if (dnnl && !nn_cpu::DnnlCompiledIn()) continue;
    DnnlEnv env(dnnl);
    const Attrs attrs{{"fix_gamma", "False"}};
    std::vector<Buf> in = BnInputs(Shape{2, 3, 4, 4}, 1, 8);
    std::vector<Buf> fresh = RunOp("BatchNorm", attrs, in, false, OpReq::kWriteTo);
    std::vector<Buf> base;
    for (size_t i = 0; i < fresh.size(); ++i) base.push_back(Random(fresh[i].shape, 40 + uint32_t(i)));
    std::vector<Buf> added = RunOp("BatchNorm", attrs, in, false, OpReq::kAddTo, &base);
    for (size_t i = 0; i < fresh.size(); ++i) {
      Buf want = base[i];
      for (size_t j = 0; j < want.v.size(); ++j) want.v[j] += fresh[i].v[j];
      ExpectNear(added[i], want, 1e-5, std::string(dnnl ? "oneDNN" : "portable") + " kAddTo " + std::to_string(i));
    }
  }
}

TEST(DnnlNorm, LayerNormAgreesWithPortable) {
  if (!nn_cpu::DnnlCompiledIn()) GTEST_SKIP() << "built without oneDNN (WEFT_USE_DNNL=OFF): one path only";
  struct LnCase {
    Shape data;
    Attrs attrs;
  };
  const std::vector<LnCase> cases{{Shape{6, 32}, {}},
                                  {Shape{2, 5, 17}, {{"eps", "1e-3"}}},
                                  {Shape{4, 7, 9}, {{"axis", "1"}}}};  // not the last axis: falls back
  for (const LnCase& c : cases) {
    int axis = int(c.data.ndim()) - 1;
    for (auto& kv : c.attrs)
      if (kv.first == "axis") axis = std::stoi(kv.second);
    const Shape p{c.data[size_t(axis)]};
    std::vector<Buf> r[2];
    for (int dnnl = 0; dnnl < 2; ++dnnl) {
      DnnlEnv env(dnnl == 1);
      std::vector<Buf> in{Random(c.data, 3, -2, 3), Random(p, 4), Random(p, 5)};
      r[dnnl] = RunOp("LayerNorm", c.attrs, in, false, OpReq::kWriteTo);
    }
    for (size_t i = 0; i < 3; ++i) ExpectNear(r[1][i], r[0][i], 2e-5, c.data.ToString() + " output " + std::to_string(i));
  }
}

}  // namespace
}  // namespace weft
