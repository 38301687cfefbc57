// _histogram (MXNet 1.x; mx.nd.histogram calls it): the counts (int64) of the
// input's elements per bin and the bin edges (in the input's dtype), over
// bin_cnt equal bins of `range`, or over the edges given as the `bins` input.
// No gradient (MXNet has none). Kernels: histogram_cpu.cc, histogram.cu.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/reduce/histogram_cpu.h"
#include "core/op/reduce/histogram_rules.h"
#include "core/op/reduce/histogram_gpu.h"

namespace weft {
namespace tensor {

UniformBins HistogramBinsOf(const Params& p, const Shape&) {
  const std::string& op = p.op()->name;
  UniformBins b;
  WEFT_CHECK(!p.IsNone("range"), kInvalidArgument)
      << op << ": parameter 'range' (min, max) is required with bin_cnt";
  const std::vector<double>& r = p.GetFloatTuple("range");
  WEFT_CHECK(r.size() == 2 && r[0] < r[1], kInvalidArgument)
      << op << ": parameter 'range' must be (min, max) with min < max, got " << r.size() << " value(s)"
      << (r.size() == 2 ? " with min >= max" : "");
  b.count = p.GetInt("bin_cnt");
  WEFT_CHECK(b.count >= 1, kInvalidArgument) << op << ": parameter 'bin_cnt' must be at least 1, got " << b.count;
  b.lo = r[0];
  b.hi = r[1];
  return b;
}

}  // namespace tensor

namespace {

bool BinsGiven(const Params& p) { return p.IsNone("bin_cnt"); }

[[maybe_unused]] const bool kRegistered = [] {
  WEFT_REGISTER_OP(op, "_histogram");
  op.set_compute_gpu(WEFT_GPU(cuda::HistogramGpu));
  op.describe("This operators implements the histogram function.\n\n"
              "Example::\n  x = [[0, 1], [2, 2], [3, 4]]\n  histo, bin_edges = histogram(data=x, bin_bounds=[], "
              "bin_cnt=5, range=(0,5))\n  histo = [1, 1, 2, 1, 1]\n  bin_edges = [0., 1., 2., 3., 4.]\n"
              "  histo, bin_edges = histogram(data=x, bin_bounds=[0., 2.1, 3.])\n  histo = [4, 1]")
      .add_input("data")
      .add_input("bins")
      .add_optional_param("bin_cnt", ParamType::kInt, "Number of bins for uniform case")
      .add_optional_param("range", ParamType::kFloatTuple,
                          "The lower and upper range of the bins. if not provided, range is simply (a.min(), "
                          "a.max()). values outside the range are ignored. the first element of the range must be "
                          "less than or equal to the second. range affects the automatic bin computation as well. "
                          "while bin width is computed to be optimal based on the actual data within range, the bin "
                          "count will fill the entire range including portions containing no data.")
      .set_num_outputs(2);
  op.list_input_names = [](const Params& p) {
    return BinsGiven(p) ? std::vector<std::string>{"data", "bins"} : std::vector<std::string>{"data"};
  };
  op.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      const std::string& name = p.op()->name;
      if (BinsGiven(p)) {
        const Shape& b = (*in)[1];
        if (!b.known()) return false;
        WEFT_CHECK(b.ndim() == 1 && b[0] >= 2, kShape)
            << name << ": input 'bins' must be 1-D with at least 2 edges, got shape " << b.ToString();
        AssignShape(out, 0, Shape{b[0] - 1}, name + ": output 0 (counts)");
        AssignShape(out, 1, b, name + ": output 1 (bin_edges)");
      } else {
        const tensor::UniformBins bins = tensor::HistogramBinsOf(p, (*in)[0]);
        AssignShape(out, 0, Shape{bins.count}, name + ": output 0 (counts)");
        AssignShape(out, 1, Shape{bins.count + 1}, name + ": output 1 (bin_edges)");
      }
      return (*in)[0].known();
    })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        const DType d = (*in)[0];
        if (BinsGiven(p) && d != DType::kUnknown && (*in)[1] != DType::kUnknown) {
          WEFT_CHECK((*in)[1] == d, kDType) << p.op()->name << ": input 'bins' must have the dtype of 'data' ("
                                            << DTypeName(d) << "), got " << DTypeName((*in)[1]);
        }
        AssignType(out, 0, DType::kInt64, p.op()->name + ": output 0 (counts)");
        if (d == DType::kUnknown) return false;
        AssignType(out, 1, d, p.op()->name + ": output 1 (bin_edges)");
        return !BinsGiven(p) || (*in)[1] != DType::kUnknown;
      })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>&, const std::vector<TensorView>& out) {
        const bool given = BinsGiven(p);
        const tensor::UniformBins bins = given ? tensor::UniformBins{} : tensor::HistogramBinsOf(p, in[0].shape);
        tensor_cpu::HistogramCPU(in[0], bins, given ? &in[1] : nullptr, out[0], out[1]);
      });
  return true;
}();

}  // namespace
}  // namespace weft
