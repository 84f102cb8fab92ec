#pragma once
/// \file generate.hpp
/// Test and benchmark matrices built directly on the device.

#include "csr.hpp"

#include <cstdint>
#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

namespace kspmv {
namespace impl {

// Row r of the grid operator is grid point (i, j, k), r = i + nx*(j + ny*k). Its neighbours
// are the points (i+di, j+dj, k+dk) inside the grid with (di, dj, dk) in the stencil: the 6
// face neighbours for 7 points, the whole 3x3x3 block for 27. Walking dk, dj, di in increasing
// order yields sorted column indices.
template <class Ordinal>
struct Grid3d {
  Ordinal nx, ny, nz;
  int points;
  KOKKOS_INLINE_FUNCTION bool in_stencil(int di, int dj, int dk) const {
    return points == 27 || (di * di + dj * dj + dk * dk) <= 1;
  }
  template <class Visit>
  KOKKOS_INLINE_FUNCTION void for_each_neighbour(int64_t r, Visit&& visit) const {
    const int64_t i = r % nx, j = (r / nx) % ny, k = r / (int64_t(nx) * ny);
    for (int dk = -1; dk <= 1; ++dk)
      for (int dj = -1; dj <= 1; ++dj)
        for (int di = -1; di <= 1; ++di) {
          if (!in_stencil(di, dj, dk)) continue;
          const int64_t ii = i + di, jj = j + dj, kk = k + dk;
          if (ii < 0 || ii >= nx || jj < 0 || jj >= ny || kk < 0 || kk >= nz) continue;
          visit(ii + int64_t(nx) * (jj + int64_t(ny) * kk), di == 0 && dj == 0 && dk == 0);
        }
  }
};

}  // namespace impl

namespace impl {

// Rows [row_begin, row_end) of the nx x ny x nz grid operator (global column numbers), built on
// the device; the caller has checked the sizes (poisson_3d below, or the distributed generator).
template <class Scalar, class Ordinal, class Offset, class Device>
CsrMatrix<Scalar, Ordinal, Offset, Device> poisson_3d_rows(const Grid3d<Ordinal>& grid, int64_t num_cols,
                                                           int64_t row_begin, int64_t row_end) {
  using execution_space = typename Device::execution_space;
  const int64_t m = row_end - row_begin;
  const Scalar diagonal = Scalar(grid.points - 1);
  Kokkos::View<Offset*, Device> offsets("kspmv::poisson_3d::row_offsets", m + 1);
  Kokkos::parallel_scan(
      "kspmv::poisson_3d[count]", Kokkos::RangePolicy<execution_space, Kokkos::IndexType<int64_t>>(0, m + 1),
      KOKKOS_LAMBDA(const int64_t r, Offset& running, const bool final) {
        if (final) offsets(r) = running;
        if (r < m) {
          Offset count = 0;
          grid.for_each_neighbour(row_begin + r, [&](int64_t, bool) { ++count; });
          running += count;
        }
      });
  Offset nnz = 0;
  Kokkos::deep_copy(nnz, Kokkos::subview(offsets, m));
  Kokkos::View<Ordinal*, Device> indices(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::poisson_3d::col_indices"), nnz);
  Kokkos::View<Scalar*, Device> values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::poisson_3d::values"), nnz);
  Kokkos::parallel_for(
      "kspmv::poisson_3d[fill]", Kokkos::RangePolicy<execution_space, Kokkos::IndexType<int64_t>>(0, m),
      KOKKOS_LAMBDA(const int64_t r) {
        Offset k = offsets(r);
        grid.for_each_neighbour(row_begin + r, [&](int64_t col, bool is_diagonal) {
          indices(k) = static_cast<Ordinal>(col);
          values(k) = is_diagonal ? diagonal : Scalar(-1);
          ++k;
        });
      });
  return CsrMatrix<Scalar, Ordinal, Offset, Device>(static_cast<Ordinal>(m), static_cast<Ordinal>(num_cols), offsets,
                                                    indices, values);
}

// Throws std::invalid_argument for point counts other than 7 and 27 or negative sizes.
template <class Ordinal>
void check_poisson_arguments(const char* who, Ordinal nx, Ordinal ny, Ordinal nz, int points) {
  if (points != 7 && points != 27) {
    throw std::invalid_argument(std::string(who) + ": points must be 7 or 27, not " + std::to_string(points));
  }
  if (nx < 0 || ny < 0 || nz < 0) {
    throw std::invalid_argument(std::string(who) + ": negative grid size " + std::to_string(nx) + " x " +
                                std::to_string(ny) + " x " + std::to_string(nz));
  }
}

// The grid's rows and entries, counted in double (exact up to 2^53, beyond any matrix that can
// be allocated): int64_t products and the Ordinal and Offset casts would wrap silently.
template <class Ordinal>
double poisson_rows(Ordinal nx, Ordinal ny, Ordinal nz) {
  return double(nx) * double(ny) * double(nz);
}
template <class Ordinal>
double poisson_entries(Ordinal nx, Ordinal ny, Ordinal nz, int points) {
  const double rows = poisson_rows(nx, ny, nz);
  return rows == 0 ? 0.0
         : points == 7
             ? rows + 2 * (double(nx - 1) * ny * nz + double(nx) * (ny - 1) * nz + double(nx) * ny * (nz - 1))
             : double(3 * int64_t(nx) - 2) * double(3 * int64_t(ny) - 2) * double(3 * int64_t(nz) - 2);
}

// Throws std::overflow_error "<who>: a nx x ny x nz grid has <count> <what>, more than the <type>
// type holds (<max>)" if count > max.
template <class Ordinal>
void check_poisson_count(const char* who, Ordinal nx, Ordinal ny, Ordinal nz, const char* what, double count,
                         double max, const char* type) {
  if (count > max) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(0) << who << ": a " << nx << " x " << ny << " x " << nz << " grid has "
      << count << " " << what << ", more than the " << type << " type holds (" << max << ")";
    throw std::overflow_error(s.str());
  }
}

}  // namespace impl

/// The 3D Poisson operator on an nx x ny x nz grid with Dirichlet boundaries, built on the
/// device: the 7-point stencil (diagonal 6, face neighbours -1) or the 27-point one
/// (diagonal 26, all 26 neighbours -1). Rows are grid points in x-fastest order; columns are
/// sorted in each row. Throws std::invalid_argument for other point counts or negative sizes,
/// and std::overflow_error, before allocating, if nx*ny*nz rows do not fit in Ordinal or the
/// stencil's entries in Offset.
template <class Scalar, class Ordinal = int, class Offset = Ordinal,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
CsrMatrix<Scalar, Ordinal, Offset, Device> poisson_3d(Ordinal nx, Ordinal ny, Ordinal nz, int points) {
  const char* who = "kspmv::poisson_3d";
  impl::check_poisson_arguments(who, nx, ny, nz, points);
  impl::check_poisson_count(who, nx, ny, nz, "rows", impl::poisson_rows(nx, ny, nz),
                            double(std::numeric_limits<Ordinal>::max()), "Ordinal");
  impl::check_poisson_count(who, nx, ny, nz, "entries", impl::poisson_entries(nx, ny, nz, points),
                            double(std::numeric_limits<Offset>::max()), "Offset");
  const int64_t m = int64_t(nx) * ny * nz;
  return impl::poisson_3d_rows<Scalar, Ordinal, Offset, Device>(impl::Grid3d<Ordinal>{nx, ny, nz, points}, m, 0, m);
}

}  // namespace kspmv
