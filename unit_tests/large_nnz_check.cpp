// The 64-bit paths: a square matrix built on the device from a formula, with 64-bit offsets and
// int or int64_t indices, run through every format and kernel, each result checked against the
// formula on a sample of rows (columns in mode T). At the default size (2^27 rows of 16-18
// entries: 2,281,701,376 nonzeros, more than 2^31) the offsets pass 2^31 and the int-indexed
// formats hold more than 2^31 slots; the sample includes the rows where the offsets cross 2^31
// and 2^32. It needs about 70 GB of device memory at that size (the CSR matrix and one
// conversion at a time, or A's transposed structure); ctest runs it at a small size so that its
// logic is checked on every backend.
//
//   kspmv_large_nnz_check [--rows M] [--ordinal int|int64|both]
//
// Prints a line per format and kernel: ok (with the largest error, the median of 3 calls and
// the bandwidth by the CSR byte model), WRONG, or refused (the exception's message). Exits 1 on
// a wrong result or an exception other than std::invalid_argument (a clear refusal).
#include <kspmv/kspmv.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace large_nnz_check {

using Clock = std::chrono::steady_clock;
constexpr double alpha = 2.0, beta = 0.5;

// The matrix: row i holds 16 + i % 3 entries, at columns (i + shift(k)) mod n for k < length(i),
// stored by increasing column (the wrapped-around ones first). The shifts are distinct and below
// n, so no row repeats a column; A has at most 2 * 18 occupied diagonals (DIA accepts it).
struct Pattern {
  int64_t n = 0;

  KOKKOS_INLINE_FUNCTION static int length(int64_t i) { return 16 + int(i % 3); }
  KOKKOS_INLINE_FUNCTION static int64_t shift(int k) { return int64_t(k) * (k + 1) / 2 * 97; }
  static constexpr int64_t max_shift = 17 * 18 / 2 * 97;
  // Closed form of the sum of length(j) for j < i.
  KOKKOS_INLINE_FUNCTION static int64_t offset(int64_t i) { return 16 * i + 3 * (i / 3) + (i % 3 == 2 ? 1 : 0); }
  // The k of the entry stored at position p of row i.
  KOKKOS_INLINE_FUNCTION int entry(int64_t i, int p) const {
    const int len = length(i);
    int first_wrapped = len;
    for (int k = 0; k < len; ++k) {
      if (i + shift(k) >= n) {
        first_wrapped = k;
        break;
      }
    }
    const int wrapped = len - first_wrapped;
    return p < wrapped ? first_wrapped + p : p - wrapped;
  }
  KOKKOS_INLINE_FUNCTION int64_t column(int64_t i, int k) const { return (i + shift(k)) % n; }
  KOKKOS_INLINE_FUNCTION static double value(int64_t i, int k) { return 1.0 + double((i * 7 + k * 13) % 17) / 16.0; }
  KOKKOS_INLINE_FUNCTION static double x(int64_t j) { return 1.0 + double(j % 11) / 8.0; }
  KOKKOS_INLINE_FUNCTION static double y0(int64_t i) { return double(i % 5) - 2.0; }

  // alpha * (A x)_i + beta * y0_i and the sum of the magnitudes (the error's scale).
  std::pair<double, double> row_reference(int64_t i) const {
    double sum = 0, scale = 0;
    for (int k = 0; k < length(i); ++k) {
      const double p = value(i, k) * x(column(i, k));
      sum += p;
      scale += std::abs(p);
    }
    return {alpha * sum + beta * y0(i), std::abs(alpha) * scale + std::abs(beta * y0(i))};
  }
  // alpha * (A^T x)_j + beta * y0_j: the rows holding column j are i = j - shift(k) mod n.
  std::pair<double, double> column_reference(int64_t j) const {
    double sum = 0, scale = 0;
    for (int k = 0; k < 18; ++k) {
      const int64_t i = ((j - shift(k)) % n + n) % n;
      if (k < length(i)) {
        const double p = value(i, k) * x(i);
        sum += p;
        scale += std::abs(p);
      }
    }
    return {alpha * sum + beta * y0(j), std::abs(alpha) * scale + std::abs(beta * y0(j))};
  }
};

// Rows checked: both ends, those whose entries cross 2^31 and 2^32 (and their neighbours), and
// random ones.
std::vector<int64_t> sample_rows(int64_t m) {
  std::vector<int64_t> rows;
  for (int64_t i = 0; i < std::min<int64_t>(m, 2000); ++i) rows.push_back(i);
  for (int64_t i = std::max<int64_t>(0, m - 2000); i < m; ++i) rows.push_back(i);
  for (int64_t boundary : {int64_t(1) << 31, int64_t(1) << 32}) {
    int64_t lo = 0, hi = m;  // the first row whose end passes the boundary
    while (lo < hi) {
      const int64_t mid = (lo + hi) / 2;
      if (Pattern::offset(mid + 1) <= boundary) lo = mid + 1; else hi = mid;
    }
    for (int64_t i = std::max<int64_t>(0, lo - 50); i < std::min(m, lo + 50); ++i) rows.push_back(i);
  }
  std::mt19937_64 rng(12345);
  for (int r = 0; r < 100000 && m > 0; ++r) rows.push_back(int64_t(rng() % uint64_t(m)));
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

template <class Ordinal>
using Csr = kspmv::CsrMatrix<double, Ordinal, int64_t>;

template <class Ordinal>
Csr<Ordinal> build(int64_t m) {
  const Pattern pattern{m};
  const int64_t nnz = Pattern::offset(m);
  Kokkos::View<int64_t*> offsets(Kokkos::view_alloc(Kokkos::WithoutInitializing, "offsets"), m + 1);
  Kokkos::View<Ordinal*> indices(Kokkos::view_alloc(Kokkos::WithoutInitializing, "indices"), nnz);
  Kokkos::View<double*> values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "values"), nnz);
  using Policy = Kokkos::RangePolicy<Kokkos::IndexType<int64_t>>;
  Kokkos::parallel_for("large_nnz_check::offsets", Policy(0, m + 1),
                       KOKKOS_LAMBDA(int64_t i) { offsets(i) = Pattern::offset(i); });
  Kokkos::parallel_for(
      "large_nnz_check::entries", Policy(0, m), KOKKOS_LAMBDA(int64_t i) {
        const int64_t start = Pattern::offset(i);
        for (int p = 0; p < Pattern::length(i); ++p) {
          const int k = pattern.entry(i, p);
          indices(start + p) = Ordinal(pattern.column(i, k));
          values(start + p) = Pattern::value(i, k);
        }
      });
  Kokkos::fence();
  return Csr<Ordinal>(Ordinal(m), Ordinal(m), offsets, indices, values);
}

struct Checker {
  Pattern pattern;
  std::vector<int64_t> rows;
  Kokkos::View<double*> x, y;
  double bytes = 0;  // the CSR byte model
  int failures = 0;

  void reset_y() const {
    auto yy = y;
    Kokkos::parallel_for(
        "large_nnz_check::y0", Kokkos::RangePolicy<Kokkos::IndexType<int64_t>>(0, int64_t(y.extent(0))),
        KOKKOS_LAMBDA(int64_t i) { yy(i) = Pattern::y0(i); });
    Kokkos::fence();
  }

  // Runs `call` (one SpMV into y) once, then three times timed, checks the last result.
  void run(const std::string& label, bool transpose, const std::function<void()>& call) {
    std::vector<double> times;
    try {
      for (int r = 0; r < 4; ++r) {
        reset_y();
        const auto t0 = Clock::now();
        call();
        Kokkos::fence();
        if (r > 0) times.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
      }
    } catch (const std::invalid_argument& e) {
      std::printf("%-44s refused: %s\n", label.c_str(), e.what());
      return;
    } catch (const std::exception& e) {
      std::printf("%-44s FAILED: unexpected exception: %s\n", label.c_str(), e.what());
      ++failures;
      return;
    }
    auto host_y = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    double worst = 0;
    int64_t worst_row = -1;
    for (int64_t i : rows) {
      const auto ref = transpose ? pattern.column_reference(i) : pattern.row_reference(i);
      const double err = std::abs(host_y(i) - ref.first) / std::max(ref.second, 1e-300);
      if (!(err <= worst)) {
        worst = err;
        worst_row = i;
      }
    }
    std::sort(times.begin(), times.end());
    const double t = times[times.size() / 2];
    const bool ok = worst <= 1e-13;
    const std::string where = worst_row < 0 ? std::string("exact") : "row " + std::to_string(worst_row);
    std::printf("%-44s %s: max rel. error %.1e (%s), %9.3f ms, %7.1f GB/s\n", label.c_str(), ok ? "ok" : "WRONG",
                worst, where.c_str(), t * 1e3, bytes / t * 1e-9);
    std::fflush(stdout);
    if (!ok) ++failures;
  }
};

template <class Matrix>
void run_format(Checker& c, const std::string& name, const Matrix& M, std::initializer_list<kspmv::Algorithm> algorithms) {
  for (kspmv::Algorithm a : algorithms) {
    kspmv::SpmvOptions o;
    o.algorithm = a;
    c.run(name + " N " + kspmv::to_string(a), false, [&] { kspmv::spmv(alpha, M, c.x, beta, c.y, o); });
  }
}

// Converts (timed, as setup) and runs; a conversion that refuses is reported as such.
template <template <class, class, class, class> class Format, class Ordinal>
void convert_and_run(Checker& c, const std::string& name, const Csr<Ordinal>& A,
                     std::initializer_list<kspmv::Algorithm> algorithms) {
  try {
    const auto t0 = Clock::now();
    const auto M = kspmv::convert<Format>(A);
    Kokkos::fence();
    std::printf("%-44s converted in %.2f s\n", name.c_str(), std::chrono::duration<double>(Clock::now() - t0).count());
    run_format(c, name, M, algorithms);
  } catch (const std::invalid_argument& e) {
    std::printf("%-44s refused: %s\n", name.c_str(), e.what());
  } catch (const std::exception& e) {
    std::printf("%-44s FAILED: unexpected exception in the conversion: %s\n", name.c_str(), e.what());
    ++c.failures;
  }
}

template <class Ordinal>
int check(int64_t m, const char* ordinal_name) {
  using kspmv::Algorithm;
  const auto t0 = Clock::now();
  const Csr<Ordinal> A = build<Ordinal>(m);
  std::printf("\n== %lld x %lld, %lld nonzeros (2^31 = %lld), indices %s, offsets int64_t: built in %.2f s\n",
              static_cast<long long>(m), static_cast<long long>(m), static_cast<long long>(A.nnz()),
              static_cast<long long>(int64_t(1) << 31), ordinal_name,
              std::chrono::duration<double>(Clock::now() - t0).count());
  Checker c;
  c.pattern = Pattern{m};
  c.rows = sample_rows(m);
  c.x = Kokkos::View<double*>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x"), m);
  c.y = Kokkos::View<double*>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "y"), m);
  auto x = c.x;
  Kokkos::parallel_for(
      "large_nnz_check::x", Kokkos::RangePolicy<Kokkos::IndexType<int64_t>>(0, m),
      KOKKOS_LAMBDA(int64_t j) { x(j) = Pattern::x(j); });
  c.bytes = double(A.nnz()) * (sizeof(double) + sizeof(Ordinal)) + double(m + 1) * sizeof(int64_t) + 2.0 * m * sizeof(double);
  std::printf("checking %zu sampled rows (columns in mode T)\n", c.rows.size());

  const std::string o = std::string("<") + ordinal_name + ",int64_t>";
  run_format(c, "CsrMatrix" + o, A,
             {Algorithm::automatic, Algorithm::csr_scalar, Algorithm::csr_vector, Algorithm::csr_balanced, Algorithm::raw});
  std::printf("%-44s automatic chose: %s\n", ("CsrMatrix" + o).c_str(), kspmv::automatic_choice(A).c_str());
  convert_and_run<kspmv::BalancedCsrMatrix>(c, "BalancedCsrMatrix" + o, A,
                                            {Algorithm::automatic, Algorithm::csr_balanced, Algorithm::raw});
  convert_and_run<kspmv::Csr16Matrix>(c, "Csr16Matrix" + o, A, {Algorithm::automatic, Algorithm::csr_scalar, Algorithm::raw});
  convert_and_run<kspmv::EllMatrix>(c, "EllMatrix" + o, A, {Algorithm::automatic});
  convert_and_run<kspmv::BlockedEllMatrix>(c, "BlockedEllMatrix" + o, A, {Algorithm::automatic, Algorithm::raw});
  convert_and_run<kspmv::CooMatrix>(c, "CooMatrix" + o, A, {Algorithm::coo_atomic, Algorithm::coo_deterministic});
  convert_and_run<kspmv::HybMatrix>(c, "HybMatrix" + o, A, {Algorithm::automatic});
  convert_and_run<kspmv::DiaMatrix>(c, "DiaMatrix" + o, A, {Algorithm::automatic});
  // Mode T last: csr_transposed keeps A's transposed structure with A.
  for (Algorithm a : {Algorithm::automatic, Algorithm::csr_scalar, Algorithm::csr_vector, Algorithm::csr_balanced,
                      Algorithm::csr_transposed}) {
    kspmv::SpmvOptions opt;
    opt.algorithm = a;
    c.run("CsrMatrix" + o + " T " + kspmv::to_string(a), true, [&] { kspmv::spmv("T", alpha, A, c.x, beta, c.y, opt); });
  }
  return c.failures;
}

}  // namespace large_nnz_check

using namespace large_nnz_check;

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  int failures = 0;
  try {
    int64_t rows = int64_t(1) << 27;
    std::string ordinal = "both";
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--rows" && i + 1 < argc) {
        rows = std::atoll(argv[++i]);
      } else if (arg == "--ordinal" && i + 1 < argc) {
        ordinal = argv[++i];
      } else {
        throw std::invalid_argument("unknown argument '" + arg + "'; usage: kspmv_large_nnz_check [--rows M] [--ordinal int|int64|both]");
      }
    }
    // Below that the shifts would repeat a column within a row.
    if (rows <= Pattern::max_shift) throw std::invalid_argument("--rows must exceed " + std::to_string(Pattern::max_shift));
    std::printf("kspmv_large_nnz_check on %s\n", Kokkos::DefaultExecutionSpace::name());
    if (ordinal == "int" || ordinal == "both") {
      if (rows > std::numeric_limits<int>::max()) throw std::invalid_argument("--rows does not fit in int");
      failures += check<int>(rows, "int");
    }
    if (ordinal == "int64" || ordinal == "both") failures += check<int64_t>(rows, "int64_t");
    std::printf("\n%s: %d failure(s)\n", failures ? "FAILED" : "passed", failures);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kspmv_large_nnz_check: %s\n", e.what());
    failures = 1;
  }
  Kokkos::finalize();
  return failures ? 1 : 0;
}
