#pragma once
// Device-side building blocks of the format conversions: row lengths, a maximum, and offsets
// from counts. Only sizes (a maximum, a total) come back to the host, to allocate the result.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace kspmv {
namespace impl {

template <class Csr>
Kokkos::View<typename Csr::ordinal_type*, typename Csr::device_type> row_lengths(const Csr& A) {
  using execution_space = typename Csr::execution_space;
  Kokkos::View<typename Csr::ordinal_type*, typename Csr::device_type> lengths(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::convert::row_lengths"), A.num_rows());
  auto offsets = A.row_offsets;
  Kokkos::parallel_for(
      "kspmv::convert[row_lengths]", Kokkos::RangePolicy<execution_space, Kokkos::IndexType<int64_t>>(0, A.num_rows()),
      KOKKOS_LAMBDA(const int64_t i) { lengths(i) = offsets(i + 1) - offsets(i); });
  return lengths;
}

template <class ExecSpace, class View>
int64_t max_entry(const View& v) {
  int64_t result = 0;
  Kokkos::parallel_reduce(
      "kspmv::convert[max]", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, v.extent(0)),
      KOKKOS_LAMBDA(const int64_t i, int64_t& m) { m = int64_t(v(i)) > m ? int64_t(v(i)) : m; },
      Kokkos::Max<int64_t>(result));
  return result;
}

[[noreturn]] inline void refuse(const char* format, const std::string& why) {
  throw std::invalid_argument(std::string("kspmv::convert<") + format + ">: " + why);
}

template <class ExecSpace, class CountView>
int64_t total_count(const CountView& counts) {
  int64_t total = 0;
  Kokkos::parallel_reduce(
      "kspmv::convert[total]", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, counts.extent(0)),
      KOKKOS_LAMBDA(const int64_t i, int64_t& sum) { sum += int64_t(counts(i)); }, total);
  return total;
}

// offsets[i] = sum of counts[0..i), offsets has counts.extent(0) + 1 entries; returns the total.
// The total is checked against the offset type first: a wrapped offset would be a wrong matrix.
template <class ExecSpace, class OffsetView, class CountView>
int64_t exclusive_scan(const OffsetView& offsets, const CountView& counts, const char* format = "matrix") {
  using offset_type = typename OffsetView::non_const_value_type;
  const int64_t n = counts.extent(0);
  const int64_t total = total_count<ExecSpace>(counts);
  if (static_cast<unsigned long long>(total) > static_cast<unsigned long long>(std::numeric_limits<offset_type>::max())) {
    refuse(format, std::to_string(total) + " stored entries do not fit in the offset type");
  }
  Kokkos::parallel_scan(
      "kspmv::convert[scan]", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, n + 1),
      KOKKOS_LAMBDA(const int64_t i, int64_t& running, const bool final) {
        if (final) offsets(i) = offset_type(running);
        if (i < n) running += int64_t(counts(i));
      });
  return total;
}


}  // namespace impl
}  // namespace kspmv
