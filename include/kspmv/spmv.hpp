#pragma once
/// \file spmv.hpp
/// The public entry point, y = alpha*op(A)*x + beta*y (op(A) = A, or A^T with mode "T"; x and y
/// one vector each, or several as the columns of rank-2 Views), for every matrix type: argument
/// checks, quick returns, then dispatch to a kernel of A's format.

#include <Kokkos_Core.hpp>

#include "blocked_ell.hpp"
#include "coo.hpp"
#include "csr.hpp"
#include "csr_balanced.hpp"
#include "csr16.hpp"
#include "csr_uniform.hpp"
#include "csr_coded.hpp"
#include "dia.hpp"
#include "ell.hpp"
#include "hyb.hpp"
#include "impl/blocked_ell.hpp"
#include "impl/conjugate.hpp"
#include "impl/convert_transpose.hpp"
#include "impl/coo.hpp"
#include "impl/csr_analysis.hpp"
#include "impl/csr_balanced.hpp"
#include "impl/csr16.hpp"
#include "impl/csr_compressed_values.hpp"
#include "impl/csr_host_rows.hpp"
#include "impl/csr_multivector.hpp"
#include "impl/csr_scalar.hpp"
#include "impl/csr_transpose.hpp"
#include "impl/csr_transposed.hpp"
#include "impl/csr_vector.hpp"
#include "impl/dia.hpp"
#include "impl/ell.hpp"
#include "impl/launch.hpp"
#include "impl/raw.hpp"
#include "impl/scale.hpp"
#include "spmv_options.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kspmv {
namespace impl {

// The scalar of x and y, which alpha, beta and the sums take: the matrix's, or in mixed
// precision the wider one (double with float values, complex<double> with complex<float>).
template <class YView>
using vector_scalar_t = typename YView::non_const_value_type;

// Whether vectors of VectorScalar may go with a matrix of Scalar: the same type, or mixed
// precision, float parts in A and double in x and y (real with real, complex with complex).
template <class Scalar, class VectorScalar>
constexpr bool vector_scalar_fits() {
  return std::is_same<Scalar, VectorScalar>::value ||
         (is_complex<Scalar>::value == is_complex<VectorScalar>::value &&
          std::is_same<typename is_complex<Scalar>::real_type, float>::value &&
          std::is_same<typename is_complex<VectorScalar>::real_type, double>::value);
}

// alpha and beta of the public overloads: y's scalar where y is a View (the matrix's otherwise,
// for the static_asserts of spmv_checked to explain); out of template argument deduction, so
// that spmv(1, A, x, 0, y) takes int literals.
template <class Matrix, class YView, class = void>
struct spmv_scalar {
  using type = typename Matrix::value_type;
};
template <class Matrix, class YView>
struct spmv_scalar<Matrix, YView, std::enable_if_t<Kokkos::is_view<YView>::value>> {
  using type = typename YView::non_const_value_type;
};

/// op(A) in y = alpha*op(A)*x + beta*y: A ("N"), A^T ("T"), conj(A) ("C") or A^H ("H"). For
/// real scalars "C" is "N" and "H" is "T".
enum class Operation { none, transpose, conjugate, conjugate_transpose };

inline Operation parse_mode(const char* mode) {
  if (mode != nullptr && mode[0] != '\0' && mode[1] == '\0') {
    switch (mode[0]) {
      case 'N': case 'n': return Operation::none;
      case 'T': case 't': return Operation::transpose;
      case 'C': case 'c': return Operation::conjugate;
      case 'H': case 'h': return Operation::conjugate_transpose;
      default: break;
    }
  }
  throw std::invalid_argument(std::string("kspmv::spmv: mode \"") + (mode ? mode : "(null)") +
                              "\" is not one of \"N\", \"T\", \"C\", \"H\"");
}

template <class Matrix, class XView, class YView>
void check_dimensions(const Matrix& A, const XView& x, const YView& y, Operation op = Operation::none) {
  const auto m = static_cast<long long>(A.num_rows());
  const auto n = static_cast<long long>(A.num_cols());
  const auto nx = static_cast<long long>(x.extent(0));
  const auto ny = static_cast<long long>(y.extent(0));
  const bool t = op == Operation::transpose || op == Operation::conjugate_transpose;
  if (nx != (t ? m : n) || ny != (t ? n : m)) {
    std::ostringstream s;
    const char* unit = XView::rank == 2 ? " rows" : " entries";  // rank 2: several vectors
    s << "kspmv::spmv: dimension mismatch" << (t ? " in mode T" : "") << ": A is " << m << " x " << n << ", x has " << nx
      << unit << " (needs " << (t ? m : n) << "), y has " << ny << unit << " (needs " << (t ? n : m) << ")";
    throw std::invalid_argument(s.str());
  }
}

inline void check_options(const SpmvOptions& o) {
  if (o.team_size < 0 || o.lanes_per_row < 0 || o.rows_per_thread < 0 || o.resident_blocks < 0) {
    throw std::invalid_argument("kspmv::spmv: negative tunable in SpmvOptions (team_size " + std::to_string(o.team_size) +
                                ", lanes_per_row " + std::to_string(o.lanes_per_row) + ", rows_per_thread " +
                                std::to_string(o.rows_per_thread) + ", resident_blocks " +
                                std::to_string(o.resident_blocks) + "); 0 means automatic");
  }
}

[[noreturn]] inline void unsupported_algorithm(Algorithm a, const char* format) {
  throw std::invalid_argument(std::string("kspmv::spmv: algorithm ") + to_string(a) + " does not apply to a " +
                              format + " matrix");
}

template <class ExecSpace>
void check_vector_shape(const CsrVectorShape& shape) {
  const int max_lanes = Kokkos::TeamPolicy<ExecSpace>::vector_length_max();
  if (!is_power_of_two(shape.lanes_per_row) || shape.lanes_per_row > max_lanes) {
    throw std::invalid_argument("kspmv::spmv: lanes_per_row = " + std::to_string(shape.lanes_per_row) +
                                " must be a power of two <= " + std::to_string(max_lanes) + " on this backend");
  }
}

// The raw HIP/CUDA kernels run on the instance's native stream (impl::native_stream), on
// contiguous x and y, for the types src/raw/raw_spmv.cpp instantiates; anything else is a clear
// error, not a fallback.
template <class View>
bool is_contiguous(const View& v) {
  return v.span_is_contiguous() && (v.extent(0) < 2 || v.stride(0) == 1);
}

// The raw kernels take x and y of the matrix's own scalar: mixed precision (float values, double
// vectors) runs the Kokkos kernels.
template <class ExecSpace, class S, class O, class Off, class YView>
constexpr bool raw_runs() {
  return raw_available<ExecSpace, S, O, Off>() && std::is_same<S, vector_scalar_t<YView>>::value;
}

// The raw load-balanced kernel also takes mixed precision (float values, double x and y).
template <class ExecSpace, class S, class O, class Off, class YView>
constexpr bool raw_balanced_runs() {
  return raw_runs<ExecSpace, S, O, Off, YView>() ||
         (raw_available<ExecSpace, S, O, Off>() && raw::supports_mixed<S, vector_scalar_t<YView>, O, Off>());
}

template <class ExecSpace, class S, class O, class Off, class XView, class YView>
void check_raw(const XView& x, const YView& y, bool runs = raw_runs<ExecSpace, S, O, Off, YView>()) {
  if (!runs) {
    throw std::invalid_argument(
        "kspmv::spmv: algorithm raw needs a CUDA or HIP build (KSPMV_HAVE_RAW_GPU), a GPU execution space, "
        "float or double values with int or int64_t indices and offsets of the index type, int64_t or size_t, and "
        "x and y of the matrix's scalar type (mixed precision runs the other algorithms, or the load-balanced one)");
  }
  if (!is_contiguous(x) || !is_contiguous(y)) throw std::invalid_argument("kspmv::spmv: algorithm raw needs contiguous x and y");
}

// One dispatch per format. Each picks the kernel (options.algorithm or the heuristic of
// launch.hpp) and launches it; arguments are already checked.

template <class ExecSpace, class S, class O, class Off, class D, class XView, class YView>
void dispatch(const ExecSpace& space, vector_scalar_t<YView> alpha, const BalancedCsrMatrix<S, O, Off, D>& A, const XView& x, vector_scalar_t<YView> beta,
              const YView& y, const SpmvOptions& options) {
  const Algorithm algorithm = options.algorithm;
  if (algorithm != Algorithm::automatic && algorithm != Algorithm::csr_balanced && algorithm != Algorithm::raw) {
    unsupported_algorithm(algorithm, "load-balanced CSR");
  }
  // Automatic: the raw kernel where it can run (a partition built for it, contiguous vectors).
  constexpr bool raw_runs_here = raw_balanced_runs<ExecSpace, S, O, Off, YView>();
  bool raw = algorithm == Algorithm::raw;
  if constexpr (raw_runs_here) {
    raw = raw || (algorithm == Algorithm::automatic && A.entries_per_block() <= raw::balanced_max_entries &&
                  is_contiguous(x) && is_contiguous(y));
  }
  if (!raw) {
    spmv_csr_balanced(space, alpha, A, x, beta, y);
    return;
  }
  check_raw<ExecSpace, S, O, Off>(x, y, raw_runs_here);
  if constexpr (raw_runs_here) {
    using Y = vector_scalar_t<YView>;  // S, or double with float values (mixed precision)
    const int64_t blocks = A.num_blocks();
    const auto sums = balanced_partial_sums<Y>(A);
    raw::csr_balanced<Y, O, Off, S>(native_stream(space), raw_balanced_single_pass(blocks),
                                    options.team_size > 0 ? options.team_size : raw_balanced_default_block_threads,
                                    options.resident_blocks, int64_t(A.nnz()), A.entries_per_block(), blocks, A.block_first_row.data(),
                                    A.csr.row_offsets.data(), A.csr.col_indices.data(), A.csr.values.data(), x.data(),
                                    y.data(), sums.data(), sums.data() + blocks, A.arrivals.data(), alpha, beta);
  }
}

// The kernel the analysis chose for A. The raw kernels need contiguous x and y: strided vectors
// take the Kokkos kernel of the same family.
template <class ExecSpace, class Analysis, class S, class O, class Off, class D, class XView, class YView>
void run_csr_choice(const ExecSpace& space, const Analysis& analysis, vector_scalar_t<YView> alpha, const CsrMatrix<S, O, Off, D>& A,
                    const XView& x, vector_scalar_t<YView> beta, const YView& y) {
  const CsrChoice& choice = analysis.choice;
  const bool contiguous = is_contiguous(x) && is_contiguous(y);
  switch (choice.kernel) {
    case CsrKernel::thread_per_row:
      spmv_csr_scalar(space, alpha, A, x, beta, y);
      return;
    case CsrKernel::raw_vector:
      if constexpr (raw_runs<ExecSpace, S, O, Off, YView>()) {
        if (contiguous) {
          raw::csr_vector<S, O, Off>(native_stream(space), choice.lanes_per_row, A.num_rows(), A.row_offsets.data(),
                                     A.col_indices.data(), A.values.data(), x.data(), y.data(), alpha, beta);
          return;
        }
      }
      [[fallthrough]];
    case CsrKernel::vector:
      spmv_csr_vector(space, alpha, A, x, beta, y, csr_vector_shape<ExecSpace>(A.num_rows(), A.nnz(), SpmvOptions()));
      return;
    case CsrKernel::balanced:
    case CsrKernel::raw_balanced: {
      SpmvOptions balanced;  // automatic: the raw kernel where it can run, the Kokkos one otherwise
      if (choice.kernel == CsrKernel::balanced) balanced.algorithm = Algorithm::csr_balanced;
      balanced.team_size = choice.block_threads;
      balanced.resident_blocks = choice.resident_blocks;
      dispatch(space, alpha, analysis.balanced(space, A), x, beta, y, balanced);
      return;
    }
    case CsrKernel::host_rows:
      if constexpr (!is_gpu_space<ExecSpace>()) {
        spmv_csr_host_rows(space, alpha, A, x, beta, y, analysis.host_chunks);
        return;
      }
      break;
  }
  throw std::logic_error(std::string("kspmv::spmv: CSR kernel ") + to_string(choice.kernel) + " cannot run on " +
                         ExecSpace::name());
}

template <class ExecSpace, class S, class O, class Off, class D, class XView, class YView>
void dispatch(const ExecSpace& space, vector_scalar_t<YView> alpha, const CsrMatrix<S, O, Off, D>& A, const XView& x, vector_scalar_t<YView> beta,
              const YView& y, const SpmvOptions& options) {
  switch (options.algorithm) {
    case Algorithm::automatic:
      if (options.team_size != 0 || options.lanes_per_row != 0 || options.rows_per_thread != 0 ||
          options.resident_blocks != 0) {
        throw std::invalid_argument(
            "kspmv::spmv: launch tunables (team_size, lanes_per_row, rows_per_thread, resident_blocks) need an explicit "
            "algorithm; "
            "the automatic one chooses its own");
      }
      {
        // The first call on a cache-resident matrix has its product queued with the partition
        // that the statistics launch writes (csr_analysis.hpp: analyse_csr), if the raw
        // balanced kernel can take x and y.
        FirstProduct<S, O, Off, D> first_product;
        if constexpr (raw_runs<ExecSpace, S, O, Off, YView>()) {
          if (is_contiguous(x) && is_contiguous(y)) {
            first_product = [&](const BalancedCsrMatrix<S, O, Off, D>& partition) {
              SpmvOptions balanced;
              balanced.algorithm = Algorithm::raw;
              balanced.team_size = raw_balanced_default_block_threads;
              dispatch(space, alpha, partition, x, beta, y, balanced);
            };
          }
        }
        bool product_done = false;
        const auto analysis = csr_analysis(space, A, first_product, &product_done);
        if (!product_done) run_csr_choice(space, *analysis, alpha, A, x, beta, y);
      }
      return;
    case Algorithm::csr_scalar:
      spmv_csr_scalar(space, alpha, A, x, beta, y);
      return;
    case Algorithm::csr_vector: {
      const CsrVectorShape shape = csr_vector_shape<ExecSpace>(A.num_rows(), A.nnz(), options);
      check_vector_shape<ExecSpace>(shape);
      spmv_csr_vector(space, alpha, A, x, beta, y, shape);
      return;
    }
    case Algorithm::raw: {
      check_raw<ExecSpace, S, O, Off>(x, y);
      const int group = options.lanes_per_row > 0
                            ? options.lanes_per_row
                            : raw_vector_lanes(double(A.nnz()) / double(A.num_rows()), warp_width<ExecSpace>());
      if constexpr (raw_runs<ExecSpace, S, O, Off, YView>()) {
        raw::csr_vector<S, O, Off>(native_stream(space), group, A.num_rows(), A.row_offsets.data(), A.col_indices.data(),
                                   A.values.data(), x.data(), y.data(), alpha, beta);
      }
      return;
    }
    case Algorithm::csr_balanced:
      // The partition is kept with the matrix, as the automatic choice's analysis is.
      spmv_csr_balanced(space, alpha, csr_analysis(space, A)->balanced(space, A), x, beta, y);
      return;
    default:
      unsupported_algorithm(options.algorithm, "CSR");
  }
}

// Automatic: the raw load-balanced kernel over the format's blocks where it can run (GPU
// build, contiguous vectors), else the Kokkos kernel, a thread per row (csr_scalar asks for it).
template <class ExecSpace, class S, class O, class Off, class D, class XView, class YView>
void dispatch(const ExecSpace& space, vector_scalar_t<YView> alpha, const Csr16Matrix<S, O, Off, D>& A, const XView& x, vector_scalar_t<YView> beta,
              const YView& y, const SpmvOptions& options) {
  const Algorithm algorithm = options.algorithm;
  if (algorithm != Algorithm::automatic && algorithm != Algorithm::raw && algorithm != Algorithm::csr_scalar) {
    unsupported_algorithm(algorithm, "CSR with 16-bit column offsets");
  }
  bool raw = algorithm == Algorithm::raw;
  if constexpr (raw_runs<ExecSpace, S, O, Off, YView>()) {
    raw = raw || (algorithm == Algorithm::automatic && is_contiguous(x) && is_contiguous(y));
  }
  if (!raw) {
    spmv_csr16(space, alpha, A, x, beta, y);
    return;
  }
  check_raw<ExecSpace, S, O, Off>(x, y);
  if constexpr (raw_runs<ExecSpace, S, O, Off, YView>()) {
    static_assert(Csr16Matrix<S, O, Off, D>::block_entries == raw::balanced_max_entries,
                  "Csr16Matrix's blocks are the raw balanced kernel's");
    const int64_t blocks = int64_t(A.num_blocks());
    raw::csr16_balanced<S, O, Off>(native_stream(space), raw_balanced_single_pass(blocks),
                                   options.team_size > 0 ? options.team_size : raw_balanced_default_block_threads,
                                   options.resident_blocks, int64_t(A.nnz()), blocks, A.block_first_row.data(), A.row_offsets.data(),
                                   A.col_low.data(), A.block_base.data(), A.wide_offset.data(), A.col_high.data(),
                                   A.values.data(), x.data(), y.data(), A.partial_sums.data(),
                                   A.partial_sums.data() + blocks, A.arrivals.data(), alpha, beta);
  }
}

// The formats holding CSR's structure and its balanced partition with their values compressed
// (UniformCsrMatrix, CodedCsrMatrix). Automatic: the raw load-balanced kernel over the partition
// where it can run (GPU build, contiguous vectors of A's scalar, blocks the kernel stages), else
// the format's Kokkos kernel, a thread per row (csr_scalar asks for it). raw_kernel(stream,
// single_pass, block_threads, blocks) launches the raw kernel on A's values; generic, so that it
// is instantiated only where the raw kernels run.
template <class ExecSpace, class S, class O, class Off, class Matrix, class XView, class YView, class KokkosKernel,
          class RawKernel>
void dispatch_compressed_values(const ExecSpace& space, const Matrix& A, const XView& x, const YView& y,
                                const SpmvOptions& options, const char* format, const KokkosKernel& kokkos_kernel,
                                const RawKernel& raw_kernel) {
  const Algorithm algorithm = options.algorithm;
  if (algorithm != Algorithm::automatic && algorithm != Algorithm::raw && algorithm != Algorithm::csr_scalar) {
    unsupported_algorithm(algorithm, format);
  }
  bool raw = algorithm == Algorithm::raw;
  if constexpr (raw_runs<ExecSpace, S, O, Off, YView>()) {
    raw = raw || (algorithm == Algorithm::automatic && A.balanced.entries_per_block() <= raw::balanced_max_entries &&
                  is_contiguous(x) && is_contiguous(y));
  }
  if (!raw) {
    kokkos_kernel();
    return;
  }
  check_raw<ExecSpace, S, O, Off>(x, y);
  if constexpr (raw_runs<ExecSpace, S, O, Off, YView>()) {
    const int64_t blocks = A.balanced.num_blocks();
    raw_kernel(native_stream(space), raw_balanced_single_pass(blocks),
               options.team_size > 0 ? options.team_size : raw_balanced_default_block_threads, blocks);
  }
}

template <class ExecSpace, class S, class O, class Off, class D, class XView, class YView>
void dispatch(const ExecSpace& space, vector_scalar_t<YView> alpha, const UniformCsrMatrix<S, O, Off, D>& A, const XView& x,
              vector_scalar_t<YView> beta, const YView& y, const SpmvOptions& options) {
  const auto& B = A.balanced;
  dispatch_compressed_values<ExecSpace, S, O, Off>(
      space, A, x, y, options, "CSR holding one value", [&] { spmv_csr_uniform(space, alpha, A, x, beta, y); },
      [&](auto stream, bool single_pass, int threads, int64_t blocks) {
        raw::csr_uniform_balanced<S, O, Off>(stream, single_pass, threads, options.resident_blocks, int64_t(A.nnz()),
                                             B.entries_per_block(), blocks, B.block_first_row.data(),
                                             B.csr.row_offsets.data(), B.csr.col_indices.data(), A.value, x.data(),
                                             y.data(), B.partial_sums.data(), B.partial_sums.data() + blocks,
                                             B.arrivals.data(), alpha, beta);
      });
}

template <class ExecSpace, class S, class O, class Off, class D, class XView, class YView>
void dispatch(const ExecSpace& space, vector_scalar_t<YView> alpha, const CodedCsrMatrix<S, O, Off, D>& A, const XView& x,
              vector_scalar_t<YView> beta, const YView& y, const SpmvOptions& options) {
  const auto& B = A.balanced;
  dispatch_compressed_values<ExecSpace, S, O, Off>(
      space, A, x, y, options, "CSR with coded values", [&] { spmv_csr_coded(space, alpha, A, x, beta, y); },
      [&](auto stream, bool single_pass, int threads, int64_t blocks) {
        raw::csr_coded_balanced<S, O, Off>(stream, single_pass, threads, options.resident_blocks, int64_t(A.nnz()),
                                           B.entries_per_block(), blocks, B.block_first_row.data(),
                                           B.csr.row_offsets.data(), B.csr.col_indices.data(), A.codes.data(),
                                           A.table.data(), x.data(), y.data(), B.partial_sums.data(),
                                           B.partial_sums.data() + blocks, B.arrivals.data(), alpha, beta);
      });
}

template <class ExecSpace, class S, class O, class Off, class D, class XView, class YView>
void dispatch(const ExecSpace& space, vector_scalar_t<YView> alpha, const EllMatrix<S, O, Off, D>& A, const XView& x, vector_scalar_t<YView> beta,
              const YView& y, const SpmvOptions& options) {
  if (options.algorithm != Algorithm::automatic) unsupported_algorithm(options.algorithm, "ELLPACK");
  spmv_ell(space, alpha, A, x, beta, y);
}

template <class ExecSpace, class S, class O, class Off, class D, class XView, class YView>
void dispatch(const ExecSpace& space, vector_scalar_t<YView> alpha, const BlockedEllMatrix<S, O, Off, D>& A, const XView& x, vector_scalar_t<YView> beta,
              const YView& y, const SpmvOptions& options) {
  if (options.algorithm == Algorithm::raw) {
    check_raw<ExecSpace, S, O, Off>(x, y);
    if constexpr (raw_runs<ExecSpace, S, O, Off, YView>()) {
      raw::blocked_ell<S, O, Off>(native_stream(space), A.slice_height(), A.num_rows(), A.slice_offsets.data(),
                                  A.col_indices.data(), A.values.data(),
                                  A.is_permuted() ? A.permutation.data() : nullptr, x.data(), y.data(), alpha, beta);
    }
    return;
  }
  if (options.algorithm != Algorithm::automatic) unsupported_algorithm(options.algorithm, "blocked ELLPACK");
  spmv_blocked_ell(space, alpha, A, x, beta, y);
}

template <class ExecSpace, class S, class O, class Off, class D, class XView, class YView>
void dispatch(const ExecSpace& space, vector_scalar_t<YView> alpha, const DiaMatrix<S, O, Off, D>& A, const XView& x, vector_scalar_t<YView> beta,
              const YView& y, const SpmvOptions& options) {
  if (options.algorithm != Algorithm::automatic) unsupported_algorithm(options.algorithm, "DIA");
  spmv_dia(space, alpha, A, x, beta, y);
}

// COO and HYB take the COO kernels' algorithms only.
inline void check_coo_algorithm(Algorithm a, const char* format) {
  if (a != Algorithm::automatic && a != Algorithm::coo_atomic && a != Algorithm::coo_deterministic) {
    unsupported_algorithm(a, format);
  }
}

// y += alpha*A*x for the COO kernels, which accumulate into y.
template <class ExecSpace, class S, class O, class Off, class D, class XView, class YView>
void accumulate_coo(const ExecSpace& space, vector_scalar_t<YView> alpha, const CooMatrix<S, O, Off, D>& A, const XView& x,
                    const YView& y, Algorithm algorithm, const char* format) {
  switch (algorithm) {
    case Algorithm::automatic:
    case Algorithm::coo_atomic:
      spmv_coo_atomic(space, alpha, A, x, y);
      return;
    case Algorithm::coo_deterministic:
      spmv_coo_deterministic(space, alpha, A, x, y);
      return;
    default:
      unsupported_algorithm(algorithm, format);
  }
}

template <class ExecSpace, class S, class O, class Off, class D, class XView, class YView>
void dispatch(const ExecSpace& space, vector_scalar_t<YView> alpha, const CooMatrix<S, O, Off, D>& A, const XView& x, vector_scalar_t<YView> beta,
              const YView& y, const SpmvOptions& options) {
  check_coo_algorithm(options.algorithm, "COO");
  scale_y(space, beta, y);
  accumulate_coo(space, alpha, A, x, y, options.algorithm, "COO");
}

template <class ExecSpace, class S, class O, class Off, class D, class XView, class YView>
void dispatch(const ExecSpace& space, vector_scalar_t<YView> alpha, const HybMatrix<S, O, Off, D>& A, const XView& x, vector_scalar_t<YView> beta,
              const YView& y, const SpmvOptions& options) {
  check_coo_algorithm(options.algorithm, "HYB");
  // beta is applied exactly once, by the ELL part, which covers every row; the COO part adds.
  spmv_ell(space, alpha, A.ell, x, beta, y);
  if (A.coo.nnz() > 0) accumulate_coo(space, alpha, A.coo, x, y, options.algorithm, "HYB");
}

// Mode T: y += alpha*A^T*x after y = beta*y, without forming A^T. CSR (and the CSR of a
// load-balanced matrix): a thread per row of A scattering with atomics; COO: its atomic kernel
// with rows and columns swapped. The other formats refuse it.
inline void check_transpose_options(const SpmvOptions& o, Algorithm allowed, const char* format) {
  if (o.algorithm != Algorithm::automatic && o.algorithm != allowed) {
    throw std::invalid_argument(std::string("kspmv::spmv: algorithm ") + to_string(o.algorithm) +
                                " does not apply to mode T on a " + format + " matrix");
  }
  if (o.team_size != 0 || o.lanes_per_row != 0 || o.rows_per_thread != 0 || o.resident_blocks != 0) {
    throw std::invalid_argument(
        "kspmv::spmv: launch tunables (team_size, lanes_per_row, rows_per_thread, resident_blocks) do not apply to mode T");
  }
}

// CSR: csr_scalar a thread per row, csr_vector lanes per row, csr_balanced a thread per entry
// over the balanced partition (kept with A, as the automatic call's), all with atomics;
// csr_transposed lanes per column of A over its transposed structure (kept with A), without;
// automatic: hosts csr_scalar; GPUs the fastest of the split entries (rows staged or searched)
// and the lanes (unless a row is long: launch.hpp: transpose_candidates), timed on A's first
// call, the lanes by transpose_lanes from the share of shifted entries (reductions and timing
// once, kept with A).
inline void check_csr_transpose_options(const SpmvOptions& o) {
  const Algorithm a = o.algorithm;
  if (a != Algorithm::csr_scalar && a != Algorithm::csr_vector && a != Algorithm::csr_balanced &&
      a != Algorithm::csr_transposed) {
    check_transpose_options(o, Algorithm::automatic, "CSR");
  }
  check_transpose_options(
      SpmvOptions{Algorithm::automatic, o.team_size, o.lanes_per_row, o.rows_per_thread, o.resident_blocks},
      Algorithm::automatic, "CSR");
}

template <class ExecSpace, class S, class O, class Off, class D, class XView, class YView>
void dispatch_transpose(const ExecSpace& space, vector_scalar_t<YView> alpha, const CsrMatrix<S, O, Off, D>& A, const XView& x, vector_scalar_t<YView> beta,
                        const YView& y, const SpmvOptions& options) {
  check_csr_transpose_options(options);
  if (options.algorithm == Algorithm::csr_transposed) {  // deterministic: no atomics
    spmv_csr_transposed(space, alpha, A, *csr_transpose_structure(space, A), x, beta, y);
    return;
  }
  TransposeKernel kernel = TransposeKernel::rows;
  int lanes = csr_vector_shape<ExecSpace>(A.num_rows(), int64_t(A.nnz()), SpmvOptions()).lanes_per_row;
  switch (options.algorithm) {
    case Algorithm::csr_vector: kernel = TransposeKernel::lanes; break;
    case Algorithm::csr_balanced: kernel = TransposeKernel::entries; break;
    case Algorithm::automatic: {
      const auto analysis = csr_analysis(space, A);
      if (is_gpu_space<ExecSpace>()) {
        lanes = transpose_lanes<ExecSpace>(A.num_rows(), int64_t(A.nnz()), analysis->shifted_fraction(space, A));
      }
      const TransposeCandidates candidates = transpose_candidates<ExecSpace>(
          int64_t(A.nnz()), analysis->structure.longest_row, lanes, int64_t(space.concurrency()));
      if (candidates.count() > 1) {
        const auto& B = analysis->balanced(space, A);
        kernel = analysis->timed_transpose_kernel([&] {
          return time_transpose_kernels<ExecSpace, CsrMatrix<S, O, Off, D>, std::decay_t<decltype(B)>, XView, YView>(
              space, A, B, x, lanes, candidates.lanes);
        });
      }
      break;
    }
    default: break;
  }
  scale_y(space, beta, y);
  if (kernel == TransposeKernel::entries || kernel == TransposeKernel::entries_searched) {
    spmv_csr_transpose_entries(space, alpha, csr_analysis(space, A)->balanced(space, A), x, y,
                               kernel == TransposeKernel::entries);
  } else if (kernel == TransposeKernel::lanes) {
    spmv_csr_transpose_lanes(space, alpha, A, x, y, lanes);
  } else {
    spmv_csr_transpose_rows(space, alpha, A, x, y);
  }
}

// A load-balanced matrix: its partition, a thread per entry (automatic), or the CSR kernels.
template <class ExecSpace, class S, class O, class Off, class D, class XView, class YView>
void dispatch_transpose(const ExecSpace& space, vector_scalar_t<YView> alpha, const BalancedCsrMatrix<S, O, Off, D>& A, const XView& x,
                        vector_scalar_t<YView> beta, const YView& y, const SpmvOptions& options) {
  if (options.algorithm == Algorithm::automatic || options.algorithm == Algorithm::csr_balanced) {
    check_transpose_options(options, Algorithm::csr_balanced, "load-balanced CSR");
    scale_y(space, beta, y);
    spmv_csr_transpose_entries(space, alpha, A, x, y);
    return;
  }
  dispatch_transpose(space, alpha, A.csr, x, beta, y, options);
}

template <class ExecSpace, class S, class O, class Off, class D, class XView, class YView>
void dispatch_transpose(const ExecSpace& space, vector_scalar_t<YView> alpha, const CooMatrix<S, O, Off, D>& A, const XView& x, vector_scalar_t<YView> beta,
                        const YView& y, const SpmvOptions& options) {
  check_transpose_options(options, Algorithm::coo_atomic, "COO");
  scale_y(space, beta, y);
  spmv_coo_atomic(space, alpha, A, x, y, true);
}

template <class ExecSpace, class Matrix, class XView, class YView>
void dispatch_transpose(const ExecSpace&, vector_scalar_t<YView>, const Matrix& A, const XView&,
                        vector_scalar_t<YView>, const YView&, const SpmvOptions&) {
  throw std::invalid_argument(std::string("kspmv::spmv: mode T is not supported for ") + A.format_name() +
                              " (CsrMatrix, BalancedCsrMatrix and CooMatrix take it; kspmv::to_csr converts)");
}

// Rank-2 x and y (several vectors): CsrMatrix and BalancedCsrMatrix (its CSR arrays), modes N
// and T; one vector is the rank-1 call on the column. Mode N: automatic runs a raw kernel on GPUs
// with the raw kernels (any strides), lanes per row, the balanced partition or evenly split
// entries by launch.hpp: multivector_kernel from the longest row and how scattered and how far
// x's gathers reach (the analysis kept with A); the lanes and split-entries kernels (and the
// kernels of a row-major X taking the lanes kernel's place) read a row-major copy of a
// column-major X where its gathers scatter (stage_x_row_major), the balanced kernel X as it
// is (into memory kept with the analysis); on a row-major X from 5 vectors on, lanes over the
// vectors instead of the lanes and balanced kernels (row_major_multivector_kernel: a group a row,
// or chunks of entries where rows are uneven or their lengths vary and Y is row-major); that
// choice or, where it was measured to lose on some matrices (launch.hpp: multivector_ways:
// column-major X and Y staged row-major for the kernels of row-major X and Y, or the balanced
// kernel; the chunks on a row-major X), another, the fastest on A's first call with as many
// vectors in those layouts (timed, kept with the analysis); a Kokkos
// thread per row elsewhere; csr_scalar forces the Kokkos kernel, raw the raw lanes per row (with
// lanes_per_row as its group), csr_balanced the raw balanced kernel. Mode T: vector CSR's lanes
// per row with atomics (automatic or csr_vector).
template <class ExecSpace, class S, class O, class Off, class D, class XView, class YView>
void dispatch_multivector(const ExecSpace& space, Operation op, vector_scalar_t<YView> alpha, const CsrMatrix<S, O, Off, D>& A,
                          const XView& x, vector_scalar_t<YView> beta, const YView& y, const SpmvOptions& options) {
  if (x.extent(1) == 1) {
    const auto x1 = Kokkos::subview(x, Kokkos::ALL(), 0);
    const auto y1 = Kokkos::subview(y, Kokkos::ALL(), 0);
    if (op == Operation::transpose) {
      dispatch_transpose(space, alpha, A, x1, beta, y1, options);
    } else {
      dispatch(space, alpha, A, x1, beta, y1, options);
    }
    return;
  }
  const Algorithm a = options.algorithm;
  const bool tunables = options.team_size != 0 || options.rows_per_thread != 0 || options.resident_blocks != 0 ||
                        (options.lanes_per_row != 0 && a != Algorithm::raw);
  if (op == Operation::transpose) {
    if ((a != Algorithm::automatic && a != Algorithm::csr_vector) || tunables || options.lanes_per_row != 0) {
      throw std::invalid_argument(std::string("kspmv::spmv: with several vectors, mode T takes Algorithm::automatic "
                                              "or csr_vector and no launch tunables, not ") + to_string(a));
    }
    scale_y(space, beta, y);
    spmv_csr_multivector_transpose(space, alpha, A, x, y);
    return;
  }
  if ((a != Algorithm::automatic && a != Algorithm::csr_scalar && a != Algorithm::raw &&
       a != Algorithm::csr_balanced) ||
      tunables) {
    throw std::invalid_argument(std::string("kspmv::spmv: with several vectors, mode N takes Algorithm::automatic, "
                                            "csr_scalar, raw (lanes_per_row its only tunable) or csr_balanced, not ") +
                                to_string(a));
  }
  if ((a == Algorithm::raw || a == Algorithm::csr_balanced) && !raw_runs<ExecSpace, S, O, Off, YView>()) {
    throw std::invalid_argument(std::string("kspmv::spmv: with several vectors, algorithm ") + to_string(a) +
                                " needs the raw kernels (a CUDA or HIP build, a GPU execution space, float or double "
                                "values with int or int64_t indices)");
  }
  if constexpr (raw_runs<ExecSpace, S, O, Off, YView>()) {
    if (a != Algorithm::csr_scalar) {
      constexpr int wave = warp_width<ExecSpace>();
      const int64_t k = int64_t(x.extent(1));
      const CsrStructure& structure = csr_analysis(space, A)->structure;
      const bool miss = gathers_miss_cache(structure.window_lines_per_entry, structure.window_reach_bytes, k,
                                           double(raw::l2_cache_bytes()));
      const int lanes = options.lanes_per_row > 0 ? options.lanes_per_row
                                                  : raw_multivector_lanes(structure.average_row(), wave, k, miss);
      using Scalar = vector_scalar_t<YView>;
      // The kernel the rules choose for X and Y at these strides (x_vector_stride == 1: X
      // row-major; likewise Y), and whether X is read from a row-major copy: a column-major X
      // whose gathers scatter is (launch.hpp), but by the balanced kernel.
      const auto choose = [&](int64_t x_row_stride, int64_t x_vector_stride, int64_t y_vector_stride) {
        MultivectorKernel kernel = a == Algorithm::csr_balanced ? MultivectorKernel::balanced : MultivectorKernel::lanes;
        bool stage = false;
        if (a == Algorithm::automatic) {
          kernel = multivector_kernel(
              A.num_rows(), int64_t(A.nnz()), structure.longest_row, wave, int64_t(space.concurrency()),
              structure.window_lines_per_entry,
              scattered_gathers_stay_in_cache(structure.window_lines_per_entry, structure.window_reach_bytes, k,
                                              double(raw::l2_cache_bytes()), x_vector_stride == 1));
          stage = kernel != MultivectorKernel::balanced &&
                  stage_x_row_major(x_row_stride, k, structure.window_lines_per_entry,
                                    kernel == MultivectorKernel::lanes ? lanes : 0, wave);
          if (stage || x_vector_stride == 1) {
            kernel = row_major_multivector_kernel(kernel, k, structure.row_length_variation(), y_vector_stride == 1,
                                                  structure.crowded_run);
          }
        } else if (kernel == MultivectorKernel::lanes) {
          stage = stage_x_row_major(x_row_stride, k, structure.window_lines_per_entry);
        }
        return std::make_pair(kernel, stage);
      };
      // One call of the raw kernels on X and Y at these pointers and strides.
      const auto run = [&](MultivectorKernel kernel, bool stage, const S* x_data, int64_t x_row_stride,
                           int64_t x_vector_stride, S* y_data, int64_t y_row_stride, int64_t y_vector_stride,
                           Scalar call_alpha, Scalar call_beta) {
        if (stage) {  // x itself (stage_x_row_major: column-major), into memory kept with the analysis
          const Kokkos::View<S**, Kokkos::LayoutRight, typename YView::memory_space, Kokkos::MemoryUnmanaged>
              x_row_major(static_cast<S*>(csr_analysis(space, A)->staging(space, x.extent(0) * size_t(k) * sizeof(S))),
                          x.extent(0), k);
          copy_rows(space, x, x_row_major);
          x_data = x_row_major.data();
          x_row_stride = k;
          x_vector_stride = 1;
        }
        if (kernel == MultivectorKernel::chunks) {  // X row-major (as it is, or staged)
          const BalancedCsrMatrix<S, O, Off, D>& partition = csr_analysis(space, A)->balanced(space, A);
          raw::csr_multivector_chunks<S, O, Off>(native_stream(space), A.num_rows(), int64_t(A.nnz()),
                                                 partition.entries_per_block(), partition.block_first_row.data(), k,
                                                 A.row_offsets.data(), A.col_indices.data(), A.values.data(), x_data,
                                                 x_row_stride, y_data, y_row_stride, y_vector_stride, call_alpha,
                                                 call_beta);
          return;
        }
        if (kernel == MultivectorKernel::balanced) {  // a vector a pass: X as it is
          const BalancedCsrMatrix<S, O, Off, D>& partition = csr_analysis(space, A)->balanced(space, A);
          raw::csr_multivector_balanced<S, O, Off>(
              native_stream(space), int64_t(A.nnz()), partition.entries_per_block(), partition.num_blocks(),
              partition.block_first_row.data(), A.row_offsets.data(), A.col_indices.data(), A.values.data(), k,
              x_data, x_row_stride, x_vector_stride, y_data, y_row_stride, y_vector_stride, call_alpha, call_beta);
          return;
        }
        if (kernel == MultivectorKernel::row_lanes) {
          raw::csr_multivector_row_lanes<S, O, Off>(native_stream(space), A.num_rows(), k, A.row_offsets.data(),
                                                    A.col_indices.data(), A.values.data(), x_data, x_row_stride,
                                                    y_data, y_row_stride, y_vector_stride, call_alpha, call_beta);
          return;
        }
        if (kernel == MultivectorKernel::entries) {
          const Kokkos::View<S**, Kokkos::LayoutStride, typename YView::memory_space, Kokkos::MemoryUnmanaged> y_view(
              y_data, Kokkos::LayoutStride(A.num_rows(), y_row_stride, k, y_vector_stride));
          scale_y(space, call_beta, y_view);
          raw::csr_multivector_entries<S, O, Off>(native_stream(space), raw_multivector_entries_per_lane,
                                                  multivector_columns_per_pass(k), A.num_rows(), int64_t(A.nnz()), k,
                                                  A.row_offsets.data(), A.col_indices.data(), A.values.data(), x_data,
                                                  x_row_stride, x_vector_stride, y_data, y_row_stride,
                                                  y_vector_stride, call_alpha);
          return;
        }
        if (!is_power_of_two(lanes) || lanes > wave) {
          throw std::invalid_argument("kspmv::spmv: lanes_per_row = " + std::to_string(lanes) +
                                      " must be a power of two <= " + std::to_string(wave) + " on this backend");
        }
        raw::csr_multivector<S, O, Off>(native_stream(space), lanes, multivector_columns_per_pass(k), A.num_rows(), k,
                                        A.row_offsets.data(), A.col_indices.data(), A.values.data(), x_data,
                                        x_row_stride, x_vector_stride, y_data, y_row_stride, y_vector_stride,
                                        call_alpha, call_beta,
                                        structure.window_lines_per_entry > raw_stage_x_min_lines_per_entry);
      };
      using RowMajor = Kokkos::View<S**, Kokkos::LayoutRight, typename YView::memory_space, Kokkos::MemoryUnmanaged>;
      // y_out: y, or a scratch Y of y's layout (the timing's).
      const auto as_is = [&](MultivectorWay way, const auto& y_out, Scalar call_alpha, Scalar call_beta) {
        const int64_t x_row_stride = int64_t(x.stride(0)), x_vector_stride = int64_t(x.stride(1));
        auto chosen = choose(x_row_stride, x_vector_stride, int64_t(y_out.stride(1)));
        if (way == MultivectorWay::balanced) chosen = {MultivectorKernel::balanced, false};
        if (way == MultivectorWay::chunks) chosen = {MultivectorKernel::chunks, false};  // X row-major
        run(chosen.first, chosen.second, x.data(), x_row_stride, x_vector_stride, y_out.data(),
            int64_t(y_out.stride(0)), int64_t(y_out.stride(1)), call_alpha, call_beta);
      };
      // X and Y column-major staged row-major for the call (launch.hpp: MultivectorWay::staged):
      // X copied into the analysis' memory, the kernels of row-major X and Y into a row-major Y
      // kept there too, added into y.
      const auto staged = [&](const auto& y_out, Scalar call_alpha, Scalar call_beta) {
        const auto& analysis = *csr_analysis(space, A);
        const RowMajor x_row_major(static_cast<S*>(analysis.staging(space, x.extent(0) * size_t(k) * sizeof(S))),
                                   x.extent(0), k);
        const RowMajor y_row_major(static_cast<S*>(analysis.staging(space, y.extent(0) * size_t(k) * sizeof(S), 1)),
                                   y.extent(0), k);
        copy_rows(space, x, x_row_major);
        const auto chosen = choose(k, 1, 1);
        run(chosen.first, chosen.second, x_row_major.data(), k, 1, y_row_major.data(), k, 1, call_alpha, Scalar(0));
        add_row_major(space, y_row_major, call_beta, y_out);
      };
      const auto call = [&](MultivectorWay way, const auto& y_out, Scalar call_alpha, Scalar call_beta) {
        way == MultivectorWay::staged ? staged(y_out, call_alpha, call_beta) : as_is(way, y_out, call_alpha, call_beta);
      };
      MultivectorWay way = MultivectorWay::as_is;
      if (a == Algorithm::automatic) {
        const std::vector<MultivectorWay> ways =
            multivector_ways(int64_t(x.stride(0)), int64_t(x.stride(1)), int64_t(y.stride(0)), k, int64_t(A.nnz()),
                             choose(int64_t(x.stride(0)), int64_t(x.stride(1)), int64_t(y.stride(1))).first, miss,
                             structure.crowded_run);
        const int forced = multivector_way_for_tests();
        if (forced >= 0) {
          if (std::find(ways.begin(), ways.end(), MultivectorWay(forced)) != ways.end()) way = MultivectorWay(forced);
        } else if (ways.size() > 1) {
          // Timed into a scratch Y of y's layout (the rules read Y's), kept with the analysis.
          const bool y_row_major = y.stride(1) == 1;
          const auto time = [&] {
            S* scratch = static_cast<S*>(csr_analysis(space, A)->staging(space, y.extent(0) * size_t(k) * sizeof(S), 2));
            const size_t sizes[] = {y.extent(0), size_t(k)};
            const size_t strides[] = {y_row_major ? size_t(k) : 1, y_row_major ? 1 : y.extent(0)};
            const Kokkos::View<S**, Kokkos::LayoutStride, typename YView::memory_space, Kokkos::MemoryUnmanaged> trial(
                scratch, Kokkos::LayoutStride(sizes[0], strides[0], sizes[1], strides[1]));
            const MultivectorWay fastest = ways[fastest_multivector_way(
                space, ways.size(), [&](size_t i) { call(ways[i], trial, Scalar(1), Scalar(0)); })];
            // Neither the scratch Y nor, where staging lost, the row-major Y is used again.
            csr_analysis(space, A)->release_staging(space, 2);
            if (fastest != MultivectorWay::staged) csr_analysis(space, A)->release_staging(space, 1);
            return int(fastest);
          };
          const int layout = (x.stride(1) == 1 ? 1 : 0) + (x.stride(0) == 1 ? 2 : 0) + (y_row_major ? 4 : 0) +
                             (y.stride(0) == 1 ? 8 : 0);
          way = MultivectorWay(csr_analysis(space, A)->timed_multivector_way(k, layout, time));
        }
      }
      call(way, y, alpha, beta);
      return;
    }
  }
  spmv_csr_multivector_rows(space, alpha, A, x, beta, y);
}

template <class ExecSpace, class S, class O, class Off, class D, class XView, class YView>
void dispatch_multivector(const ExecSpace& space, Operation op, vector_scalar_t<YView> alpha, const BalancedCsrMatrix<S, O, Off, D>& A,
                          const XView& x, vector_scalar_t<YView> beta, const YView& y, const SpmvOptions& options) {
  dispatch_multivector(space, op, alpha, A.csr, x, beta, y, options);
}

template <class ExecSpace, class Matrix, class XView, class YView>
void dispatch_multivector(const ExecSpace&, Operation, vector_scalar_t<YView>, const Matrix& A, const XView&,
                          vector_scalar_t<YView>, const YView&, const SpmvOptions&) {
  throw std::invalid_argument(std::string("kspmv::spmv: rank-2 x and y (several vectors) are not supported for ") +
                              A.format_name() + " (CsrMatrix and BalancedCsrMatrix take them; kspmv::to_csr converts)");
}

// The one entry point behind every public overload: checks, quick returns, dispatch.
template <class ExecSpace, class Matrix, class XView, class YView>
void spmv_checked(const ExecSpace& space, Operation op, typename spmv_scalar<Matrix, YView>::type alpha, const Matrix& A,
                  const XView& x, typename spmv_scalar<Matrix, YView>::type beta, const YView& y,
                  const SpmvOptions& options) {
  using Scalar = typename spmv_scalar<Matrix, YView>::type;  // the vectors' (see vector_scalar_fits)
  static_assert(Kokkos::is_view<XView>::value && (XView::rank == 1 || XView::rank == 2),
                "kspmv::spmv: x must be a rank-1 Kokkos::View (one vector) or rank-2 (several)");
  static_assert(Kokkos::is_view<YView>::value && int(YView::rank) == int(XView::rank),
                "kspmv::spmv: y must be a Kokkos::View of x's rank");
  static_assert(std::is_same<typename YView::value_type, Scalar>::value, "kspmv::spmv: y must be a non-const View");
  static_assert(std::is_same<typename XView::non_const_value_type, Scalar>::value,
                "kspmv::spmv: x and y must hold the same scalar type");
  static_assert(vector_scalar_fits<typename Matrix::value_type, Scalar>(),
                "kspmv::spmv: x and y must hold the matrix's Scalar type, or in mixed precision double (or "
                "Kokkos::complex<double>) with float (Kokkos::complex<float>) matrix values");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename Matrix::memory_space>::accessible,
                "kspmv::spmv: A's memory space is not accessible from the execution space");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename XView::memory_space>::accessible,
                "kspmv::spmv: x's memory space is not accessible from the execution space");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename YView::memory_space>::accessible,
                "kspmv::spmv: y's memory space is not accessible from the execution space");

  if constexpr (!is_complex<Scalar>::value) {  // conj(A) = A
    if (op == Operation::conjugate) op = Operation::none;
    if (op == Operation::conjugate_transpose) op = Operation::transpose;
  }
  check_dimensions(A, x, y, op);
  check_options(options);
  const bool t = op == Operation::transpose || op == Operation::conjugate_transpose;
  if constexpr (XView::rank == 2) {
    if (x.extent(1) != y.extent(1)) {
      throw std::invalid_argument("kspmv::spmv: x has " + std::to_string(x.extent(1)) + " vectors (columns), y has " +
                                  std::to_string(y.extent(1)));
    }
    if (y.extent(1) == 0) return;
  }
  if ((t ? A.num_cols() : A.num_rows()) == 0) return;  // y is empty
  if (alpha == Scalar(0) || A.nnz() == 0 || (t ? A.num_rows() : A.num_cols()) == 0) {
    scale_y(space, beta, y);
    return;
  }
  if constexpr (is_complex<Scalar>::value) {
    if (op == Operation::conjugate || op == Operation::conjugate_transpose) {  // see impl/conjugate.hpp
      const auto x_conjugate = conjugate_copy(space, x);
      if (beta != Scalar(0)) conjugate_in_place(space, y);  // beta == 0: y is overwritten unread
      spmv_checked(space, t ? Operation::transpose : Operation::none, Kokkos::conj(alpha), A, x_conjugate,
                   Kokkos::conj(beta), y, options);
      conjugate_in_place(space, y);
      return;
    }
  }
  // x is gathered: read it through the read-only (texture / __ldg) path where the backend has one.
  using XRandomAccess = Kokkos::View<typename XView::const_data_type, typename XView::array_layout,
                                     typename XView::device_type, Kokkos::MemoryTraits<Kokkos::RandomAccess>>;
  const XRandomAccess x_ra = x;
  if constexpr (XView::rank == 2) {
    dispatch_multivector(space, op, alpha, A, x_ra, beta, y, options);
  } else if (t) {
    dispatch_transpose(space, alpha, A, x_ra, beta, y, options);
  } else {
    dispatch(space, alpha, A, x_ra, beta, y, options);
  }
}

}  // namespace impl

/// y = alpha*A*x + beta*y on the given execution space instance (asynchronous, like any
/// Kokkos kernel on that instance). A is any kspmv matrix: CsrMatrix, BalancedCsrMatrix,
/// Csr16Matrix, UniformCsrMatrix, CodedCsrMatrix, EllMatrix, BlockedEllMatrix, CooMatrix, HybMatrix or
/// DiaMatrix.
///
/// Semantics follow BLAS and KokkosKernels:
///  - beta == 0 overwrites y: its old contents are never read, so NaN or Inf in y do not leak;
///  - alpha == 0 computes y = beta*y without reading A or x;
///  - num_rows, num_cols or nnz == 0 are valid (an empty product contributes 0).
/// Throws std::invalid_argument, before any kernel runs, if x does not have num_cols entries or
/// y does not have num_rows entries, or if options do not apply to A's format.
///
/// Scalars: x and y hold A's Scalar (float, double, Kokkos::complex<float> or <double>), or in
/// mixed precision double (Kokkos::complex<double>) with A's values in float
/// (Kokkos::complex<float>): each product and every sum in double, alpha and beta double, as
/// cuSPARSE's mixed SpMV; A's values move half the bytes. Mixed precision runs every format's
/// Kokkos kernel and, on GPUs, the raw load-balanced kernel (BalancedCsrMatrix, and the CSR
/// automatic choice where it picks that kernel); the other raw kernels refuse it. Complex scalars
/// run the Kokkos kernels.
///
/// Several vectors: x and y may be rank-2 Views of k columns each (LayoutLeft, LayoutRight or
/// strided), Y = alpha*A*X + beta*Y column by column, on CsrMatrix and BalancedCsrMatrix (other
/// formats throw std::invalid_argument). A is read once for up to 8 vectors rather than once per
/// vector: on GPUs with the raw kernels a group of lanes per row keeping the sums of 4 or 8
/// vectors (lanes_per_row with Algorithm::raw forces its group; more lanes a row where the
/// gathers scatter over more of X than the GPU's L2 holds), from 5 vectors on a row-major X
/// with the group's lanes over the vectors instead; where the gathers of a column-major X
/// scatter (a matrix beyond the GPU's cache whose rows gather scattered entries of x) these read
/// a row-major copy of X, made by each call into n*k values of memory kept with A's analysis
/// (see CsrMatrix) and reused. Where a row is long enough to hold up the launch: the
/// load-balanced partition (kept with A; also with Algorithm::csr_balanced), each block reading
/// its entries once and summing their products for every vector in turn; from 5 vectors on a
/// row-major X, chunks of consecutive entries a group of lanes over the vectors; where the
/// gathers scatter, the entries split evenly over waves keeping 4 or 8 vectors' sums on a
/// row-major X or its copy. These add the rows they share with other blocks, chunks or waves
/// with atomics (the last bits of Y may then change from run to run). Since these rules were
/// measured to lose on some matrices and win on others, A's first call with as many vectors in
/// those layouts (column-major X and Y, or a row-major X) times the kernel they choose and its
/// alternatives (column-major X and Y copied row-major for the kernels of row-major X and Y, Y
/// added back, or the load-balanced kernel; the chunks on a row-major X) into a scratch Y,
/// freed after, and keeps the fastest with A's analysis (impl/launch.hpp: multivector_ways):
/// that call costs a few calls' time more. Elsewhere or with
/// Algorithm::csr_scalar a Kokkos thread per row. One column is the rank-1 call on it.
///
/// On a CsrMatrix the default (Algorithm::automatic) analyses A's structure on its first call
/// and keeps the analysis with A (see CsrMatrix: what it costs, what invalidates it); it then
/// runs the CSR kernel chosen from that structure by impl::choose_csr_kernel (impl/launch.hpp):
/// raw vector or load-balanced CSR on GPUs with the raw kernels, chunks of rows of equal work on
/// host backends. It never converts A to another format: kspmv::Plan does that. On a GPU, the
/// first call on a cache-resident matrix computes its product with the load-balanced kernel
/// while the analysis finishes, so its result may differ from later calls' in the last bits
/// (the sums are ordered differently); later calls all use the chosen kernel.
///
/// Threads: the first calls on one matrix from several host threads make one analysis. The
/// workspaces kept with A (the balanced partition's partial sums, the row-major copy of X) are
/// one per execution space instance (stream) and reused by each call on it, so calls on one
/// matrix and one instance must come from one host thread at a time; calls on different
/// instances may overlap. (Kokkos 3's host backends are one instance each and not safe for
/// kernels from two threads at once.)
///
/// \param options forces an algorithm (launch tunables need one); the default picks per format:
///        for CsrMatrix as above, for BalancedCsrMatrix, Csr16Matrix, UniformCsrMatrix and
///        CodedCsrMatrix the raw load-balanced kernel where it can run (GPU build, contiguous x
///        and y), their Kokkos kernel otherwise.
template <class ExecSpace, class Matrix, class XView, class YView>
std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value && impl::is_matrix<Matrix>::value> spmv(
    const ExecSpace& space, typename impl::spmv_scalar<Matrix, YView>::type alpha, const Matrix& A,
    const XView& x, typename impl::spmv_scalar<Matrix, YView>::type beta, const YView& y,
    const SpmvOptions& options = SpmvOptions()) {
  impl::spmv_checked(space, impl::Operation::none, alpha, A, x, beta, y, options);
}

/// y = alpha*op(A)*x + beta*y with KokkosKernels' modes: "N" op(A) = A, "T" A^T, "C" conj(A),
/// "H" A^H (one character, either case; for real scalars "C" is "N" and "H" is "T"; for complex
/// ones "C" and "H" run the kernels of "N" and "T" on a conjugated copy of x, allocated per call,
/// conjugating y before and after: impl/conjugate.hpp). Mode T needs x of num_rows entries and y of num_cols; it runs without forming A^T on
/// CsrMatrix and BalancedCsrMatrix (A's entries added into y with atomics, so the last bits of y
/// may change from run to run on parallel backends: by rows, vector lanes per row or evenly split
/// entries: on GPUs the fastest of these (the lanes not where a row is long), timed on the first
/// call in mode T (4-12 extra products into a scratch vector, once, kept with A); or forced with
/// csr_scalar, csr_vector, csr_balanced;
/// Algorithm::csr_transposed instead reduces each column of A over A's transposed structure,
/// built on its first call and kept with A like the analysis: the same bits every run) and
/// CooMatrix (its atomic kernel), and throws std::invalid_argument for the other formats, an
/// unknown mode, or algorithms and launch tunables that do not apply. With several vectors
/// (rank-2 x and y), mode T runs vector CSR's lanes per row of A with atomics on CsrMatrix and
/// BalancedCsrMatrix. Otherwise as the overload without a mode.
template <class ExecSpace, class Matrix, class XView, class YView>
std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value && impl::is_matrix<Matrix>::value> spmv(
    const ExecSpace& space, const char mode[], typename impl::spmv_scalar<Matrix, YView>::type alpha,
    const Matrix& A, const XView& x, typename impl::spmv_scalar<Matrix, YView>::type beta, const YView& y,
    const SpmvOptions& options = SpmvOptions()) {
  impl::spmv_checked(space, impl::parse_mode(mode), alpha, A, x, beta, y, options);
}

/// y = alpha*op(A)*x + beta*y on a default-constructed instance of A's execution space; see the
/// overload taking an execution space instance and a mode.
template <class Matrix, class XView, class YView>
std::enable_if_t<impl::is_matrix<Matrix>::value> spmv(
    const char mode[], typename impl::spmv_scalar<Matrix, YView>::type alpha, const Matrix& A,
    const XView& x, typename impl::spmv_scalar<Matrix, YView>::type beta, const YView& y,
    const SpmvOptions& options = SpmvOptions()) {
  spmv(typename Matrix::execution_space(), mode, alpha, A, x, beta, y, options);
}

/// y = alpha*A*x + beta*y on a default-constructed instance of A's execution space.
/// See the overload taking an execution space instance for the semantics.
template <class Matrix, class XView, class YView>
std::enable_if_t<impl::is_matrix<Matrix>::value> spmv(
    typename impl::spmv_scalar<Matrix, YView>::type alpha, const Matrix& A, const XView& x,
    typename impl::spmv_scalar<Matrix, YView>::type beta, const YView& y,
    const SpmvOptions& options = SpmvOptions()) {
  spmv(typename Matrix::execution_space(), alpha, A, x, beta, y, options);
}

/// What the automatic spmv runs on A on ExecSpace, and why: the CSR kernel and its launch, e.g.
/// "raw_balanced, 256 threads a block: bandwidth-bound; ...". Empty before A's first automatic
/// call on ExecSpace (it analyses nothing itself).
template <class ExecSpace, class S, class O, class Off, class D>
std::string automatic_choice(const ExecSpace&, const CsrMatrix<S, O, Off, D>& A) {
  const auto analysis = A.impl_analysis_cache().template find<impl::CsrAnalysis<ExecSpace, S, O, Off, D>>();
  if (!analysis) return std::string();
  const impl::CsrChoice& c = analysis->choice;
  std::string launch;
  if (c.kernel == impl::CsrKernel::raw_vector) launch = ", " + std::to_string(c.lanes_per_row) + " lanes a row";
  if (c.kernel == impl::CsrKernel::raw_balanced) {
    launch = ", " + std::to_string(c.block_threads) + " threads a block";
    if (c.resident_blocks > 0) launch += ", " + std::to_string(c.resident_blocks) + " blocks a multiprocessor";
  }
  return std::string(impl::to_string(c.kernel)) + launch + ": " + c.reason;
}
template <class S, class O, class Off, class D>
std::string automatic_choice(const CsrMatrix<S, O, Off, D>& A) {
  return automatic_choice(typename D::execution_space(), A);
}

}  // namespace kspmv
