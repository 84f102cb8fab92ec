#pragma once
/// \file spmv_options.hpp
/// The choices a caller may make for kspmv::spmv: which kernel (Algorithm) and its launch
/// tunables (SpmvOptions). Data only; the entry point is in spmv.hpp.

namespace kspmv {

/// Kernel choices. `automatic` lets kspmv choose: on a CsrMatrix from its structure, analysed on
/// the first call and kept with the matrix (see kspmv::spmv; in mode T from its longest row); on
/// the other formats their own kernel.
enum class Algorithm {
  automatic,
  csr_scalar,         ///< CSR and Csr16Matrix: one thread per row (mode T on CSR: a thread per row of A)
  csr_vector,         ///< CSR: a power-of-two group of vector lanes per row (mode T: per row of A)
  coo_atomic,         ///< COO (and HYB's COO part): atomic accumulation into y
  coo_deterministic,  ///< COO (and HYB's COO part): segmented reduction, same bits every run
  raw,                ///< CSR, load-balanced CSR, Csr16Matrix or blocked ELLPACK: hand-written HIP/CUDA kernels
                      ///< (GPU builds only)
  csr_balanced,       ///< CSR: nonzeros split evenly over teams, the partition kept with the matrix; on a
                      ///< BalancedCsrMatrix, its Kokkos kernel (automatic prefers the raw one on GPUs);
                      ///< mode T on CSR or BalancedCsrMatrix: a thread per entry over that partition
  csr_transposed,     ///< mode T on CSR or BalancedCsrMatrix, deterministic: A's transposed structure (A's
                      ///< entries by column, built on the first such call and kept with A like the
                      ///< analysis), lanes per column, no atomics: the same bits every run
};

/// Human-readable name of an algorithm ("csr_scalar", ...), as used in labels and tables.
inline const char* to_string(Algorithm a) {
  switch (a) {
    case Algorithm::automatic: return "automatic";
    case Algorithm::csr_scalar: return "csr_scalar";
    case Algorithm::csr_vector: return "csr_vector";
    case Algorithm::coo_atomic: return "coo_atomic";
    case Algorithm::coo_deterministic: return "coo_deterministic";
    case Algorithm::raw: return "raw";
    case Algorithm::csr_balanced: return "csr_balanced";
    case Algorithm::csr_transposed: return "csr_transposed";
  }
  return "unknown";
}

/// Options of kspmv::spmv. Zero means "let kspmv choose" for every tunable; a non-zero tunable
/// needs an explicit algorithm on a CsrMatrix.
struct SpmvOptions {
  Algorithm algorithm = Algorithm::automatic;
  int team_size = 0;      ///< csr_vector: threads (rows in flight) per team; raw balanced CSR: threads
                          ///< per block, 256 (automatic) or 512 (for gathers of x that miss the caches)
  int lanes_per_row = 0;  ///< csr_vector and raw CSR: vector lanes reducing one row; a power of two <= warp width
  int rows_per_thread = 0;  ///< csr_vector: consecutive rows one team thread handles
  int resident_blocks = 0;  ///< raw balanced CSR on NVIDIA GPUs: blocks a multiprocessor holds at once
                            ///< (0: as many as fit, up to 32); fewer leave more of the unified L1 and
                            ///< shared memory to L1, for gathers of x
};

}  // namespace kspmv
