#pragma once
/// \file cg.hpp
/// kspmv::cg: conjugate gradients for A x = b, A symmetric positive definite (SPD), optionally
/// preconditioned by Jacobi (M = diag(A)):
///   r_0 = b - A x_0, z_0 = M^-1 r_0, p_0 = z_0;
///   alpha_k = (r_k.z_k) / (p_k.A p_k), x_k+1 = x_k + alpha_k p_k, r_k+1 = r_k - alpha_k A p_k,
///   z_k+1 = M^-1 r_k+1, beta_k = (r_k+1.z_k+1) / (r_k.z_k), p_k+1 = z_k+1 + beta_k p_k,
/// until ||r_k||_2 <= tolerance * ||b||_2. Sums are accumulated in double.
/// Three paths (CgPath): separate kernels around a kspmv::Plan's SpMV, with every scalar on the
/// device and the host reading them only now and then (the vector kernels are raw CUDA/HIP
/// kernels on a GPU, Kokkos kernels elsewhere); or, for systems that fit in a GPU's
/// caches, the whole solve in one kernel: a cooperative launch over the whole GPU with grid-wide
/// synchronisation (CUDA and HIP, raw kernels), or one team (every backend).

#include "impl/cg_fused.hpp"
#include "impl/cg_jacobi.hpp"
#include "impl/cg_separate.hpp"
#include "impl/convert_values.hpp"
#include "impl/launch.hpp"
#include "impl/raw_cg.hpp"
#include "plan.hpp"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace kspmv {

/// How kspmv::cg runs its iterations.
enum class CgPath {
  automatic,   ///< the fastest that applies, by impl::cg_path: on a GPU fused_grid (or, without the raw
               ///< kernels, fused_team) for systems that fit in its caches, separate otherwise
  separate,    ///< a Plan's SpMV and three vector kernels an iteration, the scalars kept on the device
  fused_team,  ///< the whole solve in one kernel of one team (a thread team on host backends)
  fused_grid,  ///< the whole solve in one cooperative kernel over the whole GPU, grid-wide
               ///< synchronisation between its phases (raw GPU kernels, CUDA or HIP, only)
};

inline const char* to_string(CgPath p) {
  switch (p) {
    case CgPath::automatic: return "automatic";
    case CgPath::separate: return "separate";
    case CgPath::fused_team: return "fused_team";
    case CgPath::fused_grid: return "fused_grid";
  }
  return "unknown";
}

/// Options of kspmv::cg.
namespace impl {
// CgOptions::plan's default: PlanOptions whose model alone chooses (see CgOptions::plan).
inline PlanOptions cg_default_plan_options() {
  PlanOptions p;
  p.timing_threshold = std::numeric_limits<int64_t>::max();
  return p;
}
}  // namespace impl

struct CgOptions {
  /// Stop when the recurrence's residual ||r_k||_2 <= tolerance * ||b||_2 (finite, >= 0).
  double tolerance = 1e-8;
  /// At most this many iterations (>= 0).
  int64_t max_iterations = 1000;
  /// Precondition with the inverse of A's diagonal (which must then be positive).
  bool jacobi = false;
  CgPath path = CgPath::automatic;
  /// Separate path: read the halt codes every this many iterations (at most 64); 0 lets kspmv
  /// choose (impl::cg_check_interval: every iteration on host backends, every sqrt(2k) on
  /// GPUs). Iterations launched past the one that stopped CG change nothing but cost time.
  int check_interval = 0;
  /// Mixed precision, only when asked (double A only; the separate path): the iterations' SpMV
  /// q = A p reads A's values rounded to float (kspmv::spmv's mixed precision: x, the vectors,
  /// every product and sum in double), 8 bytes an entry instead of 12. Where the recurrence's
  /// residual meets the tolerance, r is replaced by the true residual b - A x with A in double;
  /// CG stops only if that meets the tolerance too, and otherwise restarts from x (p = M^-1 r):
  /// the final tolerance is that of the double A (the same iterations as in double where A's
  /// values are exact in float; each restart adds some where they are not).
  /// (Replacing r every few iterations without restarting stalls at the float values' accuracy,
  /// about 3e-8 relative on the tests' matrices, since the directions are A_float's.) A matrix
  /// with a value that overflows or vanishes in float keeps double (the message says so).
  bool float_spmv = false;
  /// Options of the Plan that cg(A, ...) builds for the separate path (cg_plan_options: its
  /// expected_uses set to max_iterations + 2, its mode to "N"). By default the plan's model
  /// alone chooses (timing_threshold at its largest): timing candidates took 2.7-8.2 ms on the
  /// H200's large systems (perf_tests/results/h200_cg_0f5fc00), 15-40 iterations there, which
  /// a solve that stops early does not win back. Lower plan.timing_threshold to have them timed,
  /// or build a Plan told the uses of many solves and pass it to cg(plan, ...).
  PlanOptions plan = impl::cg_default_plan_options();
};

/// The options with which cg(A, b, x, options) builds its Plan: options.plan with expected_uses
/// = max_iterations + 2 and mode "N" (a caller that builds the plan itself gets the same one).
inline PlanOptions cg_plan_options(const CgOptions& options) {
  PlanOptions p = options.plan;
  p.expected_uses = options.max_iterations + 2;
  p.mode = "N";
  return p;
}

/// Why kspmv::cg stopped.
enum class CgStatus {
  converged,       ///< ||r_k|| <= tolerance * ||b||
  max_iterations,  ///< max_iterations reached first
  indefinite,      ///< p.(A p) <= 0, or a diagonal entry <= 0 with jacobi: A is not SPD
  breakdown,       ///< r.z <= 0 (or NaN) with r not yet converged: lost positivity, e.g. NaN in A or b
};

inline const char* to_string(CgStatus s) {
  switch (s) {
    case CgStatus::converged: return "converged";
    case CgStatus::max_iterations: return "max_iterations";
    case CgStatus::indefinite: return "indefinite";
    case CgStatus::breakdown: return "breakdown";
  }
  return "unknown";
}

/// What kspmv::cg did.
struct CgResult {
  CgStatus status = CgStatus::converged;
  int64_t iterations = 0;  ///< iterations whose update x holds
  /// ||b - A x||_2 / ||b||_2 of the returned x, recomputed (0 if b = 0).
  double residual = 0;
  /// ||r_k||_2 / ||b||_2 of the recurrence, k = 0 .. iterations.
  std::vector<double> residual_history;
  double setup_seconds = 0;  ///< the plan (cg(A, ...) on the separate path), Jacobi's diagonal, work vectors
  double solve_seconds = 0;  ///< the iterations and the final residual
  std::string path;          ///< the path taken: "separate", "fused_team" or "fused_grid"
  std::string message;       ///< why it stopped, in words
  int64_t restarts = 0;      ///< float_spmv: restarts from the true residual (see CgOptions::float_spmv)
  bool converged() const { return status == CgStatus::converged; }
};

namespace impl {

template <class Scalar, class Ordinal, class Offset, class Device, class BView, class XView>
void check_cg_arguments(const CsrMatrix<Scalar, Ordinal, Offset, Device>& A, const BView& b, const XView& x,
                        const CgOptions& options) {
  static_assert(std::is_floating_point<Scalar>::value,
                "kspmv::cg: real float or double scalars (CG on complex values needs a Hermitian A: not supported)");
  static_assert(Kokkos::is_view<BView>::value && Kokkos::is_view<XView>::value, "kspmv::cg: b and x must be Kokkos Views");
  static_assert(BView::rank == 1 && XView::rank == 1, "kspmv::cg: b and x must be rank-1 Views");
  static_assert(std::is_same<typename BView::non_const_value_type, Scalar>::value &&
                    std::is_same<typename XView::value_type, Scalar>::value,
                "kspmv::cg: b and x must hold A's scalar type, x non-const");
  using ExecSpace = typename Device::execution_space;
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename BView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecSpace, typename XView::memory_space>::accessible,
                "kspmv::cg: b and x must be accessible from A's execution space");
  const auto fail = [](const std::string& what) { throw std::invalid_argument("kspmv::cg: " + what); };
  if (A.num_rows() != A.num_cols()) {
    fail("A is " + std::to_string(A.num_rows()) + " x " + std::to_string(A.num_cols()) +
         "; conjugate gradients needs a square matrix");
  }
  if (int64_t(b.extent(0)) != int64_t(A.num_rows())) {
    fail("b has " + std::to_string(b.extent(0)) + " entries, A has " + std::to_string(A.num_rows()) + " rows");
  }
  if (int64_t(x.extent(0)) != int64_t(A.num_cols())) {
    fail("x has " + std::to_string(x.extent(0)) + " entries, A has " + std::to_string(A.num_cols()) + " columns");
  }
  if (x.extent(0) > 0 && static_cast<const void*>(x.data()) == static_cast<const void*>(b.data())) {
    fail("x and b share memory; CG needs b unchanged while it updates x");
  }
  if (!(options.tolerance >= 0) || !std::isfinite(options.tolerance)) {
    std::ostringstream s;
    s << "CgOptions::tolerance = " << options.tolerance << " must be finite and >= 0";
    fail(s.str());
  }
  if (options.max_iterations < 0) fail("CgOptions::max_iterations = " + std::to_string(options.max_iterations) + " is negative");
  if (options.check_interval < 0) fail("CgOptions::check_interval = " + std::to_string(options.check_interval) + " is negative");
  if (options.float_spmv && !std::is_same<Scalar, double>::value) {
    fail("CgOptions::float_spmv rounds A's values to float: it needs double values");
  }
  if (options.float_spmv && (options.path == CgPath::fused_team || options.path == CgPath::fused_grid)) {
    fail(std::string("CgOptions::float_spmv runs on the separate path, not ") + to_string(options.path));
  }
  if ((options.path == CgPath::fused_team || options.path == CgPath::fused_grid) &&
      options.max_iterations > cg_fused_max_iterations) {
    fail("CgOptions::max_iterations = " + std::to_string(options.max_iterations) + ": the " + to_string(options.path) +
         " path keeps its residual history on the device, at most " + std::to_string(cg_fused_max_iterations) +
         " iterations");
  }
}

// A's CSR arrays and CG's six vectors, the bytes the fused path keeps on one multiprocessor.
template <class Scalar, class Ordinal, class Offset, class Device>
double cg_system_bytes(const CsrMatrix<Scalar, Ordinal, Offset, Device>& A) {
  return double(A.nnz()) * (sizeof(Scalar) + sizeof(Ordinal)) + double(A.num_rows() + 1) * sizeof(Offset) +
         6.0 * double(A.num_rows()) * sizeof(Scalar);
}

// Rows and lanes a row of the grid kernel, and its blocks (0 where it cannot run here).
struct CgGridShape {
  int group_size = 1;
  int64_t blocks = 0;
};
template <class Scalar, class Ordinal, class Offset, class Device>
CgGridShape cg_grid_shape(const CsrMatrix<Scalar, Ordinal, Offset, Device>& A) {
  using ExecSpace = typename Device::execution_space;
  CgGridShape shape;
#if defined(KSPMV_HAVE_RAW_GPU)
  if constexpr (raw_available<ExecSpace, Scalar, Ordinal, Offset>()) {
    const double average = A.num_rows() > 0 ? double(A.nnz()) / double(A.num_rows()) : 0.0;
    shape.group_size = lanes_for_average_row_length(average, raw::wave_size());
    shape.blocks = raw::cg_grid_blocks<Scalar, Ordinal, Offset>(A.num_rows(), shape.group_size);
  }
#endif
  (void)A;
  return shape;
}

// The path cg takes; throws for fused_grid where it cannot run.
template <class Scalar, class Ordinal, class Offset, class Device, class BView, class XView>
CgPath cg_path_for(const CsrMatrix<Scalar, Ordinal, Offset, Device>& A, const BView& b, const XView& x,
                   const CgOptions& options, CgGridShape& grid) {
  using ExecSpace = typename Device::execution_space;
  if (options.path == CgPath::separate || options.path == CgPath::fused_team) return options.path;
  if (options.float_spmv) return CgPath::separate;  // where fewer bytes of A pay
  if (is_contiguous(b) && is_contiguous(x)) grid = cg_grid_shape(A);
  if (options.path == CgPath::fused_grid) {
    if (grid.blocks == 0) {
      throw std::invalid_argument(
          "kspmv::cg: CgPath::fused_grid needs the raw GPU kernels (a CUDA or HIP build, float or double values, int "
          "or int64_t indices), contiguous b and x, and a GPU that launches kernels cooperatively; not available "
          "here (" + std::string(ExecSpace::name()) + ")");
    }
    return CgPath::fused_grid;
  }
  switch (cg_path<ExecSpace>(cg_system_bytes(A), options.max_iterations, grid.blocks > 0)) {
    case CgKernel::fused_grid: return CgPath::fused_grid;
    case CgKernel::fused_team: return CgPath::fused_team;
    default: return CgPath::separate;
  }
}

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// w.w for a real vector w, summed in double.
template <class View>
struct CgSquaredNorm {
  View w;
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t i, double& s) const { s += double(w(i)) * double(w(i)); }
};

// ||b - A x|| / ||b|| (0 when b.b = 0) by the plan's SpMV, with w as scratch.
template <class ExecSpace, class PlanType, class BView, class XView, class WView>
double cg_true_residual(const ExecSpace& space, const PlanType& plan, const BView& b, const XView& x, const WView& w,
                        double bb) {
  if (bb == 0) return 0;
  Kokkos::deep_copy(space, w, b);
  plan.apply(space, -1, x, 1, w);
  double ww = 0;
  Kokkos::parallel_reduce("kspmv::cg[residual]",
                          Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(space, 0, int64_t(w.extent(0))),
                          CgSquaredNorm<WView>{w}, ww);
  return std::sqrt(ww / bb);
}

inline void cg_describe(CgResult& result, double tolerance, int64_t max_iterations, int64_t first_bad_row = -1) {
  std::ostringstream s;
  switch (result.status) {
    case CgStatus::converged:
      s << "converged in " << result.iterations << " iterations: ||r|| <= " << tolerance << " ||b||";
      break;
    case CgStatus::max_iterations:
      s << "not converged after " << max_iterations << " iterations (||r|| / ||b|| = "
        << (result.residual_history.empty() ? 0.0 : result.residual_history.back()) << ")";
      break;
    case CgStatus::indefinite:
      if (first_bad_row >= 0) {
        s << "the diagonal entry of row " << first_bad_row
          << " is not positive (or missing): A is not symmetric positive definite";
      } else {
        s << "p.(A p) <= 0 at iteration " << result.iterations + 1 << ": A is not symmetric positive definite";
      }
      break;
    case CgStatus::breakdown:
      s << "r.z <= 0 (or NaN) after iteration " << result.iterations
        << " before convergence: A, b or x0 hold NaN or infinity, or A is not symmetric positive definite";
      break;
  }
  result.message = s.str();
}

inline CgStatus cg_status_of(int code) {
  switch (code) {
    case cg_converged: return CgStatus::converged;
    case cg_indefinite: return CgStatus::indefinite;
    case cg_lost_positivity: return CgStatus::breakdown;
    default: return CgStatus::max_iterations;
  }
}

// With jacobi, allocates and fills `inverse` with 1 / A(i, i); returns the first row whose
// diagonal is not positive, or -1.
template <class ExecSpace, class Matrix, class Vector>
typename Matrix::ordinal_type cg_jacobi(const ExecSpace& space, const Matrix& A, bool jacobi, Vector& inverse) {
  if (!jacobi) return -1;
  inverse = Vector(Kokkos::view_alloc(space, "kspmv::cg::inverse_diagonal"), A.num_rows());
  return cg_inverse_diagonal(space, A, inverse);
}

// The fused paths: one kernel runs the whole solve (one team, or the whole GPU cooperatively)
// and leaves its outcome and residual history in `record`, which the host reads at the end.
template <class Scalar, class Ordinal, class Offset, class Device, class BView, class XView>
CgResult cg_fused(const CsrMatrix<Scalar, Ordinal, Offset, Device>& A, const BView& b, const XView& x,
                  const CgOptions& options, CgPath path, const CgGridShape& grid) {
  using ExecSpace = typename Device::execution_space;
  using Vector = Kokkos::View<Scalar*, Device>;
  const auto t0 = std::chrono::steady_clock::now();
  const ExecSpace space;
  CgResult result;
  result.path = to_string(path);
  const Ordinal n = A.num_rows();
  Vector inverse;
  const Ordinal first_bad_row = cg_jacobi(space, A, options.jacobi, inverse);
  const Vector r(Kokkos::view_alloc(space, "kspmv::cg::r"), n), z(Kokkos::view_alloc(space, "kspmv::cg::z"), n),
      p(Kokkos::view_alloc(space, "kspmv::cg::p"), n), q(Kokkos::view_alloc(space, "kspmv::cg::q"), n);
  // {iterations, halt code, b.b, ||b - A x||^2, then r.r after iteration 0, 1, ...}
  const int64_t record_size = 5 + options.max_iterations;
  const Kokkos::View<double*, Device> record(Kokkos::view_alloc(space, "kspmv::cg::record"), record_size);
  const Kokkos::View<double*, Device> partials(Kokkos::view_alloc(space, "kspmv::cg::partials"),
                                               path == CgPath::fused_grid ? 6 * grid.blocks : 0);
  space.fence();
  result.setup_seconds = seconds_since(t0);
  const auto t1 = std::chrono::steady_clock::now();
  // A diagonal entry that is not positive ends it before the first iteration, with the
  // residual of the x given (the kernel with max_iterations 0 computes it).
  const int64_t max_iterations = first_bad_row >= 0 ? 0 : options.max_iterations;
  const double tolerance_squared = options.tolerance * options.tolerance;
  if (path == CgPath::fused_grid) {
#if defined(KSPMV_HAVE_RAW_GPU)
    if constexpr (raw_available<ExecSpace, Scalar, Ordinal, Offset>()) {
      const raw::CgGridArguments<Scalar, Ordinal, Offset> arguments{
          int64_t(n), A.row_offsets.data(), A.col_indices.data(), A.values.data(), b.data(),
          options.jacobi ? inverse.data() : nullptr, x.data(), r.data(), z.data(), p.data(), q.data(),
          partials.data(), record.data(), max_iterations, tolerance_squared, grid.group_size};
      raw::cg_grid(native_stream(space), grid.blocks, arguments);
    }
#endif
  } else {
    using Functor = CgFusedSolve<ExecSpace, Scalar, Ordinal, Offset, Device>;
    const Functor solve{A.row_offsets, A.col_indices, A.values, b, inverse, x, r, z, p, q, record, n,
                        max_iterations, tolerance_squared, options.jacobi};
    const Kokkos::TeamPolicy<ExecSpace> probe(space, 1, 1);
    const int team_size = std::max(1, probe.team_size_max(solve, Kokkos::ParallelForTag()));
    Kokkos::parallel_for("kspmv::cg[fused_team]", Kokkos::TeamPolicy<ExecSpace>(space, 1, team_size), solve);
  }
  // One copy brings the outcome and the first 1024 residuals; a longer history takes a second.
  const int64_t first_part = std::min<int64_t>(record_size, 4 + 1024);
  const auto head = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(record, std::make_pair(int64_t(0), first_part)));
  result.iterations = int64_t(head(0));
  result.status = first_bad_row >= 0 ? CgStatus::indefinite : cg_status_of(int(head(1)));
  const double bb = head(2);
  result.residual = bb > 0 ? std::sqrt(head(3) / bb) : 0.0;
  const int64_t history_end = 5 + result.iterations;
  std::vector<double> rr(head.data() + 4, head.data() + std::min(first_part, history_end));
  if (history_end > first_part) {
    const auto tail = Kokkos::create_mirror_view_and_copy(
        Kokkos::HostSpace(), Kokkos::subview(record, std::make_pair(first_part, history_end)));
    rr.insert(rr.end(), tail.data(), tail.data() + tail.extent(0));
  }
  for (const double v : rr) result.residual_history.push_back(bb > 0 ? std::sqrt(v / bb) : 0.0);
  result.solve_seconds = seconds_since(t1);
  cg_describe(result, options.tolerance, options.max_iterations, first_bad_row);
  return result;
}

template <class Scalar, class Ordinal, class Offset, class Device, class BView, class XView>
CgResult cg_separate(const Plan<Scalar, Ordinal, Offset, Device>& plan, const BView& b, const XView& x,
                     const CgOptions& options, double plan_seconds) {
  using ExecSpace = typename Device::execution_space;
  using Vector = Kokkos::View<Scalar*, Device>;
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Ordinal>>;
  const auto t0 = std::chrono::steady_clock::now();
  const ExecSpace space;
  const auto& A = plan.csr();
  CgResult result;
  result.path = "separate";
  const Ordinal n = A.num_rows();
  Vector inverse;
  const Ordinal first_bad_row = cg_jacobi(space, A, options.jacobi, inverse);
  const Vector r(Kokkos::view_alloc(space, "kspmv::cg::r"), n), p(Kokkos::view_alloc(space, "kspmv::cg::p"), n),
      q(Kokkos::view_alloc(space, "kspmv::cg::q"), n);
  const Vector z = options.jacobi ? Vector(Kokkos::view_alloc(space, "kspmv::cg::z"), n) : r;
  CgRing<Device> ring;
  ring.slots = cg_max_check_interval + 1;
  ring.pq = Kokkos::View<double*, Device>(Kokkos::view_alloc(space, "kspmv::cg::pq"), ring.slots);
  ring.sums = Kokkos::View<double**, Kokkos::LayoutRight, Device>(Kokkos::view_alloc(space, "kspmv::cg::sums"), ring.slots, 3);
  ring.halt = Kokkos::View<int*, Device>(Kokkos::view_alloc(space, "kspmv::cg::halt"), ring.slots);
  space.fence();
  result.setup_seconds = plan_seconds + seconds_since(t0);
  const auto t1 = std::chrono::steady_clock::now();

  // r = b - A x; z, p, and r.z, r.r, b.b into slot 0.
  Kokkos::deep_copy(space, r, b);
  plan.apply(space, -1, x, 1, r);
  Kokkos::parallel_reduce("kspmv::cg[start]", Policy(space, 0, n),
                          CgStart<Scalar, Ordinal, Device>{{}, b, r, inverse, z, p, options.jacobi},
                          Kokkos::subview(ring.sums, 0, Kokkos::ALL));
  const auto sums_host = Kokkos::create_mirror_view(ring.sums);
  const auto halt_host = Kokkos::create_mirror_view(ring.halt);
  Kokkos::deep_copy(space, sums_host, ring.sums);
  space.fence();
  const double bb = sums_host(0, 2);
  const double converged_rr = options.tolerance * options.tolerance * bb;
  result.residual_history.push_back(bb > 0 ? std::sqrt(sums_host(0, 1) / bb) : 0.0);
  bool stopped = true;
  std::string float_note;
  if (first_bad_row >= 0) {
    result.status = CgStatus::indefinite;
  } else if (bb == 0 || sums_host(0, 1) <= converged_rr) {
    result.status = CgStatus::converged;
  } else if (!(sums_host(0, 0) > 0)) {
    result.status = CgStatus::breakdown;
  } else {
    stopped = false;
  }
  // Mixed precision: the iterations' SpMV on A's values in float (see CgOptions::float_spmv).
  CsrMatrix<float, Ordinal, Offset, Device> float_values;
  bool mixed = false;
  if constexpr (std::is_same<Scalar, double>::value) {
    if (options.float_spmv && !stopped) {
      auto [narrowed, lost] = csr_with_narrowed_values(A);
      if (lost == 0) {
        float_values = narrowed;
        mixed = true;
      } else {
        float_note = "; float_spmv refused: " + std::to_string(lost) + " values overflow or vanish in float, double kept";
      }
    }
  }
  // r = b - A x with A in double, then z and r.z, r.r into `slot`.
  const auto replace_residual = [&](int slot) {
    Kokkos::deep_copy(space, r, b);
    plan.apply(space, -1, x, 1, r);
    Kokkos::parallel_reduce("kspmv::cg[replace]", Policy(space, 0, n),
                            CgReplace<Scalar, Ordinal, Device>{{}, r, inverse, z, options.jacobi},
                            Kokkos::subview(ring.sums, slot, Kokkos::ALL));
  };
  // The iteration's vector steps: the raw kernels of src/raw/cg_steps.hpp on a GPU (faster than
  // Kokkos' reductions there; the same sums in a fixed order), these functors elsewhere.
#if defined(KSPMV_HAVE_RAW_GPU)
  Kokkos::View<double*, Device> step_partials;
  Kokkos::View<unsigned, Device> step_counter;
  bool raw_steps = false;
  if constexpr (raw_available<ExecSpace, Scalar, Ordinal, Offset>()) {
    raw_steps = is_contiguous(x);
    if (raw_steps) {
      step_partials = Kokkos::View<double*, Device>(Kokkos::view_alloc(space, "kspmv::cg::partials"),
                                                    2 * raw::cg_step_blocks(int64_t(n)));
      step_counter = Kokkos::View<unsigned, Device>(Kokkos::view_alloc(space, "kspmv::cg::counter"));
    }
  }
  (void)raw_steps;
  // (Generic: instantiated only where the raw kernels take this Scalar.)
  const auto step = [&](int slot, int previous, bool verified, auto raw_step) {
    const raw::CgStepArguments<Scalar> a{int64_t(n), options.jacobi ? inverse.data() : nullptr, x.data(), r.data(),
                                         options.jacobi ? z.data() : nullptr, p.data(), q.data(), ring.pq.data(),
                                         ring.sums.data(), ring.halt.data(), slot, previous, converged_rr, verified,
                                         step_partials.data(), step_counter.data()};
    raw_step(native_stream(space), a);
  };
#endif
  const auto curvature = [&](int slot, int previous) {
#if defined(KSPMV_HAVE_RAW_GPU)
    if constexpr (raw_available<ExecSpace, Scalar, Ordinal, Offset>()) {
      if (raw_steps) return step(slot, previous, true, &raw::cg_curvature<Scalar>);
    }
#endif
    Kokkos::parallel_reduce("kspmv::cg[curvature]", Policy(space, 0, n),
                            CgCurvature<Scalar, Ordinal, Device>{p, q, ring.halt, previous}, Kokkos::subview(ring.pq, slot));
  };
  const auto update = [&](int slot, int previous) {
#if defined(KSPMV_HAVE_RAW_GPU)
    if constexpr (raw_available<ExecSpace, Scalar, Ordinal, Offset>()) {
      if (raw_steps) return step(slot, previous, true, &raw::cg_update<Scalar>);
    }
#endif
    Kokkos::parallel_reduce(
        "kspmv::cg[update]", Policy(space, 0, n),
        CgUpdate<Scalar, Ordinal, Device>{{}, p, q, inverse, x, r, z, ring.pq, ring.sums, ring.halt, slot, previous, options.jacobi},
        Kokkos::subview(ring.sums, slot, Kokkos::ALL));
  };
  const auto direction = [&](int slot, int previous, bool verified) {
#if defined(KSPMV_HAVE_RAW_GPU)
    if constexpr (raw_available<ExecSpace, Scalar, Ordinal, Offset>()) {
      if (raw_steps) return step(slot, previous, verified, &raw::cg_direction<Scalar>);
    }
#endif
    Kokkos::parallel_for("kspmv::cg[direction]", Policy(space, 0, n),
                         CgDirection<Scalar, Ordinal, Device>{z, p, ring.pq, ring.sums, ring.halt, slot, previous,
                                                              converged_rr, verified});
  };
  if (!stopped) {
    Kokkos::deep_copy(space, ring.halt, int(cg_running));
    int64_t checked = 0;
    int64_t next_check = 1;
    for (int64_t k = 1; k <= options.max_iterations && !stopped; ++k) {
      const int slot = int(k % ring.slots), previous = int((k - 1) % ring.slots);
      if constexpr (std::is_same<Scalar, double>::value) {
        if (mixed) {
          kspmv::spmv(space, 1.0, float_values, p, 0.0, q);
        } else {
          plan.apply(space, 1, p, 0, q);
        }
      } else {
        plan.apply(space, 1, p, 0, q);
      }
      curvature(slot, previous);
      update(slot, previous);
      direction(slot, previous, !mixed);
      if (k != next_check && k != options.max_iterations) continue;
      Kokkos::deep_copy(space, sums_host, ring.sums);
      Kokkos::deep_copy(space, halt_host, ring.halt);
      space.fence();
      for (int64_t j = checked + 1; j <= k && !stopped; ++j) {
        const int s = int(j % ring.slots);
        int code = halt_host(s);
        if (code == cg_unverified) {
          // The recurrence says converged: check the true residual, and if it is not met,
          // restart from iteration j's x (the iterations launched after j did nothing).
          replace_residual(s);
          Kokkos::deep_copy(space, sums_host, ring.sums);
          space.fence();
          code = sums_host(s, 1) <= converged_rr ? cg_converged : !(sums_host(s, 0) > 0) ? cg_lost_positivity : cg_running;
          if (code == cg_running) {
            ++result.restarts;
            Kokkos::deep_copy(space, p, z);
            Kokkos::deep_copy(space, Kokkos::subview(ring.halt, s), int(cg_running));
            result.iterations = j;
            result.residual_history.push_back(std::sqrt(sums_host(s, 1) / bb));
            k = j;
            break;
          }
        }
        if (code == cg_indefinite) {
          result.iterations = j - 1;
        } else {
          result.iterations = j;
          result.residual_history.push_back(std::sqrt(sums_host(s, 1) / bb));
        }
        if (code != cg_running) {
          result.status = cg_status_of(code);
          stopped = true;
        }
      }
      checked = k;
      next_check = k + cg_check_interval<ExecSpace>(k, options.check_interval);
    }
    if (!stopped) result.status = CgStatus::max_iterations;
  }
  if (bb == 0) Kokkos::deep_copy(space, x, Scalar(0));  // b = 0: x = 0 solves it exactly
  result.residual = cg_true_residual(space, plan, b, x, q, bb);
  space.fence();
  result.solve_seconds = seconds_since(t1);
  cg_describe(result, options.tolerance, options.max_iterations, first_bad_row);
  if (mixed) {
    result.message += "; SpMV on A's values in float, " + std::to_string(result.restarts) +
                      " restarts from the true residual";
  }
  result.message += float_note;
  return result;
}

// Runs solve(bc, xc) on b and x themselves where they are contiguous, else on contiguous copies
// (x's copied back after): the paths' functors and kernels hold plain (contiguous) Views, which a
// strided vector cannot be assigned to.
template <class Scalar, class Device, class BView, class XView, class Solve>
CgResult cg_on_contiguous(const BView& b, const XView& x, Solve&& solve) {
  using Vector = Kokkos::View<Scalar*, Device>;
  if (!is_contiguous(b)) {
    const Vector copy(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::cg::b"), b.extent(0));
    Kokkos::deep_copy(copy, b);
    return cg_on_contiguous<Scalar, Device>(copy, x, solve);
  }
  if (is_contiguous(x)) return solve(b, x);
  const Vector copy(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::cg::x"), x.extent(0));
  Kokkos::deep_copy(copy, x);
  CgResult result = solve(b, copy);
  Kokkos::deep_copy(x, copy);
  return result;
}

}  // namespace impl

/// Solves A x = b by conjugate gradients (see the file comment) with the SpMV of `plan`, built
/// by the caller for A (mode "N"; its expected uses about max_iterations), so that repeated
/// solves with A pay for the plan once. x holds the starting guess and receives the solution
/// (strided b or x are solved in contiguous copies, x's copied back at the end).
/// Throws std::invalid_argument, before any work, for a non-square A, b or x of another length
/// than A's rows, x sharing b's memory, a tolerance that is negative or not finite, a negative
/// max_iterations or check_interval, or a plan in another mode than "N". A that turns out not
/// to be SPD is not an exception: the result says indefinite (p.(A p) <= 0, or a diagonal entry
/// <= 0 with jacobi) and x holds the last iterate before it; b = 0 gives x = 0. A fused path, if
/// taken, runs its own SpMV on the plan's CsrMatrix inside the kernel, not the plan's format.
template <class Scalar, class Ordinal, class Offset, class Device, class BView, class XView>
CgResult cg(const Plan<Scalar, Ordinal, Offset, Device>& plan, const BView& b, const XView& x,
            const CgOptions& options = CgOptions()) {
  impl::check_cg_arguments(plan.csr(), b, x, options);
  if (plan.operation_mode() != "N") {
    throw std::invalid_argument("kspmv::cg: the plan applies op(A) in mode \"" + plan.operation_mode() +
                                "\"; CG needs a plan in mode \"N\"");
  }
  return impl::cg_on_contiguous<Scalar, Device>(b, x, [&](const auto& bc, const auto& xc) {
    impl::CgGridShape grid;
    const CgPath path = impl::cg_path_for(plan.csr(), bc, xc, options, grid);
    if (path != CgPath::separate) return impl::cg_fused(plan.csr(), bc, xc, options, path, grid);
    return impl::cg_separate(plan, bc, xc, options, 0.0);
  });
}

/// Solves A x = b by conjugate gradients; on the separate path it first builds a kspmv::Plan for
/// A with cg_plan_options(options) (its time counts in setup_seconds). Otherwise as the overload
/// taking a plan.
template <class Scalar, class Ordinal, class Offset, class Device, class BView, class XView>
CgResult cg(const CsrMatrix<Scalar, Ordinal, Offset, Device>& A, const BView& b, const XView& x,
            const CgOptions& options = CgOptions()) {
  impl::check_cg_arguments(A, b, x, options);
  return impl::cg_on_contiguous<Scalar, Device>(b, x, [&](const auto& bc, const auto& xc) {
    impl::CgGridShape grid;
    const CgPath path = impl::cg_path_for(A, bc, xc, options, grid);
    if (path != CgPath::separate) return impl::cg_fused(A, bc, xc, options, path, grid);
    const auto t0 = std::chrono::steady_clock::now();
    const Plan<Scalar, Ordinal, Offset, Device> plan(A, cg_plan_options(options));
    return impl::cg_separate(plan, bc, xc, options, impl::seconds_since(t0));
  });
}

}  // namespace kspmv
