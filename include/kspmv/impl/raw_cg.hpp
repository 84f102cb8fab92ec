#pragma once
// The raw GPU path's CG (kspmv::cg's grid path): its interface, compiled in src/raw/raw_spmv.cpp
// as CUDA or HIP for the types of raw::supports() when KSPMV_HAVE_RAW_GPU is defined.

#include <cstdint>

namespace kspmv {
namespace impl {
namespace raw {

/// Why the grid kernel's CG, or an iteration of the separate path's steps, stopped (the codes of
/// impl::CgHalt).
enum CgGridHalt : int {
  cg_grid_running = 0,
  cg_grid_converged = 1,
  cg_grid_indefinite = 2,
  cg_grid_lost_positivity = 3,
  cg_grid_unverified = 4  // the separate path with mixed precision only
};

/// What the grid kernel reads and writes: A in CSR (n x n), b, x (the start, then the solution),
/// work vectors r, z, p, q of n entries (z may be r without a preconditioner), inverse the Jacobi
/// diagonal or nullptr; partials 6 doubles a block; record as the fused team kernel's:
/// {iterations, halt code, b.b, ||b - A x||^2, then r.r after iteration 0, 1, ...}
/// (max_iterations + 5 doubles). group_size lanes (a power of two <= wave_size()) a row.
template <class S, class O, class Off>
struct CgGridArguments {
  int64_t n;
  const Off* offsets;
  const O* cols;
  const S* vals;
  const S* b;
  const S* inverse;
  S* x;
  S* r;
  S* z;
  S* p;
  S* q;
  double* partials;
  double* record;
  int64_t max_iterations;
  double tolerance_squared;
  int group_size;
};

/// Blocks the grid kernel will run for n rows (all resident at once; partials needs 6 doubles
/// each), or 0 if this GPU cannot launch it cooperatively.
template <class S, class O, class Off>
int64_t cg_grid_blocks(int64_t n, int group_size);

/// Runs the whole CG solve in one cooperative launch of `blocks` blocks (from cg_grid_blocks) on
/// stream; the host reads the record afterwards.
template <class S, class O, class Off>
void cg_grid(void* stream, int64_t blocks, const CgGridArguments<S, O, Off>& arguments);

/// The separate path's vector steps (kspmv::cg on a GPU): what they read and write. Vectors of n
/// entries: x (the caller's, contiguous), r, z (nullptr without a preconditioner: z is r), p, q;
/// inverse the Jacobi diagonal or nullptr. The scalars live in the rings of impl::CgRing: pq[s],
/// sums[3 s + {0: r.z, 1: r.r}], halt[s] (CgHalt codes) for slot s; each step reads slot
/// `previous` (and `slot` where an earlier step of the iteration wrote it) and writes `slot`.
/// partials holds 2 doubles a block of cg_step_blocks(n) and counter one unsigned, zero before
/// the first step; each step leaves it zero again.
template <class S>
struct CgStepArguments {
  int64_t n;
  const S* inverse;
  S* x;
  S* r;
  S* z;
  S* p;
  const S* q;
  double* pq;
  double* sums;
  int* halt;
  int slot;
  int previous;
  double converged_rr;  // tolerance^2 * b.b
  bool verified;        // false with mixed precision (see impl::CgDirection)
  double* partials;
  unsigned* counter;
};

/// Blocks of each vector step for n entries (the length of partials is twice this).
int64_t cg_step_blocks(int64_t n);

/// pq[slot] = p.q (in double), unless halt[previous] says CG stopped.
template <class S>
void cg_curvature(void* stream, const CgStepArguments<S>& arguments);

/// alpha = sums[previous].r.z / pq[slot]; x += alpha p, r -= alpha q, z = M^-1 r, and r.z, r.r
/// into sums[slot], unless CG stopped or pq[slot] is not positive.
template <class S>
void cg_update(void* stream, const CgStepArguments<S>& arguments);

/// halt[slot] = this iteration's decision (impl::CgDirection's), and if CG goes on,
/// p = z + beta p with beta = sums[slot].r.z / sums[previous].r.z.
template <class S>
void cg_direction(void* stream, const CgStepArguments<S>& arguments);

}  // namespace raw
}  // namespace impl
}  // namespace kspmv
