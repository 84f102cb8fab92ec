#pragma once
// kspmv::cg's fused path: the whole solve in one kernel of one team, for systems small enough
// that one multiprocessor (one CPU thread team) keeps A and the vectors in its caches. Its
// iterations synchronise with team barriers instead of kernel launches and host round trips:
// on a GPU a launch costs microseconds, which on such a system is more than the iteration's
// arithmetic. Thread i of the team owns rows i, i + team_size, ...; sums are team reductions
// (every thread gets the same value, so every thread takes the same branch).

#include <Kokkos_Core.hpp>

#include "cg_separate.hpp"

#include <cstdint>

namespace kspmv {
namespace impl {

template <class ExecSpace, class Scalar, class Ordinal, class Offset, class Device>
struct CgFusedSolve {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Kokkos::View<const Offset*, Device> row_offsets;
  Kokkos::View<const Ordinal*, Device> col_indices;
  Kokkos::View<const Scalar*, Device> values, b, inverse_diagonal;
  Kokkos::View<Scalar*, Device> x, r, z, p, q;
  // What the host reads back, in one array so that one copy usually brings all of it:
  // {iterations, halt code, b.b, ||b - A x||^2 at the end, then r.r after iteration k = 0, 1, ...}.
  Kokkos::View<double*, Device> record;
  Ordinal n;
  int64_t max_iterations;
  double tolerance_squared;
  bool jacobi;

  KOKKOS_INLINE_FUNCTION Scalar row_times(const Ordinal i, const Kokkos::View<Scalar*, Device>& v) const {
    Scalar s = 0;
    for (Offset k = row_offsets(i); k < row_offsets(i + 1); ++k) s += values(k) * v(col_indices(k));
    return s;
  }
  KOKKOS_INLINE_FUNCTION double dot(const member_type& t, const Kokkos::View<Scalar*, Device>& u,
                                    const Kokkos::View<Scalar*, Device>& v) const {
    double s = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(t, n), [&](const Ordinal i, double& sum) { sum += double(u(i)) * double(v(i)); }, s);
    return s;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& t) const {
    // r = b - A x, z = M^-1 r, p = z
    Kokkos::parallel_for(Kokkos::TeamThreadRange(t, n), [&](const Ordinal i) {
      const Scalar ri = b(i) - row_times(i, x);
      r(i) = ri;
      const Scalar zi = jacobi ? ri * inverse_diagonal(i) : ri;
      z(i) = zi;
      p(i) = zi;
    });
    t.team_barrier();
    double bb = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(t, n), [&](const Ordinal i, double& sum) { sum += double(b(i)) * double(b(i)); }, bb);
    if (bb == 0) {  // x = 0 solves A x = 0 exactly
      Kokkos::parallel_for(Kokkos::TeamThreadRange(t, n), [&](const Ordinal i) { x(i) = Scalar(0); });
      Kokkos::single(Kokkos::PerTeam(t), [&]() {
        record(0) = 0;
        record(1) = cg_converged;
        record(2) = record(3) = record(4) = 0;
      });
      return;
    }
    double rz = dot(t, r, z), rr = dot(t, r, r);
    const double converged_rr = tolerance_squared * bb;
    Kokkos::single(Kokkos::PerTeam(t), [&]() { record(4) = rr; });
    int64_t k = 0;
    int code = rr <= converged_rr ? cg_converged : !(rz > 0) ? cg_lost_positivity : cg_running;
    while (code == cg_running && k < max_iterations) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(t, n), [&](const Ordinal i) { q(i) = row_times(i, p); });
      t.team_barrier();
      const double pq = dot(t, p, q);
      if (!(pq > 0)) {
        code = cg_indefinite;
        break;
      }
      ++k;
      const Scalar alpha = Scalar(rz / pq);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(t, n), [&](const Ordinal i) {
        x(i) += alpha * p(i);
        const Scalar ri = r(i) - alpha * q(i);
        r(i) = ri;
        z(i) = jacobi ? ri * inverse_diagonal(i) : ri;
      });
      t.team_barrier();
      const double rz_next = dot(t, r, z);
      rr = dot(t, r, r);
      Kokkos::single(Kokkos::PerTeam(t), [&]() { record(4 + k) = rr; });
      if (rr <= converged_rr) {
        code = cg_converged;
      } else if (!(rz_next > 0)) {
        code = cg_lost_positivity;
      } else {
        const Scalar beta = Scalar(rz_next / rz);
        rz = rz_next;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(t, n), [&](const Ordinal i) { p(i) = z(i) + beta * p(i); });
        t.team_barrier();
      }
    }
    // The true residual of the x returned, q as scratch.
    t.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(t, n), [&](const Ordinal i) { q(i) = b(i) - row_times(i, x); });
    t.team_barrier();
    const double true_rr = dot(t, q, q);
    Kokkos::single(Kokkos::PerTeam(t), [&]() {
      record(0) = double(k);
      record(1) = code;
      record(2) = bb;
      record(3) = true_rr;
    });
  }
};

}  // namespace impl
}  // namespace kspmv
