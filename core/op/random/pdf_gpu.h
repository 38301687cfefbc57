// The GPU kernels of the _random_pdf_<d> ops and their backward ops
// (core/op/random/pdf.cu), attached by core/op/random/pdf.cc with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"
#include "core/op/random/pdf_rules.h"

namespace weft {
namespace cuda {

FCompute PdfGpu(pdf::Pdf d);          // _random_pdf_<d>
FCompute PdfBackwardGpu(pdf::Pdf d);  // _backward_pdf_<d>

}  // namespace cuda
}  // namespace weft
