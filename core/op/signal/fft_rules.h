// The transforms of _contrib_fft and _contrib_ifft, shared by the CPU kernels
// (fft.cc) and GPU kernels (fft.cu). MXNet's layout: complex numbers are
// interleaved (re, im) along the last axis, so fft maps real (..., d) to
// complex (..., 2d) and ifft maps complex (..., 2d) to the real part (..., d).
// Neither is normalised (MXNet's ifft omits the 1/d): ifft(fft(x)) = d * x.
//
// Each output entry is a direct sum over the row (O(d^2) per row), in double
// with exact twiddle angles 2 pi (j k mod d) / d; an FFT library (pocketfft on
// CPU, cuFFT on GPU) would be the production path for long rows.
#pragma once
#include <cmath>
#include <cstdint>

#include "core/op/common/hd.h"

namespace weft {
namespace signal {

// Output entry i of fft over rows of d reals: (row, k, part).
template <typename T>
WEFT_HD inline T FftEntry(const T* x, int64_t d, int64_t i) {
  const int64_t row = i / (2 * d), k = (i % (2 * d)) / 2;
  const bool imag = i % 2 == 1;
  const T* r = x + row * d;
  const double w = 6.283185307179586476925286766559 / static_cast<double>(d);
  double s = 0;
  for (int64_t j = 0; j < d; ++j) {
    const double a = w * static_cast<double>((j * k) % d);
    s += static_cast<double>(r[j]) * (imag ? -std::sin(a) : std::cos(a));
  }
  return static_cast<T>(s);
}

// Output entry i of ifft (the real part of the unnormalised inverse DFT) over rows of d complex numbers.
template <typename T>
WEFT_HD inline T IfftEntry(const T* z, int64_t d, int64_t i) {
  const int64_t row = i / d, j = i % d;
  const T* r = z + row * 2 * d;
  const double w = 6.283185307179586476925286766559 / static_cast<double>(d);
  double s = 0;
  for (int64_t k = 0; k < d; ++k) {
    const double a = w * static_cast<double>((j * k) % d);
    s += static_cast<double>(r[2 * k]) * std::cos(a) - static_cast<double>(r[2 * k + 1]) * std::sin(a);
  }
  return static_cast<T>(s);
}

}  // namespace signal
}  // namespace weft
