// Self-test of `gpusort-bench topk`'s shapes, keys, reference and result check (CTest
// bench_topk_selftest): the shapes must hold what --help says, the reference must equal the tests'
// own over whole rows, and the check must accept a right top-k (gpusort's and CUB's contracts) and
// catch each kind of wrong one.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>

#include "bench_common.hpp"
#include "support/topk_reference_positions.hpp"
#include "topk_shapes.hpp"

using namespace bench;

namespace {

int failures = 0;
void expect(bool ok, const std::string& what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what.c_str());
    ++failures;
  }
}

void check_shapes() {
  auto s = parse_topk_shape("small");
  expect(s && s->rows == 3 && s->length == 5000 && s->ks == std::vector<std::uint64_t>{50} && s->name() == "small",
         "small is 3x5000, k 50");
  s = parse_topk_shape("1d:28");
  expect(s && s->rows == 1 && s->length == (1u << 28) && s->ks == std::vector<std::uint64_t>{10, 1000, 100000} &&
             s->name() == "1d:28",
         "1d:28 is 2^28 keys, k 10/1000/100000");
  s = parse_topk_shape("64x128256");
  expect(s && s->ks == std::vector<std::uint64_t>{50, 1024} && s->name() == "64x128256", "64x128256: k 50/1024");
  s = parse_topk_shape("4096x32768:7/32768");
  expect(s && s->rows == 4096 && s->ks == std::vector<std::uint64_t>{7, 32768}, "RxL:K/K");
  for (const char* bad : {"3x0", "0x5", "small:0", "small:5001", "1d:0", "64x128256:", "1d:10:2000", "x", "1d:", ""})
    expect(!parse_topk_shape(bad), std::string("'") + bad + "' refused");
  const auto d = default_topk_shapes();
  std::vector<std::string> names;
  for (const auto& t : d) names.push_back(t.name());
  expect(names == std::vector<std::string>{"64x128256", "256x131072", "4096x32768", "16384x1024", "1d:28", "1d:24"},
         "the default shapes are issue 53's and 1d:24");
}

void check_keys() {
  const std::vector<float> u = make_topk_keys(1 << 16, "uniform", 3);
  bool grid = true;
  for (float f : u) grid = grid && f >= -1.0f && f < 1.0f && std::ldexp(f, 23) == std::floor(std::ldexp(f, 23));
  expect(grid, "uniform keys lie on the 2^-23 grid of [-1, 1)");
  std::vector<float> sorted_u = u;
  std::sort(sorted_u.begin(), sorted_u.end());
  expect(std::adjacent_find(sorted_u.begin(), sorted_u.end()) != sorted_u.end() || u.size() < 5000,
         "uniform keys repeat");
  const std::vector<float> b = make_topk_keys(1 << 16, "bits", 3);
  expect(std::all_of(b.begin(), b.end(), [](float f) { return std::isfinite(f); }), "bits keys are finite");
  expect(std::any_of(b.begin(), b.end(), [](float f) { return f > 1e30f; }) &&
             std::any_of(b.begin(), b.end(), [](float f) { return f < -1e30f; }),
         "bits keys span the range");
  expect(make_topk_keys(1000, "normal", 9) == make_topk_keys(1000, "normal", 9), "keys are deterministic in the seed");
}

// The reference over candidates equals the tests' reference over whole rows.
void check_reference() {
  for (const char* dist : {"normal", "uniform", "bits"}) {
    const std::uint64_t rows = 5, length = 20000;
    std::vector<float> keys = make_topk_keys(rows * length, dist, 11);
    keys[3] = -0.0f, keys[4] = 0.0f, keys[5] = 0.0f;  // equal keys of two bit patterns
    for (std::uint64_t k : std::vector<std::uint64_t>{1, 2, 50, 1024, length}) {
      const auto got = topk_reference_rows(keys, rows, k);
      bool same = true;
      for (std::uint64_t r = 0; r < rows; ++r) {
        const auto want = gpusort::test::topk_reference(keys, length, r, k, true);
        same = same && std::equal(want.begin(), want.end(), got.begin() + std::ptrdiff_t(r * k));
      }
      expect(same, std::string("reference rows ") + dist + " k " + std::to_string(k));
    }
  }
  // All equal: the first k positions.
  const std::vector<float> flat(1000, 1.5f);
  const auto p = topk_reference_rows(flat, 1, 10);
  std::vector<std::uint64_t> first(10);
  std::iota(first.begin(), first.end(), 0);
  expect(p == first, "all-equal row: the first k positions");
}

template <class I>
void check_results() {
  const std::string w = "i" + std::to_string(8 * sizeof(I)) + ": ";
  const std::uint64_t rows = 3, length = 4000, k = 40;
  std::vector<float> keys = make_topk_keys(rows * length, "uniform", 5);
  const auto ref = topk_reference_rows(keys, rows, k);
  // Row 1: the reference's last key has an equal one at a later position, which CUB may give instead.
  const std::uint64_t tied_ref = ref[1 * k + k - 1];
  std::uint64_t tie = length;
  for (std::uint64_t i = tied_ref + 1; i < length; ++i)
    if (keys[length + i] == keys[length + tied_ref]) tie = std::min(tie, i);
  if (tie == length) {  // make one
    for (std::uint64_t i = length - 1; i > tied_ref; --i)
      if (std::find(ref.begin() + k, ref.begin() + 2 * k, i) == ref.begin() + 2 * k) {
        tie = i;
        break;
      }
    keys[length + tie] = keys[length + tied_ref];
  }
  const auto reference = topk_reference_rows(keys, rows, k);
  expect(reference == ref, w + "the made tie does not change the reference");

  std::vector<float> values(rows * k);
  std::vector<I> idx(rows * k);
  for (std::uint64_t r = 0; r < rows; ++r)
    for (std::uint64_t j = 0; j < k; ++j) {
      idx[r * k + j] = static_cast<I>(reference[r * k + j]);
      values[r * k + j] = keys[r * length + reference[r * k + j]];
    }
  auto check = [&](const std::vector<float>& v, const std::vector<I>* ix, bool exact, bool sorted) {
    return check_topk(keys, rows, reference, k, k, v, ix ? ix->data() : nullptr, ix ? sizeof(I) : 0, exact, sorted);
  };
  expect(check(values, &idx, true, true).empty(), w + "the reference passes, sorted");
  expect(check(values, nullptr, true, true).empty(), w + "the reference's keys pass, sorted");
  expect(check(values, &idx, false, false).empty(), w + "the reference passes as CUB's");

  // Reversed within each row: right unsorted, wrong sorted.
  std::vector<float> rv = values;
  std::vector<I> ri = idx;
  for (std::uint64_t r = 0; r < rows; ++r) {
    std::reverse(rv.begin() + std::ptrdiff_t(r * k), rv.begin() + std::ptrdiff_t((r + 1) * k));
    std::reverse(ri.begin() + std::ptrdiff_t(r * k), ri.begin() + std::ptrdiff_t((r + 1) * k));
  }
  expect(check(rv, &ri, true, false).empty(), w + "a permuted row passes unsorted");
  expect(check(rv, nullptr, true, false).empty(), w + "permuted keys pass unsorted");
  expect(check(rv, &ri, false, false).empty(), w + "a permuted row passes as CUB's");
  expect(!check(rv, &ri, true, true).empty(), w + "a permuted row fails sorted");
  expect(!check(rv, nullptr, true, true).empty(), w + "permuted keys fail sorted");

  // The later of two equal keys: CUB's contract allows it, gpusort's does not.
  std::vector<I> ti = idx;
  ti[1 * k + k - 1] = static_cast<I>(tie);
  expect(check(values, &ti, false, false).empty(), w + "an equal key at a later position passes as CUB's");
  expect(!check(values, &ti, true, true).empty(), w + "an equal key at a later position fails sorted");
  expect(!check(values, &ti, true, false).empty(), w + "an equal key at a later position fails unsorted");

  // A key that is not among the k best (the row's k+1-th or worse), with its own index.
  const auto more = topk_reference_rows(keys, rows, k + 20);
  std::vector<float> bv = values;
  std::vector<I> bi = idx;
  std::uint64_t worse = more[2 * (k + 20) + k + 19];
  bi[2 * k + 3] = static_cast<I>(worse);
  bv[2 * k + 3] = keys[2 * length + worse];
  expect(!check(bv, &bi, false, false).empty(), w + "a key outside the k best fails as CUB's");
  expect(!check(bv, nullptr, false, false).empty(), w + "keys alone: one outside the k best fails as CUB's");

  // An index that names another key; an index twice; an index past the row.
  std::vector<I> xi = idx;
  xi[0] = static_cast<I>(reference[1]);
  expect(!check(values, &xi, false, false).empty(), w + "an index naming another key fails");
  std::vector<float> dv = values;
  std::vector<I> di = idx;
  di[1] = di[0];
  dv[1] = dv[0];
  expect(!check(dv, &di, false, false).empty(), w + "an index given twice fails");
  std::vector<I> pi = idx;
  pi[5] = static_cast<I>(length);
  expect(!check(values, &pi, false, false).empty(), w + "an index past the row fails");
  // Too few values.
  std::vector<float> shorter(values.begin(), values.end() - 1);
  expect(!check(shorter, nullptr, false, false).empty(), w + "too few values fail");
}

// -0 and +0: equal keys to CUB's contract, other bits to gpusort's.
void check_signed_zero() {
  std::vector<float> keys = {-1.0f, 0.0f, -0.0f, -2.0f};
  const auto ref = topk_reference_rows(keys, 1, 2);  // -1 at 0 and +0 at 1
  expect(ref == std::vector<std::uint64_t>{1, 2}, "+0 and -0 tie, the lower position first");
  const std::vector<float> swapped = {-0.0f, 0.0f};
  expect(!check_topk(keys, 1, ref, 2, 2, swapped, nullptr, 0, true, true).empty(), "-0 for +0 fails sorted keys");
  expect(check_topk(keys, 1, ref, 2, 2, swapped, nullptr, 0, false, false).empty(), "-0 for +0 passes as CUB's");
}

}  // namespace

int main() {
  check_shapes();
  check_keys();
  check_reference();
  check_results<std::int32_t>();
  check_results<std::int64_t>();
  check_signed_zero();
  if (failures) {
    std::printf("%d failures\n", failures);
    return 1;
  }
  std::printf("bench topk self-test: all checks passed\n");
  return 0;
}
