// WEFT_HD marks a function that runs on the host and, in the CUDA build, on the
// device too (`__host__ __device__`). Numeric rules shared by a CPU kernel and
// its GPU twin are written once with it (e.g. core/op/elemwise/elemwise_rules.h).
#pragma once

#if defined(__CUDACC__)
#define WEFT_HD __host__ __device__
#else
#define WEFT_HD
#endif
