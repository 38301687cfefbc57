// im2col and col2im (MXNet 1.x) and _backward_im2col.
//
// im2col extracts the sliding blocks of an image (N, C, spatial...) (1 to 3
// spatial axes) into columns (N, C * prod(kernel), L), L the number of block
// positions; col2im sums columns back into an image of spatial size
// output_size (entries of overlapping blocks add up). Each is the adjoint of
// the other, so col2im's gradient is im2col of the head gradient and im2col's
// is col2im of it, computed by _backward_im2col(out_grad, data), which takes
// the image size from data. Parameters as MXNet's: kernel; stride, dilate
// (default 1) and pad (default 0) per spatial axis. CPU kernels here, GPU
// kernels in im2col.cu; both run im2col_rules.h.
#include <string>
#include <vector>

#include "core/base/checked_math.h"
#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/common/nnx_util.h"
#include "core/op/common/req_hd.h"
#include "core/op/spatial/im2col_gpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

// One value per spatial axis: the tuple, or `def` for each axis when empty.
std::vector<int64_t> PerAxis(const Params& p, const char* name, size_t nd, int64_t def, int64_t min) {
  const std::string& op = p.op()->name;
  std::vector<int64_t> v = p.GetTuple(name);
  if (v.empty()) v.assign(nd, def);
  WEFT_CHECK(v.size() == nd, kInvalidArgument) << op << ": parameter '" << name << "' must have " << nd
                                               << " entries (one per kernel axis), got " << v.size();
  for (int64_t x : v)
    WEFT_CHECK(x >= min, kInvalidArgument) << op << ": parameter '" << name << "' entries must be >= " << min
                                           << ", got " << x;
  return v;
}

size_t KernelDims(const Params& p) {
  const size_t nd = p.GetTuple("kernel").size();
  WEFT_CHECK(nd >= 1 && nd <= static_cast<size_t>(nnm::kMaxColDims), kInvalidArgument)
      << p.op()->name << ": parameter 'kernel' must have 1 to 3 entries ((w,), (h, w) or (d, h, w)), got " << nd;
  return nd;
}

}  // namespace

namespace nnm {

ColGeom ColGeomOf(const Params& p, const Shape& image) {
  const std::string& op = p.op()->name;
  const size_t nd = KernelDims(p);
  WEFT_CHECK(image.ndim() == static_cast<int>(nd) + 2, kShape)
      << op << ": the image must be (batch, channel) plus " << nd << " spatial axes (the kernel's), got "
      << image.ToString();
  const std::vector<int64_t> kernel = PerAxis(p, "kernel", nd, 1, 1), stride = PerAxis(p, "stride", nd, 1, 1),
                             dilate = PerAxis(p, "dilate", nd, 1, 1), pad = PerAxis(p, "pad", nd, 0, 0);
  ColGeom g;
  g.nd = static_cast<int>(nd);
  g.batch = image[0];
  g.channels = image[1];
  for (size_t d = 0; d < nd; ++d) {
    g.in[d] = image[static_cast<int>(d) + 2];
    g.kernel[d] = kernel[d];
    g.stride[d] = stride[d];
    g.dilate[d] = dilate[d];
    g.pad[d] = pad[d];
    // Checked (Note [Checked shape arithmetic]): kernel, dilate and pad come from attributes.
    const int64_t span = CheckedAdd(CheckedMul(dilate[d], kernel[d] - 1, "im2col: dilated kernel"), 1,
                                    "im2col: dilated kernel");
    const int64_t padded = CheckedAdd(g.in[d], CheckedMul(2, pad[d], "im2col: padding"), "im2col: padded size");
    WEFT_CHECK(padded >= span, kShape)
        << op << ": spatial axis " << d << " of size " << g.in[d] << " (padded " << padded
        << ") is smaller than the dilated kernel (" << span << ")";
    g.out[d] = (padded - span) / stride[d] + 1;
    // Checked: a zero-size batch may carry spatial dims whose product passes int64.
    g.K = CheckedMul(g.K, kernel[d], "im2col: kernel size");
    g.L = CheckedMul(g.L, g.out[d], "im2col: output positions per image");
    g.image = CheckedMul(g.image, g.in[d], "im2col: image size");
  }
  return g;
}

}  // namespace nnm

namespace {

Shape ColumnShape(const nnm::ColGeom& g) { return Shape{g.batch, g.channels * g.K, g.L}; }

void AddWindowParams(OpDef& op) {
  op.add_required_param("kernel", ParamType::kShape, "Sliding kernel size: (w,), (h, w) or (d, h, w).")
      .add_param("stride", ParamType::kShape, "()",
                 "The stride between adjacent sliding blocks in spatial dimension: (w,), (h, w) or (d, h, w). "
                 "Defaults to 1 for each dimension.")
      .add_param("dilate", ParamType::kShape, "()",
                 "The spacing between adjacent kernel points: (w,), (h, w) or (d, h, w). Defaults to 1 for each "
                 "dimension.")
      .add_param("pad", ParamType::kShape, "()",
                 "The zero-value padding size on both sides of spatial dimension: (w,), (h, w) or (d, h, w). "
                 "Defaults to no padding.");
}

// image -> columns
void Im2colCPU(const nnm::ColGeom& g, const TensorView& x, OpReq req, const TensorView& y, const std::string& op) {
  if (req == OpReq::kNull) return;
  WEFT_NNX_FLOAT_SWITCH(y.dtype, op, T, {
    const T* xp = x.ptr<T>();
    T* yp = y.ptr<T>();
    nnm::ForEachIndex(y.Size(), 2 * g.nd, [&](int64_t e) {
      nnm::Put(yp, e, req, static_cast<nnx_cpu::Acc<T>>(nnm::Im2colValue(e, g, xp)));
    });
  })
}

// columns -> image
void Col2imCPU(const nnm::ColGeom& g, const TensorView& col, OpReq req, const TensorView& y, const std::string& op) {
  if (req == OpReq::kNull) return;
  WEFT_NNX_FLOAT_SWITCH(y.dtype, op, T, {
    using A = nnx_cpu::Acc<T>;
    const T* cp = col.ptr<T>();
    T* yp = y.ptr<T>();
    nnm::ForEachIndex(y.Size(), 2 * g.nd * g.K, [&](int64_t e) { nnm::Put(yp, e, req, nnm::Col2imValue<T, A>(e, g, cp)); });
  })
}

// col2im's image: (N, C, output_size...) with C = columns.shape[1] / prod(kernel).
Shape Col2imImage(const Params& p, const Shape& cols) {
  const std::string& op = p.op()->name;
  const size_t nd = KernelDims(p);
  const std::vector<int64_t>& size = p.GetTuple("output_size");
  WEFT_CHECK(size.size() == nd, kInvalidArgument) << op << ": parameter 'output_size' must have " << nd
                                                  << " entries (one per kernel axis), got " << size.size();
  WEFT_CHECK(cols.ndim() == 3, kShape) << op << ": input 'data' must be (batch, channel * prod(kernel), blocks), got "
                                       << cols.ToString();
  int64_t K = 1;
  for (int64_t k : PerAxis(p, "kernel", nd, 1, 1)) K = CheckedMul(K, k, "col2im: kernel size");
  WEFT_CHECK(cols[1] % K == 0, kShape) << op << ": input 'data' axis 1 (" << cols[1]
                                       << ") must be a multiple of prod(kernel) = " << K;
  Shape img{cols[0], cols[1] / K};
  for (int64_t s : size) img.push_back(s);
  return img;
}

[[maybe_unused]] const bool kIm2colRegistered = [] {
  WEFT_REGISTER_OP(im, "im2col").set_compute_gpu(WEFT_GPU(cuda::Im2colGpu));
  im.describe("Extract sliding blocks from input array.\n\n"
              "This operator is used in vanilla convolution implementation to transform the sliding blocks on "
              "image to column matrix, then the convolution operation can be computed by matrix multiplication "
              "between column and convolution weight. Due to the close relation between im2col and convolution, "
              "the concept of **kernel**, **stride**, **dilate** and **pad** in this operator are inherited from "
              "convolution operator.\n\n"
              "Given the input data of shape :math:`(N, C, *)`, where :math:`N` is the batch size, :math:`C` is "
              "the channel size, and :math:`*` is the arbitrary spatial dimension, the output column array is "
              "always with shape :math:`(N, C \\times \\prod(\\text{kernel}), W)`, where :math:`C \\times "
              "\\prod(\\text{kernel})` is the block size, and :math:`W` is the block number which is the spatial "
              "size of the convolution output with same input parameters. Only 1-D, 2-D and 3-D of spatial "
              "dimension is supported in this operator.")
      .add_input("data");
  AddWindowParams(im);
  im.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        AssignShape(out, 0, ColumnShape(nnm::ColGeomOf(p, (*in)[0])), "im2col: output");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        Im2colCPU(nnm::ColGeomOf(p, in[0].shape), in[0], req[0], out[0], "im2col");
      })
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ViaBackwardOp(n, "_backward_im2col", {og[0], n->inputs[0]});
      });

  WEFT_REGISTER_OP(bwd, "_backward_im2col").set_compute_gpu(WEFT_GPU(cuda::BackwardIm2colGpu));
  bwd.describe("Gradient of im2col from (out_grad, data): col2im of out_grad into data's shape.")
      .add_input("out_grad")
      .add_input("data");
  AddWindowParams(bwd);
  bwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[1].known()) return false;
        AssignShape(in, 0, ColumnShape(nnm::ColGeomOf(p, (*in)[1])), "_backward_im2col: input 'out_grad'");
        AssignShape(out, 0, (*in)[1], "_backward_im2col: output");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        Col2imCPU(nnm::ColGeomOf(p, in[1].shape), in[0], req[0], out[0], "_backward_im2col");
      });
  bwd.list_output_names = [](const Params&) { return std::vector<std::string>{"data_grad"}; };

  WEFT_REGISTER_OP(col, "col2im").set_compute_gpu(WEFT_GPU(cuda::Col2imGpu));
  col.describe("Combining the output column matrix of im2col back to image array.\n\n"
               "Like :class:`~mxnet.ndarray.im2col`, this operator is also used in the vanilla convolution "
               "implementation. Despite the name, col2im is not the reverse operation of im2col. Since there may "
               "be overlaps between neighbouring sliding blocks, the column elements cannot be directly put back "
               "into image. Instead, they are accumulated (i.e., summed) in the input image just like the "
               "gradient computation, so col2im is the gradient of im2col and vice versa.\n\n"
               "Using the notation in im2col, given an input column array of shape :math:`(N, C \\times "
               "\\prod(\\text{kernel}), W)`, this operator accumulates the column elements into output array of "
               "shape :math:`(N, C, \\text{output_size}[0], \\text{output_size}[1], \\dots)`. Only 1-D, 2-D and "
               "3-D of spatial dimension is supported in this operator.")
      .add_input("data")
      .add_required_param("output_size", ParamType::kShape,
                          "The spatial dimension of image array: (w,), (h, w) or (d, h, w).");
  AddWindowParams(col);
  col.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        const Shape img = Col2imImage(p, (*in)[0]);
        const nnm::ColGeom g = nnm::ColGeomOf(p, img);
        WEFT_CHECK((*in)[0][2] == g.L, kShape)
            << "col2im: input 'data' has " << (*in)[0][2] << " blocks (axis 2), but output_size with this kernel, "
            << "stride, dilate and pad gives " << g.L;
        AssignShape(out, 0, img, "col2im: output");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        Col2imCPU(nnm::ColGeomOf(p, out[0].shape), in[0], req[0], out[0], "col2im");
      })
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        GradBuilder b(n);
        return std::vector<NodeEntry>{b("im2col", {og[0]}, b.Attrs("im2col"))};
      });
  return true;
}();

}  // namespace
}  // namespace weft
