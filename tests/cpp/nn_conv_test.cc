// Layer operators (FullyConnected, Convolution, Deconvolution, Pooling and
// their _backward_ ops): shape inference in both directions, error messages,
// the portable and oneDNN kernel paths against each other, and write modes
// (kAddTo, kNull) through FCompute. Numeric references: tests/python/op_cases/nn_conv.py.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core/op/common/nn_path.h"
#include "core/base/error.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace {

using Attrs = std::vector<std::pair<std::string, std::string>>;

struct Buf {
  Shape shape;
  std::vector<float> v;
  TensorView view() { return TensorView{v.data(), DType::kFloat32, shape}; }
};

Buf Random(const Shape& s, uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  Buf b{s, std::vector<float>(static_cast<size_t>(s.Size()))};
  for (float& x : b.v) x = d(g);
  return b;
}

Buf Filled(const Shape& s, float value) { return Buf{s, std::vector<float>(static_cast<size_t>(s.Size()), value)}; }

// Runs shape inference from the given input shapes (Unknown allowed).
void Infer(const std::string& name, const Attrs& attrs, std::vector<Shape>* in, std::vector<Shape>* out) {
  const OpDef& op = OpRegistry::Get()->FindOrThrow(name);
  Params p = Params::Parse(op, attrs);
  in->resize(static_cast<size_t>(op.NumInputs(p)), Shape::Unknown());
  out->assign(static_cast<size_t>(op.NumOutputs(p)), Shape::Unknown());
  ASSERT_TRUE(op.InferShape(p, in, out));
}

// Calls the op's CPU kernel on host buffers: outputs are shaped by inference.
std::vector<Buf> RunKernel(const std::string& name, const Attrs& attrs, std::vector<Buf>& in, OpReq req,
                     std::vector<Buf>* prefilled = nullptr) {
  const OpDef& op = OpRegistry::Get()->FindOrThrow(name);
  Params p = Params::Parse(op, attrs);
  std::vector<Shape> ishapes, oshapes;
  for (auto& b : in) ishapes.push_back(b.shape);
  oshapes.assign(static_cast<size_t>(op.NumOutputs(p)), Shape::Unknown());
  EXPECT_TRUE(op.InferShape(p, &ishapes, &oshapes));
  std::vector<Buf> out;
  if (prefilled) out = *prefilled;
  else for (const Shape& s : oshapes) out.push_back(Filled(s, 0.0f));
  std::vector<TensorView> iv, ov;
  for (auto& b : in) iv.push_back(b.view());
  for (auto& b : out) ov.push_back(b.view());
  OpContext ctx;
  op.compute_cpu(ctx, p, iv, std::vector<OpReq>(ov.size(), req), ov);
  return out;
}

std::vector<Buf> Inputs(const std::string& name, const Attrs& attrs, const Shape& data, uint32_t seed) {
  std::vector<Shape> in{data}, out;
  Infer(name, attrs, &in, &out);
  std::vector<Buf> bufs;
  for (size_t i = 0; i < in.size(); ++i) bufs.push_back(Random(in[i], seed + static_cast<uint32_t>(i)));
  return bufs;
}

// Inputs of a backward op: (out_grad, data, weight-or-output) from the forward op.
std::vector<Buf> BackwardInputs(const std::string& fwd, const Attrs& attrs, const Shape& data, uint32_t seed) {
  std::vector<Buf> f = Inputs(fwd, attrs, data, seed);
  std::vector<Buf> y = RunKernel(fwd, attrs, f, OpReq::kWriteTo);
  Buf third = fwd == "Pooling" ? y[0] : f[1];
  return {Random(y[0].shape, seed + 100), f[0], third};
}

void ExpectNear(const Buf& a, const Buf& b, double tol, const std::string& what) {
  ASSERT_EQ(a.shape, b.shape) << what;
  double worst = 0;
  size_t at = 0;
  for (size_t i = 0; i < a.v.size(); ++i) {
    double d = std::fabs(double(a.v[i]) - double(b.v[i])) / (1.0 + std::fabs(double(b.v[i])));
    if (d > worst) { worst = d; at = i; }
  }
  EXPECT_LE(worst, tol) << what << ": element " << at << " is " << a.v[at] << " vs " << b.v[at];
}

// on: oneDNN for every op it covers ("all"), off: the portable path ("0").
class DnnlEnv {
 public:
  explicit DnnlEnv(bool on) { setenv("WEFT_USE_DNNL", on ? "all" : "0", 1); }
  ~DnnlEnv() { unsetenv("WEFT_USE_DNNL"); }
};

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

// ---- shape inference -----------------------------------------------------------------------------

TEST(NNOps, FullyConnectedInfersWeightAndBias) {
  std::vector<Shape> in{Shape{4, 3, 5}}, out;
  Infer("FullyConnected", {{"num_hidden", "7"}}, &in, &out);
  EXPECT_EQ(in[1], (Shape{7, 15}));
  EXPECT_EQ(in[2], (Shape{7}));
  EXPECT_EQ(out[0], (Shape{4, 7}));
  in = {Shape{4, 3, 5}};
  Infer("FullyConnected", {{"num_hidden", "7"}, {"flatten", "False"}, {"no_bias", "True"}}, &in, &out);
  ASSERT_EQ(in.size(), 2u);
  EXPECT_EQ(in[1], (Shape{7, 5}));
  EXPECT_EQ(out[0], (Shape{4, 3, 7}));
  in = {Shape{2, 6}, Shape::Unknown(), Shape{7, 1}};  // MXNet accepts a (num_hidden, 1) bias
  Infer("FullyConnected", {{"num_hidden", "7"}}, &in, &out);
  EXPECT_EQ(in[2], (Shape{7, 1}));
  // Backward: outputs from data, and data from the data gradient's shape.
  std::vector<Shape> bin{Shape::Unknown(), Shape{2, 6}, Shape::Unknown()};
  std::vector<Shape> bout{Shape::Unknown(), Shape::Unknown(), Shape::Unknown()};
  const OpDef& bop = OpRegistry::Get()->FindOrThrow("_backward_FullyConnected");
  Params bp = Params::Parse(bop, {{"num_hidden", "3"}});
  ASSERT_TRUE(bop.InferShape(bp, &bin, &bout));
  EXPECT_EQ(bin[0], (Shape{2, 3}));
  EXPECT_EQ(bout[1], (Shape{3, 6}));
  EXPECT_EQ(bout[2], (Shape{3}));
  const OpDef& fc = OpRegistry::Get()->FindOrThrow("FullyConnected");
  EXPECT_EQ(fc.InputNames(Params::Parse(fc, {{"num_hidden", "2"}, {"no_bias", "True"}})),
            (std::vector<std::string>{"data", "weight"}));
}

TEST(NNOps, ConvolutionInference) {
  std::vector<Shape> in{Shape{2, 4, 9, 9}}, out;
  Infer("Convolution", {{"kernel", "(3, 3)"}, {"num_filter", "6"}, {"num_group", "2"}, {"stride", "(2, 2)"},
                        {"pad", "(1, 1)"}}, &in, &out);
  EXPECT_EQ(in[1], (Shape{6, 2, 3, 3}));
  EXPECT_EQ(in[2], (Shape{6}));
  EXPECT_EQ(out[0], (Shape{2, 6, 5, 5}));
  in = {Shape{2, 3, 10}};
  Infer("Convolution", {{"kernel", "(3,)"}, {"num_filter", "4"}, {"dilate", "(2,)"}, {"no_bias", "True"}}, &in, &out);
  EXPECT_EQ(in.size(), 2u);
  EXPECT_EQ(out[0], (Shape{2, 4, 6}));
  in = {Shape::Unknown(), Shape{2, 3, 10}};
  Infer("_backward_Convolution", {{"kernel", "(3,)"}, {"num_filter", "4"}}, &in, &out);
  EXPECT_EQ(in[0], (Shape{2, 4, 8}));
  EXPECT_EQ(in[2], (Shape{4, 3, 3}));
  EXPECT_EQ(out[2], (Shape{4}));
  in = {Shape{1, 3, 4, 4}};
  Infer("Deconvolution", {{"kernel", "(4, 4)"}, {"stride", "(2, 2)"}, {"num_filter", "5"}, {"target_shape", "(8, 8)"}},
        &in, &out);
  EXPECT_EQ(in.size(), 2u);  // no_bias defaults to True
  EXPECT_EQ(in[1], (Shape{3, 5, 4, 4}));
  EXPECT_EQ(out[0], (Shape{1, 5, 8, 8}));
  in = {Shape{2, 3, 8, 8}};
  Infer("Pooling", {{"kernel", "(3, 3)"}, {"stride", "(2, 2)"}, {"pooling_convention", "full"}}, &in, &out);
  EXPECT_EQ(out[0], (Shape{2, 3, 4, 4}));
  Infer("Pooling", {{"global_pool", "True"}, {"pool_type", "avg"}}, &in, &out);
  EXPECT_EQ(out[0], (Shape{2, 3, 1, 1}));
}

TEST(NNOps, BadInputMessages) {
  std::vector<Shape> in, out;
  auto conv = [&](Attrs a, Shape data) {
    return [a, data] {
      std::vector<Shape> i{data}, o;
      const OpDef& op = OpRegistry::Get()->FindOrThrow("Convolution");
      Params p = Params::Parse(op, a);
      i.resize(3, Shape::Unknown());
      o.assign(1, Shape::Unknown());
      op.InferShape(p, &i, &o);
    };
  };
  std::string m = ErrorOf(conv({{"kernel", "(3, 3)"}, {"num_filter", "2"}, {"layout", "NHWC"}}, Shape{1, 3, 5, 5}),
                          Status::kInvalidArgument);
  EXPECT_NE(m.find("layout 'NHWC' is not supported"), std::string::npos) << m;
  m = ErrorOf(conv({{"kernel", "(7, 7)"}, {"num_filter", "2"}}, Shape{1, 3, 5, 5}), Status::kShape);
  EXPECT_NE(m.find("exceeds input 'data'"), std::string::npos) << m;
  m = ErrorOf(conv({{"kernel", "(3, 3)"}, {"num_filter", "2"}, {"num_group", "2"}}, Shape{1, 3, 5, 5}), Status::kShape);
  EXPECT_NE(m.find("divisible by num_group"), std::string::npos) << m;
  m = ErrorOf(conv({{"kernel", "(3, 3)"}, {"num_filter", "2"}}, Shape{1, 3, 5}), Status::kShape);
  EXPECT_NE(m.find("must be 4-D"), std::string::npos) << m;
  m = ErrorOf(conv({{"kernel", "(3, 3)"}, {"num_filter", "2"}, {"stride", "(1, 1, 1)"}}, Shape{1, 3, 5, 5}),
              Status::kInvalidArgument);
  EXPECT_NE(m.find("'stride' must have 2 entries"), std::string::npos) << m;
}

// ---- kernel paths and write modes ----------------------------------------------------------------

TEST(NNOps, PathSelectionFollowsEnvironment) {
  unsetenv("WEFT_USE_DNNL");
  EXPECT_EQ(nn_cpu::UseDnnl(), nn_cpu::DnnlCompiledIn());  // default: oneDNN when built with it
  EXPECT_FALSE(nn_cpu::UseDnnlAll());
  setenv("WEFT_USE_DNNL", "0", 1);
  EXPECT_FALSE(nn_cpu::UseDnnl());
  setenv("WEFT_USE_DNNL", "all", 1);
  EXPECT_EQ(nn_cpu::UseDnnl(), nn_cpu::DnnlCompiledIn());
  EXPECT_EQ(nn_cpu::UseDnnlAll(), nn_cpu::DnnlCompiledIn());
  unsetenv("WEFT_USE_DNNL");
}

struct OpConfig {
  std::string op;
  Attrs attrs;
  Shape data;
};

std::vector<OpConfig> Configs() {
  return {
      {"Convolution", {{"kernel", "(3, 3)"}, {"num_filter", "8"}, {"pad", "(1, 1)"}}, Shape{4, 6, 12, 12}},
      {"Convolution", {{"kernel", "(3, 3)"}, {"num_filter", "6"}, {"stride", "(2, 2)"}, {"dilate", "(2, 2)"},
                       {"pad", "(2, 1)"}, {"num_group", "3"}}, Shape{2, 6, 11, 10}},
      {"Convolution", {{"kernel", "(1, 1)"}, {"num_filter", "16"}, {"stride", "(2, 2)"}, {"no_bias", "True"}},
       Shape{2, 8, 14, 14}},
      {"Convolution", {{"kernel", "(5,)"}, {"num_filter", "4"}, {"stride", "(2,)"}, {"pad", "(2,)"}}, Shape{3, 5, 17}},
      {"Convolution", {{"kernel", "(3, 3)"}, {"num_filter", "64"}, {"pad", "(1, 1)"}}, Shape{2, 32, 28, 28}},
      {"Deconvolution", {{"kernel", "(4, 4)"}, {"num_filter", "6"}, {"stride", "(2, 2)"}, {"pad", "(1, 1)"},
                         {"no_bias", "False"}}, Shape{2, 4, 7, 7}},
      {"Deconvolution", {{"kernel", "(3, 3)"}, {"num_filter", "4"}, {"stride", "(2, 2)"}, {"adj", "(1, 1)"},
                         {"num_group", "2"}}, Shape{2, 4, 5, 5}},
      {"Pooling", {{"kernel", "(3, 3)"}, {"stride", "(2, 2)"}, {"pad", "(1, 1)"}}, Shape{2, 8, 15, 15}},
      {"Pooling", {{"kernel", "(3, 3)"}, {"stride", "(2, 2)"}, {"pad", "(1, 1)"}, {"pool_type", "avg"}},
       Shape{2, 8, 15, 15}},
      {"Pooling", {{"kernel", "(3, 3)"}, {"stride", "(2, 2)"}, {"pool_type", "avg"}, {"count_include_pad", "False"},
                   {"pooling_convention", "full"}, {"pad", "(1, 1)"}}, Shape{2, 8, 14, 14}},
      {"Pooling", {{"global_pool", "True"}, {"pool_type", "avg"}}, Shape{2, 16, 7, 7}},
      {"Pooling", {{"kernel", "(2,)"}, {"stride", "(2,)"}}, Shape{2, 4, 9}},
      {"FullyConnected", {{"num_hidden", "10"}}, Shape{8, 3, 4, 4}},
      {"FullyConnected", {{"num_hidden", "5"}, {"flatten", "False"}, {"no_bias", "True"}}, Shape{2, 3, 7}},
  };
}

TEST(NNOps, PortableAndDnnlAgree) {
  if (!nn_cpu::DnnlCompiledIn()) GTEST_SKIP() << "built without oneDNN (WEFT_USE_DNNL=OFF)";
  for (const OpConfig& c : Configs()) {
    if (c.op == "FullyConnected") continue;  // one path only (OpenBLAS)
    const std::string bwd = "_backward_" + c.op;
    std::vector<Buf> fin = Inputs(c.op, c.attrs, c.data, 7);
    std::vector<Buf> bin = BackwardInputs(c.op, c.attrs, c.data, 11);
    std::vector<Buf> f0, f1, b0, b1;
    {
      DnnlEnv env(false);
      EXPECT_FALSE(nn_cpu::UseDnnl());
      EXPECT_FALSE(nn_cpu::UseDnnlAll());
      f0 = RunKernel(c.op, c.attrs, fin, OpReq::kWriteTo);
      b0 = RunKernel(bwd, c.attrs, bin, OpReq::kWriteTo);
    }
    {
      DnnlEnv env(true);
      EXPECT_TRUE(nn_cpu::UseDnnl());
      EXPECT_TRUE(nn_cpu::UseDnnlAll());
      f1 = RunKernel(c.op, c.attrs, fin, OpReq::kWriteTo);
      b1 = RunKernel(bwd, c.attrs, bin, OpReq::kWriteTo);
    }
    const std::string what = c.op + " " + c.data.ToString() + " " + c.attrs[0].second;
    ExpectNear(f1[0], f0[0], 1e-4, what + " forward");
    for (size_t i = 0; i < b0.size(); ++i) ExpectNear(b1[i], b0[i], 1e-4, what + " backward output " + std::to_string(i));
  }
}

// kAddTo adds to what is there; kNull leaves it; on both kernel paths.
TEST(NNOps, WriteModesOnBothPaths) {
  for (bool dnnl : {false, true}) {
    if (dnnl && !nn_cpu::DnnlCompiledIn()) continue;
    DnnlEnv env(dnnl);
    for (const OpConfig& c : Configs()) {
      for (const std::string& name : {c.op, "_backward_" + c.op}) {
        std::vector<Buf> in = name == c.op ? Inputs(c.op, c.attrs, c.data, 3) : BackwardInputs(c.op, c.attrs, c.data, 5);
        std::vector<Buf> fresh = RunKernel(name, c.attrs, in, OpReq::kWriteTo);
        std::vector<Buf> base;
        for (size_t i = 0; i < fresh.size(); ++i) base.push_back(Random(fresh[i].shape, 40 + static_cast<uint32_t>(i)));
        std::vector<Buf> added = RunKernel(name, c.attrs, in, OpReq::kAddTo, &base);
        std::vector<Buf> kept = RunKernel(name, c.attrs, in, OpReq::kNull, &base);
        const std::string what = name + (dnnl ? " (oneDNN) " : " (portable) ") + c.data.ToString();
        for (size_t i = 0; i < fresh.size(); ++i) {
          Buf want = base[i];
          for (size_t j = 0; j < want.v.size(); ++j) want.v[j] += fresh[i].v[j];
          ExpectNear(added[i], want, 1e-5, what + " kAddTo output " + std::to_string(i));
          EXPECT_EQ(kept[i].v, base[i].v) << what << " kNull output " << i;
        }
      }
    }
  }
}

}  // namespace
}  // namespace weft
