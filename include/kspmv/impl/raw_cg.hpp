#pragma once
// The raw GPU path's CG (kspmv::cg's grid path): its interface, compiled in src/raw/raw_spmv.cpp
// as CUDA or HIP for the types of raw::supports() when KSPMV_HAVE_RAW_GPU is defined.

#include <cstdint>

namespace kspmv {
namespace impl {
namespace raw {

/// Why the grid kernel's CG stopped (the codes of impl::CgHalt).
enum CgGridHalt : int {
  cg_grid_running = 0,
  cg_grid_converged = 1,
  cg_grid_indefinite = 2,
  cg_grid_lost_positivity = 3
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

}  // namespace raw
}  // namespace impl
}  // namespace kspmv
