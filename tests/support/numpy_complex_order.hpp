#pragma once
// numpy's order of complex numbers written out with plain comparisons of the parts, the reference
// the complex key tests (c64 and c128) check the library's key_less and sorts against.
#include <cmath>
#include <complex>

namespace gpusort::test {

// numpy's complex order (numpy.sort's notes): [R + Rj, R + nanj, nan + Rj, nan + nanj], lexicographic
// by the parts that are numbers.
template <class F>
bool numpy_less(std::complex<F> a, std::complex<F> b) {
  const int ca = std::isnan(a.imag()) + 2 * std::isnan(a.real()), cb = std::isnan(b.imag()) + 2 * std::isnan(b.real());
  if (ca != cb) return ca < cb;
  switch (ca) {
    case 0: return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
    case 1: return a.real() < b.real();
    case 2: return a.imag() < b.imag();
    default: return false;
  }
}

}  // namespace gpusort::test
