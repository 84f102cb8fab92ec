#pragma once
// The Plan's analysis and cost model. The analysis reads the structure once on the device (row
// lengths, per-slice widths, the row-length histogram, occupied diagonals) and, with the raw GPU
// kernels, whether every value is the same and how many distinct values a sample holds: a few
// SpMVs' worth of memory traffic at most. The model predicts time per SpMV as
//   latency + bytes moved / (measured bandwidth x efficiency) + longest-row time
// with the efficiencies and the per-entry time of a serial row measured on the H200
// (perf_tests/results/h200): they rank candidates; a Plan with a large use hint times the best.

#include <Kokkos_Core.hpp>

#include "../csr.hpp"
#include "convert_common.hpp"
#include "convert_csr_coded.hpp"
#include "convert_csr_uniform.hpp"
#include "convert_dia.hpp"
#include "convert_values.hpp"
#include "csr_analysis.hpp"
#include "device_storage.hpp"
#include "launch.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
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
  // Every stored value the same, bit for bit (launch_value_check): UniformCsrMatrix holds A
  // without its values. Checked with the raw kernels only (its candidate's).
  bool values_uniform = false;
  // Distinct values (bit patterns) in a sample of impl::coded_sample entries, one in each run of
  // nnz / coded_sample (launch_value_sample): CodedCsrMatrix's candidate where at most 256, whose conversion then
  // checks them all. -1: more than 256; 0: not counted (host backends, 16-byte values).
  int64_t coded_sample_values = 0;
  // Distinct lines of x a window of consecutive rows gathers per entry (raw::RowStatistics, the
  // automatic call's analysis); 0 where not measured (host backends, cache-resident matrices).
  double lines_per_entry = 0;
  // The longest run of rows too long for one block of the raw balanced kernel
  // (raw::RowStatistics::crowded_run, the same analysis); 0 where none or not measured.
  int64_t crowded_run = 0;
  // Standard deviation of the row lengths over their mean (RowLengthSummary::variation).
  double row_length_variation = 0;
  double average_row() const { return rows > 0 ? double(nnz) / double(rows) : 0.0; }
  double csr16_wide_fraction() const {
    return csr16_sampled_blocks > 0 ? double(csr16_wide_sampled) / double(csr16_sampled_blocks) : 1.0;
  }
};

// Measured on the H200 (perf_tests/results/h200, fp64): the smallest SpMV takes about 5 us; a
// thread walking a row alone takes about 80 ns per entry (heavy_rows, thread per row), a group of
// lanes 60 ns (Kokkos vector CSR) or 25 ns (raw vector CSR); the fraction of copy bandwidth each
// kernel reached, by its own bytes, on the large regular matrices: thread-per-row CSR 0.57-0.82
// for rows of 7-16 entries and 0.36 for 27, vector CSR 0.41, raw vector CSR 0.59 (later by its lanes: raw_vector_mid_time below), ELLPACK 0.92,
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
// lines: raw balanced CSR 0.91-0.93, Csr16Matrix 0.81-0.83, each by its own bytes. Below two
// waves Csr16Matrix's rate depends on whether a balanced thread's 8 entries hold whole rows: one
// rate (0.86) overstated its time where rows average 8 entries or fewer (predicted 1.00-1.03x raw
// balanced CSR's, measured 0.94-0.99x) and understated it on rows of 9-63 (predicted 0.97-0.99x,
// measured 0.95-1.03x). The rate each matrix would have needed has medians 0.88 over the 25 of
// short rows (0.85-0.97) and 0.84 over the 23 others (0.81-0.91), the same in the records of two
// sessions (h200_csr_uniform, h200_plan_analysis_one_pass; perf_tests/results/
// h200_plan_csr16_rows/implied.py): raw_csr16_short and raw_csr16. Its conversion (one pass over
// the column indices, and the partition; it shares CSR's values and row offsets) took 0.14-0.29
// of the generic estimate (conversion() in predict_candidates; median 0.20, lp_nug20 0.54):
// charged 0.2 of it besides the partition's 50 us (raw balanced CSR's setup). (Charged 0.6 before: with one rate, its measured conversion had the plan take it on
// rows of 9-63 entries, where it is slower.) Before that, one rate
// for raw balanced CSR whatever its gathers (0.86; Csr16Matrix 0.76, or 0.86 where rows are
// long) had the plan take raw blocked ELLPACK, whose conversion 100 uses did not repay, on four
// matrices where raw balanced CSR ran at 0.94-0.98 of copy bandwidth
// (commanche_dual, cti, epb1, lp_maros_r7; h200_balanced_pdl/plan/). On hosts: no gather cost
// (0); the lines are not measured there.
struct ModelConstants {
  double latency, serial_entry, serial_vector, serial_raw;
  double csr_scalar_short, csr_scalar_long, csr_vector, csr_balanced, csr_balanced_long, ell, blocked_ell, raw_blocked_ell, hyb, dia,
      raw_vector, coo_deterministic, raw_balanced, raw_csr16;
  double gather_line_bytes, raw_balanced_long, raw_csr16_long, csr16_conversion, raw_csr16_short;
  // CodedCsrMatrix (a byte of code an entry into a table of its values) a call: latency, the
  // longest crowded run's walk (as raw balanced CSR's), and multiples of its codes', columns' and
  // offsets' bytes at copy bandwidth (coded_entries), of x's and y's (coded_vectors), of the
  // gathers' charge (coded_gathers) and of nnz x ln(the 128-byte lines its table spans) bytes
  // (coded_table_lines): its kernel reads fewer bytes than raw balanced CSR's but looks each
  // entry's value up in the table, and is bound by that, not the stream (2.40: its bytes at 0.42
  // of copy bandwidth). Fitted (least squares on the time relative to raw balanced CSR's, each
  // run's prediction of that scaled by the ratio measured) to 280 H200 runs of the 38 matrices of
  // the 53 and the 25 it accepts (perf_tests/results/h200_coded_lookup/fit.py): root mean square
  // error 3.3%, and 4.0% on 66 runs of the 11 of the third set (perf_tests/matrices_third) it
  // accepts, which the fit did not see (the shares it replaces, 0.93x raw balanced CSR's where the
  // table spans one line, 0.98x more, 0.88x on rows summed a wave at a time: 4.2% and 5.5%; on mitre,
  // CodedCsrMatrix ran 0.89x raw balanced CSR, charged 0.98x). Its conversion (the sample, the
  // table, the codes, the partition) took 570-1120 us on 50-104 million entries of tables of one
  // line (0.95x that since 716bda7, the codes searched in team scratch: the charge below, left as
  // it was, errs high): a fixed time and a pass reading each value and writing its code at
  // coded_conversion of copy bandwidth. The codes are found by a hashed lookup since the commit
  // that adds h200_coded_lookup (a binary search before: 1.2-2.1 ms where tables held 108-237
  // values).
  double coded_entries, coded_vectors, coded_gathers, coded_table_lines, coded_conversion_fixed, coded_conversion;
  // The load-balanced kernel on float values with double x and y (PlanOptions::float_values), by
  // its own bytes: on the H200 (h200_mixed_b2c430f) it ran 1.16-1.20x faster than raw balanced CSR
  // in double on poisson7_300^3 and bcsstk13 x1000, whose float bytes are 0.73 and 0.68 of the
  // double ones: 0.82 and 0.74 of copy bandwidth; the lower is taken. Hosts: not measured, the
  // double kernel's rate.
  double balanced_float_values;
  // Thread-per-row CSR (csr_scalar) on rows of more than scalar_l1_row_entries and at most
  // scalar_mid_row_entries entries, and raw vector CSR with 4 lanes a row on rows of more than
  // scalar_l1_row_entries (raw_vector_lanes), a call each: latency + the longest row's serial
  // time + CSR's bytes at copy bandwidth times a multiple + a multiple of the gathers' charge
  // (gather_line_bytes a line of x a window gathers, as raw balanced CSR's):
  //   thread a row: csr_scalar_mid_time + csr_scalar_mid_per_entry x (average - 8) / 8
  //                 + csr_scalar_mid_variation x min(row_length_variation, 3); gathers x
  //                 csr_scalar_mid_gathers. Longer rows leave more of a warp's lines to be read
  //                 again from L2 (scalar_l1_row_entries), rows of uneven length idle lanes, and
  //                 a lane's gather of x per step (32 rows apart) shares fewer lines than a window's.
  //   raw vector CSR, 4 lanes: raw_vector_mid_time + raw_vector_mid_fill x ln(fill) (fill =
  //                 blocked_ell_slots / nnz, the rows of a warp padded to their longest); gathers
  //                 x raw_vector_mid_gathers.
  // Fitted (least squares on the relative error; perf_tests/results/h200_plan_scalar_variation/
  // fit.py) to the 53 replicated real matrices and the 25 of matrices_unseen, four H200 runs of
  // each with 716bda7's kernels; root mean square error a run, a thread a row 7% and 5% (13% and
  // 11% with the rates these replace, 0.74 / fill^0.25 of copy bandwidth, one gathers' charge),
  // raw vector CSR 5% and 10% (11% and 12%, 0.72). The terms were chosen among ten (fit.py
  // --search) on these and the 15 of perf_tests/matrices_third, measured before the fit: every
  // pair of the two kernels more than 10% apart ranked as measured in the 10 runs of the three
  // sets (before: wrong on lp_80bau3b of the 25, and rgg_n_2_15_s0 and data of the 15, where a
  // thread a row ran 1.16-1.25x faster than raw vector CSR, predicted slower). Raw vector CSR
  // with 8 lanes or more: raw_vector_long of copy bandwidth by CSR's bytes (the median of the
  // rate each of 11 matrices needed: 0.89).
  double csr_scalar_mid_time, csr_scalar_mid_per_entry, csr_scalar_mid_variation, csr_scalar_mid_gathers;
  double raw_vector_mid_time, raw_vector_mid_fill, raw_vector_mid_gathers, raw_vector_long;
};

// A thread a row: up to this many entries a row, the rows the resident warps walk stay in L1
// (2048 threads of a multiprocessor x 8 entries x 12 bytes, 196 KB of its 256 KB) and one rate
// holds (csr_scalar_short); beyond it (ModelConstants::csr_scalar_mid_time and the terms beside
// it) the rows' lines are read again from L2 as the threads reach them, and rows of unequal
// length in a warp leave lanes idle; beyond scalar_mid_row_entries, csr_scalar_long.
constexpr double scalar_l1_row_entries = 8.0, scalar_mid_row_entries = 16.0;
// The row-length variation beyond which a thread a row is charged no more (the fit's cap: the
// mid-length rows of the fit reach 3.6, email-Enron).
constexpr double scalar_mid_max_variation = 3.0;
template <class ExecSpace>
ModelConstants model_constants() {
  if (is_gpu_space<ExecSpace>()) {
    return {5e-6, 80e-9, 60e-9, 25e-9, 0.70, 0.36, 0.41, 0.50, 0.17, 0.92, 0.85, 0.97, 0.88, 0.90, 0.61, 0.07, 0.99, 0.84, 11.5, 0.91, 0.82, 0.2, 0.88, 2.40, 0.34, 0.86, 0.39, 60e-6, 0.2,
            0.74, 1.04, 0.50, 0.18, 1.79, 1.30, 0.21, 1.07, 0.89};
  }
  // Host backends, measured with Serial on the 2-core development machine (example/spmv_mm,
  // 27-point Poisson 64^3): CSR streams at 0.7 of the copy bandwidth, blocked ELLPACK with slices
  // of 8 at 0.63; the column-major ELLPACK, HYB and DIA layouts make a thread walking its row
  // stride through memory (0.14-0.15); balanced CSR 0.62.
  // (raw_csr16, raw_csr16_short, the coded constants: the raw kernels exist on GPUs only; unused here.)
  // A thread a row on rows of 9-16 entries: one rate, 0.70 (1 / 0.70 = 1.43 the bytes' time).
  return {2e-6, 1e-9, 1e-9, 1e-9, 0.70, 0.70, 0.71, 0.62, 0.62, 0.14, 0.63, 0.63, 0.14, 0.15, 0.70, 0.5, 0.62, 0.62, 0.0, 0.62, 0.62, 1.0, 0.62, 1.0 / 0.62, 1.0 / 0.62, 1.0, 0.0,
          0.0, 0.5, 0.62, 1.0 / 0.70, 0.0, 0.0, 1.0, 1.0 / 0.70, 0.0, 1.0, 0.70};
}

/// The diagonals a set made with this limit holds, or -1 if it failed or holds more (the plan's
/// analysis reads its set so, after its one wait).
template <class D>
int64_t counted_diagonals(const DiagonalSet<D>& diagonals, int64_t limit) {
  const auto [size, failed] = diagonals.size_and_failed();
  return failed || size > limit ? -1 : size;
}

/// Occupied diagonals (col - row) of the rows 0, stride, 2 x stride, ..., or -1 if more than
/// limit or if one of those rows holds more than limit entries (as the plan's analysis counts).
/// A device hash set of about 2 x limit keys replaces a flag per possible diagonal: no
/// allocation of rows + cols flags.
template <class S, class O, class Off, class D>
int64_t count_diagonals(const CsrMatrix<S, O, Off, D>& A, int64_t limit, int64_t stride) {
  const DiagonalSet<D> diagonals(limit);
  insert_diagonals(A, diagonals, stride, "kspmv::plan[diagonals]", limit);
  return counted_diagonals(diagonals, limit);
}

/// The most diagonals with which DIA could still win, 0 if none: at most max_diagonals, within
/// the fill limit, and few enough that the diagonals' slots stream faster than the nonzeros
/// alone would at the best rate of any other kernel (every other candidate moves at least those
/// bytes, and the same x and y). Counting stops at this limit (poly_chain x1000: 73 diagonals for
/// 16 entries a row), and the Plan converts to DIA with it as max_diagonals.
template <class S, class O, class Convert>
int64_t dia_affordable_diagonals(const ModelConstants& k, int64_t rows, int64_t nnz, const Convert& convert) {
  if (rows == 0) return 0;
  const double per_row = double(nnz) / double(rows);
  // A thread a row and raw vector CSR on rows of more than scalar_l1_row_entries are charged
  // multiples of the bytes' time (ModelConstants: csr_scalar_mid_time, raw_vector_mid_time, at
  // their least): counted only where they apply.
  const bool mid_rows = per_row > scalar_l1_row_entries;
  const double scalar_mid = mid_rows && per_row <= scalar_mid_row_entries ? 1.0 / k.csr_scalar_mid_time : 0.0;
  const double vector_mid = mid_rows ? 1.0 / k.raw_vector_mid_time : 0.0;
  const double fastest = std::max({k.csr_scalar_short, k.csr_scalar_long, k.csr_vector, k.csr_balanced,
                                   k.csr_balanced_long, k.ell, k.blocked_ell, k.raw_blocked_ell, k.hyb, k.raw_vector,
                                   k.raw_balanced, scalar_mid, vector_mid, k.raw_vector_long});
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

/// Launches (without waiting) the count of how many of a sample of A's blocks of block_entries
/// entries span more than 65,535 columns, added to wide(); returns how many blocks it samples.
template <class S, class O, class Off, class D, class Count>
int64_t launch_csr16_wide_sample(const CsrMatrix<S, O, Off, D>& A, int64_t block_entries, const Count& wide) {
  using execution_space = typename D::execution_space;
  using Team = Kokkos::TeamPolicy<execution_space>;
  const int64_t nnz = int64_t(A.nnz()), blocks = (nnz + block_entries - 1) / block_entries;
  if (blocks == 0) return 0;
  const int64_t stride = std::max<int64_t>(1, blocks / csr16_sample_blocks), sampled = (blocks + stride - 1) / stride;
  const auto cols = A.col_indices;
  Kokkos::parallel_for(
      "kspmv::plan[csr16_span]", Team(execution_space(), int(sampled), Kokkos::AUTO),
      KOKKOS_LAMBDA(const typename Team::member_type& team) {
        const int64_t k0 = int64_t(team.league_rank()) * stride * block_entries;
        const int64_t k1 = k0 + block_entries < nnz ? k0 + block_entries : nnz;
        const auto range = team_column_range(team, cols, k0, k1);
        Kokkos::single(Kokkos::PerTeam(team), [&] {
          if (range.max_val - range.min_val > 0xFFFF) Kokkos::atomic_add(&wide(), int64_t(1));
        });
      });
  return sampled;
}

/// Widest HYB ELLPACK part the plan considers (wider ones pad every row to thousands of entries).
constexpr int64_t hyb_width_cap = 4096;

/// What one pass over the row offsets tells the plan (launch_row_length_summary): the longest
/// row, the slots of blocked ELLPACK (each slice of `height` rows padded to its longest row, the
/// last slice counted whole), the rows of each length below a cap, and the rows of cap entries
/// or more with their entries.
struct RowLengthSummary {
  int64_t longest = 0, slice_slots = 0, tail_rows = 0, tail_entries = 0;
  std::vector<int64_t> histogram;  // histogram[L] = rows of L entries, L < cap

  /// Results of launch_row_length_summary, copied to the host: cap + row_length_summary_slots values.
  static RowLengthSummary read(const int64_t* found, int64_t cap) {
    RowLengthSummary s;
    s.histogram.assign(found, found + cap);
    s.longest = found[cap];
    s.slice_slots = found[cap + 1];
    s.tail_rows = found[cap + 2];
    s.tail_entries = found[cap + 3];
    return s;
  }
  /// The histogram as length_histogram(lengths, min(longest, cap)) gives it: bins 0 .. w, w =
  /// min(longest, cap), the last counting the rows of w entries or more.
  std::vector<int64_t> capped() const {
    const int64_t cap = int64_t(histogram.size()), w = std::min(longest, cap);
    std::vector<int64_t> h(histogram.begin(), histogram.begin() + w);
    int64_t last = tail_rows;
    for (int64_t l = w; l < cap; ++l) last += histogram[size_t(l)];
    h.push_back(last);
    return h;
  }
  /// Standard deviation of the row lengths over their mean, for `rows` rows holding `nnz`
  /// entries: exact where no row reaches the cap; rows of cap entries or more are counted as if
  /// they shared their entries evenly (a lower bound).
  double variation(int64_t rows, int64_t nnz) const {
    if (rows <= 0 || nnz <= 0) return 0.0;
    double squares = 0;
    for (size_t l = 1; l < histogram.size(); ++l) squares += double(histogram[l]) * double(l) * double(l);
    if (tail_rows > 0) squares += double(tail_entries) * double(tail_entries) / double(tail_rows);
    const double mean = double(nnz) / double(rows);
    const double variance = squares / double(rows) - mean * mean;
    return variance > 0 ? std::sqrt(variance) / mean : 0.0;
  }
  /// Entries beyond the first `width` of every row (sum over rows of max(0, length - width)),
  /// exact for width <= cap.
  int64_t entries_beyond(int64_t width) const {
    const int64_t cap = int64_t(histogram.size());
    int64_t beyond = tail_entries - width * tail_rows;
    for (int64_t l = width + 1; l < cap; ++l) beyond += histogram[size_t(l)] * (l - width);
    return beyond;
  }
};
constexpr int64_t row_length_summary_slots = 4;  // after the histogram: longest, slots, tail rows, tail entries

/// Launches (without waiting) one pass over the row offsets that adds its RowLengthSummary to
/// found (cap + row_length_summary_slots values, zero before). A thread walks a slice of rows
/// at a time, counting its runs of rows of one length before it adds each run to its team's
/// bins (length_histogram's way: an atomic a run), so the longest row, the slices' widths and
/// the histogram take one read of the offsets: one launch and one wait for the plan instead of
/// four passes (the longest row, the slices, the histogram, the entries beyond HYB's width),
/// each a launch and a wait of 27-124 us on the H200 (perf_tests/results/h200_plan_analysis_parts).
/// On GPUs a team first copies its rows' offsets to scratch, coalesced (threads walking their own
/// slices in global memory touch a line each per step): 0.9-0.93x the pass's time on the H200
/// (perf_tests/results/h200_plan_analysis_one_pass), where it takes 20-150 us.
template <class ExecSpace, class OffsetView, class Found>
void launch_row_length_summary(const OffsetView& offsets, int64_t rows, int64_t height, int64_t cap,
                               const Found& found) {
  using Team = Kokkos::TeamPolicy<ExecSpace>;
  using Scratch = typename ExecSpace::scratch_memory_space;
  using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  using Offset = typename OffsetView::non_const_value_type;
  using Bins = Kokkos::View<int*, Scratch, Unmanaged>;
  using Staged = Kokkos::View<Offset*, Scratch, Unmanaged>;
  const int64_t slices = (rows + height - 1) / height;
  if (slices == 0) return;
  const bool gpu = is_gpu_space<ExecSpace>();
  const int team_size = gpu ? 128 : 1;
  // GPUs: up to 4096 rows a team (whole slices, at least one), their offsets staged with a gap
  // after every 32 (a thread's slice then starts in another bank); hosts: 65536 rows a thread.
  const int64_t slices_per_team = gpu ? std::max<int64_t>(1, 4096 / height) : std::max<int64_t>(1, 65536 / height);
  const bool stage_rows = gpu && slices_per_team * height <= 4096;  // not for slices taller than 4096 rows
  const int64_t staged = stage_rows ? slices_per_team * height + 1 : 0;
  const int64_t staged_slots = staged + staged / 32 + 1;
  const int local = int(cap < 1024 ? cap : 1024);  // bins in the team's scratch; longer rows count in found
  Team policy(ExecSpace(), int((slices + slices_per_team - 1) / slices_per_team), team_size);
  policy.set_scratch_size(0, Kokkos::PerTeam(Bins::shmem_size(local) + Staged::shmem_size(stage_rows ? staged_slots : 1)));
  Kokkos::parallel_for(
      "kspmv::plan[row_lengths]", policy, KOKKOS_LAMBDA(const typename Team::member_type& team) {
        const Bins bins(team.team_scratch(0), local);
        const Staged stage(team.team_scratch(0), stage_rows ? staged_slots : 1);
        const int64_t s0 = int64_t(team.league_rank()) * slices_per_team;
        const int64_t s1 = s0 + slices_per_team < slices ? s0 + slices_per_team : slices;
        const int64_t first_row = s0 * height, last_row = s1 * height < rows ? s1 * height : rows;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, local), [&](const int b) { bins(b) = 0; });
        if (stage_rows) {
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, last_row + 1 - first_row),
                               [&](const int64_t r) { stage(r + r / 32) = offsets(first_row + r); });
        }
        team.team_barrier();
        const auto offset = [&](int64_t i) {
          const int64_t r = i - first_row;
          return stage_rows ? int64_t(stage(r + r / 32)) : int64_t(offsets(i));
        };
        const auto add = [&](int64_t len, int count) {
          if (count == 0) return;
          if (len < local) {
            Kokkos::atomic_add(&bins(len), count);
          } else {
            Kokkos::atomic_add(&found(len), int64_t(count));
          }
        };
        int64_t longest = 0, slots = 0, tail_rows = 0, tail_entries = 0, run_length = 0;
        int run = 0;
        for (int64_t s = s0 + team.team_rank(); s < s1; s += team.team_size()) {
          const int64_t r0 = s * height, r1 = r0 + height < rows ? r0 + height : rows;
          int64_t width = 0, begin = offset(r0);
          for (int64_t i = r0; i < r1; ++i) {
            const int64_t end = offset(i + 1), len = end - begin;
            begin = end;
            width = len > width ? len : width;
            if (len >= cap) {
              ++tail_rows;
              tail_entries += len;
              continue;
            }
            if (len != run_length) {
              add(run_length, run);
              run_length = len;
              run = 0;
            }
            ++run;
          }
          slots += width * height;
          longest = width > longest ? width : longest;
        }
        add(run_length, run);
        // The threads' totals by team reductions, then one global atomic each a team.
        team.team_reduce(Kokkos::Max<int64_t>(longest));
        team.team_reduce(Kokkos::Sum<int64_t>(slots));
        team.team_reduce(Kokkos::Sum<int64_t>(tail_rows));
        team.team_reduce(Kokkos::Sum<int64_t>(tail_entries));
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, local), [&](const int b) {
          if (bins(b)) Kokkos::atomic_add(&found(b), int64_t(bins(b)));
        });
        Kokkos::single(Kokkos::PerTeam(team), [&] {
          Kokkos::atomic_fetch_max(&found(cap), longest);
          Kokkos::atomic_add(&found(cap + 1), slots);
          if (tail_rows > 0) {
            Kokkos::atomic_add(&found(cap + 2), tail_rows);
            Kokkos::atomic_add(&found(cap + 3), tail_entries);
          }
        });
      });
}

template <class S, class O, class Off, class D, class Convert>
PlanStructure analyse_structure(const CsrMatrix<S, O, Off, D>& A, const Convert& convert) {
  using execution_space = typename D::execution_space;
  PlanStructure p;
  p.rows = A.num_rows();
  p.cols = A.num_cols();
  p.nnz = A.nnz();
  if (p.rows == 0) return p;
  const int64_t height = convert.slice_height > 0 ? convert.slice_height : default_slice_height<execution_space>();
  // One launch over the row offsets, one over a sample of Csr16Matrix's blocks (the raw kernel
  // only) and one counting the diagonals of a sample of rows (before the longest row is known,
  // so that one wait serves all three), into storage without a View's header (whose copy to the
  // device waits: device_storage.hpp); then one wait. On the H200 the analysis went from 243 to
  // 146 us (geometric mean over the 53 replicated real matrices; 155-440 us to 69-265 us), the
  // Plan's setup from 326 to 200 us (perf_tests/results/h200_plan_analysis_one_pass).
  const int64_t cap = hyb_width_cap, wide_slot = cap + row_length_summary_slots, values_slot = wide_slot + 1;
  const int64_t coded_slot = values_slot + 1, slots = coded_slot + 2;  // coded: distinct values added, more than 256
  // The counters, then the set of the sample's distinct values (coded_set_slots keys).
  const auto storage = device_storage<D>("kspmv::plan::structure", size_t(slots + coded_set_slots) * sizeof(int64_t));
  const Kokkos::View<int64_t*, D, Kokkos::MemoryTraits<Kokkos::Unmanaged>> found(static_cast<int64_t*>(storage.get()),
                                                                                  slots);
  const Kokkos::View<uint64_t*, D, Kokkos::MemoryTraits<Kokkos::Unmanaged>> coded_keys(
      reinterpret_cast<uint64_t*>(static_cast<int64_t*>(storage.get()) + slots), coded_set_slots);
  Kokkos::deep_copy(execution_space(), found, int64_t(0));
  launch_row_length_summary<execution_space>(A.row_offsets, p.rows, height, cap, found);
  const bool raw = raw_available<execution_space, S, O, Off>();
  if (raw) {
    p.csr16_sampled_blocks = launch_csr16_wide_sample(A, raw::balanced_max_entries, Kokkos::subview(found, wide_slot));
    // A sample, then every value where the sample found none differing: on the H200 the analysis
    // took 172-175 us instead of 156 (geometric mean over the 31 replicated real matrices of many
    // values), 357 instead of 182 over the 22 holding one value (a pass over 50-90M values),
    // which then run 0.81x raw balanced CSR's time (perf_tests/results/h200_csr_uniform).
    launch_value_check<execution_space>(A.values, Kokkos::subview(found, values_slot));
    // CodedCsrMatrix's candidate: the distinct values of a sample (a few microseconds).
    if constexpr (sizeof(S) == 4 || sizeof(S) == 8) {
      launch_value_sample<execution_space>(A.values, coded_keys, Kokkos::subview(found, std::make_pair(coded_slot, slots)));
    }
  }
  // A row of L entries occupies L diagonals: the count matters only when the longest row leaves
  // DIA a chance (never on host backends, where DIA's column-major walk is slow), and stops at
  // what DIA can afford. Launched before the longest row is known, it is skipped where the
  // average row already rules DIA out: a thread walks each sampled row, and rows of thousands of
  // entries (fit2d x388, 5,161 an average) took 1.1 ms so.
  p.dia_affordable = dia_affordable_diagonals<S, O>(model_constants<execution_space>(), p.rows, p.nnz, convert);
  const int64_t stride = sample_stride(p.rows);
  std::optional<DiagonalSet<D>> diagonals;
  if (p.dia_affordable > 0 && p.nnz <= p.dia_affordable * p.rows) {
    diagonals.emplace(p.dia_affordable);
    // A row longer than dia_affordable rules DIA out (below): the count stops at it.
    insert_diagonals(A, *diagonals, stride, "kspmv::plan[diagonals]", p.dia_affordable);
  }
  std::vector<int64_t> host(static_cast<size_t>(slots));
  Kokkos::deep_copy(Kokkos::View<int64_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(host.data(), host.size()),
                    found);  // the one wait
  p.csr16_wide_sampled = host[size_t(wide_slot)];
  p.values_uniform = raw && p.nnz > 0 && host[size_t(values_slot)] == 0;
  if (raw && p.nnz > 0 && (sizeof(S) == 4 || sizeof(S) == 8)) {
    p.coded_sample_values = host[size_t(coded_slot + 1)] != 0 ? -1 : host[size_t(coded_slot)] + 1;
  }
  const RowLengthSummary lengths = RowLengthSummary::read(host.data(), cap);
  p.longest_row = lengths.longest;
  p.ell_slots = p.longest_row * p.rows;
  p.blocked_ell_slots = lengths.slice_slots;
  p.row_length_variation = lengths.variation(p.rows, p.nnz);
  // HYB's width from the histogram capped at hyb_width_cap bins (rows of a long tail share the
  // last bin), so a matrix with one huge row costs no huge histogram; its COO part exactly.
  p.hyb_width = hyb_width_minimizing_bytes(lengths.capped(), p.rows, sizeof(S), sizeof(O));
  p.hyb_coo_entries = lengths.entries_beyond(p.hyb_width);
  if (diagonals && p.longest_row <= p.dia_affordable) {
    p.diagonals = counted_diagonals(*diagonals, p.dia_affordable);  // the device is idle by now
    p.diagonal_sample_rows = (p.rows + stride - 1) / stride;
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
  const double warp_fill = p.nnz > 0 && p.blocked_ell_slots > 0 ? double(p.blocked_ell_slots) / double(p.nnz) : 1.0;
  const double average = p.average_row();
  const bool mid_rows = average > scalar_l1_row_entries;  // beyond what L1 holds for a thread a row
  if (mid_rows && average <= scalar_mid_row_entries) {
    // ModelConstants: csr_scalar_mid_time and the terms beside it.
    const double multiple = k.csr_scalar_mid_time +
                            k.csr_scalar_mid_per_entry * (average - scalar_l1_row_entries) / scalar_l1_row_entries +
                            k.csr_scalar_mid_variation * std::min(p.row_length_variation, scalar_mid_max_variation);
    add("csr_scalar", true, "", csr_bytes, 0.0,
        k.latency + csr_bytes / bandwidth * multiple + longest * k.serial_entry + k.csr_scalar_mid_gathers * gathers);
  } else {
    add("csr_scalar", true, "", csr_bytes, 0.0,
        per_call(csr_bytes, mid_rows ? k.csr_scalar_long : k.csr_scalar_short, longest * k.serial_entry));
  }
  // Kokkos vector and balanced CSR are candidates only without the raw kernels: their raw forms
  // (the same algorithms) ran faster on each of 78 replicated real matrices on the H200, raw
  // vector CSR by 1.14x or more, raw balanced CSR by 1.50x or more (h200_plan_ranking).
  const double balanced = p.average_row() < gpu_vector_min_average_row_length ? k.csr_balanced : k.csr_balanced_long;
  if (!raw_available) {
    add("csr_vector", true, "", csr_bytes, 0.0, per_call(csr_bytes, k.csr_vector, longest * k.serial_vector));
    add("csr_balanced", true, "", csr_bytes, 50e-6, per_call(csr_bytes, balanced, 0) + k.latency);
  }
  if (raw_available) {
    const int vector_lanes = raw_vector_lanes(average, warp_width<ExecSpace>());
    if (vector_lanes <= 4 && mid_rows) {  // ModelConstants: raw_vector_mid_time and the terms beside it
      const double multiple = k.raw_vector_mid_time + k.raw_vector_mid_fill * std::log(warp_fill);
      add("raw_csr_vector", true, "", csr_bytes, 0.0,
          k.latency + csr_bytes / bandwidth * multiple + longest * k.serial_raw + k.raw_vector_mid_gathers * gathers);
    } else {
      add("raw_csr_vector", true, "", csr_bytes, 0.0,
          per_call(csr_bytes, vector_lanes > 4 ? k.raw_vector_long : k.raw_vector, longest * k.serial_raw));
    }
    // A run of rows one balanced block walks alone (launch.hpp: raw_balanced_walk_seconds), the
    // same for every candidate on the raw balanced kernel.
    const double walk = raw_balanced_walk_seconds(p.crowded_run, raw_balanced_default_block_threads);
    const double balanced_apply = per_call(csr_bytes, whole_wave_rows ? k.raw_balanced_long : k.raw_balanced, walk);
    add("raw_csr_balanced", true, "", csr_bytes, 50e-6, balanced_apply);
    // Csr16Matrix: 2 bytes of index an entry, 2 more in wide blocks (their share estimated from a
    // sample), and per block of raw::balanced_max_entries entries a base, a wide offset and the
    // partition; the same load-balanced kernel, at its own rates (ModelConstants: raw_csr16_short
    // where a balanced thread's entries hold whole rows on average, raw_csr16, raw_csr16_long),
    // its setup the partition's (as raw balanced CSR's) and csr16_conversion of the generic estimate.
    const double thread_entries = double(raw::balanced_max_entries) / double(raw_balanced_default_block_threads);
    const double csr16_rate =
        whole_wave_rows ? k.raw_csr16_long : (p.average_row() <= thread_entries ? k.raw_csr16_short : k.raw_csr16);
    const double blocks = std::ceil(double(p.nnz) / double(raw::balanced_max_entries));
    const double csr16_bytes = double(p.nnz) * (sizeof(S) + 2.0 + 2.0 * p.csr16_wide_fraction()) +
                               double(p.rows + 1) * sizeof(Off) + blocks * (2 * sizeof(O) + sizeof(int64_t)) + vectors;
    add("raw_csr16", p.csr16_sampled_blocks > 0, "not analysed", csr16_bytes, 50e-6 + k.csr16_conversion * conversion(csr16_bytes),
        per_call(csr16_bytes, csr16_rate, walk));
    // UniformCsrMatrix: CSR's structure without its values, on the same kernel and partition,
    // charged raw balanced CSR's rates on its own bytes (the gathers of x as CSR's); its setup, the
    // partition, as raw balanced CSR's (the value check is part of the analysis).
    const double uniform_bytes = double(p.nnz) * sizeof(O) + double(p.rows + 1) * sizeof(Off) + vectors;
    add("raw_csr_uniform", p.values_uniform, "values differ", uniform_bytes, 50e-6,
        per_call(uniform_bytes, whole_wave_rows ? k.raw_balanced_long : k.raw_balanced, walk));
    // CodedCsrMatrix: a byte of code an entry instead of its value, and the table; the same
    // load-balanced kernel and partition, charged by its bytes, the gathers and its table's
    // 128-byte lines (ModelConstants), feasible where a sample of the values holds at most 256
    // (its conversion checks them all, and refuses more). Its setup: the partition's, as raw
    // balanced CSR's, and the conversion (a fixed time and a pass over the values and codes).
    const double table_bytes = double(std::max<int64_t>(p.coded_sample_values, 0)) * sizeof(S);
    const double coded_entry_bytes = double(p.nnz) * (sizeof(O) + 1.0) + double(p.rows + 1) * sizeof(Off);
    const double table_lines = std::max(1.0, std::ceil(table_bytes / 128.0));
    const double coded_setup =
        50e-6 + k.coded_conversion_fixed + double(p.nnz) * (sizeof(S) + 1.0) / (bandwidth * k.coded_conversion);
    add("raw_csr_coded", p.coded_sample_values > 0,
        p.coded_sample_values < 0 ? "more than 256 distinct values in a sample" : "values not counted",
        coded_entry_bytes + vectors + table_bytes, coded_setup,
        k.latency + walk + (k.coded_entries * coded_entry_bytes + k.coded_vectors * vectors) / bandwidth +
            k.coded_gathers * gathers + k.coded_table_lines * double(p.nnz) * std::log(table_lines) / bandwidth);
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
