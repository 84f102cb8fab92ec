#pragma once
// The Plan's analysis and cost model. The analysis reads the structure once on the device (row
// lengths, per-slice widths, the row-length histogram, occupied diagonals): a few SpMVs' worth of
// memory traffic at most. The model predicts time per SpMV as
//   latency + bytes moved / (measured bandwidth x efficiency) + longest-row time
// with the efficiencies and the per-entry time of a serial row measured on the H200
// (perf_tests/results/h200): they rank candidates; a Plan with a large use hint times the best.

#include <Kokkos_Core.hpp>

#include "../csr.hpp"
#include "convert_common.hpp"
#include "convert_dia.hpp"
#include "convert_values.hpp"
#include "csr_analysis.hpp"
#include "launch.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace kspmv {

/// One format/kernel the plan considered. Times in seconds; measured ones are -1 if not timed.
struct PlanCandidate {
  std::string name;
  bool feasible = true;
  std::string note;  ///< why infeasible, or the format's size
  double bytes_per_call = 0;
  double predicted_setup = 0, predicted_apply = 0;
  double measured_setup = -1, measured_apply = -1;
  bool timed() const { return measured_apply >= 0; }
  double setup() const { return timed() ? measured_setup : predicted_setup; }
  double apply() const { return timed() ? measured_apply : predicted_apply; }
  double total(int64_t uses) const { return setup() + double(uses) * apply(); }
};


namespace impl {

/// What the analysis finds out about a CSR matrix.
struct PlanStructure {
  int64_t rows = 0, cols = 0, nnz = 0, longest_row = 0;
  int64_t ell_slots = 0;          // ELLPACK: longest row x rows
  int64_t blocked_ell_slots = 0;  // blocked ELLPACK with the default slice height
  int64_t hyb_width = 0, hyb_coo_entries = 0;
  // Occupied diagonals of the sampled rows (sample_stride): a lower bound that DIA's
  // conversion, which marks every entry anyway, confirms. -1: more than DIA can afford, or not
  // counted. (Counting every row here cost 1-6 SpMVs on the H200, a thread walking each row.)
  int64_t diagonals = -1;
  int64_t diagonal_sample_rows = 0;
  int64_t dia_affordable = 0;  // dia_affordable_diagonals: DIA with more diagonals cannot win
  // Csr16Matrix: of a sample of its blocks (csr16_wide_blocks), how many span more than 16 bits
  // of columns (4 bytes of index an entry there, 2 elsewhere). 0 sampled: not counted.
  int64_t csr16_sampled_blocks = 0, csr16_wide_sampled = 0;
  // Distinct lines of x a window of consecutive rows gathers per entry (raw::RowStatistics, the
  // automatic call's analysis); 0 where not measured (host backends, cache-resident matrices).
  double lines_per_entry = 0;
  // The longest run of rows too long for one block of the raw balanced kernel
  // (raw::RowStatistics::crowded_run, the same analysis); 0 where none or not measured.
  int64_t crowded_run = 0;
  double average_row() const { return rows > 0 ? double(nnz) / double(rows) : 0.0; }
  double csr16_wide_fraction() const {
    return csr16_sampled_blocks > 0 ? double(csr16_wide_sampled) / double(csr16_sampled_blocks) : 1.0;
  }
};

// Measured on the H200 (perf_tests/results/h200, fp64): the smallest SpMV takes about 5 us; a
// thread walking a row alone takes about 80 ns per entry (heavy_rows, thread per row), a group of
// lanes 60 ns (Kokkos vector CSR) or 25 ns (raw vector CSR); the fraction of copy bandwidth each
// kernel reached, by its own bytes, on the large regular matrices: thread-per-row CSR 0.57-0.82
// for rows of 7-16 entries and 0.36 for 27, vector CSR 0.41, raw vector CSR 0.59, ELLPACK 0.92,
// blocked ELLPACK 0.85 (raw: 0.97), DIA 0.90, balanced CSR 0.43-0.62 for rows under 24 entries
// and 0.12-0.21 for longer ones, raw balanced CSR 0.73-0.91 whatever the row lengths (0.61-0.69
// on bcsstk13, wiki-Vote and Groebner replicated, whose gathers of x reach further). Raw balanced
// CSR then got faster (c359efa, bee51e6: 0.74 -> 0.84 of copy bandwidth over the 53 replicated real
// matrices of perf_tests/results/h200), and its constant was scaled by the same ratio, 0.76 ->
// 0.86: with 0.76 the plan kept raw blocked ELLPACK on poly_chain x1000 and cage10 x600, 1.17x and
// 1.05x the time a use of raw balanced CSR (h200_plan_model_fe9806f); with 0.86 the model's
// predictions recorded there rank raw balanced CSR first on both and change no other choice.
// Raw balanced CSR's and Csr16Matrix's rates then came with a separate cost of gathering x (below:
// gather_line_bytes): with it, 0.99 and 0.86 of copy bandwidth by their own bytes.
//
// Gathers of x: every candidate but DIA (whose x streams) is also charged gather_line_bytes of
// copy bandwidth for each distinct line of x a window of rows gathers (PlanStructure::
// lines_per_entry, per entry). Fitted (perf_tests/results/h200_plan_locality/fit.py) to raw
// balanced CSR on the 46 matrices of perf_tests/matrices replicated to 50 million entries, in
// three calls on H200s: time x bandwidth = CSR bytes / 0.98-1.00 + nnz x lines x 11.7-11.8 bytes
// (root mean square error 6%; ca-CondMat x274, 0.9 lines an entry, 16% slower than predicted);
// Csr16Matrix, with 11.5 bytes a line, 0.86-0.87 of copy bandwidth by its own bytes. Where rows
// average two waves of entries or more, the analysis's samples (256 of a window's entries,
// evenly spaced) lie several entries of a row apart and overstate its lines, and the kernel sums
// each row with a whole wave: no gather cost is charged there, and both kernels have the rates
// they ran at on the four such matrices (fit2d, wood1p, lp_d6cube, bcsstk33), whatever their
// lines: raw balanced CSR 0.91-0.93, Csr16Matrix 0.81-0.83, each by its own bytes. Csr16Matrix's
// conversion (it shares CSR's values and row offsets) took 0.60-0.64 (median over the 53) of the
// generic estimate (conversion() in predict_candidates): charged at 0.6 of it. Before, one rate
// for raw balanced CSR whatever its gathers (0.86; Csr16Matrix 0.76, or 0.86 where rows are
// long) had the plan take raw blocked ELLPACK, whose conversion 100 uses did not repay, on four
// matrices where raw balanced CSR ran at 0.94-0.98 of copy bandwidth
// (commanche_dual, cti, epb1, lp_maros_r7; h200_balanced_pdl/plan/). On hosts: no gather cost
// (0); the lines are not measured there.
struct ModelConstants {
  double latency, serial_entry, serial_vector, serial_raw;
  double csr_scalar_short, csr_scalar_long, csr_vector, csr_balanced, csr_balanced_long, ell, blocked_ell, raw_blocked_ell, hyb, dia,
      raw_vector, coo_deterministic, raw_balanced, raw_csr16;
  double gather_line_bytes, raw_balanced_long, raw_csr16_long, csr16_conversion;
  // The load-balanced kernel on float values with double x and y (PlanOptions::float_values), by
  // its own bytes: on the H200 (h200_mixed_b2c430f) it ran 1.16-1.20x faster than raw balanced CSR
  // in double on poisson7_300^3 and bcsstk13 x1000, whose float bytes are 0.73 and 0.68 of the
  // double ones: 0.82 and 0.74 of copy bandwidth; the lower is taken. Hosts: not measured, the
  // double kernel's rate.
  double balanced_float_values;
};
template <class ExecSpace>
ModelConstants model_constants() {
  if (is_gpu_space<ExecSpace>()) {
    return {5e-6, 80e-9, 60e-9, 25e-9, 0.70, 0.36, 0.41, 0.50, 0.17, 0.92, 0.85, 0.97, 0.88, 0.90, 0.59, 0.07, 0.99, 0.86, 11.5, 0.91, 0.82, 0.6, 0.74};
  }
  // Host backends, measured with Serial on the 2-core development machine (example/spmv_mm,
  // 27-point Poisson 64^3): CSR streams at 0.7 of the copy bandwidth, blocked ELLPACK with slices
  // of 8 at 0.63; the column-major ELLPACK, HYB and DIA layouts make a thread walking its row
  // stride through memory (0.14-0.15); balanced CSR 0.62.
  // (raw_csr16: the raw kernels exist on GPUs only; unused here.)
  return {2e-6, 1e-9, 1e-9, 1e-9, 0.70, 0.70, 0.71, 0.62, 0.62, 0.14, 0.63, 0.63, 0.14, 0.15, 0.70, 0.5, 0.62, 0.62, 0.0, 0.62, 0.62, 1.0, 0.62};
}

/// Occupied diagonals (col - row) of the rows 0, stride, 2 x stride, ..., or -1 if more than
/// limit. A device hash set of about 2 x limit keys replaces a flag per possible diagonal: no
/// allocation of rows + cols flags.
template <class S, class O, class Off, class D>
int64_t count_diagonals(const CsrMatrix<S, O, Off, D>& A, int64_t limit, int64_t stride) {
  const DiagonalSet<D> diagonals(limit);
  insert_diagonals(A, diagonals, stride, "kspmv::plan[diagonals]");
  const auto [size, failed] = diagonals.size_and_failed();
  return failed || size > limit ? -1 : size;
}

/// The most diagonals with which DIA could still win, 0 if none: at most max_diagonals, within
/// the fill limit, and few enough that the diagonals' slots stream faster than the nonzeros
/// alone would at the best rate of any other kernel (every other candidate moves at least those
/// bytes, and the same x and y). Counting stops at this limit (poly_chain x1000: 73 diagonals for
/// 16 entries a row), and the Plan converts to DIA with it as max_diagonals.
template <class S, class O, class Convert>
int64_t dia_affordable_diagonals(const ModelConstants& k, int64_t rows, int64_t nnz, const Convert& convert) {
  if (rows == 0) return 0;
  const double fastest = std::max({k.csr_scalar_short, k.csr_scalar_long, k.csr_vector, k.csr_balanced,
                                   k.csr_balanced_long, k.ell, k.blocked_ell, k.raw_blocked_ell, k.hyb, k.raw_vector,
                                   k.raw_balanced});
  const double per_row = double(nnz) / double(rows);
  const double by_speed = per_row * double(sizeof(S) + sizeof(O)) / fastest * k.dia / double(sizeof(S));
  const double by_fill = per_row * convert.max_fill_ratio;
  return std::min<int64_t>(convert.max_diagonals, int64_t(std::min(by_speed, by_fill)));
}

/// How many of Csr16Matrix's blocks the plan samples (evenly spaced) for their column span: a
/// block reads 8 KB of column indices, the sample at most 8 MB.
constexpr int64_t csr16_sample_blocks = 1024;

// A Plan in mode T or H forms op(A) only where expected_uses calls of the plain call in that mode
// cost more than this many of them: forming A^T makes two passes of one atomic update an entry
// (the count and the placement, each like a mode-T call's atomic adds to y), a scan, a sort of
// each row and the gather of the values. A prediction deciding whether to try, not a figure
// weighed against a measurement: once formed, its setup is measured.
constexpr double transpose_setup_calls = 4.0;

/// Of a sample of A's blocks of block_entries entries: {blocks sampled, blocks whose columns span
/// more than 65,535}.
template <class S, class O, class Off, class D>
std::pair<int64_t, int64_t> csr16_wide_blocks(const CsrMatrix<S, O, Off, D>& A, int64_t block_entries) {
  using Team = Kokkos::TeamPolicy<typename D::execution_space>;
  const int64_t nnz = int64_t(A.nnz()), blocks = (nnz + block_entries - 1) / block_entries;
  if (blocks == 0) return {0, 0};
  const int64_t stride = std::max<int64_t>(1, blocks / csr16_sample_blocks), sampled = (blocks + stride - 1) / stride;
  Kokkos::View<int64_t, D> wide("kspmv::plan::csr16_wide");
  const auto cols = A.col_indices;
  Kokkos::parallel_for(
      "kspmv::plan[csr16_span]", Team(int(sampled), Kokkos::AUTO), KOKKOS_LAMBDA(const typename Team::member_type& team) {
        const int64_t k0 = int64_t(team.league_rank()) * stride * block_entries;
        const int64_t k1 = k0 + block_entries < nnz ? k0 + block_entries : nnz;
        const auto range = team_column_range(team, cols, k0, k1);
        Kokkos::single(Kokkos::PerTeam(team), [&] {
          if (range.max_val - range.min_val > 0xFFFF) Kokkos::atomic_add(&wide(), int64_t(1));
        });
      });
  int64_t wide_blocks = 0;
  Kokkos::deep_copy(wide_blocks, wide);
  return {sampled, wide_blocks};
}

/// Widest HYB ELLPACK part the plan considers (wider ones pad every row to thousands of entries).
constexpr int64_t hyb_width_cap = 4096;

template <class S, class O, class Off, class D, class Convert>
PlanStructure analyse_structure(const CsrMatrix<S, O, Off, D>& A, const Convert& convert) {
  using execution_space = typename D::execution_space;
  using Policy = Kokkos::RangePolicy<execution_space, Kokkos::IndexType<int64_t>>;
  PlanStructure p;
  p.rows = A.num_rows();
  p.cols = A.num_cols();
  p.nnz = A.nnz();
  if (p.rows == 0) return p;
  const RowLengthsOf<decltype(A.row_offsets)> lengths{A.row_offsets};
  p.longest_row = max_entry<execution_space>(lengths);
  p.ell_slots = p.longest_row * p.rows;
  const int64_t height = convert.slice_height > 0 ? convert.slice_height : default_slice_height<execution_space>();
  const int64_t slices = (p.rows + height - 1) / height, m = p.rows;
  Kokkos::parallel_reduce(
      "kspmv::plan[slices]", Policy(0, slices),
      KOKKOS_LAMBDA(const int64_t s, int64_t& slots) {
        int64_t width = 0;
        for (int64_t i = s * height; i < (s + 1) * height && i < m; ++i) width = lengths(i) > width ? lengths(i) : width;
        slots += width * height;
      },
      p.blocked_ell_slots);
  // HYB's width from a histogram capped at hyb_width_cap bins (rows of a long tail share the last
  // bin), so a matrix with one huge row costs no huge histogram; its COO part exactly.
  const auto histogram = length_histogram<execution_space>(lengths, std::min<int64_t>(p.longest_row, hyb_width_cap));
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), histogram);
  p.hyb_width = hyb_width_minimizing_bytes(std::vector<int64_t>(h.data(), h.data() + h.extent(0)), m, sizeof(S), sizeof(O));
  p.hyb_coo_entries = entries_beyond<execution_space>(lengths, p.hyb_width);
  // A row of L entries occupies L diagonals: count them only when the longest row leaves DIA a
  // chance (never on host backends, where DIA's column-major walk is slow), and no further
  // than DIA can afford.
  p.dia_affordable = dia_affordable_diagonals<S, O>(model_constants<execution_space>(), p.rows, p.nnz, convert);
  if (p.longest_row <= p.dia_affordable) {
    const int64_t stride = sample_stride(m);
    p.diagonals = count_diagonals(A, p.dia_affordable, stride);
    p.diagonal_sample_rows = (m + stride - 1) / stride;
  }
  if (raw_available<execution_space, S, O, Off>()) {  // the plan proposes Csr16Matrix with the raw kernel only
    std::tie(p.csr16_sampled_blocks, p.csr16_wide_sampled) = csr16_wide_blocks(A, raw::balanced_max_entries);
  }
  return p;
}

/// Device copy bandwidth (bytes read + written per second), measured once per process and
/// execution space with Kokkos::deep_copy over buffers far beyond the caches.
template <class ExecSpace>
double device_bandwidth() {
  static const double bandwidth = [] {
    const size_t n = is_gpu_space<ExecSpace>() ? size_t(1) << 25 : size_t(1) << 22;  // 256 MB / 32 MB
    using View = Kokkos::View<double*, typename ExecSpace::memory_space>;
    const View a(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::plan::bw_a"), n);
    const View b(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::plan::bw_b"), n);
    ExecSpace space;
    double best = 1e30;
    for (int r = 0; r < 4; ++r) {
      space.fence();
      const auto t0 = std::chrono::steady_clock::now();
      Kokkos::deep_copy(space, b, a);
      space.fence();
      if (r > 0) best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return 2.0 * double(n) * sizeof(double) / best;
  }();
  return bandwidth;
}

/// Predicted setup and per-call time of every candidate, or why it is infeasible. With
/// float_values (PlanOptions::float_values), also the load-balanced kernel on A's values rounded
/// to float (Kokkos::complex<float>) with x and y in S.
template <class ExecSpace, class S, class O, class Off, class Convert>
std::vector<PlanCandidate> predict_candidates(const PlanStructure& p, double bandwidth, const Convert& convert,
                                              bool raw_available, bool float_values = false) {
  const ModelConstants k = model_constants<ExecSpace>();
  const double vectors = double(p.cols) * sizeof(S) + double(p.rows) * sizeof(S);
  const double csr_bytes = double(p.nnz) * (sizeof(S) + sizeof(O)) + double(p.rows + 1) * sizeof(Off) + vectors;
  const double longest = double(p.longest_row);
  // Conversions read the CSR a few times and write the format; allocations cost a fixed time.
  // Measured conversions took 1.5-4x the bytes they read and write at copy bandwidth.
  auto conversion = [&](double format_bytes) { return 50e-6 + 2.0 * (3.0 * csr_bytes + format_bytes) / bandwidth; };
  // Rows summed by whole waves: their windows' lines are not counted (ModelConstants).
  const bool whole_wave_rows = p.average_row() >= 2.0 * double(warp_width<ExecSpace>());
  const double gathers = whole_wave_rows ? 0.0 : double(p.nnz) * p.lines_per_entry * k.gather_line_bytes / bandwidth;
  auto streamed = [&](double bytes, double efficiency, double serial_time) {
    return k.latency + bytes / (bandwidth * efficiency) + serial_time;
  };
  auto per_call = [&](double bytes, double efficiency, double serial_time) {
    return streamed(bytes, efficiency, serial_time) + gathers;
  };
  auto fill_ok = [&](double slots) { return p.nnz == 0 || slots / double(p.nnz) <= convert.max_fill_ratio; };

  std::vector<PlanCandidate> c;
  auto add = [&](const char* name, bool feasible, const std::string& note, double bytes, double setup, double apply) {
    PlanCandidate x;
    x.name = name;
    x.feasible = feasible;
    x.note = feasible ? std::string() : note;  // a reason to refuse, kept only where it applies
    x.bytes_per_call = bytes;
    x.predicted_setup = setup;
    x.predicted_apply = apply;
    c.push_back(x);
  };
  const double short_rows = p.average_row() <= 16 ? k.csr_scalar_short : k.csr_scalar_long;
  add("csr_scalar", true, "", csr_bytes, 0.0, per_call(csr_bytes, short_rows, longest * k.serial_entry));
  add("csr_vector", true, "", csr_bytes, 0.0, per_call(csr_bytes, k.csr_vector, longest * k.serial_vector));
  const double balanced = p.average_row() < gpu_vector_min_average_row_length ? k.csr_balanced : k.csr_balanced_long;
  add("csr_balanced", true, "", csr_bytes, 50e-6, per_call(csr_bytes, balanced, 0) + k.latency);
  if (raw_available) {
    add("raw_csr_vector", true, "", csr_bytes, 0.0, per_call(csr_bytes, k.raw_vector, longest * k.serial_raw));
    // A run of rows one balanced block walks alone (launch.hpp: raw_balanced_walk_seconds), the
    // same for every candidate on the raw balanced kernel.
    const double walk = raw_balanced_walk_seconds(p.crowded_run, raw_balanced_default_block_threads);
    add("raw_csr_balanced", true, "", csr_bytes, 50e-6,
        per_call(csr_bytes, whole_wave_rows ? k.raw_balanced_long : k.raw_balanced, walk));
    // Csr16Matrix: 2 bytes of index an entry, 2 more in wide blocks (their share estimated from a
    // sample), and per block of raw::balanced_max_entries entries a base, a wide offset and the
    // partition; the same load-balanced kernel, at its own rates (ModelConstants: raw_csr16,
    // raw_csr16_long), converted at csr16_conversion of the generic estimate.
    const double blocks = std::ceil(double(p.nnz) / double(raw::balanced_max_entries));
    const double csr16_bytes = double(p.nnz) * (sizeof(S) + 2.0 + 2.0 * p.csr16_wide_fraction()) +
                               double(p.rows + 1) * sizeof(Off) + blocks * (2 * sizeof(O) + sizeof(int64_t)) + vectors;
    add("raw_csr16", p.csr16_sampled_blocks > 0, "not analysed", csr16_bytes, k.csr16_conversion * conversion(csr16_bytes),
        per_call(csr16_bytes, whole_wave_rows ? k.raw_csr16_long : k.raw_csr16, walk));
  }

  if (float_values && !std::is_same<typename narrowed<S>::type, S>::value) {
    // The conversion rounds the values (a pass over them) and partitions the entries.
    const double narrow_bytes = double(p.nnz) * (sizeof(typename narrowed<S>::type) + sizeof(O)) +
                                double(p.rows + 1) * sizeof(Off) + vectors;
    const double rate = raw_available ? k.balanced_float_values : balanced;
    const double walk = raw_available ? raw_balanced_walk_seconds(p.crowded_run, raw_balanced_default_block_threads) : 0.0;
    add("float_values_balanced", true, "", narrow_bytes, conversion(narrow_bytes),
        per_call(narrow_bytes, rate, walk) + (raw_available ? 0.0 : k.latency));
  }

  const double ell_bytes = double(p.ell_slots) * (sizeof(S) + sizeof(O)) + vectors;
  add("ell", fill_ok(double(p.ell_slots)), "fill above max_fill_ratio", ell_bytes, conversion(ell_bytes),
      per_call(ell_bytes, k.ell, longest * k.serial_entry));
  const double sell_bytes = double(p.blocked_ell_slots) * (sizeof(S) + sizeof(O)) + vectors;
  add("blocked_ell", fill_ok(double(p.blocked_ell_slots)), "fill above max_fill_ratio", sell_bytes,
      conversion(sell_bytes), per_call(sell_bytes, k.blocked_ell, longest * k.serial_entry));
  const bool wave_slices = convert.slice_height == 0 || convert.slice_height == warp_width<ExecSpace>();
  if (raw_available && wave_slices) {
    add("raw_blocked_ell", fill_ok(double(p.blocked_ell_slots)), "fill above max_fill_ratio", sell_bytes,
        conversion(sell_bytes), per_call(sell_bytes, k.raw_blocked_ell, longest * k.serial_raw));
  }
  const double hyb_bytes = double(p.hyb_width * p.rows) * (sizeof(S) + sizeof(O)) +
                           double(p.hyb_coo_entries) * (sizeof(S) + 2 * sizeof(O)) + vectors;
  // The plan runs HYB's COO part with the deterministic kernel, which reached only 7% of copy
  // bandwidth on the H200 (a thread per chunk of 16 entries): it is charged at that rate.
  const double hyb_ell_bytes = double(p.hyb_width * p.rows) * (sizeof(S) + sizeof(O)) + vectors;
  const double hyb_coo_bytes = double(p.hyb_coo_entries) * (sizeof(S) + 2 * sizeof(O));
  add("hyb", true, "", hyb_bytes, conversion(hyb_bytes),
      per_call(hyb_ell_bytes, k.hyb, double(p.hyb_width) * k.serial_entry) +
          (p.hyb_coo_entries > 0 ? 2 * k.latency + hyb_coo_bytes / (bandwidth * k.coo_deterministic) : 0.0));
  const double dia_slots = double(std::max<int64_t>(p.diagonals, 0)) * double(p.rows);
  const bool dia_ok = p.diagonals >= 0 && p.diagonals <= convert.max_diagonals && fill_ok(dia_slots);
  const double dia_bytes = dia_slots * sizeof(S) + vectors;
  add("dia", dia_ok, p.diagonals < 0 ? "more diagonals than DIA can afford (max_diagonals, the fill limit, or slower than the nonzeros alone)" : "too many diagonals or too much fill",
      dia_bytes, conversion(dia_bytes), streamed(dia_bytes, k.dia, 0));
  return c;
}

}  // namespace impl
}  // namespace kspmv
