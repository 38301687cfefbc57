// _random_pdf_<d> (alias random_pdf_<d>) for d in uniform, normal, gamma,
// exponential, poisson, negative_binomial, generalized_negative_binomial,
// dirichlet, as MXNet 1.9.1: the density (or with is_log its log) of `sample`
// under parameter arrays whose shape is the leading shape of `sample` (for the
// Dirichlet, `alpha` is (..., k) and each sample a k-vector along the last
// axis). Gradients w.r.t. the sample and the parameters via
// _backward_pdf_<d>(out_grad, sample, params..., output). Formulas:
// pdf_rules.h; GPU kernels: pdf.cu.
#include <cmath>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/copy_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/random/pdf_rules.h"
#include "core/op/random/pdf_gpu.h"
#include "core/op/random/sample_ops_cpu.h"

namespace weft {
namespace {

using pdf::Pdf;

struct PdfInfo {
  Pdf d;
  const char* name;
  int np;
  const char* input[2];
  const char* doc;
};

const PdfInfo kPdfs[] = {
    {Pdf::kUniform, "uniform", 2, {"low", "high"}, "uniform distributions on the intervals given by [low, high)"},
    {Pdf::kNormal, "normal", 2, {"mu", "sigma"}, "normal distributions with parameters mu (mean) and sigma "
                                                 "(standard deviation)"},
    {Pdf::kGamma, "gamma", 2, {"alpha", "beta"}, "gamma distributions with parameters alpha (shape) and beta "
                                                 "(rate: the density is x^(alpha-1) beta^alpha e^(-beta x) / "
                                                 "Gamma(alpha), as MXNet computes it)"},
    {Pdf::kExponential, "exponential", 1, {"lam", nullptr}, "exponential distributions with parameters lambda (rate)"},
    {Pdf::kPoisson, "poisson", 1, {"lam", nullptr}, "Poisson distributions with parameters lambda (rate)"},
    {Pdf::kNegBinomial, "negative_binomial", 2, {"k", "p"}, "negative binomial distributions with parameters k "
                                                            "(failure limit) and p (failure probability)"},
    {Pdf::kGenNegBinomial, "generalized_negative_binomial", 2, {"mu", "alpha"},
     "generalized negative binomial distributions with parameters mu (mean) and alpha (dispersion)"},
    {Pdf::kDirichlet, "dirichlet", 1, {"alpha", nullptr}, "Dirichlet distributions with parameter alpha"},
};

void CheckFloating(const std::string& op, const std::string& what, DType t) {
  WEFT_CHECK(t == DType::kUnknown || IsFloating(t), kDType)
      << op << ": input '" << what << "' must be a floating-point type, got " << DTypeName(t);
}

// All inputs share one floating dtype; so do the outputs.
bool PdfType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const std::string& n = p.op()->name;
  const std::vector<std::string> names = p.op()->InputNames(p);
  DType t = DType::kUnknown;
  for (size_t i = 0; i < in->size(); ++i) {
    CheckFloating(n, names[i], (*in)[i]);
    if (t == DType::kUnknown) t = (*in)[i];
  }
  for (DType o : *out)
    if (t == DType::kUnknown) t = o;
  if (t == DType::kUnknown) return false;
  for (size_t i = 0; i < in->size(); ++i) AssignType(in, i, t, n + ": input '" + names[i] + "' (one dtype for all)");
  for (size_t i = 0; i < out->size(); ++i) AssignType(out, i, t, n + ": output");
  return true;
}

// The parameters' shape for `sample`, checked against every known parameter
// input; the density shape in *dens.
Shape ParamShape(const PdfInfo& info, const std::string& op, const Shape& sample, std::vector<Shape>* in,
                 Shape* dens) {
  const bool vec = info.d == Pdf::kDirichlet;
  WEFT_CHECK(!vec || sample.ndim() >= 1, kShape)
      << op << ": input 'sample' must have at least one dimension (the Dirichlet's k), got " << sample.ToString();
  // A Dirichlet over no categories has no density (the kernel read alpha[0] of an empty row).
  WEFT_CHECK(!vec || sample[sample.ndim() - 1] >= 1, kShape)
      << op << ": the last dimension of input 'sample' (the Dirichlet's k) must be at least 1, got shape "
      << sample.ToString();
  // The parameters share one shape: its ndim from the first one known (a
  // known 'beta' decides it when 'alpha' is not given), else the guess.
  Shape p0 = (*in)[1];
  for (size_t k = 2; !p0.known() && k < in->size() && k <= static_cast<size_t>(info.np); ++k) p0 = (*in)[k];
  int nd = p0.known() ? p0.ndim() : (vec ? 1 : sample.ndim());
  WEFT_CHECK(nd <= sample.ndim(), kShape) << op << ": input '" << info.input[0] << "' " << p0.ToString()
                                          << " has more dimensions than input 'sample' " << sample.ToString()
                                          << " (the parameters must have the leading shape of the samples)";
  std::vector<int64_t> dims(sample.dims().begin(), sample.dims().begin() + nd);
  if (vec) {
    WEFT_CHECK(nd >= 1, kShape) << op << ": input 'alpha' must have at least one dimension (k), got "
                                << p0.ToString();
    dims.back() = sample[sample.ndim() - 1];
    *dens = sample.ndim() == 1 ? Shape({1}) : Shape(std::vector<int64_t>(sample.dims().begin(), sample.dims().end() - 1));
  } else {
    *dens = sample;
  }
  return Shape(dims);
}

void RegisterPdf(const PdfInfo& info) {
  const std::string name = std::string("_random_pdf_") + info.name;
  const std::string bname = std::string("_backward_pdf_") + info.name;
  WEFT_REGISTER_OP(fwd, name);
  fwd.describe(std::string("Computes the value of the PDF of *sample* of ") + info.doc +
               ".\n\nThe shape of the parameter arrays must match the leftmost subshape of *sample* (for the "
               "Dirichlet: of *sample* without its last axis, then k): the density at index i is that of sample "
               "i under the parameters at the matching leading index. With is_log, the log density.")
      .add_input("sample");
  for (int k = 0; k < info.np; ++k) fwd.add_input(info.input[k]);
  fwd.add_param("is_log", ParamType::kBool, "False",
                "If set, compute the density of the log-probability instead of the probability.");
  const PdfInfo* ip = &info;
  fwd.set_infer_shape([ip](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const std::string& n = p.op()->name;
        if (!(*in)[0].known()) return false;
        Shape dens;
        const Shape ps = ParamShape(*ip, n, (*in)[0], in, &dens);
        for (int k = 0; k < ip->np; ++k)
          AssignShape(in, static_cast<size_t>(k) + 1, ps,
                      n + ": input '" + ip->input[k] + "' (the leading shape of 'sample' " + (*in)[0].ToString() + ")");
        AssignShape(out, 0, dens, n + ": output");
        return true;
      })
      .set_infer_type(PdfType)
      .set_compute_cpu([ip](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const pdf::Layout l = pdf::LayoutOf(ip->d, in[0], in[1]);
        const std::vector<double> x = tensor_cpu::ToDoubles(in[0]), a = tensor_cpu::ToDoubles(in[1]);
        const std::vector<double> b = ip->np > 1 ? tensor_cpu::ToDoubles(in[2]) : std::vector<double>();
        const bool is_log = p.GetBool("is_log");
        std::vector<double> v(static_cast<size_t>(l.n_out));
        ParallelFor(l.n_out, 32, [&](int64_t begin, int64_t end) {
          for (int64_t i = begin; i < end; ++i) {
            const int64_t j = i / l.per;
            const double lp =
                ip->d == Pdf::kDirichlet
                    ? pdf::LogDirichlet(x.data() + i * l.k, a.data() + j * l.k, l.k)
                    : pdf::LogPdf(ip->d, x[static_cast<size_t>(i)], a[static_cast<size_t>(j)],
                                  b.empty() ? 0.0 : b[static_cast<size_t>(j)]);
            v[static_cast<size_t>(i)] = is_log ? lp : std::exp(lp);
          }
        });
        tensor_cpu::ConvertCopy(TensorView{v.data(), DType::kFloat64, out[0].shape}, req[0], out[0]);
      })
      .set_compute_gpu(WEFT_GPU(cuda::PdfGpu(info.d)))
      .add_alias(std::string("random_pdf_") + info.name);
  fwd.set_gradient([bname, ip](const NodePtr& n, const std::vector<NodeEntry>& og) {
    std::vector<NodeEntry> ins = {og[0]};
    for (int k = 0; k <= ip->np; ++k) ins.push_back(n->inputs[static_cast<size_t>(k)]);
    ins.push_back(OutputOf(n, 0));
    return ViaBackwardOp(n, bname, ins);
  });

  WEFT_REGISTER_OP(bwd, bname);
  bwd.describe("Gradient of " + name + " w.r.t. the sample and the parameters, from (out_grad, sample, "
               "parameters..., output): the parameters' gradients are summed over their samples.")
      .add_input("out_grad")
      .add_input("sample");
  for (int k = 0; k < info.np; ++k) bwd.add_input(info.input[k]);
  bwd.add_input("output");
  bwd.add_param("is_log", ParamType::kBool, "False", "Whether the forward computed the log density.");
  bwd.set_num_outputs(info.np + 1);
  bwd.list_output_names = [ip](const Params&) {
    std::vector<std::string> names = {"sample_grad"};
    for (int k = 0; k < ip->np; ++k) names.push_back(std::string(ip->input[k]) + "_grad");
    return names;
  };
  bwd.set_infer_shape([ip](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const std::string& n = p.op()->name;
        bool all = true;
        for (int k = 0; k <= ip->np; ++k) {
          const Shape& s = (*in)[static_cast<size_t>(k) + 1];
          if (s.known()) AssignShape(out, static_cast<size_t>(k), s, n + ": output " + std::to_string(k));
          all = all && s.known();
        }
        const size_t last = in->size() - 1;
        if ((*in)[0].known()) AssignShape(in, last, (*in)[0], n + ": input 'output' (the shape of 'out_grad')");
        if ((*in)[last].known()) AssignShape(in, 0, (*in)[last], n + ": input 'out_grad' (the shape of 'output')");
        if (!all || !(*in)[0].known()) return false;
        // The kernel walks sample, parameters and out_grad by the forward's layout: they must be its shapes.
        std::vector<Shape> fwd = {(*in)[1], (*in)[2]};
        Shape dens;
        const Shape ps = ParamShape(*ip, n, (*in)[1], &fwd, &dens);
        for (int k = 0; k < ip->np; ++k)
          WEFT_CHECK((*in)[static_cast<size_t>(k) + 2] == ps, kShape)
              << n << ": input '" << ip->input[k] << "' has shape " << (*in)[static_cast<size_t>(k) + 2].ToString()
              << ", expected " << ps.ToString() << " for sample " << (*in)[1].ToString();
        WEFT_CHECK((*in)[0] == dens, kShape) << n << ": input 'out_grad' has shape " << (*in)[0].ToString()
                                             << ", the density of sample " << (*in)[1].ToString() << " has "
                                             << dens.ToString();
        return true;
      })
      .set_infer_type(PdfType)
      .set_compute_cpu([ip](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const pdf::Layout l = pdf::LayoutOf(ip->d, in[1], in[2]);
        const std::vector<double> g = tensor_cpu::ToDoubles(in[0]), x = tensor_cpu::ToDoubles(in[1]),
                                  a = tensor_cpu::ToDoubles(in[2]);
        const std::vector<double> b = ip->np > 1 ? tensor_cpu::ToDoubles(in[3]) : std::vector<double>();
        const std::vector<double> y = tensor_cpu::ToDoubles(in.back());
        const bool is_log = p.GetBool("is_log");
        std::vector<double> gx(x.size(), 0.0), ga(a.size(), 0.0), gb(b.size(), 0.0);
        for (int64_t i = 0; i < l.n_out; ++i) {
          const int64_t j = i / l.per;
          const double s = g[static_cast<size_t>(i)] * (is_log ? 1.0 : y[static_cast<size_t>(i)]);
          if (ip->d == Pdf::kDirichlet) {
            double sum_a = 0.0;
            for (int64_t c = 0; c < l.k; ++c) sum_a += a[static_cast<size_t>(j * l.k + c)];
            const double psi_sum = pdf::Digamma(sum_a);
            for (int64_t c = 0; c < l.k; ++c) {
              const double ac = a[static_cast<size_t>(j * l.k + c)], xc = x[static_cast<size_t>(i * l.k + c)];
              gx[static_cast<size_t>(i * l.k + c)] = s * (ac - 1.0) / xc;
              ga[static_cast<size_t>(j * l.k + c)] += s * (std::log(xc) + psi_sum - pdf::Digamma(ac));
            }
            continue;
          }
          double dx, da, db;
          pdf::LogPdfGrad(ip->d, x[static_cast<size_t>(i)], a[static_cast<size_t>(j)],
                          b.empty() ? 0.0 : b[static_cast<size_t>(j)], &dx, &da, &db);
          gx[static_cast<size_t>(i)] = s * dx;
          ga[static_cast<size_t>(j)] += s * da;
          if (!b.empty()) gb[static_cast<size_t>(j)] += s * db;
        }
        tensor_cpu::ConvertCopy(TensorView{gx.data(), DType::kFloat64, out[0].shape}, req[0], out[0]);
        tensor_cpu::ConvertCopy(TensorView{ga.data(), DType::kFloat64, out[1].shape}, req[1], out[1]);
        if (ip->np > 1) tensor_cpu::ConvertCopy(TensorView{gb.data(), DType::kFloat64, out[2].shape}, req[2], out[2]);
      })
      .set_compute_gpu(WEFT_GPU(cuda::PdfBackwardGpu(info.d)));
}

[[maybe_unused]] const bool kPdfsRegistered = [] {
  for (const PdfInfo& info : kPdfs) RegisterPdf(info);
  return true;
}();

}  // namespace
}  // namespace weft
