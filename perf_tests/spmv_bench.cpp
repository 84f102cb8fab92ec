// spmv_bench: every kspmv kernel beside KokkosKernels' spmv on the same matrices, with the
// device's measured copy and read bandwidth in the same run.
//
//   spmv_bench [--suite large|real|all|none] [--scale S] [--mtx FILE[:K]]... [--replicate-to NNZ]
//              [--real-dir DIR] [--kernels all|csr|plain|transpose] [--vectors K,...] [--repeat R] [--json FILE]
//              [--csv FILE] [--mixed] [--vector-kernels] [--only NAME,...]
//
// --scale multiplies the generated matrices' sizes (1 = at least 1 GB of CSR data each; use
// 0.05 or so on a CPU). --mtx adds a Matrix Market file, replicated K times block-diagonally (no
// K: once, or as often as it takes to reach --replicate-to entries). --kernels csr runs only the
// kernels that keep A in CSR or its 16-bit column form (Csr16Matrix), the Plan, and
// KokkosKernels': no other format conversions; --kernels plain only kspmv's plain call and
// KokkosKernels' default; --kernels transpose only mode T's (rows "T:..."). --vectors adds, for each count k, y = A*x with k vectors (rank-2 x and
// y, LayoutLeft and LayoutRight; kernels named "mv<k>L:..." and "mv<k>R:..."), their bytes by the
// CSR model with every vector's x and y. --mixed adds kspmv:float_values_balanced: A's values
// rounded to float on the load-balanced kernel with double x and y (mixed precision), and
// kspmv:plan_float_values, a Plan with PlanOptions::float_values (with --kernels plain, the
// double kspmv:plan too), checked to float's rounding (1e-5 of y's largest entry) rather than
// double's. --vector-kernels adds, with --vectors on GPUs, the row-major multivector kernels
// forced (kspmv:raw_chunks, raw_row_lanes where rows are even, raw_entries; on a LayoutLeft X
// through the row-major copy the plain call makes, timed with them; and kspmv:staged_row_major,
// X and Y copied row-major and back around the plain call on them). --only keeps the generated
// matrices whose names begin with one of the given names (poisson7, uniform_random, ...).
// Times are medians of R fenced batches after warm-up; a batch repeats the SpMV back to back
// until it lasts about 2 ms, so microsecond-scale kernels are timed without fence overhead. The
// kernels of a matrix take turns, a batch each per round in an order shuffled every round, each
// batch after one untimed call.
// Setup is the median of fresh setups (conversion, analysis or handle, and the first SpMV,
// fenced; a kernel that needs none times its first call alone) less one steady-state SpMV: 3 of
// them, or up to 15 while they add up to under 2 ms (cache-resident matrices, whose setups of
// tens of microseconds vary by several from one to the next).
#include "matrices.hpp"

#include <kspmv/kspmv.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#if defined(KSPMV_HAVE_KOKKOSKERNELS)
#include <KokkosKernels_config.h>
#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>
#if KOKKOSKERNELS_VERSION >= 40200
#define KSPMV_BENCH_SPMV_HANDLE 1
#endif
#endif

namespace kspmv_bench {
namespace {

using Clock = std::chrono::steady_clock;
using Vector = Kokkos::View<double*, Device>;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Median seconds per call of each function, fenced; see the file comment. The functions take
// turns, one batch each per round, so a drift of the device's state (clocks) over the run
// touches all of them alike instead of whichever was timed during it: timed one after the
// other, the same kernel measured twice on a cache-resident matrix differed by up to 15%. The
// order is shuffled every round (a fixed seed): what a kernel leaves behind slows the next one,
// and in a fixed order the first of each round always came after the same one. On 2 OpenMP
// threads on arrow x30, kspmv:automatic timed first measured 1.11-1.18x csr_scalar's time; with
// the two swapped, csr_scalar first measured 1.2-1.3x automatic's; shuffled, within 6%.
std::vector<double> time_per_call(const std::vector<std::function<void()>>& functions, int repeat) {
  std::vector<int> batch;
  for (const auto& f : functions) {
    f();
    f();
    Kokkos::fence();
    const auto t0 = Clock::now();
    f();
    Kokkos::fence();
    const double once = std::max(seconds_since(t0), 1e-7);
    batch.push_back(int(std::min(1000.0, std::max(1.0, 2e-3 / once))));
  }
  std::vector<std::vector<double>> samples(functions.size());
  std::vector<size_t> order(functions.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::mt19937 shuffle_rng(12345);
  for (int r = 0; r < repeat; ++r) {
    std::shuffle(order.begin(), order.end(), shuffle_rng);
    for (const size_t i : order) {
      // One untimed call first: a batch then starts from the caches its own kernel leaves, not
      // from whatever the previous kernel left (a batch of a 1.4 ms SpMV is a single call).
      functions[i]();
      Kokkos::fence();
      const auto t0 = Clock::now();
      for (int b = 0; b < batch[i]; ++b) functions[i]();
      Kokkos::fence();
      samples[i].push_back(seconds_since(t0) / batch[i]);
    }
  }
  std::vector<double> medians;
  for (auto& s : samples) {
    std::nth_element(s.begin(), s.begin() + s.size() / 2, s.end());
    medians.push_back(s[s.size() / 2]);
  }
  return medians;
}
double time_per_call(const std::function<void()>& f, int repeat) {
  return time_per_call(std::vector<std::function<void()>>{f}, repeat).front();
}

struct Bandwidth {
  double copy = 0, read = 0;  // bytes per second
  std::string copy_kernel, read_kernel;
};

struct SumFunctor {
  Kokkos::View<const double*, Device> a;
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t i, double& s) const { s += a(i); }
};

// Eight independent partial sums per iteration: on CPUs a single running sum is a dependency
// chain that caps the read rate far below memory bandwidth.
struct Sum8Functor {
  Kokkos::View<const double*, Device> a;
  int64_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t c, double& s) const {
    double p[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int k = 0; k < 8; ++k) {
      const int64_t i = 8 * c + k;
      if (i < n) p[k] = a(i);
    }
    s += ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
  }
};

// Copy: the faster of a range kernel y = x and Kokkos::deep_copy (the vendor's memcpy on GPUs)
// over two large buffers, bytes read + written. Read: the fastest of a plain
// reduction and a team reduction whose lanes read consecutive 8-element chunks, bytes read.
Bandwidth measure_bandwidth(int64_t n, int repeat) {
  Vector a(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bw::a"), n), b(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bw::b"), n);
  Kokkos::deep_copy(a, 1.0);
  Kokkos::deep_copy(b, 2.0);
  Bandwidth bw;
  const double t_copy = time_per_call(
      [&] {
        auto x = a;
        auto y = b;
        Kokkos::parallel_for("bench::copy", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, n),
                             KOKKOS_LAMBDA(const int64_t i) { y(i) = x(i); });
      },
      repeat);
  const double t_deep_copy = time_per_call([&] { Kokkos::deep_copy(ExecSpace(), b, a); }, repeat);
  bw.copy = 2.0 * n * sizeof(double) / std::min(t_copy, t_deep_copy);
  bw.copy_kernel = t_copy <= t_deep_copy ? "range copy" : "deep_copy";
  double sink = 0;
  const double t_plain = time_per_call(
      [&] {
        Kokkos::parallel_reduce("bench::read[range]", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, n),
                                SumFunctor{a}, sink);
      },
      repeat);
  const double t_chunked = time_per_call(
      [&] {
        Kokkos::parallel_reduce("bench::read[range x8]",
                                Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, (n + 7) / 8),
                                Sum8Functor{a, n}, sink);
      },
      repeat);
  // Team variant: each team reads a contiguous block of team*lanes*64 elements, thread j of the
  // flattened (thread, lane) grid reading element j of each stripe, so every load coalesces.
  using Team = Kokkos::TeamPolicy<ExecSpace>;
  const int lanes = kspmv::impl::warp_width<ExecSpace>();
  const int team = kspmv::impl::is_gpu_space<ExecSpace>() ? 512 / lanes : 1;
  const int stripes = 64;
  const int64_t per_team = int64_t(team) * lanes * stripes;
  const double t_team = time_per_call(
      [&] {
        auto x = a;
        const int64_t len = n;
        Kokkos::parallel_reduce(
            "bench::read[team]", Team(int((n + per_team - 1) / per_team), team, lanes),
            KOKKOS_LAMBDA(const typename Team::member_type& m, double& s) {
              const int64_t base = int64_t(m.league_rank()) * per_team;
              double t = 0;
              Kokkos::parallel_reduce(
                  Kokkos::TeamThreadRange(m, team * stripes),
                  [&](const int j, double& u) {
                    double v = 0;
                    Kokkos::parallel_reduce(
                        Kokkos::ThreadVectorRange(m, lanes),
                        [&](const int l, double& w) {
                          const int64_t i = base + int64_t(j) * lanes + l;
                          if (i < len) w += x(i);
                        },
                        v);
                    u += v;
                  },
                  t);
              Kokkos::single(Kokkos::PerTeam(m), [&] { s += t; });
            },
            sink);
      },
      repeat);
  const double t_read = std::min({t_plain, t_chunked, t_team});
  bw.read = n * sizeof(double) / t_read;
  bw.read_kernel = t_read == t_plain ? "range reduce" : (t_read == t_chunked ? "range reduce x8" : "team reduce");
  return bw;
}

// The driver's own oracle: one thread per row, accumulating in double, independent of the
// kernels under test.
Vector reference(const Matrix& A, const Vector& x) {
  Vector y("bench::reference", A.num_rows());
  auto offsets = A.row_offsets;
  auto indices = A.col_indices;
  auto values = A.values;
  Kokkos::parallel_for(
      "bench::reference", Kokkos::RangePolicy<ExecSpace>(0, A.num_rows()), KOKKOS_LAMBDA(const int i) {
        double s = 0;
        for (int k = offsets(i); k < offsets(i + 1); ++k) s += values(k) * x(indices(k));
        y(i) = s;
      });
  return y;
}

// Entry (i, j) of several vectors, or entry i of one.
template <class View>
KOKKOS_INLINE_FUNCTION double at(const View& v, int i, int j) {
  if constexpr (View::rank == 2) {
    return v(i, j);
  } else {
    (void)j;
    return v(i);
  }
}

// Largest |y - ref| over the largest |ref|, for one vector or several (rank-2, any layout).
template <class View>
double max_relative_error(const View& y, const View& ref) {
  double err = 0, scale = 0;
  const int vectors = View::rank == 2 ? int(y.extent(1)) : 1;
  Kokkos::parallel_reduce(
      "bench::error", Kokkos::RangePolicy<ExecSpace>(0, int(y.extent(0))),
      KOKKOS_LAMBDA(const int i, double& e) {
        for (int j = 0; j < vectors; ++j) {
          const double d = at(y, i, j) - at(ref, i, j);
          const double a = d < 0 ? -d : d;
          e = (a > e || a != a) ? a : e;  // NaN wins
        }
      },
      Kokkos::Max<double>(err));
  Kokkos::parallel_reduce(
      "bench::scale", Kokkos::RangePolicy<ExecSpace>(0, int(ref.extent(0))),
      KOKKOS_LAMBDA(const int i, double& m) {
        for (int j = 0; j < vectors; ++j) {
          const double r = at(ref, i, j);
          m = r > m ? r : (-r > m ? -r : m);
        }
      },
      Kokkos::Max<double>(scale));
  return err / (scale > 0 ? scale : 1.0);
}

// One way of computing y = A*x: a kspmv kernel or a KokkosKernels algorithm. setup() does the
// one-time work (format conversion, analysis, handle creation) and returns its seconds; run()
// is the per-call SpMV.
struct Candidate {
  std::string name;
  std::function<double()> setup;
  std::function<void()> run;
  std::function<std::string()> note = [] { return std::string(); };  // e.g. what a plan chose
  // Largest error (relative to y's largest entry) that still counts as the right answer: a
  // double's, or float's for the values rounded to float (--mixed).
  double tolerance = 1e-10;
};

// Expected uses the plan is told about; the summary amortises every setup over the same count.
constexpr int64_t kPlanUses = 100;
// Fresh setups per candidate; the median is recorded (one setup alone swung by tens of
// microseconds on the cache-resident matrices, more than the setups being compared): at least
// kSetupRepeats, and more, up to kMaxSetupRepeats, while all of them took under kSetupBudget.
constexpr int kSetupRepeats = 3, kMaxSetupRepeats = 15;
constexpr double kSetupBudget = 2e-3;

// Seconds of one fenced call from an idle device: the "setup" of a kernel that needs none, so
// that every candidate's setup counts its first call the same way.
double first_call(const std::function<void()>& run) {
  Kokkos::fence();
  const auto t0 = Clock::now();
  run();
  Kokkos::fence();
  return seconds_since(t0);
}

struct Row {
  std::string group, matrix, kernel, status;
  int64_t rows = 0, cols = 0, nnz = 0;
  double seconds = 0, setup_seconds = 0, error = 0;
  int64_t vectors = 1;  // columns of x and y (rank-2 candidates, named "mv<k><L|R>:...")
  std::string note;  // why a format refused the matrix
};

// A kspmv format: setup converts A on the device and runs the first SpMV; a refused conversion
// (fill or diagonal limits) is reported by the caller.
template <template <class, class, class, class> class Format>
Candidate format_candidate(const std::string& name, const Matrix& A, const Vector& x, const Vector& y,
                           const kspmv::ConvertOptions& convert_options, const kspmv::SpmvOptions& options = {}) {
  using Converted = Format<double, int, int, Device>;
  auto converted = std::make_shared<Converted>();
  return {name,
          [=] {
            *converted = Converted();  // the previous setup's storage is freed outside the timing
            Kokkos::fence();
            const auto t0 = Clock::now();
            *converted = kspmv::convert<Format>(A, convert_options);
            kspmv::spmv(1.0, *converted, x, 0.0, y, options);
            Kokkos::fence();
            return seconds_since(t0);
          },
          [=] { kspmv::spmv(1.0, *converted, x, 0.0, y, options); }};
}

// Every other format that converts A (KernelSet::all).
void add_formats(std::vector<Candidate>& list, const Matrix& A, const Vector& x, const Vector& y) {
  const kspmv::ConvertOptions defaults;
  kspmv::ConvertOptions sorted;
  sorted.sigma = 8 * kspmv::impl::default_slice_height<ExecSpace>();
  list.push_back(format_candidate<kspmv::EllMatrix>("kspmv:ell", A, x, y, defaults));
  list.push_back(format_candidate<kspmv::BlockedEllMatrix>("kspmv:blocked_ell", A, x, y, defaults));
  list.push_back(format_candidate<kspmv::BlockedEllMatrix>("kspmv:blocked_ell_sorted", A, x, y, sorted));
  list.push_back(format_candidate<kspmv::CooMatrix>("kspmv:coo_atomic", A, x, y, defaults, {kspmv::Algorithm::coo_atomic}));
  list.push_back(format_candidate<kspmv::CooMatrix>("kspmv:coo_deterministic", A, x, y, defaults,
                                                    {kspmv::Algorithm::coo_deterministic}));
  list.push_back(format_candidate<kspmv::HybMatrix>("kspmv:hyb", A, x, y, defaults));
  list.push_back(format_candidate<kspmv::DiaMatrix>("kspmv:dia", A, x, y, defaults));
}

// A kspmv::Plan told of kPlanUses uses; its setup is the plan's construction and first apply.
Candidate plan_candidate(const std::string& name, const Matrix& A, const Vector& x, const Vector& y,
                         kspmv::PlanOptions options, double tolerance) {
  using Plan = kspmv::Plan<double, int, int, Device>;
  auto plan = std::make_shared<std::unique_ptr<Plan>>();
  options.expected_uses = kPlanUses;
  return {name,
          [=] {
            plan->reset();
            Kokkos::fence();
            const auto t0 = Clock::now();
            *plan = std::make_unique<Plan>(A, options);
            (*plan)->apply(1.0, x, 0.0, y);
            Kokkos::fence();
            return seconds_since(t0);
          },
          [=] { (*plan)->apply(1.0, x, 0.0, y); },
          [=] {
            const kspmv::PlanReport& r = (*plan)->report();
            const int threads = (*plan)->options().team_size;
            const std::string launch = threads > 0 ? " (" + std::to_string(threads) + " threads)" : "";
            // Then the model's prediction for every feasible candidate, setup/SpMV in us, so
            // summarize.py can check the model's ranking against the kernels' measured times.
            std::ostringstream predicted;
            predicted.precision(6);
            for (const auto& c : r.candidates) {
              if (c.feasible) predicted << " " << c.name << " " << c.predicted_setup * 1e6 << "/" << c.predicted_apply * 1e6;
            }
            return "chose " + r.chosen + launch + "; analysis " + std::to_string(int64_t(r.analysis_time * 1e6)) +
                   " us; predicted setup/SpMV us:" + predicted.str();
          },
          tolerance};
}

// The Plan, CSR with 16-bit column offsets (Csr16Matrix), CSR holding one value (UniformCsrMatrix,
// refused where values differ) and CSR with coded values (CodedCsrMatrix, refused beyond 256
// distinct values), their raw kernel on GPUs: run with either kernel set.
void add_plan_and_csr16(std::vector<Candidate>& list, const Matrix& A, const Vector& x, const Vector& y) {
  list.push_back(format_candidate<kspmv::Csr16Matrix>("kspmv:csr16", A, x, y, kspmv::ConvertOptions()));
  list.push_back(format_candidate<kspmv::UniformCsrMatrix>("kspmv:csr_uniform", A, x, y, kspmv::ConvertOptions()));
  list.push_back(format_candidate<kspmv::CodedCsrMatrix>("kspmv:csr_coded", A, x, y, kspmv::ConvertOptions()));
  list.push_back(plan_candidate("kspmv:plan", A, x, y, kspmv::PlanOptions(), 1e-10));
}

// KokkosKernels' spmv beside kspmv: its default (the vendor library where it was built with one),
// its native kernel and its native merge path, each with a handle of its own.
void add_kokkoskernels(std::vector<Candidate>& list, const Matrix& A, const Vector& x, const Vector& y) {
#if defined(KSPMV_HAVE_KOKKOSKERNELS)
  using KKMatrix = KokkosSparse::CrsMatrix<double, int, Device, void, int>;
  const KKMatrix kk("A", A.num_rows(), A.num_cols(), A.nnz(), A.values, A.row_offsets, A.col_indices);
#if defined(KSPMV_BENCH_SPMV_HANDLE)
  using Handle = KokkosSparse::SPMVHandle<Device, KKMatrix, Vector, Vector>;
  const std::pair<const char*, KokkosSparse::SPMVAlgorithm> algorithms[] = {
      {"kk:default", KokkosSparse::SPMV_DEFAULT},
      {"kk:native", KokkosSparse::SPMV_NATIVE},
      {"kk:native_merge_path", KokkosSparse::SPMV_NATIVE_MERGE_PATH}};
  for (const auto& [name, algorithm] : algorithms) {
    auto handle = std::make_shared<std::unique_ptr<Handle>>();
    const auto algo = algorithm;
    // Setup: a fresh handle's first call, which runs the TPL's analysis (cuSPARSE buffer
    // sizing, merge-path partition), less one steady-state call, measured by the caller.
    list.push_back({name,
                    [=] {
                      handle->reset();
                      Kokkos::fence();
                      const auto t0 = Clock::now();
                      *handle = std::make_unique<Handle>(algo);
                      KokkosSparse::spmv(handle->get(), "N", 1.0, kk, x, 0.0, y);
                      Kokkos::fence();
                      return seconds_since(t0);
                    },
                    [=] { KokkosSparse::spmv(handle->get(), "N", 1.0, kk, x, 0.0, y); }});
  }
#else
  const auto kk_default = [=] { KokkosSparse::spmv("N", 1.0, kk, x, 0.0, y); };
  list.push_back({"kk:default", [=] { return first_call(kk_default); }, kk_default});
#endif
#endif
  (void)list, (void)A, (void)x, (void)y;
}

// Which kernels run: every kspmv kernel and format, or (`csr`) those that keep A in CSR, its
// 16-bit column form and the Plan, or (`plain`) only the plain call and KokkosKernels' default.
enum class KernelSet { all, csr, plain, transpose };

std::vector<Candidate> candidates(const Matrix& A, const Vector& x, const Vector& y, KernelSet set) {
  std::vector<Candidate> list;
  {
    // The plain call: its setup is the first call on a new wrapper of A's Views, which has no
    // analysis yet (a wrapper keeps its analysis, so each setup makes a new one).
    auto fresh = std::make_shared<Matrix>();
    list.push_back({"kspmv:automatic",
                    [=] {
                      *fresh = Matrix(A.num_rows(), A.num_cols(), A.row_offsets, A.col_indices, A.values);
                      Kokkos::fence();
                      const auto t0 = Clock::now();
                      kspmv::spmv(1.0, *fresh, x, 0.0, y);
                      Kokkos::fence();
                      return seconds_since(t0);
                    },
                    [=] { kspmv::spmv(1.0, *fresh, x, 0.0, y); }, [=] { return kspmv::automatic_choice(*fresh); }});
  }
  if (set == KernelSet::plain) {
    add_kokkoskernels(list, A, x, y);
    list.erase(std::remove_if(list.begin(), list.end(),
                              [](const Candidate& c) { return c.name.rfind("kk:", 0) == 0 && c.name != "kk:default"; }),
               list.end());
    return list;
  }
  for (kspmv::Algorithm a : {kspmv::Algorithm::csr_scalar, kspmv::Algorithm::csr_vector}) {
    kspmv::SpmvOptions o;
    o.algorithm = a;
    const auto run = [=] { kspmv::spmv(1.0, A, x, 0.0, y, o); };
    list.push_back({std::string("kspmv:") + kspmv::to_string(a), [=] { return first_call(run); }, run});
  }
  list.push_back(format_candidate<kspmv::BalancedCsrMatrix>("kspmv:csr_balanced", A, x, y, kspmv::ConvertOptions(),
                                                             {kspmv::Algorithm::csr_balanced}));
  if (set == KernelSet::all) add_formats(list, A, x, y);
  add_plan_and_csr16(list, A, x, y);
  if (kspmv::impl::raw_available<ExecSpace, double, int, int>()) {
    const kspmv::ConvertOptions defaults;
    const kspmv::SpmvOptions raw{kspmv::Algorithm::raw};
    const auto raw_vector = [=] { kspmv::spmv(1.0, A, x, 0.0, y, raw); };
    list.push_back({"kspmv:raw_csr_vector", [=] { return first_call(raw_vector); }, raw_vector});
    kspmv::SpmvOptions wave = raw;
    wave.lanes_per_row = kspmv::impl::warp_width<ExecSpace>();
    const auto raw_wave = [=] { kspmv::spmv(1.0, A, x, 0.0, y, wave); };
    list.push_back({"kspmv:raw_csr_vector_wave", [=] { return first_call(raw_wave); }, raw_wave});
    if (set == KernelSet::all) {
      list.push_back(format_candidate<kspmv::BlockedEllMatrix>("kspmv:raw_blocked_ell", A, x, y, defaults, raw));
    }
    list.push_back(format_candidate<kspmv::BalancedCsrMatrix>("kspmv:raw_csr_balanced", A, x, y, defaults, raw));
    kspmv::SpmvOptions raw512 = raw;
    raw512.team_size = 512;
    list.push_back(format_candidate<kspmv::BalancedCsrMatrix>("kspmv:raw_csr_balanced_512", A, x, y, defaults, raw512));
  }
  add_kokkoskernels(list, A, x, y);
  return list;
}

// y = A^T*x by a thread per row of A adding with atomics: the reference of mode T (the unit
// tests check kspmv's transposed kernels against a host reference).
Vector reference_transpose(const Matrix& A, const Vector& x) {
  Vector y("bench::reference_transpose", A.num_cols());
  auto offsets = A.row_offsets;
  auto indices = A.col_indices;
  auto values = A.values;
  Kokkos::parallel_for(
      "bench::reference_transpose", Kokkos::RangePolicy<ExecSpace>(0, A.num_rows()), KOKKOS_LAMBDA(const int i) {
        for (int k = offsets(i); k < offsets(i + 1); ++k) Kokkos::atomic_add(&y(indices(k)), values(k) * x(i));
      });
  return y;
}

// Mode T: kspmv's plain call and KokkosKernels' default with mode "T" (names prefixed "T:", so
// that no summary counts them among the kernels of y = A*x).
std::vector<Candidate> transpose_candidates(const Matrix& A, const Vector& x, const Vector& y) {
  std::vector<Candidate> list;
  // The plain call's setup is its first call on a new wrapper of A's Views (no analysis yet).
  auto fresh = std::make_shared<Matrix>();
  list.push_back({"T:kspmv:automatic",
                  [=] {
                    *fresh = Matrix(A.num_rows(), A.num_cols(), A.row_offsets, A.col_indices, A.values);
                    return first_call([=] { kspmv::spmv("T", 1.0, *fresh, x, 0.0, y); });
                  },
                  [=] { kspmv::spmv("T", 1.0, *fresh, x, 0.0, y); }});
  for (const kspmv::Algorithm a : {kspmv::Algorithm::csr_vector, kspmv::Algorithm::csr_balanced}) {
    const auto forced = [=] { kspmv::spmv("T", 1.0, A, x, 0.0, y, {a}); };
    list.push_back({std::string("T:kspmv:") + kspmv::to_string(a), [=] { return first_call(forced); }, forced});
  }
  // Deterministic: its setup builds A's transposed structure on a fresh wrapper of A's Views.
  auto fresh_transposed = std::make_shared<Matrix>();
  const kspmv::SpmvOptions transposed{kspmv::Algorithm::csr_transposed};
  list.push_back({"T:kspmv:csr_transposed",
                  [=] {
                    *fresh_transposed = Matrix(A.num_rows(), A.num_cols(), A.row_offsets, A.col_indices, A.values);
                    return first_call([=] { kspmv::spmv("T", 1.0, *fresh_transposed, x, 0.0, y, transposed); });
                  },
                  [=] { kspmv::spmv("T", 1.0, *fresh_transposed, x, 0.0, y, transposed); }});
  // A Plan in mode T (PlanOptions::mode), told of kPlanUses uses: A^T formed and planned where
  // the uses pay for it; its setup (forming A^T included) is amortised by the summary.
  kspmv::PlanOptions mode_t;
  mode_t.mode = "T";
  list.push_back(plan_candidate("T:kspmv:plan", A, x, y, mode_t, 1e-10));
#if defined(KSPMV_HAVE_KOKKOSKERNELS)
  using KKMatrix = KokkosSparse::CrsMatrix<double, int, Device, void, int>;
  const KKMatrix kk("A", A.num_rows(), A.num_cols(), A.nnz(), A.values, A.row_offsets, A.col_indices);
  const auto kk_default = [=] { KokkosSparse::spmv("T", 1.0, kk, x, 0.0, y); };
  // KokkosKernels 3.4 (Debian's) scales y by beta = 0 in mode T, so the NaN every candidate's y
  // starts from would stay: its y is zeroed first (the check of beta = 0 is kspmv's, not KK's).
  list.push_back({"T:kk:default",
                  [=] {
                    Kokkos::deep_copy(y, 0.0);
                    return first_call(kk_default);
                  },
                  kk_default});
#endif
  return list;
}

// Several vectors: k columns of x and y in Layout, names prefixed "mv<k>L:" or "mv<k>R:".
template <class Layout>
using Multivector = Kokkos::View<double**, Layout, Device>;

template <class Layout>
Multivector<Layout> random_multivector(int64_t n, int64_t k) {
  Multivector<Layout> x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::X"), n, k);
  Kokkos::parallel_for(
      "bench::init_X", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(const int j) {
        for (int64_t v = 0; v < k; ++v) x(j, v) = 2.0 * unit(mix(0x5eed + uint64_t(j) * 64 + uint64_t(v))) - 1.0;
      });
  return x;
}

template <class Layout>
Multivector<Layout> reference_multivector(const Matrix& A, const Multivector<Layout>& x) {
  Multivector<Layout> y("bench::reference_mv", A.num_rows(), x.extent(1));
  auto offsets = A.row_offsets;
  auto indices = A.col_indices;
  auto values = A.values;
  const int64_t k = int64_t(x.extent(1));
  Kokkos::parallel_for(
      "bench::reference_mv", Kokkos::RangePolicy<ExecSpace>(0, A.num_rows()), KOKKOS_LAMBDA(const int i) {
        for (int64_t v = 0; v < k; ++v) {
          double s = 0;
          for (int e = offsets(i); e < offsets(i + 1); ++e) s += values(e) * x(indices(e), v);
          y(i, v) = s;
        }
      });
  return y;
}

// kspmv's plain call; on GPUs the raw balanced kernel (csr_balanced) and, with `lane_sweep`,
// at every lane count a row (not on rows of uneven length, where a few lanes would walk the
// longest row for seconds); on hosts the Kokkos thread per row; and KokkosKernels' default
// (cuSPARSE's SpMM on CUDA where it takes the layouts).
template <class Layout>
std::vector<Candidate> multivector_candidates(const std::string& prefix, const Matrix& A, const Multivector<Layout>& x,
                                              const Multivector<Layout>& y, bool lane_sweep, bool row_major_sweep) {
  std::vector<Candidate> list;
  auto fresh = std::make_shared<Matrix>();
  list.push_back({prefix + "kspmv:automatic",
                  [=] {
                    *fresh = Matrix(A.num_rows(), A.num_cols(), A.row_offsets, A.col_indices, A.values);
                    return first_call([=] { kspmv::spmv(1.0, *fresh, x, 0.0, y); });
                  },
                  [=] { kspmv::spmv(1.0, *fresh, x, 0.0, y); },
                  [=] {  // what the plain call's choice reads from A's analysis (raw kernels only)
                    if (!kspmv::impl::raw_available<ExecSpace, double, int, int>()) return std::string();
                    const auto& s = kspmv::impl::csr_analysis(ExecSpace(), *fresh)->structure;
                    char text[160];
                    std::snprintf(text, sizeof(text), "lines/entry %.3f, reach %.0f KB, average row %.2f, longest %lld",
                                  s.window_lines_per_entry, s.window_reach_bytes / 1024.0, s.average_row(),
                                  (long long)s.longest_row);
                    return std::string(text);
                  }});
  if (kspmv::impl::raw_available<ExecSpace, double, int, int>()) {
    const auto balanced = [=] { kspmv::spmv(1.0, A, x, 0.0, y, {kspmv::Algorithm::csr_balanced}); };
    list.push_back({prefix + "kspmv:raw_balanced", [=] { return first_call(balanced); }, balanced});
    const int64_t longest = kspmv::impl::longest_row(A, ExecSpace());
    const int wave = kspmv::impl::warp_width<ExecSpace>();
    const bool uneven = kspmv::impl::multivector_kernel(A.num_rows(), int64_t(A.nnz()), longest, wave,
                                                        int64_t(ExecSpace().concurrency()), 0.0, false) !=
                        kspmv::impl::MultivectorKernel::lanes;
    for (int lanes = 1; lane_sweep && !uneven && lanes <= wave; lanes *= 2) {
      kspmv::SpmvOptions o{kspmv::Algorithm::raw};
      o.lanes_per_row = lanes;
      const auto raw = [=] { kspmv::spmv(1.0, A, x, 0.0, y, o); };
      list.push_back({prefix + "kspmv:raw_lanes" + std::to_string(lanes), [=] { return first_call(raw); }, raw});
    }
    // The row-major kernels forced (the plain call picks among them by structure): on a
    // LayoutLeft X through the row-major copy the plain call makes, timed with the kernel.
    if (row_major_sweep) {
      namespace raw = kspmv::impl::raw;
      const int64_t k = int64_t(x.extent(1));
      const bool left = std::is_same<Layout, Kokkos::LayoutLeft>::value;
      Multivector<Kokkos::LayoutRight> xr;
      if (left) xr = Multivector<Kokkos::LayoutRight>("bench::X_row_major", x.extent(0), k);
      const auto row_major = [=]() -> const double* {
        if (!left) return x.data();
        kspmv::impl::copy_rows(ExecSpace(), x, xr);
        return xr.data();
      };
      const int64_t x_row_stride = left ? k : int64_t(x.stride(0));
      const auto chunks = [=] {
        const auto& partition = kspmv::impl::csr_analysis(ExecSpace(), A)->balanced(ExecSpace(), A);
        raw::csr_multivector_chunks<double, int, int>(
            kspmv::impl::native_stream(ExecSpace()), A.num_rows(), int64_t(A.nnz()), partition.entries_per_block(), partition.block_first_row.data(), k,
            A.row_offsets.data(), A.col_indices.data(), A.values.data(), row_major(), x_row_stride, y.data(),
            int64_t(y.stride(0)), int64_t(y.stride(1)), 1.0, 0.0);
      };
      list.push_back({prefix + "kspmv:raw_chunks", [=] { return first_call(chunks); }, chunks});
      const auto row_lanes = [=] {
        raw::csr_multivector_row_lanes<double, int, int>(kspmv::impl::native_stream(ExecSpace()), A.num_rows(), k, A.row_offsets.data(),
                                                         A.col_indices.data(), A.values.data(), row_major(),
                                                         x_row_stride, y.data(), int64_t(y.stride(0)),
                                                         int64_t(y.stride(1)), 1.0, 0.0);
      };
      if (!uneven) list.push_back({prefix + "kspmv:raw_row_lanes", [=] { return first_call(row_lanes); }, row_lanes});
      const auto entries = [=] {
        const double* xp = row_major();
        Kokkos::deep_copy(ExecSpace(), y, 0.0);
        raw::csr_multivector_entries<double, int, int>(
            kspmv::impl::native_stream(ExecSpace()), kspmv::impl::raw_multivector_entries_per_lane, kspmv::impl::multivector_columns_per_pass(k),
            A.num_rows(), int64_t(A.nnz()), k, A.row_offsets.data(), A.col_indices.data(), A.values.data(), xp,
            x_row_stride, 1, y.data(), int64_t(y.stride(0)), int64_t(y.stride(1)), 1.0);
      };
      list.push_back({prefix + "kspmv:raw_entries", [=] { return first_call(entries); }, entries});
      // LayoutLeft X and Y staged row-major for the call (issue 16's lab): X copied row-major, the
      // plain call on row-major X and Y (the LayoutRight kernels), Y copied back column-major by
      // tiles of 32 rows (a block reads its rows' vectors contiguously and each warp writes 32
      // rows of one vector). beta is 0 here: a general beta would read Y in the copy back.
      if (left) {
        Multivector<Kokkos::LayoutRight> yr("bench::Y_row_major", y.extent(0), k);
        auto staged_a = std::make_shared<Matrix>(A.num_rows(), A.num_cols(), A.row_offsets, A.col_indices, A.values);
        const auto staged = [=] {
          kspmv::impl::copy_rows(ExecSpace(), x, xr);
          kspmv::spmv(1.0, *staged_a, xr, 0.0, yr);
          const int64_t m = int64_t(y.extent(0)), tiles = (m + 31) / 32;
          Kokkos::parallel_for(
              "bench::y_column_major", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, tiles * 32 * k),
              KOKKOS_LAMBDA(const int64_t t) {
                const int64_t tile = t / (32 * k), within = t - tile * 32 * k;
                const int64_t v = within / 32, row = tile * 32 + within % 32;
                if (row < m) y(row, v) = yr(row, v);
              });
        };
        list.push_back({prefix + "kspmv:staged_row_major", [=] { return first_call(staged); }, staged});
      }
    }
  } else {
    const auto rows = [=] { kspmv::spmv(1.0, A, x, 0.0, y, {kspmv::Algorithm::csr_scalar}); };
    list.push_back({prefix + "kspmv:csr_scalar", [=] { return first_call(rows); }, rows});
  }
#if defined(KSPMV_HAVE_KOKKOSKERNELS)
  using KKMatrix = KokkosSparse::CrsMatrix<double, int, Device, void, int>;
  const KKMatrix kk("A", A.num_rows(), A.num_cols(), A.nnz(), A.values, A.row_offsets, A.col_indices);
#if defined(KSPMV_BENCH_SPMV_HANDLE)
  using Handle = KokkosSparse::SPMVHandle<Device, KKMatrix, Multivector<Layout>, Multivector<Layout>>;
  auto handle = std::make_shared<std::unique_ptr<Handle>>();
  list.push_back({prefix + "kk:default",
                  [=] {
                    handle->reset();
                    Kokkos::fence();
                    const auto t0 = Clock::now();
                    *handle = std::make_unique<Handle>(KokkosSparse::SPMV_DEFAULT);
                    KokkosSparse::spmv(handle->get(), "N", 1.0, kk, x, 0.0, y);
                    Kokkos::fence();
                    return seconds_since(t0);
                  },
                  [=] { KokkosSparse::spmv(handle->get(), "N", 1.0, kk, x, 0.0, y); }});
#else
  const auto kk_default = [=] { KokkosSparse::spmv("N", 1.0, kk, x, 0.0, y); };
  list.push_back({prefix + "kk:default", [=] { return first_call(kk_default); }, kk_default});
#endif
#endif
  return list;
}

template <class Layout>
std::vector<Row> bench_multivector(const std::string& group, const std::string& name, const Matrix& A, int64_t k,
                                   int repeat, bool row_major_sweep) {
  const std::string prefix = "mv" + std::to_string(k) + (std::is_same<Layout, Kokkos::LayoutLeft>::value ? "L:" : "R:");
  const auto x = random_multivector<Layout>(A.num_cols(), k);
  Multivector<Layout> y(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::Y"), A.num_rows(), k);
  const std::vector<Candidate> list = multivector_candidates(prefix, A, x, y, k <= 4 || k == 8, row_major_sweep);  // lanes swept to 4, at 8
  return time_candidates(group, name, A, list, y, reference_multivector(A, x), repeat);
}

Vector random_x(int64_t n) {
  Vector x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::x"), n);
  Kokkos::parallel_for(
      "bench::init_x", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(const int j) { x(j) = 2.0 * unit(mix(0x5eed + uint64_t(j))) - 1.0; });
  return x;
}

// Each candidate's setups and result (against ref), then all of them timed in turns.
template <class YView>
std::vector<Row> time_candidates(const std::string& group, const std::string& name, const Matrix& A,
                                 const std::vector<Candidate>& list, const YView& y, const YView& ref, int repeat) {
  std::vector<Row> rows;
  std::vector<std::function<void()>> timed;
  std::vector<size_t> timed_rows;
  for (const Candidate& c : list) {
    Row r{group, name, c.name, "ok", A.num_rows(), A.num_cols(), int64_t(A.nnz())};
    if constexpr (YView::rank == 2) r.vectors = int64_t(y.extent(1));
    Kokkos::deep_copy(y, std::nan(""));  // every entry must be written
    // Setup: the median of fresh setups, each the one-time work and the first SpMV.
    std::vector<double> setups;
    try {
      double setup_total = 0;
      while (int(setups.size()) < kSetupRepeats ||
             (int(setups.size()) < kMaxSetupRepeats && setup_total < kSetupBudget)) {
        setups.push_back(c.setup());
        setup_total += setups.back();
      }
    } catch (const std::invalid_argument& e) {  // a format refused this matrix: say so, time nothing
      r.status = "refused";
      r.note = e.what();
      rows.push_back(r);
      continue;
    }
    c.run();
    Kokkos::fence();
    r.note = c.note();
    r.error = max_relative_error(y, ref);
    if (!(r.error <= c.tolerance)) {
      r.status = "WRONG";  // reported, not timed
    } else {
      std::nth_element(setups.begin(), setups.begin() + setups.size() / 2, setups.end());
      r.setup_seconds = setups[setups.size() / 2];
      timed.push_back(c.run);
      timed_rows.push_back(rows.size());
    }
    rows.push_back(r);
  }
  const std::vector<double> seconds = time_per_call(timed, repeat);
  for (size_t i = 0; i < timed.size(); ++i) {
    Row& r = rows[timed_rows[i]];
    r.seconds = seconds[i];
    // setup() ran the one-time work and the first SpMV; the steady-state SpMV is subtracted.
    r.setup_seconds = std::max(0.0, r.setup_seconds - r.seconds);
  }
  return rows;
}

// Mixed precision (--mixed): A's values rounded to float (the conversion is the setup) on the
// load-balanced CSR kernel (raw on GPUs), x, y and the sums in double; results within float's
// rounding of the values.
Candidate float_values_candidate(const Matrix& A, const Vector& x, const Vector& y) {
  using FloatBalanced = kspmv::BalancedCsrMatrix<float, int, int, Device>;
  auto converted = std::make_shared<FloatBalanced>();
  const auto run = [=] { kspmv::spmv(1.0, *converted, x, 0.0, y); };
  const auto setup = [=] {
    *converted = FloatBalanced();
    Kokkos::fence();
    const auto t0 = Clock::now();
    const auto values = A.values;
    Kokkos::View<float*, Device> rounded(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::float_values"),
                                         values.extent(0));
    Kokkos::parallel_for(
        "bench::round_values", Kokkos::RangePolicy<ExecSpace>(0, int64_t(values.extent(0))),
        KOKKOS_LAMBDA(const int64_t k) { rounded(k) = float(values(k)); });
    *converted = kspmv::convert<kspmv::BalancedCsrMatrix>(
        kspmv::CsrMatrix<float, int, int, Device>(A.num_rows(), A.num_cols(), A.row_offsets, A.col_indices, rounded));
    kspmv::spmv(1.0, *converted, x, 0.0, y);
    Kokkos::fence();
    return seconds_since(t0);
  };
  return {"kspmv:float_values_balanced", setup, run, [] { return std::string("float values, double x and y"); }, 1e-5};
}

std::vector<Row> bench_matrix(const std::string& group, const std::string& name, const Matrix& A, int repeat,
                              KernelSet set, const std::vector<int64_t>& vector_counts, bool mixed,
                              bool vector_kernels) {
  const Vector x = random_x(A.num_cols());
  Vector y(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::y"), A.num_rows());
  std::vector<Row> rows;
  if (set != KernelSet::transpose) {
    std::vector<Candidate> list = candidates(A, x, y, set);  // keeps every candidate's storage
    if (mixed) {
      list.push_back(float_values_candidate(A, x, y));
      // The Plan in double, and asked for mixed precision (PlanOptions::float_values).
      if (set == KernelSet::plain) list.push_back(plan_candidate("kspmv:plan", A, x, y, kspmv::PlanOptions(), 1e-10));
      kspmv::PlanOptions float_values;
      float_values.float_values = true;
      list.push_back(plan_candidate("kspmv:plan_float_values", A, x, y, float_values, 1e-5));
    }
    rows = time_candidates(group, name, A, list, y, reference(A, x), repeat);
  }
  if (set == KernelSet::all || set == KernelSet::transpose) {
    const Vector xt = random_x(A.num_rows());
    Vector yt(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::yt"), A.num_cols());
    const std::vector<Row> t =
        time_candidates(group, name, A, transpose_candidates(A, xt, yt), yt, reference_transpose(A, xt), repeat);
    rows.insert(rows.end(), t.begin(), t.end());
  }
  for (const int64_t k : vector_counts) {
    for (const auto& r : bench_multivector<Kokkos::LayoutLeft>(group, name, A, k, repeat, vector_kernels)) rows.push_back(r);
    for (const auto& r : bench_multivector<Kokkos::LayoutRight>(group, name, A, k, repeat, vector_kernels)) rows.push_back(r);
  }
  return rows;
}

// Minimum bytes of y = A*x (beta == 0) in CSR with double values, int indices and offsets; with
// several vectors, A once and every vector's x and y.
double csr_min_bytes(const Row& r) {
  return double(r.nnz) * (8 + 4) + double(r.rows + 1) * 4 + double(r.vectors) * (double(r.cols) * 8 + double(r.rows) * 8);
}

struct Options {
  std::string suite = "all";
  double scale = 1.0;
  std::vector<std::pair<std::string, int>> mtx;
  std::string real_dir;
  int repeat = 20;
  std::string json, csv;
  std::string kernels = "all";
  int64_t replicate_to = 0;  // --mtx files without :K are replicated to at least this many entries
  std::vector<int64_t> vectors;  // --vectors: counts of vectors of the rank-2 candidates
  bool mixed = false;            // --mixed: the float-values candidate too
  bool vector_kernels = false;   // --vector-kernels: the row-major multivector kernels forced
  std::vector<std::string> only;  // --only: generated matrices by the start of their names
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument("missing value after " + a);
      return argv[++i];
    };
    if (a == "--suite") {
      o.suite = value();
    } else if (a == "--scale") {
      o.scale = std::stod(value());
    } else if (a == "--mtx") {
      const std::string v = value();
      const auto colon = v.rfind(':');
      if (colon != std::string::npos && colon + 1 < v.size() && std::isdigit(static_cast<unsigned char>(v[colon + 1]))) {
        o.mtx.push_back({v.substr(0, colon), std::stoi(v.substr(colon + 1))});
      } else {
        o.mtx.push_back({v, 0});  // 0: once, or to --replicate-to entries
      }
    } else if (a == "--real-dir") {
      o.real_dir = value();
    } else if (a == "--repeat") {
      o.repeat = std::max(1, std::stoi(value()));
    } else if (a == "--kernels") {
      o.kernels = value();
    } else if (a == "--vectors") {
      std::stringstream list(value());
      for (std::string item; std::getline(list, item, ',');) {
        const int64_t k = std::stoll(item);
        if (k < 1) throw std::invalid_argument("--vectors takes counts >= 1");
        o.vectors.push_back(k);
      }
    } else if (a == "--mixed") {
      o.mixed = true;
    } else if (a == "--vector-kernels") {
      o.vector_kernels = true;
    } else if (a == "--only") {
      std::stringstream list(value());
      for (std::string item; std::getline(list, item, ',');) o.only.push_back(item);
    } else if (a == "--replicate-to") {
      o.replicate_to = std::stoll(value());
    } else if (a == "--json") {
      o.json = value();
    } else if (a == "--csv") {
      o.csv = value();
    } else {
      throw std::invalid_argument("unknown argument '" + a + "'");
    }
  }
  if (o.suite != "large" && o.suite != "real" && o.suite != "all" && o.suite != "none") {
    throw std::invalid_argument("--suite must be large, real, all or none");
  }
  if (o.kernels != "all" && o.kernels != "csr" && o.kernels != "plain" && o.kernels != "transpose") {
    throw std::invalid_argument("--kernels must be all, csr, plain or transpose");
  }
  return o;
}

std::string json_escape(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    r += c;
  }
  return r;
}

int run(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  const bool gpu = kspmv::impl::is_gpu_space<ExecSpace>();
  // Far beyond any cache (H200 L2: 60 MB; CPU L3: tens of MB), independent of --scale.
  const int64_t bw_elements = int64_t((gpu ? 4.0e9 : 4.0e8) / 8);
  const Bandwidth bw = measure_bandwidth(bw_elements, opt.repeat);
  std::printf("backend %s; copy bandwidth %.1f GB/s (%s), read bandwidth %.1f GB/s (%s), buffers of %.2f GB\n",
              ExecSpace::name(), bw.copy * 1e-9, bw.copy_kernel.c_str(), bw.read * 1e-9, bw.read_kernel.c_str(),
              bw_elements * 8e-9);

  std::vector<Row> rows;
  auto add = [&](const std::string& group, const std::string& name, const Matrix& A) {
    std::printf("  running %s (%d x %d, %lld nnz, %.2f GB CSR)\n", name.c_str(), A.num_rows(), A.num_cols(),
                (long long)A.nnz(), (A.nnz() * 12.0 + A.num_rows() * 4.0) * 1e-9);
    std::fflush(stdout);
    const KernelSet set = opt.kernels == "csr"         ? KernelSet::csr
                          : opt.kernels == "plain"     ? KernelSet::plain
                          : opt.kernels == "transpose" ? KernelSet::transpose
                                                       : KernelSet::all;
    const auto r = bench_matrix(group, name, A, opt.repeat, set, opt.vectors, opt.mixed, opt.vector_kernels);
    rows.insert(rows.end(), r.begin(), r.end());
  };

  if (opt.suite == "large" || opt.suite == "all") {
    const double s = opt.scale;
    const auto large = [&](const std::string& name, auto&& make) {  // built only if --only keeps it
      bool wanted = opt.only.empty();
      for (const std::string& prefix : opt.only) wanted = wanted || name.rfind(prefix, 0) == 0;
      if (wanted) add("large", name, make());
    };
    const int g7 = int(std::cbrt(s) * 300), g27 = int(std::cbrt(s) * 200);
    large("poisson7_" + std::to_string(g7) + "^3", [&] { return kspmv::poisson_3d<double, int, int, Device>(g7, g7, g7, 7); });
    large("poisson27_" + std::to_string(g27) + "^3",
          [&] { return kspmv::poisson_3d<double, int, int, Device>(g27, g27, g27, 27); });
    const int64_t m = int64_t(s * 16e6);
    large("uniform_random", [&] { return build({Family::uniform_random, m, m, 1, 16, 0}); });
    large("power_law", [&] { return build({Family::power_law, m, m, 2, std::min<int64_t>(m, 200000), 0}); });
    large("banded", [&] { return build({Family::banded, 2 * m, 2 * m, 3, 5, 0}); });
    large("heavy_rows", [&] { return build({Family::heavy_rows, m / 2, m / 2, 4, m / 4, m / 32}); });
  }
  for (const auto& [file, copies] : opt.mtx) {
    const std::string base = file.substr(file.find_last_of('/') + 1);
    const kspmv::HostCsr h = kspmv::read_matrix_market(file);
    const int64_t nnz = std::max<int64_t>(1, int64_t(h.col_indices.size()));
    const int k = copies > 0 ? copies : std::max<int>(1, int((opt.replicate_to + nnz - 1) / nnz));
    add(k > 1 ? "replicated" : "file", base + (k > 1 ? " x" + std::to_string(k) : ""),
        kspmv::to_device<double, int, int, Device>(replicate(h, k)));
  }
  if ((opt.suite == "real" || opt.suite == "all") && !opt.real_dir.empty()) {
    for (const char* name : {"lap3D_7pt_n20", "lap2D_5pt_n100", "west0479", "bcsstk13", "rajat01", "arrow",
                             "wiki-Vote", "mbeacxc", "Groebner_id2003_aug", "poly_chain.512", "cage10", "ani4"}) {
      const std::string path = opt.real_dir + "/" + name + ".mtx";
      if (!std::ifstream(path)) continue;
      add("real (fits in L2)", name, kspmv::read_csr<double, int, int, Device>(path));
    }
  }

  // Derived figures, per matrix against KokkosKernels' default.
  // Mode T ("T:...") and several vectors ("mv8L:...") against KokkosKernels' default of the same kind.
  const auto kind = [](const std::string& kernel) {
    const bool prefixed = kernel.rfind("T:", 0) == 0 || kernel.rfind("mv", 0) == 0;
    return prefixed ? kernel.substr(0, kernel.find(':') + 1) : std::string();
  };
  std::map<std::string, double> kk_default;
  for (const Row& r : rows)
    if (r.kernel == kind(r.kernel) + "kk:default" && r.status == "ok") kk_default[r.matrix + "|" + kind(r.kernel)] = r.seconds;

  std::printf("\n%-22s %-24s %10s %8s %8s %7s %7s %8s %9s %8s\n", "matrix", "kernel", "us/SpMV", "GFLOP/s",
              "GB/s", "%read", "%copy", "setup/x", "vs kk:def", "rel.err");
  std::ostringstream json, csv;
  csv << "group,matrix,rows,cols,nnz,kernel,status,seconds,gflops,gbs,frac_read_bw,frac_copy_bw,setup_seconds,"
         "setup_over_spmv,speedup_vs_kk_default,max_rel_error,vectors\n";
  json << "{\n  \"backend\": \"" << ExecSpace::name() << "\",\n  \"kokkos_version\": " << KOKKOS_VERSION << ",\n";
#if defined(KOKKOSKERNELS_VERSION)
  json << "  \"kokkoskernels_version\": " << KOKKOSKERNELS_VERSION << ",\n";
#endif
  json << "  \"copy_bandwidth_gbs\": " << bw.copy * 1e-9 << ",\n  \"copy_kernel\": \"" << bw.copy_kernel
       << "\",\n  \"read_bandwidth_gbs\": " << bw.read * 1e-9 << ",\n  \"read_kernel\": \"" << bw.read_kernel << "\"" 
       << ",\n  \"repeat\": " << opt.repeat << ",\n  \"results\": [\n";
  std::string last_matrix;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const bool ok = r.status == "ok";
    const double gbs = ok ? csr_min_bytes(r) / r.seconds : 0;
    const double gflops = ok ? 2.0 * r.nnz / r.seconds * 1e-9 : 0;
    const auto kk = kk_default.find(r.matrix + "|" + kind(r.kernel));
    const double speedup = ok && kk != kk_default.end() ? kk->second / r.seconds : 0;
    const double setup_ratio = ok ? r.setup_seconds / r.seconds : 0;
    if (r.matrix != last_matrix) std::printf("%s\n", std::string(120, '-').c_str());
    last_matrix = r.matrix;
    if (ok) {
      std::printf("%-22s %-24s %10.2f %8.2f %8.1f %6.1f%% %6.1f%% %8.1f %9.2f %8.1e\n", r.matrix.substr(0, 22).c_str(),
                  r.kernel.c_str(), r.seconds * 1e6, gflops, gbs * 1e-9, 100 * gbs / bw.read, 100 * gbs / bw.copy,
                  setup_ratio, speedup, r.error);
    } else if (r.status == "refused") {
      std::printf("%-22s %-24s %10s   (%s)\n", r.matrix.substr(0, 22).c_str(), r.kernel.c_str(), "refused",
                  r.note.substr(r.note.find(':') + 2, 60).c_str());
    } else {
      std::printf("%-22s %-24s %10s   (max relative error %.2e: not timed)\n", r.matrix.substr(0, 22).c_str(),
                  r.kernel.c_str(), r.status.c_str(), r.error);
    }
    csv << '"' << r.group << "\",\"" << r.matrix << "\"," << r.rows << ',' << r.cols << ',' << r.nnz << ','
        << r.kernel << ',' << r.status << ',' << r.seconds << ',' << gflops << ',' << gbs * 1e-9 << ','
        << gbs / bw.read << ',' << gbs / bw.copy << ',' << r.setup_seconds << ',' << setup_ratio << ',' << speedup
        << ',' << r.error << ',' << r.vectors << '\n';
    json << "    {\"group\": \"" << json_escape(r.group) << "\", \"matrix\": \"" << json_escape(r.matrix)
         << "\", \"rows\": " << r.rows << ", \"cols\": " << r.cols << ", \"nnz\": " << r.nnz << ", \"kernel\": \""
         << r.kernel << "\", \"status\": \"" << r.status << "\", \"seconds\": " << r.seconds
         << ", \"gflops\": " << gflops << ", \"gbs\": " << gbs * 1e-9 << ", \"frac_read_bw\": " << gbs / bw.read
         << ", \"frac_copy_bw\": " << gbs / bw.copy << ", \"setup_seconds\": " << r.setup_seconds
         << ", \"setup_over_spmv\": " << setup_ratio << ", \"speedup_vs_kk_default\": " << speedup
         << ", \"max_rel_error\": " << (std::isfinite(r.error) ? r.error : 1e300) << ", \"vectors\": " << r.vectors
         << ", \"note\": \""
         << json_escape(r.note) << "\"}"
         << (i + 1 < rows.size() ? ",\n" : "\n");
  }
  json << "  ]\n}\n";
  if (!opt.json.empty()) std::ofstream(opt.json) << json.str();
  if (!opt.csv.empty()) std::ofstream(opt.csv) << csv.str();
  int wrong = 0;
  for (const Row& r : rows) wrong += r.status == "WRONG";
  if (wrong) std::printf("\n%d kernel(s) gave WRONG results\n", wrong);
  return wrong ? 2 : 0;
}

}  // namespace
}  // namespace kspmv_bench

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  int status = 0;
  try {
    status = kspmv_bench::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "spmv_bench: %s\n", e.what());
    status = 1;
  }
  Kokkos::finalize();
  return status;
}
