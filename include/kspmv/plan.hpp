#pragma once
/// \file plan.hpp
/// kspmv::Plan: chooses, once, the format and kernel that minimise
///   setup + expected_uses x time per SpMV
/// for a CSR matrix, and applies it. The analysis runs on the device (row lengths, padding of
/// each format, the diagonals of a sample of rows, which DIA's conversion confirms if DIA is
/// chosen, and, from the automatic call's analysis, how many lines of x windows of rows gather:
/// raw balanced CSR then runs blocks of 512 threads where they share none) and predicts each
/// candidate's setup and per-call time from the bytes it moves, the lines of x it gathers (all
/// but DIA) and the device bandwidth measured once per process; when the hint of uses is large, the best predicted candidates are also
/// converted and timed once. With the raw GPU kernels the candidates include Csr16Matrix (16-bit
/// column offsets, the share of blocks needing 32 estimated from a sample of blocks): the
/// load-balanced kernel on 2 bytes of index an entry instead of sizeof(Ordinal); and, where the
/// analysis finds every stored value the same (bit for bit: graphs' adjacency and pattern
/// matrices), UniformCsrMatrix, the same kernel reading no values; where a sample of the values
/// holds at most 256 distinct ones, CodedCsrMatrix, the same kernel reading a byte of code an
/// entry into a table of them. Asked for
/// (PlanOptions::float_values), a double matrix may also run on its values rounded to float:
/// mixed precision, which changes results. In modes T and H (PlanOptions::mode) the plan keeps
/// A^T (A^H) formed explicitly, and planned as a matrix of its own, where the expected uses pay
/// for forming it.

#include "convert.hpp"
#include "impl/plan_model.hpp"
#include "spmv.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace kspmv {
namespace impl {
// A plan's matrix with its values rounded to a narrower scalar (PlanOptions::float_values): a
// type of its own in the plan's variant, since for a float plan BalancedCsrMatrix<float> is
// already one of its formats.
template <class Matrix>
struct NarrowedValues {
  Matrix matrix;
};
template <class Matrix>
const Matrix& plan_matrix(const Matrix& M) {
  return M;
}
template <class Matrix>
const Matrix& plan_matrix(const NarrowedValues<Matrix>& M) {
  return M.matrix;
}
}  // namespace impl

/// How a Plan chooses.
struct PlanOptions {
  /// How many times apply() is expected to run: the setup of a format is paid once, its SpMV
  /// time this many times.
  int64_t expected_uses = 100;
  /// From this many expected uses on, the best predicted candidates are converted and timed once
  /// (the timing is part of the plan's setup, a few dozen SpMVs); below it the prediction decides.
  int64_t timing_threshold = 1000;
  /// How many of the best predicted candidates are timed.
  int timed_candidates = 2;
  /// Matrices whose CSR arrays are smaller than this many bytes fit in a GPU's L2: their SpMV is
  /// launch latency, so the plan skips the format analysis and keeps the automatic CSR call
  /// (kspmv::spmv's default), which chooses its kernel by the longest row.
  double small_matrix_bytes = 16e6;
  /// Limits for the conversions (ELLPACK, blocked ELLPACK, DIA fill and diagonals).
  ConvertOptions convert;
  /// Mixed precision, only when asked since it changes results: for a double (Kokkos::complex<double>)
  /// matrix also consider the load-balanced kernel on A's values rounded to float
  /// (Kokkos::complex<float>), x, y, every product and sum still in double, as kspmv::spmv's mixed
  /// precision: y then differs from the double product by the rounding of A's values (a relative
  /// 2^-24 of each |a_ij x_j| at most). A matrix with a finite value beyond float's range, or a
  /// nonzero part that float rounds to 0, keeps double (the candidate is refused, with the count).
  /// Ignored for float matrices and for matrices the plan keeps as the automatic CSR call (below
  /// small_matrix_bytes).
  bool float_values = false;
  /// op(A) that apply() computes, y = alpha*op(A)*x + beta*y, spelt as kspmv::spmv's mode: "N"
  /// (A), "T" (A^T), "C" (conj(A)), "H" (A^H); on real scalars "C" is "N" and "H" is "T". In
  /// modes T and H the plan times the plain call on A in that mode (no transpose formed: its
  /// first call is the setup) and, where expected_uses of those calls would cost more than
  /// forming op(A) (impl::transpose_setup_calls of them), forms op(A) explicitly
  /// (kspmv::transpose or kspmv::conjugate_transpose) and plans mode N on it with these options;
  /// it keeps whichever costs less in setup + expected_uses x SpMV, both measured. An explicit
  /// op(A) is a copy, of A's size: later changes of A's values are not seen (as with the plan's
  /// converted formats). Mode C on complex scalars is the plain call in mode C on A.
  std::string mode = "N";
};

/// What a plan chose and why.
struct PlanReport {
  std::string chosen;
  std::string reason;
  int64_t expected_uses = 0;
  double bandwidth = 0;      ///< bytes/s used by the model (measured device copy bandwidth)
  double analysis_time = 0;  ///< seconds of the analysis (and, for a process's first plan, of the bandwidth
                             ///< measurement), without converting to the chosen format
  double timing_time = 0;    ///< seconds spent converting and timing candidates
  std::vector<PlanCandidate> candidates;

  /// A table of every candidate: predicted and measured setup and SpMV times.
  std::string to_string() const {
    std::ostringstream s;
    s << "plan: " << chosen << " (" << reason << ")\n";
    s << "  bandwidth " << bandwidth * 1e-9 << " GB/s, analysis " << analysis_time * 1e6 << " us, timing "
      << timing_time * 1e6 << " us, expected uses " << expected_uses << "\n";
    for (const PlanCandidate& c : candidates) {
      s << "  " << c.name << ": ";
      if (!c.feasible) {
        s << "infeasible (" << c.note << ")\n";
        continue;
      }
      s << "predicted setup " << c.predicted_setup * 1e6 << " us, SpMV " << c.predicted_apply * 1e6 << " us";
      if (c.timed()) s << "; measured setup " << c.measured_setup * 1e6 << " us, SpMV " << c.measured_apply * 1e6 << " us";
      if (!c.note.empty()) s << " (" << c.note << ")";
      s << "\n";
    }
    return s.str();
  }
};

/// A format and kernel chosen for one CSR matrix, with any converted storage it owns.
/// apply() computes y = alpha*A*x + beta*y with the semantics of kspmv::spmv; x and y of rank 2
/// (several vectors) run the plain call on A (the plan chooses for one vector).
template <class Scalar, class Ordinal = int, class Offset = Ordinal,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
class Plan {
 public:
  using csr_type = CsrMatrix<Scalar, Ordinal, Offset, Device>;
  using execution_space = typename Device::execution_space;

  /// Analyses A on its device and chooses (see the file comment). A's Views are shared, not
  /// copied; the chosen format's storage is owned by the plan, and a plan holding a converted
  /// format (or UniformCsrMatrix's one value) does not see later changes of A's values: make a
  /// new plan after changing them. Throws std::invalid_argument,
  /// before any analysis, if expected_uses or timed_candidates is negative, small_matrix_bytes
  /// negative or NaN, or a field of options.convert out of range (as kspmv::convert checks it:
  /// otherwise every conversion would be refused and the plan fall back to CSR without a word).
  /// expected_uses 0 counts as 1.
  /// Throws std::invalid_argument too for a mode that is not one of "N", "T", "C", "H".
  explicit Plan(const csr_type& A, const PlanOptions& options = PlanOptions()) : m_csr(A), m_matrix(A) {
    check_options(options);
    m_operation = operation_of(options.mode);
    if (m_operation == impl::Operation::none) {
      choose(options);
    } else {
      choose_operation(options);
    }
  }

  template <class XView, class YView>
  void apply(Scalar alpha, const XView& x, Scalar beta, const YView& y) const {
    apply(execution_space(), alpha, x, beta, y);
  }
  template <class ExecSpace, class XView, class YView>
  void apply(const ExecSpace& space, Scalar alpha, const XView& x, Scalar beta, const YView& y) const {
    if (m_transposed) {
      m_transposed->apply(space, alpha, x, beta, y);
      return;
    }
    if (m_operation != impl::Operation::none) {
      kspmv::spmv(space, mode_name(m_operation), alpha, m_csr, x, beta, y);
      return;
    }
    if constexpr (XView::rank == 2) {
      // The plan chooses its format and kernel for one vector. Several (rank-2 x and y) run the
      // plain call, whose multivector kernels read A once for all of them: on A, or on its values
      // rounded to float where the plan keeps those (PlanOptions::float_values: their results).
      using Narrowed = impl::NarrowedValues<BalancedCsrMatrix<typename impl::narrowed<Scalar>::type, Ordinal, Offset, Device>>;
      if (const auto* narrowed = std::get_if<Narrowed>(&m_matrix)) {
        kspmv::spmv(space, alpha, impl::plan_matrix(*narrowed), x, beta, y);
      } else {
        kspmv::spmv(space, alpha, m_csr, x, beta, y);
      }
      return;
    }
    SpmvOptions options = m_options;
    // The raw kernels need contiguous vectors; strided ones run the chosen format's Kokkos kernel.
    if (options.algorithm == Algorithm::raw && !(impl::is_contiguous(x) && impl::is_contiguous(y))) {
      options.algorithm = Algorithm::automatic;
    }
    std::visit([&](const auto& M) { kspmv::spmv(space, alpha, impl::plan_matrix(M), x, beta, y, options); }, m_matrix);
  }

  const PlanReport& report() const { return m_report; }
  /// The options apply() passes to kspmv::spmv: the chosen kernel and its launch settings (e.g.
  /// team_size 512 for raw balanced CSR on gathers that miss the caches).
  /// With an explicit op(A), the options of its plan.
  const SpmvOptions& options() const { return m_transposed ? m_transposed->options() : m_options; }
  const csr_type& csr() const { return m_csr; }
  /// The mode apply() computes in ("N", "T", "C" or "H"; on real scalars "C" is "N", "H" is "T").
  std::string operation_mode() const { return mode_name(m_operation); }
  /// op(A) formed explicitly (modes T and H), if the plan keeps it; nullptr otherwise.
  const csr_type* transposed() const { return m_transposed ? &m_transposed->csr() : nullptr; }

 private:
  using Matrix = std::variant<csr_type, BalancedCsrMatrix<Scalar, Ordinal, Offset, Device>,
                              Csr16Matrix<Scalar, Ordinal, Offset, Device>, UniformCsrMatrix<Scalar, Ordinal, Offset, Device>,
                              CodedCsrMatrix<Scalar, Ordinal, Offset, Device>,
                              EllMatrix<Scalar, Ordinal, Offset, Device>, BlockedEllMatrix<Scalar, Ordinal, Offset, Device>,
                              HybMatrix<Scalar, Ordinal, Offset, Device>, DiaMatrix<Scalar, Ordinal, Offset, Device>,
                              impl::NarrowedValues<BalancedCsrMatrix<typename impl::narrowed<Scalar>::type, Ordinal, Offset, Device>>>;
  using Clock = std::chrono::steady_clock;

  csr_type m_csr;
  Matrix m_matrix;
  SpmvOptions m_options;
  PlanReport m_report;
  int m_balanced_threads = 0;  // raw balanced CSR's threads per block; 0: its default
  int m_balanced_resident_blocks = 0;  // its blocks a multiprocessor holds at once; 0: as many as fit
  impl::Operation m_operation = impl::Operation::none;
  std::shared_ptr<const Plan> m_transposed;  // the plan of op(A) formed explicitly, if kept

  static void check_options(const PlanOptions& o) {
    const auto fail = [](const std::string& what) { throw std::invalid_argument("kspmv::Plan: PlanOptions::" + what); };
    if (o.expected_uses < 0) fail("expected_uses = " + std::to_string(o.expected_uses) + " is negative");
    if (o.timed_candidates < 0) fail("timed_candidates = " + std::to_string(o.timed_candidates) + " is negative");
    if (!(o.small_matrix_bytes >= 0)) {
      fail("small_matrix_bytes = " + std::to_string(o.small_matrix_bytes) + " must be 0 or more");
    }
    impl::check_convert_options(o.convert, "kspmv::Plan: PlanOptions::convert");
    operation_of(o.mode);
  }

  // The operation the plan applies; on real scalars conj(A) = A.
  static impl::Operation operation_of(const std::string& mode) {
    impl::Operation op;
    try {
      op = impl::parse_mode(mode.c_str());
    } catch (const std::invalid_argument&) {
      throw std::invalid_argument("kspmv::Plan: PlanOptions::mode \"" + mode + "\" is not one of \"N\", \"T\", \"C\", \"H\"");
    }
    if constexpr (!impl::is_complex<Scalar>::value) {
      if (op == impl::Operation::conjugate) return impl::Operation::none;
      if (op == impl::Operation::conjugate_transpose) return impl::Operation::transpose;
    }
    return op;
  }
  static const char* mode_name(impl::Operation op) {
    switch (op) {
      case impl::Operation::transpose: return "T";
      case impl::Operation::conjugate: return "C";
      case impl::Operation::conjugate_transpose: return "H";
      default: return "N";
    }
  }

  static double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

  // The storage and options of a candidate, built on the device (the candidate's setup).
  std::pair<Matrix, SpmvOptions> build(const std::string& name, const ConvertOptions& convert) const {
    const SpmvOptions none;
    if (name == "csr_scalar") return {Matrix(m_csr), SpmvOptions{Algorithm::csr_scalar}};
    if (name == "csr_vector") return {Matrix(m_csr), SpmvOptions{Algorithm::csr_vector}};
    if (name == "csr_balanced") {
      return {Matrix(kspmv::convert<BalancedCsrMatrix>(m_csr, convert)), SpmvOptions{Algorithm::csr_balanced}};
    }
    if (name == "raw_csr_balanced") {
      SpmvOptions raw{Algorithm::raw};
      raw.team_size = m_balanced_threads;
      raw.resident_blocks = m_balanced_resident_blocks;
      return {Matrix(kspmv::convert<BalancedCsrMatrix>(m_csr, convert)), raw};
    }
    // Blocks of 256 threads whatever the gathers: on ca-CondMat x274 (0.8 lines of x an entry,
    // where CSR takes 512), 512 threads ran Csr16Matrix 6% slower than 256 (H200).
    if (name == "raw_csr16") return {Matrix(kspmv::convert<Csr16Matrix>(m_csr, convert)), SpmvOptions{Algorithm::raw}};
    // Blocks of 256 threads, as many a multiprocessor as fit, whatever the gathers: on the 10 of
    // the 22 replicated real matrices holding one value where raw balanced CSR takes other
    // settings (512 threads, or 7 blocks of 256 for more L1), those ran UniformCsrMatrix 0.9-7%
    // slower (H200, perf_tests/results/h200_csr_uniform/first_form).
    if (name == "raw_csr_uniform") {
      return {Matrix(impl::uniform_csr_of_checked(m_csr)), SpmvOptions{Algorithm::raw}};  // the analysis checked the values
    }
    // Blocks of 256 threads, as many a multiprocessor as fit, as UniformCsrMatrix. The conversion
    // checks every value (the analysis counted a sample) and refuses more than 256.
    if (name == "raw_csr_coded") return {Matrix(kspmv::convert<CodedCsrMatrix>(m_csr)), SpmvOptions{Algorithm::raw}};
    if (name == "raw_csr_vector") return {Matrix(m_csr), SpmvOptions{Algorithm::raw}};
    if (name == "ell") return {Matrix(kspmv::convert<EllMatrix>(m_csr, convert)), none};
    if (name == "blocked_ell") return {Matrix(kspmv::convert<BlockedEllMatrix>(m_csr, convert)), none};
    if (name == "raw_blocked_ell") return {Matrix(kspmv::convert<BlockedEllMatrix>(m_csr, convert)), SpmvOptions{Algorithm::raw}};
    if (name == "float_values_balanced") {
      auto [narrowed, lost] = impl::csr_with_narrowed_values(m_csr);
      if (lost > 0) {
        throw std::invalid_argument(std::to_string(lost) + " of A's values overflow float's range or round to 0 in float");
      }
      // automatic: the raw load-balanced kernel where it runs (GPU builds, contiguous x and y).
      return {Matrix(impl::NarrowedValues<BalancedCsrMatrix<typename impl::narrowed<Scalar>::type, Ordinal, Offset, Device>>{
                  kspmv::convert<BalancedCsrMatrix>(narrowed, convert)}),
              none};
    }
    if (name == "hyb") return {Matrix(kspmv::convert<HybMatrix>(m_csr, convert)), SpmvOptions{Algorithm::coo_deterministic}};
    return {Matrix(kspmv::convert<DiaMatrix>(m_csr, convert)), none};
  }

  void choose(const PlanOptions& options) {
    m_report.expected_uses = std::max<int64_t>(options.expected_uses, 1);
    const int64_t uses = m_report.expected_uses;
    auto t0 = Clock::now();
    const double csr_bytes = double(m_csr.nnz()) * (sizeof(Scalar) + sizeof(Ordinal)) +
                             double(m_csr.num_rows() + 1) * sizeof(Offset);
    if (m_csr.num_rows() == 0 || m_csr.nnz() == 0 || csr_bytes < options.small_matrix_bytes) {
      choose_small(t0);
      return;
    }
    impl::PlanStructure structure = impl::analyse_structure(m_csr, options.convert);
    if constexpr (impl::raw_available<execution_space, Scalar, Ordinal, Offset>()) {
      // The locality of the gathers of x, from the automatic call's analysis (kept with the matrix).
      const impl::CsrStructure& analysed = impl::csr_analysis(execution_space(), m_csr)->structure;
      structure.lines_per_entry = analysed.window_lines_per_entry;
      structure.crowded_run = analysed.crowded_run;  // runs of rows too long for one balanced block
    }
    m_report.bandwidth = impl::device_bandwidth<execution_space>();  // measured by the first plan only
    m_report.analysis_time = since(t0);
    auto predict = [&] {
      return impl::predict_candidates<execution_space, Scalar, Ordinal, Offset>(
          structure, m_report.bandwidth, options.convert, impl::raw_available<execution_space, Scalar, Ordinal, Offset>(),
          options.float_values);
    };
    m_report.candidates = predict();
    // The diagonals were counted on a sample of rows; DIA's conversion counts them all, and
    // refuses more than DIA can afford before it allocates the values.
    ConvertOptions convert = options.convert;
    convert.max_diagonals = std::min(convert.max_diagonals, structure.dia_affordable);
    PlanCandidate* dia = find(m_report.candidates, "dia");
    if (dia != nullptr && dia->feasible) dia->note = sample_note(structure);
    if constexpr (impl::raw_available<execution_space, Scalar, Ordinal, Offset>()) {
      // The raw balanced kernel's block size, as the automatic call chooses it: from how many lines
      // of x windows of rows gather (the automatic call's analysis, kept with the matrix).
      const impl::CsrStructure& s = impl::csr_analysis(execution_space(), m_csr)->structure;
      const double lines = s.window_lines_per_entry;
      const int threads = impl::raw_balanced_block_threads(lines, s.average_row());
      m_balanced_threads = threads == impl::raw_balanced_default_block_threads ? 0 : threads;
      m_balanced_resident_blocks = impl::raw_balanced_resident_blocks(lines, s.average_row(), threads);
      const PlanCandidate* balanced = find(m_report.candidates, "raw_csr_balanced");
      for (PlanCandidate& c : m_report.candidates) {
        if (c.name == "raw_csr_balanced" && m_balanced_threads != 0) {
          c.note = std::to_string(m_balanced_threads) + " threads a block: windows of rows gather " +
                   std::to_string(lines) + " distinct lines of x an entry";
        }
        if (c.name == "raw_csr_balanced" && m_balanced_resident_blocks != 0) {
          c.note = std::to_string(m_balanced_resident_blocks) + " blocks a multiprocessor (more L1): windows of rows gather " +
                   std::to_string(lines) + " distinct lines of x an entry";
        }
        // Where the gathers of x miss the caches (the rules that give CSR 512 threads or fewer
        // blocks a multiprocessor), they, not the index bytes, set the time: Csr16Matrix ran
        // within 1% of raw balanced CSR with 256 threads on ca-CondMat, ca-HepTh and lp_dfl001
        // replicated, and up to 8% behind its 512 threads (H200); 3% behind its 7 blocks on
        // ct2010 replicated (h200_csr_uniform). It is predicted no faster than raw balanced CSR there.
        if (c.name == "raw_csr16" && c.feasible && (m_balanced_threads == 512 || m_balanced_resident_blocks != 0) &&
            balanced != nullptr) {
          c.predicted_apply = std::max(c.predicted_apply, balanced->predicted_apply);
          c.note = "gathers of x miss the caches: predicted no faster than raw_csr_balanced";
        }
      }
    }
    std::vector<PlanCandidate*> order;
    for (PlanCandidate& c : m_report.candidates)
      if (c.feasible) order.push_back(&c);
    auto by_total = [uses](const PlanCandidate* a, const PlanCandidate* b) { return a->total(uses) < b->total(uses); };
    std::sort(order.begin(), order.end(), by_total);

    if (uses >= options.timing_threshold) {
      // Time the best predicted ones and choose among those measured: a prediction is a ranking,
      // not a number to weigh against a measurement. The winner's storage is kept.
      t0 = Clock::now();
      const int count = std::min<int>(options.timed_candidates, int(order.size()));
      std::vector<std::pair<PlanCandidate*, std::pair<Matrix, SpmvOptions>>> timed;
      for (int i = 0; i < count; ++i) {
        auto built = time_candidate(*order[size_t(i)], convert);
        if (built) timed.emplace_back(order[size_t(i)], std::move(*built));
      }
      m_report.timing_time = since(t0);
      if (!timed.empty()) {
        std::sort(timed.begin(), timed.end(), [&](const auto& a, const auto& b) { return by_total(a.first, b.first); });
        order.clear();
        for (const auto& t : timed) order.push_back(t.first);
        m_matrix = std::move(timed.front().second.first);
        m_options = timed.front().second.second;
        explain(order, uses);
        return;
      }
    }
    // The best prediction is built; a DIA conversion that finds more diagonals than the sample
    // showed is refused (beyond what DIA can afford) or re-predicted with the true count, and the
    // next best is built if DIA no longer leads. csr_scalar needs no conversion: the loop ends.
    for (;;) {
      PlanCandidate& best = *order.front();
      std::optional<std::pair<Matrix, SpmvOptions>> built = try_build(best, convert);
      if (!built) {
        order.erase(order.begin());
        continue;
      }
      if (const auto* D = std::get_if<DiaMatrix<Scalar, Ordinal, Offset, Device>>(&built->first)) {
        if (D->num_diagonals() > structure.diagonals) {
          structure.diagonals = D->num_diagonals();
          std::vector<PlanCandidate> recounted = predict();
          const PlanCandidate& counted = *find(recounted, "dia");
          best.bytes_per_call = counted.bytes_per_call;
          best.predicted_setup = counted.predicted_setup;
          best.predicted_apply = counted.predicted_apply;
          best.note = std::to_string(structure.diagonals) + " diagonals in all rows, " + sample_note(structure);
          std::sort(order.begin(), order.end(), by_total);
          if (order.front() != &best) continue;
        }
      }
      m_matrix = std::move(built->first);
      m_options = built->second;
      break;
    }
    explain(order, uses);
  }

  // Modes T, C and H (PlanOptions::mode): the plain call on A in that mode, or op(A) formed and
  // planned in mode N, whichever costs less over the expected uses, both measured.
  void choose_operation(const PlanOptions& options) {
    m_report.expected_uses = std::max<int64_t>(options.expected_uses, 1);
    const int64_t uses = m_report.expected_uses;
    const std::string mode = mode_name(m_operation);
    auto t0 = Clock::now();
    PlanCandidate on_a;
    on_a.name = "mode_" + mode + "_on_A";
    on_a.note = "the plain call in mode " + mode + " on A, no transpose formed";
    m_report.candidates = {on_a};
    m_report.chosen = on_a.name;
    const double csr_bytes = double(m_csr.nnz()) * (sizeof(Scalar) + sizeof(Ordinal)) +
                             double(m_csr.num_rows() + 1) * sizeof(Offset);
    if (m_csr.num_rows() == 0 || m_csr.nnz() == 0 || csr_bytes < options.small_matrix_bytes) {
      m_report.analysis_time = since(t0);
      m_report.reason = "matrix fits in cache, SpMV is launch latency: the plain call in mode " + mode + " on A";
      return;
    }
    if (m_operation == impl::Operation::conjugate) {
      m_report.analysis_time = since(t0);
      m_report.reason = "mode C: conj(A) is applied by the plain call through a conjugated x and y";
      return;
    }
    m_report.bandwidth = impl::device_bandwidth<execution_space>();
    time_apply(on_a, [&](const auto& x, const auto& y) { kspmv::spmv(execution_space(), mode.c_str(), Scalar(1), m_csr, x, Scalar(0), y); },
               m_csr.num_rows(), m_csr.num_cols());
    m_report.analysis_time = since(t0);

    PlanCandidate formed;
    formed.name = m_operation == impl::Operation::transpose ? "transpose" : "conjugate_transpose";
    formed.predicted_setup = impl::transpose_setup_calls * on_a.measured_apply;
    formed.predicted_apply = 0;
    if (double(uses) * on_a.measured_apply <= formed.predicted_setup) {
      formed.feasible = false;
      formed.note = "not formed: " + std::to_string(uses) + " calls in mode " + mode + " cost less than forming op(A) (" +
                    std::to_string(impl::transpose_setup_calls) + " of them)";
      m_report.candidates = {on_a, formed};
      explain_operation(on_a, formed, uses);
      return;
    }
    t0 = Clock::now();
    execution_space space;
    csr_type op_a;
    try {
      op_a = impl::transposed_csr(space, m_csr, m_operation == impl::Operation::conjugate_transpose);
      space.fence();
    } catch (const std::invalid_argument& e) {
      formed.feasible = false;
      formed.note = std::string("not formed: ") + e.what();
      m_report.timing_time = since(t0);
      m_report.candidates = {on_a, formed};
      explain_operation(on_a, formed, uses);
      return;
    }
    const double forming = since(t0);
    PlanOptions planned = options;
    planned.mode = "N";
    auto plan = std::make_shared<const Plan>(op_a, planned);
    space.fence();
    formed.measured_setup = since(t0);
    time_apply(formed, [&](const auto& x, const auto& y) { plan->apply(space, Scalar(1), x, Scalar(0), y); },
               m_csr.num_rows(), m_csr.num_cols());
    m_report.timing_time = since(t0);
    formed.name += " + " + plan->report().chosen;
    std::ostringstream note;
    note << "forming op(A) " << forming * 1e6 << " us; its plan: " << plan->report().reason;
    formed.note = note.str();
    m_report.candidates = {on_a, formed};
    if (formed.total(uses) < on_a.total(uses)) m_transposed = plan;
    explain_operation(on_a, formed, uses);
  }

  void explain_operation(const PlanCandidate& on_a, const PlanCandidate& formed, int64_t uses) {
    const PlanCandidate& best = m_transposed ? formed : on_a;
    const PlanCandidate& other = m_transposed ? on_a : formed;
    m_report.chosen = best.name;
    std::ostringstream why;
    why << "lowest measured setup + " << uses << " x SpMV = " << best.setup() * 1e6 << " us + " << uses << " x "
        << best.apply() * 1e6 << " us";
    if (other.feasible) {
      why << "; next " << other.name << " " << other.total(uses) * 1e6 << " us in all";
    } else {
      why << "; " << other.name << " " << other.note;
    }
    m_report.reason = why.str();
  }

  // Times calls of run(x, y) on x of x_size ones into y of y_size (op(A) is y_size x x_size),
  // fenced: the first, from an idle device, as the setup where none is measured yet (the plain
  // call builds its analysis then; otherwise it only warms up), the median of three more as the SpMV.
  template <class Run>
  static void time_apply(PlanCandidate& c, const Run& run, Ordinal x_size, Ordinal y_size) {
    Kokkos::View<Scalar*, Device> x("kspmv::plan::x", x_size), y("kspmv::plan::y", y_size);
    Kokkos::deep_copy(x, Scalar(1));
    execution_space space;
    std::vector<double> samples;
    for (int r = 0; r < 4; ++r) {
      space.fence();
      const auto t0 = Clock::now();
      run(x, y);
      space.fence();
      if (r == 0) {
        if (c.measured_setup < 0) c.measured_setup = since(t0);
      } else {
        samples.push_back(since(t0));
      }
    }
    std::nth_element(samples.begin(), samples.begin() + samples.size() / 2, samples.end());
    c.measured_apply = samples[samples.size() / 2];
  }

  // The candidate's storage, or nothing if its conversion refused (the candidate is then marked
  // infeasible, with the refusal as its note).
  std::optional<std::pair<Matrix, SpmvOptions>> try_build(PlanCandidate& c, const ConvertOptions& convert) const {
    try {
      return build(c.name, convert);
    } catch (const std::invalid_argument& e) {
      c.feasible = false;
      c.note = std::string("the conversion refused: ") + e.what();
      return std::nullopt;
    }
  }

  static PlanCandidate* find(std::vector<PlanCandidate>& candidates, const std::string& name) {
    for (PlanCandidate& c : candidates)
      if (c.name == name) return &c;
    return nullptr;
  }
  static std::string sample_note(const impl::PlanStructure& p) {
    return std::to_string(p.diagonals) + " diagonals in a sample of " + std::to_string(p.diagonal_sample_rows) +
           " rows (the conversion counts all rows, up to " + std::to_string(p.dia_affordable) + ")";
  }

  // Cache-resident matrices: every SpMV costs a few microseconds of launch latency, which no
  // conversion can win back, and an analysis beyond one reduction would cost more than it saves
  // over the hinted uses. The plan is then the automatic CSR call, whose first-call analysis
  // (the longest row, and the balanced partition if it chooses that kernel) runs here, as setup.
  void choose_small(Clock::time_point t0) {
    PlanCandidate c;
    c.name = "csr_automatic";
    c.note = "small matrix: latency-bound";
    std::string why = "no entries";
    if (m_csr.num_rows() > 0 && m_csr.nnz() > 0) {
      const auto analysis = impl::csr_analysis(execution_space(), m_csr);
      why = "longest row " + std::to_string(analysis->structure.longest_row) + " vs average " +
            std::to_string(analysis->structure.average_row()) + "; the automatic CSR kernel, " +
            impl::to_string(analysis->choice.kernel) + " (" + analysis->choice.reason + ")";
    }
    m_report.analysis_time = since(t0);
    m_report.candidates = {c};
    m_matrix = m_csr;
    m_options = SpmvOptions();
    m_report.chosen = c.name;
    m_report.reason = "matrix fits in cache, SpMV is launch latency; " + why;
  }

  void explain(const std::vector<PlanCandidate*>& order, int64_t uses) {
    const PlanCandidate& best = *order.front();
    m_report.chosen = best.name;
    std::ostringstream why;
    why << "lowest " << (best.timed() ? "measured" : "predicted") << " setup + " << uses << " x SpMV = "
        << best.setup() * 1e6 << " us + " << uses << " x " << best.apply() * 1e6 << " us";
    if (!best.note.empty()) why << "; " << best.note;
    if (order.size() > 1) why << "; next " << order[1]->name << " " << order[1]->total(uses) * 1e6 << " us in all";
    m_report.reason = why.str();
  }

  // Converts the candidate and times 3 SpMVs after a warm-up (median, time_apply); returns the
  // converted storage so the winner is not converted twice (nothing if the conversion refused).
  std::optional<std::pair<Matrix, SpmvOptions>> time_candidate(PlanCandidate& c, const ConvertOptions& convert) const {
    execution_space space;
    space.fence();
    const auto t0 = Clock::now();
    auto built = try_build(c, convert);
    if (!built) return built;
    space.fence();
    c.measured_setup = since(t0);  // so the first call below only warms up
    time_apply(
        c,
        [&](const auto& x, const auto& y) {
          std::visit([&](const auto& M) { kspmv::spmv(space, Scalar(1), impl::plan_matrix(M), x, Scalar(0), y, built->second); },
                     built->first);
        },
        m_csr.num_cols(), m_csr.num_rows());
    return built;
  }
};

}  // namespace kspmv
