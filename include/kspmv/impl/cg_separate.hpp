#pragma once
// kspmv::cg's separate-kernel path: per iteration the SpMV q = A*p (the caller's Plan) and three
// vector kernels (these functors; on a GPU the raw kernels of src/raw/cg_steps.hpp, which do the
// same), every scalar kept on the device so that the host never waits for an iteration
// to end; it reads what happened every check_interval iterations. A CG built from separate
// library calls reads p.q and r.r back on the host every iteration, and the GPU idles for each.
//
// The scalars of iteration k live in slot k % slots of small device rings: pq (p.q), sums (r.z,
// r.r) and halt (0: go on; otherwise why CG stopped at iteration k). A kernel reads the slots
// earlier kernels wrote and writes only its own, so no thread reads what another thread of the
// same kernel writes; iterations launched after a halt return at once (only their SpMV runs).

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

namespace kspmv {
namespace impl {

/// Why an iteration of CG stopped it (0: it did not).
enum CgHalt : int {
  cg_running = 0,
  cg_converged = 1,        // ||r|| <= tolerance * ||b||
  cg_indefinite = 2,       // p.(A p) <= 0 (or NaN): A is not symmetric positive definite
  cg_lost_positivity = 3,  // r.z <= 0 (or NaN) with r != 0: the preconditioned residual broke down
  cg_unverified = 4,       // mixed precision: the recurrence's ||r|| met the tolerance; the host checks
                           // it on the true residual b - A x (A in double) and restarts if it is not met
};

template <class Device>
struct CgRing {
  Kokkos::View<double*, Device> pq;
  Kokkos::View<double**, Kokkos::LayoutRight, Device> sums;  // (slot, {r.z, r.r, b.b})
  Kokkos::View<int*, Device> halt;
  int slots = 0;
};

// Reductions of three sums at once (r.z, r.r, b.b), into a slot of the ring.
#if KOKKOS_VERSION < 30700
#define KSPMV_CG_JOIN_VOLATILE volatile
#else
#define KSPMV_CG_JOIN_VOLATILE
#endif
struct CgThreeSums {
  using value_type = double[];
  const unsigned value_count = 3;
  KOKKOS_INLINE_FUNCTION void init(value_type s) const { s[0] = s[1] = s[2] = 0; }
  KOKKOS_INLINE_FUNCTION void join(KSPMV_CG_JOIN_VOLATILE value_type dst, const KSPMV_CG_JOIN_VOLATILE value_type src) const {
    dst[0] += src[0];
    dst[1] += src[1];
    dst[2] += src[2];
  }
};
#undef KSPMV_CG_JOIN_VOLATILE

// The start: z = M^-1 r, p = z, and r.z, r.r, b.b (r = b - A x already).
template <class Scalar, class Ordinal, class Device>
struct CgStart : CgThreeSums {
  Kokkos::View<const Scalar*, Device> b, r, inverse_diagonal;
  Kokkos::View<Scalar*, Device> z, p;
  bool jacobi;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, value_type s) const {
    const Scalar zi = jacobi ? r(i) * inverse_diagonal(i) : r(i);
    if (jacobi) z(i) = zi;
    p(i) = zi;
    s[0] += double(r(i)) * double(zi);
    s[1] += double(r(i)) * double(r(i));
    s[2] += double(b(i)) * double(b(i));
  }
};

// p.q of iteration k.
template <class Scalar, class Ordinal, class Device>
struct CgCurvature {
  Kokkos::View<const Scalar*, Device> p, q;
  Kokkos::View<const int*, Device> halt;
  int previous;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, double& s) const {
    if (halt(previous) != cg_running) return;
    s += double(p(i)) * double(q(i));
  }
};

// x += alpha p, r -= alpha q, z = M^-1 r, and r.z, r.r of iteration k.
template <class Scalar, class Ordinal, class Device>
struct CgUpdate : CgThreeSums {
  Kokkos::View<const Scalar*, Device> p, q, inverse_diagonal;
  Kokkos::View<Scalar*, Device> x, r, z;
  Kokkos::View<const double*, Device> pq;
  Kokkos::View<const double**, Kokkos::LayoutRight, Device> sums;
  Kokkos::View<const int*, Device> halt;
  int slot, previous;
  bool jacobi;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, value_type s) const {
    if (halt(previous) != cg_running || !(pq(slot) > 0)) return;
    const Scalar alpha = Scalar(sums(previous, 0) / pq(slot));
    x(i) += alpha * p(i);
    const Scalar ri = r(i) - alpha * q(i);
    r(i) = ri;
    const Scalar zi = jacobi ? ri * inverse_diagonal(i) : ri;
    if (jacobi) z(i) = zi;
    s[0] += double(ri) * double(zi);
    s[1] += double(ri) * double(ri);
  }
};

// Mixed precision's residual replacement: with r just recomputed as b - A x (A in double),
// z = M^-1 r and r.z, r.r of iteration k, in place of the recurrence's.
template <class Scalar, class Ordinal, class Device>
struct CgReplace : CgThreeSums {
  Kokkos::View<const Scalar*, Device> r, inverse_diagonal;
  Kokkos::View<Scalar*, Device> z;
  bool jacobi;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, value_type s) const {
    const Scalar zi = jacobi ? r(i) * inverse_diagonal(i) : r(i);
    if (jacobi) z(i) = zi;
    s[0] += double(r(i)) * double(zi);
    s[1] += double(r(i)) * double(r(i));
  }
};

// Decides whether iteration k stops CG (written to halt(slot) by thread 0 alone; every thread
// reaches the same decision from the same scalars), and otherwise p = z + beta p.
template <class Scalar, class Ordinal, class Device>
struct CgDirection {
  Kokkos::View<const Scalar*, Device> z;
  Kokkos::View<Scalar*, Device> p;
  Kokkos::View<const double*, Device> pq;
  Kokkos::View<const double**, Kokkos::LayoutRight, Device> sums;
  Kokkos::View<int*, Device> halt;
  int slot, previous;
  double converged_rr;  // tolerance^2 * b.b
  bool verified;        // false with mixed precision: a recurrence that meets the tolerance is unverified
  KOKKOS_INLINE_FUNCTION int decision() const {
    if (halt(previous) != cg_running) return halt(previous);
    if (!(pq(slot) > 0)) return cg_indefinite;
    if (sums(slot, 1) <= converged_rr) return verified ? cg_converged : cg_unverified;
    if (!(sums(slot, 0) > 0)) return cg_lost_positivity;
    return cg_running;
  }
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const {
    const int code = decision();
    if (i == 0) halt(slot) = code;
    if (code != cg_running) return;
    const Scalar beta = Scalar(sums(slot, 0) / sums(previous, 0));
    p(i) = z(i) + beta * p(i);
  }
};

}  // namespace impl
}  // namespace kspmv
