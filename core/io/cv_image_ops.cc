// _cvimdecode and _cvimread, with MXNet 1.9.1's NumPy-mode names
// _npi_cvimdecode and _npi_cvimread (core/opdef/np_op_names.cc):
// npx.image's OpenCV decode of an encoded buffer or of a file, as a uint8
// (H, W, C) array, C = 3 (RGB, or BGR without to_rgb) or 1 (flag = 0).
//
// Note [Decoding ops over the C++ decoders]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// MXNet registers these without a kernel a graph can run (its executor
// crashes binding one: checked in MXNet 1.9.1); they are imperative calls
// whose output size is the image's. Here they are ops with a data-dependent
// output shape (Note [Data-dependent output shapes] in
// core/opdef/dynamic_shape.h): the size comes from the header
// (io::PeekImageSize), checked against the pixel budget before anything is
// allocated (Note [Image pixel budget]: WEFT_MAX_IMAGE_PIXELS, default 2^28),
// then the C++ decoders (libjpeg-turbo and libpng, the pixels OpenCV gives:
// Note [Image decoders]) fill it. So a graph naming them loads, and binds are
// refused as MXNet's are. JPEG and PNG only: other formats OpenCV reads (BMP,
// TIFF, WebP) are refused with a message (weft.image decodes them in Python).
// _cvimread reads a regular file of at most kMaxImageFileBytes (a device or
// a FIFO would never end), once for the shape and once for the pixels; a
// file that changed size between is refused. No gradient (MXNet has none).
// The GPU kernel decodes on host copies, as the decoders are host code.
// They live in core/io, beside the decoders, the layer above the op families.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <sys/stat.h>

#include "core/base/error.h"
#include "core/io/image_budget.h"
#include "core/io/image_decode.h"
#include "core/op/common/host_run_gpu.h"
#include "core/opdef/default_infer.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace io {
namespace {

constexpr int64_t kMaxImageFileBytes = int64_t{1} << 31;

int Channels(const Params& p) {
  const int64_t flag = p.GetInt("flag");
  WEFT_CHECK(flag == 0 || flag == 1, kInvalidArgument) << p.op()->name << ": parameter 'flag' must be 0 (grey) or "
                                                       << "1 (colour), got " << flag;
  return flag == 1 ? 3 : 1;
}

std::vector<uint8_t> ReadImageFile(const Params& p) {
  const std::string& op = p.op()->name;
  const std::string& path = p.GetString("filename");
  struct stat st {};
  WEFT_CHECK(::stat(path.c_str(), &st) == 0, kIO) << op << ": cannot read '" << path << "' (no such file)";
  WEFT_CHECK(S_ISREG(st.st_mode), kIO) << op << ": '" << path << "' is not a regular file";
  WEFT_CHECK(st.st_size <= kMaxImageFileBytes, kIO) << op << ": '" << path << "' has " << st.st_size
      << " bytes, more than an image file may (" << kMaxImageFileBytes << ")";
  std::vector<uint8_t> bytes(static_cast<size_t>(st.st_size));
  std::FILE* f = std::fopen(path.c_str(), "rb");
  WEFT_CHECK(f != nullptr, kIO) << op << ": cannot open '" << path << "'";
  const size_t got = bytes.empty() ? 0 : std::fread(bytes.data(), 1, bytes.size(), f);
  const bool more = std::fgetc(f) != EOF;
  std::fclose(f);
  WEFT_CHECK(got == bytes.size() && !more, kIO) << op << ": '" << path << "' changed size while read";
  return bytes;
}

Shape ImageShape(const Params& p, const uint8_t* data, size_t size) {
  int h = 0, w = 0;
  PeekImageSize(data, size, MaxImagePixelsFromEnv(), p.op()->name, &h, &w);
  return Shape(std::vector<int64_t>{h, w, Channels(p)});
}

// OpenCV reads a PNG as grey through libpng's rgb_to_gray with coefficients 0.299 and 0.587
// in 15 bits, truncated (checked against MXNet 1.9.1's pixels); libpng's simplified API,
// under the C++ decoder, weighs in linear light instead. So a grey PNG is decoded as RGB and
// converted here, as OpenCV does (a grey file's pixels come back unchanged: the weights sum
// to 2^15). JPEG's grey is libjpeg's own in both.
void PngToGrey(Image* img) {
  const size_t pixels = static_cast<size_t>(img->height) * static_cast<size_t>(img->width);
  for (size_t i = 0; i < pixels; ++i) {
    const uint32_t r = img->pixels[3 * i], g = img->pixels[3 * i + 1], b = img->pixels[3 * i + 2];
    img->pixels[i] = static_cast<uint8_t>((9797 * r + 19234 * g + 3737 * b) >> 15);
  }
  img->channels = 1;
}

// Decodes into out[0], whose shape the header gave.
void DecodeInto(const Params& p, const uint8_t* data, size_t size, OpReq req, const TensorView& out) {
  const int c = Channels(p);
  const bool png_grey = c == 1 && DetectFormat(data, size) == ImageFormat::kPNG;
  Image img;
  DecodeImage(data, size, png_grey ? 3 : c, MaxImagePixelsFromEnv(), p.op()->name, &img);
  if (png_grey) PngToGrey(&img);
  WEFT_CHECK(out.shape.ndim() == 3 && out.shape[0] == img.height && out.shape[1] == img.width, kIO)
      << p.op()->name << ": the image decoded to " << img.height << "x" << img.width << ", its header said "
      << out.shape.ToString();
  if (req == OpReq::kNull) return;
  uint8_t* o = out.ptr<uint8_t>();
  const bool bgr = c == 3 && !p.GetBool("to_rgb");
  const int64_t pixels = static_cast<int64_t>(img.height) * img.width;
  for (int64_t i = 0; i < pixels; ++i) {
    for (int k = 0; k < c; ++k) {
      const uint8_t v = img.pixels[static_cast<size_t>(i * c + (bgr ? c - 1 - k : k))];
      o[i * c + k] = req == OpReq::kAddTo ? static_cast<uint8_t>(o[i * c + k] + v) : v;
    }
  }
}

void CheckBuffer(const Params& p, const TensorView& buf) {
  WEFT_CHECK(buf.dtype == DType::kUint8, kDType) << p.op()->name << ": input 'buf' must be uint8 (the encoded "
                                                 << "bytes), got " << DTypeName(buf.dtype);
}

void DecodeCpu(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
               const std::vector<TensorView>& out) {
  CheckBuffer(p, in[0]);
  DecodeInto(p, in[0].ptr<uint8_t>(), static_cast<size_t>(in[0].Size()), req[0], out[0]);
}

void ReadCpu(const OpContext&, const Params& p, const std::vector<TensorView>&, const std::vector<OpReq>& req,
             const std::vector<TensorView>& out) {
  const std::vector<uint8_t> bytes = ReadImageFile(p);
  DecodeInto(p, bytes.data(), bytes.size(), req[0], out[0]);
}

void DecodeGpu(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
               const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  cuda::RunOnHostCopies(DecodeCpu, ctx, p, in, req, out, in.size());
}

void ReadGpu(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
             const std::vector<TensorView>& out) {
  cuda::RunOnHostCopies(ReadCpu, ctx, p, in, req, out, in.size());
}

void AddDecodeParams(OpDef& op) {
  op.add_param("flag", ParamType::kInt, "1", "Convert decoded image to grayscale (0) or color (1).")
      .add_param("to_rgb", ParamType::kBool, "True",
                 "Whether to convert decoded image to mxnet's default RGB format (instead of opencv's default BGR).")
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        for (DType t : *in)
          WEFT_CHECK(t == DType::kUnknown || t == DType::kUint8, kDType)
              << p.op()->name << ": input 'buf' must be uint8 (the encoded bytes), got " << DTypeName(t);
        AssignType(out, 0, DType::kUint8, p.op()->name + ": output");
        return true;
      });
}

[[maybe_unused]] const bool kCvImageOpsRegistered = [] {
  WEFT_REGISTER_OP(decode, "_cvimdecode");
  decode.describe("Decode image with OpenCV. Note: return image in RGB by default, instead of OpenCV's default BGR. "
                  "A JPEG or PNG buffer to a uint8 (H, W, C) array.")
      .add_input("buf");
  AddDecodeParams(decode);
  decode
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>*) {
        Channels(p);
        const Shape& b = (*in)[0];
        WEFT_CHECK(!b.known() || b.ndim() == 1, kShape) << p.op()->name << ": input 'buf' must be 1-D (the "
                                                        << "encoded bytes), got shape " << b.ToString();
        return false;  // the image's size: Note [Decoding ops over the C++ decoders]
      })
      .set_dynamic_shape(DynamicShapeRule{{0}, [](const Params& p, const std::vector<Shape>&,
                                                  const std::vector<TensorView>& v) {
                                            CheckBuffer(p, v[0]);
                                            return std::vector<Shape>{
                                                ImageShape(p, v[0].ptr<uint8_t>(), static_cast<size_t>(v[0].Size()))};
                                          }})
      .set_compute_cpu(DecodeCpu)
      .set_compute_gpu(DecodeGpu);

  WEFT_REGISTER_OP(read, "_cvimread");
  read.describe("Read and decode image with OpenCV. Note: return image in RGB by default, instead of OpenCV's "
                "default BGR. A JPEG or PNG file to a uint8 (H, W, C) array.")
      .add_required_param("filename", ParamType::kString, "Name of the image file to be loaded.");
  AddDecodeParams(read);
  read.add_param("ctx", ParamType::kString, "cpu", "Device of the output (Weft's: an op without inputs is placed by "
                                                   "it; MXNet's _cvimread has none).")
      .set_infer_shape([](const Params& p, std::vector<Shape>*, std::vector<Shape>*) {
        Channels(p);
        return false;  // the image's size: Note [Decoding ops over the C++ decoders]
      })
      .set_dynamic_shape(DynamicShapeRule{{}, [](const Params& p, const std::vector<Shape>&,
                                                 const std::vector<TensorView>&) {
                                            const std::vector<uint8_t> bytes = ReadImageFile(p);
                                            return std::vector<Shape>{ImageShape(p, bytes.data(), bytes.size())};
                                          }})
      .set_compute_cpu(ReadCpu)
      .set_compute_gpu(ReadGpu);
  return true;
}();

}  // namespace
}  // namespace io
}  // namespace weft
