#pragma once
// Benchmark matrices, generated on the device from counter-based hashes: the same matrix for a
// given seed on every backend and every run, with no host round trip. Columns inside a row are
// drawn one per stratum of the column range, so they are sorted, distinct and spread like
// random columns.

#include <kspmv/generate.hpp>
#include <kspmv/io.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <string>

namespace kspmv_bench {

using Matrix = kspmv::CsrMatrix<double, int, int>;
using Device = Matrix::device_type;
using ExecSpace = Device::execution_space;

KOKKOS_INLINE_FUNCTION uint64_t mix(uint64_t z) {  // splitmix64 finaliser
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
KOKKOS_INLINE_FUNCTION double unit(uint64_t h) { return double(h >> 11) * (1.0 / 9007199254740992.0); }  // [0,1)

// Row lengths of each synthetic family. Every functor gives the length of row i and its k-th
// column; the builder below does the scan and the fill.
enum class Family { uniform_random, power_law, banded, heavy_rows };

struct RowRule {
  Family family;
  int64_t rows, cols;
  uint64_t seed;
  int64_t param;  // uniform: mean length; power_law: cap; banded: half bandwidth; heavy: heavy row length
  int64_t heavy_every;

  KOKKOS_INLINE_FUNCTION int64_t length(int64_t i) const {
    const uint64_t h = mix(seed ^ mix(uint64_t(i)));
    switch (family) {
      case Family::uniform_random: return param / 2 + int64_t(h % uint64_t(param + 1));  // [p/2, 3p/2]
      case Family::power_law: {
        // Pareto(x_m = 2, shape 1.2): most rows short, a few very long, like AMG coarse levels
        // and web graphs. Capped so no row exceeds the column count.
        const double u = 1.0 - unit(h);
        const double len = 2.0 * ::pow(u, -1.0 / 1.2);
        return len > double(param) ? param : int64_t(len);
      }
      case Family::banded: {
        const int64_t lo = i - param < 0 ? 0 : i - param, hi = i + param >= cols ? cols - 1 : i + param;
        return hi - lo + 1;
      }
      case Family::heavy_rows: return (i % heavy_every == 0) ? param : 8;
    }
    return 0;
  }
  KOKKOS_INLINE_FUNCTION int64_t column(int64_t i, int64_t k, int64_t len) const {
    if (family == Family::banded) return (i - param < 0 ? 0 : i - param) + k;
    const int64_t stratum = cols / len;  // len <= cols
    const uint64_t h = mix(seed ^ mix(uint64_t(i) * 0x100000001b3ull + uint64_t(k)));
    return k * stratum + int64_t(h % uint64_t(stratum));
  }
};

inline Matrix build(const RowRule rule) {
  Kokkos::View<int*, Device> offsets("bench::row_offsets", rule.rows + 1);
  Kokkos::parallel_scan(
      "bench::generate[count]", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, rule.rows + 1),
      KOKKOS_LAMBDA(const int64_t i, int64_t& running, const bool final) {
        if (final) offsets(i) = int(running);
        if (i < rule.rows) running += rule.length(i);
      });
  int nnz = 0;
  Kokkos::deep_copy(nnz, Kokkos::subview(offsets, rule.rows));
  Kokkos::View<int*, Device> indices(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::col_indices"), nnz);
  Kokkos::View<double*, Device> values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::values"), nnz);
  Kokkos::parallel_for(
      "bench::generate[fill]", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, rule.rows),
      KOKKOS_LAMBDA(const int64_t i) {
        const int64_t len = offsets(i + 1) - offsets(i);
        for (int64_t k = 0; k < len; ++k) {
          indices(offsets(i) + k) = int(rule.column(i, k, len));
          values(offsets(i) + k) = 2.0 * unit(mix(rule.seed + uint64_t(offsets(i) + k))) - 1.0;
        }
      });
  return Matrix(int(rule.rows), int(rule.cols), offsets, indices, values);
}

// k copies of a host matrix along the diagonal: the row structure of a real matrix at a size
// that no longer fits in the cache.
inline kspmv::HostCsr replicate(const kspmv::HostCsr& a, int k) {
  kspmv::HostCsr r;
  r.num_rows = a.num_rows * k;
  r.num_cols = a.num_cols * k;
  const size_t nnz = a.col_indices.size();
  r.row_offsets.resize(size_t(r.num_rows) + 1);
  r.col_indices.resize(nnz * k);
  r.values.resize(nnz * k);
  r.row_offsets[0] = 0;
  for (int c = 0; c < k; ++c) {
    for (int64_t i = 0; i < a.num_rows; ++i) r.row_offsets[c * a.num_rows + i + 1] = int64_t(c * nnz) + a.row_offsets[i + 1];
    for (size_t p = 0; p < nnz; ++p) {
      r.col_indices[c * nnz + p] = a.col_indices[p] + int64_t(c) * a.num_cols;
      r.values[c * nnz + p] = a.values[p];
    }
  }
  return r;
}

}  // namespace kspmv_bench
