// cg_bench: kspmv::cg beside a CG written with KokkosKernels (KokkosSparse::spmv with a handle,
// KokkosBlas::dot and axpby, the scalars read on the host every iteration, as a solver built
// from library calls does), on the same SPD matrices, right-hand side (all ones), starting
// vector (zero) and tolerance, no preconditioner. Per matrix: iterations, time to solution
// (median of --repeat solves, fenced) and per iteration, kspmv's setup (its Plan) apart.
//
//   cg_bench [--grids 16,32,64] [--mtx FILE[:K]]... [--repeat R] [--tolerance T]
//            [--max-iterations N] [--host-cg] [--json FILE]
//
// --grids: the 7- and 27-point Poisson matrices on n^3 grids; --mtx: a symmetric positive
// definite Matrix Market file, optionally K copies along the diagonal; --host-cg: also a CG in
// double on the host, one thread (not for replicated matrices, whose copies give the same
// iterations as one). Exits non-zero if a solve does not converge where KokkosKernels' (or the
// host's) does or ends further than one iteration from it. Setups (kspmv's Plan, KokkosKernels'
// SpMV handle) are made once per matrix and timed apart; "with setup" adds them to one solve.
#include <kspmv/cg.hpp>
#include <kspmv/generate.hpp>
#include <kspmv/io.hpp>

#include "matrices.hpp"

#if defined(KSPMV_HAVE_KOKKOSKERNELS)
#include <KokkosBlas1_axpby.hpp>
#include <KokkosBlas1_dot.hpp>
#include <KokkosKernels_config.h>
#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = ExecSpace::device_type;
using Csr = kspmv::CsrMatrix<double, int, int, Device>;
using Vector = Kokkos::View<double*, Device>;
using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

struct Solve {
  std::string name;
  int64_t iterations = 0;
  bool converged = false;
  double seconds = 0;  // median time to solution
  double setup = 0;    // kspmv: the plan (median)
  double residual = 0;
  std::string path;
};

#if defined(KSPMV_HAVE_KOKKOSKERNELS)
// Textbook CG on KokkosKernels. The matrix and its SpMV handle are made once per matrix, their
// setup (the handle's first call: the vendor library's analysis) timed apart, as kspmv's Plan.
struct KokkosKernelsCg {
  using KKMatrix = KokkosSparse::CrsMatrix<double, int, Device, void, int>;
#if KOKKOSKERNELS_VERSION >= 40200
  using Handle = KokkosSparse::SPMVHandle<Device, KKMatrix, Vector, Vector>;
#endif
  KKMatrix kk;
  Vector r, p, q;
#if KOKKOSKERNELS_VERSION >= 40200
  std::unique_ptr<Handle> handle;
#endif
  double setup_seconds = 0;

  explicit KokkosKernelsCg(const Csr& A)
      : kk("A", A.num_rows(), A.num_cols(), A.nnz(), A.values, A.row_offsets, A.col_indices),
        r("r", A.num_rows()),
        p("p", A.num_rows()),
        q("q", A.num_rows()) {
    Kokkos::fence();
    const auto t0 = Clock::now();
#if KOKKOSKERNELS_VERSION >= 40200
    handle = std::make_unique<Handle>();
#endif
    spmv(1.0, p, 0.0, q);
    Kokkos::fence();
    setup_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  }
  void spmv(double alpha, const Vector& u, double beta, const Vector& v) const {
#if KOKKOSKERNELS_VERSION >= 40200
    KokkosSparse::spmv(handle.get(), "N", alpha, kk, u, beta, v);
#else
    KokkosSparse::spmv("N", alpha, kk, u, beta, v);
#endif
  }
  // The iterations, -1 if not converged.
  int64_t solve(const Vector& b, const Vector& x, double tolerance, int64_t max_iterations) const {
    Kokkos::deep_copy(r, b);
    spmv(-1.0, x, 1.0, r);
    Kokkos::deep_copy(p, r);
    const double bb = KokkosBlas::dot(b, b);
    double rr = KokkosBlas::dot(r, r);
    if (rr <= tolerance * tolerance * bb) return 0;
    for (int64_t k = 1; k <= max_iterations; ++k) {
      spmv(1.0, p, 0.0, q);
      const double pq = KokkosBlas::dot(p, q);
      const double alpha = rr / pq;
      KokkosBlas::axpby(alpha, p, 1.0, x);
      KokkosBlas::axpby(-alpha, q, 1.0, r);
      const double rr_next = KokkosBlas::dot(r, r);
      if (rr_next <= tolerance * tolerance * bb) return k;
      KokkosBlas::axpby(1.0, r, rr_next / rr, p);
      rr = rr_next;
    }
    return -1;
  }
};
#endif

// CG in double on the host, one thread: the iteration count kspmv's must match within one.
int64_t host_cg_iterations(const kspmv::HostCsr& A, double tolerance, int64_t max_iterations) {
  const int64_t n = A.num_rows;
  std::vector<double> x(n, 0.0), r(n, 1.0), p(n, 1.0), q(n);  // b = 1, x0 = 0
  const auto dot = [&](const std::vector<double>& u, const std::vector<double>& v) {
    double s = 0;
    for (int64_t i = 0; i < n; ++i) s += u[i] * v[i];
    return s;
  };
  const double bb = double(n);
  double rr = bb;
  for (int64_t k = 1; k <= max_iterations; ++k) {
    for (int64_t i = 0; i < n; ++i) {
      double s = 0;
      for (int64_t e = A.row_offsets[i]; e < A.row_offsets[i + 1]; ++e) s += A.values[e] * p[A.col_indices[e]];
      q[i] = s;
    }
    const double alpha = rr / dot(p, q);
    for (int64_t i = 0; i < n; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    const double rr_next = dot(r, r);
    if (rr_next <= tolerance * tolerance * bb) return k;
    for (int64_t i = 0; i < n; ++i) p[i] = r[i] + rr_next / rr * p[i];
    rr = rr_next;
  }
  return -1;
}

struct Options {
  std::vector<int> grids{16, 32, 64};
  std::vector<std::string> files;
  int repeat = 5;
  double tolerance = 1e-8;
  int64_t max_iterations = 2000;
  std::string json;
  bool host_cg = false;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "cg_bench: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--grids") {
      o.grids.clear();
      std::stringstream s(next());
      for (std::string g; std::getline(s, g, ',');) o.grids.push_back(std::stoi(g));
    } else if (a == "--mtx") {
      o.files.push_back(next());
    } else if (a == "--repeat") {
      o.repeat = std::stoi(next());
    } else if (a == "--tolerance") {
      o.tolerance = std::stod(next());
    } else if (a == "--max-iterations") {
      o.max_iterations = std::stoll(next());
    } else if (a == "--host-cg") {
      o.host_cg = true;
    } else if (a == "--json") {
      o.json = next();
    } else {
      std::fprintf(stderr, "cg_bench: unknown argument %s\n", a.c_str());
      std::exit(2);
    }
  }
  return o;
}

struct Case {
  std::string name;
  Csr A;
  int copies = 1;
};

int run(const Options& o) {
  std::vector<Case> cases;
  for (const int g : o.grids) {
    for (const int points : {7, 27}) {
      cases.push_back({"poisson" + std::to_string(points) + "_" + std::to_string(g) + "^3",
                       kspmv::poisson_3d<double, int, int, Device>(g, g, g, points)});
    }
  }
  for (const std::string& spec : o.files) {
    const auto colon = spec.rfind(':');
    std::string path = spec;
    int copies = 1;
    if (colon != std::string::npos && colon + 1 < spec.size() && spec.find_first_not_of("0123456789", colon + 1) == std::string::npos) {
      path = spec.substr(0, colon);
      copies = std::stoi(spec.substr(colon + 1));
    }
    kspmv::HostCsr h = kspmv::read_matrix_market(path);
    if (copies > 1) h = kspmv_bench::replicate(h, copies);
    std::string base = path.substr(path.find_last_of('/') + 1);
    base = base.substr(0, base.find(".mtx"));
    cases.push_back({copies > 1 ? base + "_x" + std::to_string(copies) : base, kspmv::to_device<double, int, int, Device>(h), copies});
  }

  std::ofstream json;
  if (!o.json.empty()) {
    json.open(o.json);
    json << "{\n  \"backend\": \"" << ExecSpace::name() << "\",\n  \"tolerance\": " << o.tolerance
         << ",\n  \"repeat\": " << o.repeat << ",\n  \"results\": [\n";
  }
  bool first_json = true, failed = false;
  std::printf("%-22s %9s %10s %-26s %6s %12s %10s %11s %8s %12s\n", "matrix", "rows", "nnz", "solver", "iters",
              "solve (us)", "per it", "setup (us)", "speedup", "with setup");
  for (const Case& c : cases) {
    const int n = c.A.num_rows();
    Vector b("b", n), x("x", n);
    Kokkos::deep_copy(b, 1.0);
    std::vector<Solve> solves;
    const auto timed = [&](const std::string& name, const std::function<Solve()>& solve_once) {
      std::vector<double> times, setups;
      Solve s;
      for (int r = 0; r < o.repeat + 1; ++r) {  // the first solve warms up, untimed
        Kokkos::deep_copy(x, 0.0);
        Kokkos::fence();
        const auto t0 = Clock::now();
        s = solve_once();
        Kokkos::fence();
        if (r > 0) {
          times.push_back(std::chrono::duration<double>(Clock::now() - t0).count() - s.setup);
          setups.push_back(s.setup);
        }
      }
      s.name = name;
      s.seconds = median(times);
      s.setup = median(setups);
      solves.push_back(s);
    };
#if defined(KSPMV_HAVE_KOKKOSKERNELS)
    const KokkosKernelsCg kk_cg(c.A);
    timed("kk:cg", [&] {
      Solve s;
      s.iterations = kk_cg.solve(b, x, o.tolerance, o.max_iterations);
      s.converged = s.iterations >= 0;
      if (!s.converged) s.iterations = o.max_iterations;
      s.path = "KokkosSparse::spmv + KokkosBlas";
      return s;
    });
    solves.back().setup = kk_cg.setup_seconds;
#endif
    kspmv::CgOptions options;
    options.tolerance = o.tolerance;
    options.max_iterations = o.max_iterations;
    // The Plan is built once per matrix, its setup timed apart, as a solver reusing A would; with
    // the options cg(A, b, x, options) would build it with.
    const kspmv::PlanOptions plan_options = kspmv::cg_plan_options(options);
    double plan_seconds = 0;
    std::unique_ptr<kspmv::Plan<double, int, int, Device>> plan;
    {
      Kokkos::fence();
      const auto t0 = Clock::now();
      plan = std::make_unique<kspmv::Plan<double, int, int, Device>>(c.A, plan_options);
      Kokkos::fence();
      plan_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    }
    const double system_mb = kspmv::impl::cg_system_bytes(c.A) / 1e6;
    for (const kspmv::CgPath path : {kspmv::CgPath::automatic, kspmv::CgPath::separate, kspmv::CgPath::fused_team,
                                     kspmv::CgPath::fused_grid}) {
      // The one-team path is timed only where it could compete; the grid path where it runs.
      if (path == kspmv::CgPath::fused_team && system_mb > 4.0) continue;
      if (path == kspmv::CgPath::fused_grid && kspmv::impl::cg_grid_shape(c.A).blocks == 0) continue;
      options.path = path;
      const std::string label = path == kspmv::CgPath::automatic ? "kspmv:cg" : std::string("kspmv:cg_") + kspmv::to_string(path);
      timed(label, [&] {
        const kspmv::CgResult r = kspmv::cg(*plan, b, x, options);
        Solve s;
        s.iterations = r.iterations;
        s.converged = r.converged();
        s.residual = r.residual;
        s.path = r.path;
        return s;
      });
      solves.back().setup = solves.back().path == "separate" ? plan_seconds : 0.0;
    }
    // Mixed precision (float_spmv): A's values in float in the iterations, the true residual in
    // double where the recurrence converges, restarts where it is not met. Its iterations may
    // exceed double's, so the one-iteration check below leaves it out.
    options.path = kspmv::CgPath::automatic;
    options.float_spmv = true;
    timed("kspmv:cg_float_spmv", [&] {
      const kspmv::CgResult r = kspmv::cg(*plan, b, x, options);
      Solve s;
      s.iterations = r.iterations;
      s.converged = r.converged() && r.residual <= 1.01 * o.tolerance;
      s.residual = r.residual;
      s.path = r.path + ", " + std::to_string(r.restarts) + " restarts";
      return s;
    });
    solves.back().setup = plan_seconds;
    options.float_spmv = false;
    const double reference = solves.front().seconds, reference_with_setup = solves.front().seconds + solves.front().setup;
    for (const Solve& s : solves) {
      const double speedup = s.seconds > 0 ? reference / s.seconds : 0;
      const double speedup_with_setup = reference_with_setup / (s.seconds + s.setup);
      std::printf("%-22s %9d %10lld %-26s %6lld %12.1f %10.2f %11.1f %8.2f %12.2f%s\n", c.name.c_str(), n,
                  (long long)c.A.nnz(), (s.name + (s.name == "kspmv:cg" || s.name == "kspmv:cg_float_spmv" ? " (" + s.path + ")" : "")).c_str(),
                  (long long)s.iterations, s.seconds * 1e6, s.iterations > 0 ? s.seconds * 1e6 / s.iterations : 0.0,
                  s.setup * 1e6, speedup, speedup_with_setup, s.converged ? "" : "  NOT CONVERGED");
      if (json.is_open()) {
        json << (first_json ? "" : ",\n") << "    {\"matrix\": \"" << c.name << "\", \"rows\": " << n
             << ", \"nnz\": " << c.A.nnz() << ", \"system_mb\": " << system_mb << ", \"solver\": \"" << s.name
             << "\", \"path\": \"" << s.path << "\", \"iterations\": " << s.iterations
             << ", \"converged\": " << (s.converged ? "true" : "false") << ", \"solve_us\": " << s.seconds * 1e6
             << ", \"per_iteration_us\": " << (s.iterations > 0 ? s.seconds * 1e6 / s.iterations : 0.0)
             << ", \"setup_us\": " << s.setup * 1e6 << ", \"speedup_vs_first\": " << speedup
             << ", \"speedup_with_setup_vs_first\": " << speedup_with_setup << "}";
        first_json = false;
      }
    }
    if (o.host_cg && c.copies == 1) {
      Solve h;
      h.name = "host:cg";
      h.iterations = host_cg_iterations(kspmv::to_host(c.A), o.tolerance, o.max_iterations);
      h.converged = h.iterations >= 0;
      if (!h.converged) h.iterations = o.max_iterations;
      std::printf("%-22s %9d %10lld %-26s %6lld%s\n", c.name.c_str(), n, (long long)c.A.nnz(), "host:cg (iterations)",
                  (long long)h.iterations, h.converged ? "" : "  NOT CONVERGED");
      if (json.is_open()) {
        json << ",\n    {\"matrix\": \"" << c.name << "\", \"solver\": \"host:cg\", \"iterations\": " << h.iterations
             << ", \"converged\": " << (h.converged ? "true" : "false") << "}";
      }
      for (const Solve& s : solves) {
        if (s.name == "kspmv:cg_float_spmv") continue;
        if (s.converged != h.converged || std::abs(s.iterations - h.iterations) > 1) {
          std::printf("MISMATCH on %s: %s %lld iterations against the host's %lld\n", c.name.c_str(), s.name.c_str(),
                      (long long)s.iterations, (long long)h.iterations);
          failed = true;
        }
      }
    }
    // Agreement with KokkosKernels' CG: same outcome, iterations within one.
    for (const Solve& s : solves) {
      if (s.name == "kspmv:cg_float_spmv") {
        if (s.converged != solves.front().converged) {
          std::printf("MISMATCH on %s: %s %s, its true residual %g\n", c.name.c_str(), s.name.c_str(),
                      s.converged ? "converged" : "not converged", s.residual);
          failed = true;
        }
        continue;
      }
      if (s.converged != solves.front().converged || std::abs(s.iterations - solves.front().iterations) > 1) {
        std::printf("MISMATCH on %s: %s %lld iterations (%s) against %s %lld\n", c.name.c_str(), s.name.c_str(),
                    (long long)s.iterations, s.converged ? "converged" : "not converged", solves.front().name.c_str(),
                    (long long)solves.front().iterations);
        failed = true;
      }
    }
  }
  if (json.is_open()) json << "\n  ]\n}\n";
  return failed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  Kokkos::initialize(argc, argv);
  int rc = 0;
  {
    rc = run(o);
  }
  Kokkos::finalize();
  return rc;
}
