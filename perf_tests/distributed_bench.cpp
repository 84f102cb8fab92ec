// distributed_bench: the distributed SpMV (kspmv::spmv on a DistributedCsrMatrix) on P MPI ranks,
// for strong and weak scaling runs, with the time per SpMV taken apart and the sizes that the
// model (perf_tests/distributed_model.py) needs.
//
//   mpirun -np P distributed_bench [--poisson NX,NY,NZ[:POINTS]]... [--weak ROWS_PER_RANK[:POINTS]]...
//                                  [--mtx FILE[:K]]... [--repeat R] [--batch-ms MS] [--json FILE]
//                                  [--no-ordered] [--dump-y DIR] [--bandwidth]
//
// --poisson: the 7- or 27-point (default 27) Poisson matrix of an NX x NY x NZ grid, the same on
// every rank count (strong scaling); --weak: a grid of about ROWS_PER_RANK rows a rank, NX = NY
// fixed by ROWS_PER_RANK and NZ growing with P (each rank a slab of planes, two neighbours);
// --mtx: a Matrix Market file, K copies along the diagonal (every rank reads the file and builds
// its own rows). Rows and x are split by kspmv::contiguous_partition.
//
// Per matrix, each a median over R batches (a batch repeats the call until it lasts about MS
// milliseconds; every rank starts it after a barrier and ends it fenced, and the slowest rank's
// time is the batch's):
//  - distributed: kspmv::spmv(1, A, x, 0, y), the whole call;
//  - local: the local block's SpMV alone (what one rank computes without neighbours);
//  - exchange: the halo exchange alone (pack, send, receive, copy in), nothing overlapping it;
//  - ghost: the ghost block's SpMV and the scatter into y alone.
//  - ordered: the same product on the matrix built with DistributedOptions::keep_row_order and
//    run with Algorithm::csr_scalar (the one-rank bits, no overlap);
// "beyond local" = distributed - local: the time the distribution adds to the rank's own work.
// --no-ordered leaves the ordered variant out (its second copy of the matrix does not fit beside
// the first on a GPU at the largest sizes). --dump-y DIR: each rank writes its rows of y (raw
// doubles, default and ordered paths) to DIR/<matrix>.np<P>.r<rank>.{default,ordered}.f64, so
// that runs on different rank counts can be compared entry by entry (compare_y.py).
// --bandwidth: every rank at once measures its device's copy bandwidth (Kokkos::deep_copy of
// 2 x 2 GB, median of 5), the ceiling against which the local SpMV's rate is reported.
// The setup (construction: split, ghost columns, pattern) is timed once, apart. Each rank checks
// its rows of y against a host product of the same rows (built from the grid or the file, not
// from the blocks); an error above 1e-12 of the row's magnitude fails the run (exit status 2).
#include <kspmv/distributed.hpp>
#include <kspmv/generate.hpp>
#include <kspmv/io.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = ExecSpace::device_type;
using Distributed = kspmv::DistributedCsrMatrix<double, int, int, Device>;
using Rows = kspmv::CsrMatrix<double, int64_t, int64_t, Device>;
using Clock = std::chrono::steady_clock;

int rank_of_world() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int ranks_of_world() {
  int p = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  return p;
}

// x's entries, a function of the global column alone, so that every rank count sees the same x.
double x_entry(int64_t c) { return 1.0 + double((uint64_t(c) * 2654435761ull) % 1000) / 1000.0; }

struct Case {
  std::string name;
  enum Kind { poisson, weak, mtx } kind;
  int64_t nx = 0, ny = 0, nz = 0;
  int points = 27;
  std::string file;
  int64_t copies = 1;
};

struct Options {
  std::vector<Case> cases;
  int repeat = 11;
  double batch_ms = 20;
  std::string json;
  bool ordered = true;
  bool bandwidth = false;
  std::string dump_dir;
};

std::vector<int64_t> split_numbers(const std::string& s, char sep) {
  std::vector<int64_t> v;
  std::stringstream in(s);
  std::string piece;
  while (std::getline(in, piece, sep)) v.push_back(std::stoll(piece));
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  const int ranks = ranks_of_world();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "--poisson" || a == "--weak") {
      std::string spec = next();
      Case c;
      const size_t colon = spec.find(':');
      if (colon != std::string::npos) {
        c.points = int(std::stoll(spec.substr(colon + 1)));
        spec = spec.substr(0, colon);
      }
      if (a == "--poisson") {
        const auto n = split_numbers(spec, ',');
        if (n.size() != 3) throw std::invalid_argument("--poisson takes NX,NY,NZ[:POINTS], not " + spec);
        c.kind = Case::poisson;
        c.nx = n[0];
        c.ny = n[1];
        c.nz = n[2];
      } else {
        // A square NX x NX cross-section of about the cube root of the rows a rank gets, and
        // as many planes as give each rank its share.
        const int64_t per_rank = std::stoll(spec);
        c.kind = Case::weak;
        c.nx = c.ny = std::max<int64_t>(1, std::llround(std::cbrt(double(per_rank))));
        c.nz = std::max<int64_t>(1, std::llround(double(per_rank) * ranks / double(c.nx * c.ny)));
      }
      c.name = std::string(a == "--weak" ? "weak " : "") + "poisson" + std::to_string(c.points) + " " +
               std::to_string(c.nx) + "x" + std::to_string(c.ny) + "x" + std::to_string(c.nz);
      o.cases.push_back(c);
    } else if (a == "--mtx") {
      const std::string spec = next();
      Case c;
      c.kind = Case::mtx;
      const size_t colon = spec.rfind(':');
      c.file = spec;
      if (colon != std::string::npos && colon + 1 < spec.size() &&
          spec.find_first_not_of("0123456789", colon + 1) == std::string::npos) {
        c.file = spec.substr(0, colon);
        c.copies = std::stoll(spec.substr(colon + 1));
      }
      const size_t slash = c.file.find_last_of('/');
      c.name = c.file.substr(slash == std::string::npos ? 0 : slash + 1) + " x" + std::to_string(c.copies);
      o.cases.push_back(c);
    } else if (a == "--repeat") {
      o.repeat = int(std::stoll(next()));
    } else if (a == "--batch-ms") {
      o.batch_ms = std::stod(next());
    } else if (a == "--json") {
      o.json = next();
    } else if (a == "--no-ordered") {
      o.ordered = false;
    } else if (a == "--bandwidth") {
      o.bandwidth = true;
    } else if (a == "--dump-y") {
      o.dump_dir = next();
    } else {
      throw std::invalid_argument("unknown argument " + a);
    }
  }
  return o;
}

// visit(column, value) for each entry of global row r of the case's matrix, on the host, from the
// file (its copies along the diagonal) or from the stencil written out again, apart from the
// library's generator: the check's oracle, and for files what make_distributed_csr gets.
template <class Visit>
void for_each_entry(const Case& c, const kspmv::HostCsr& file, int64_t r, Visit&& visit) {
  if (c.kind == Case::mtx) {
    const int64_t copy = r / file.num_rows, row = r % file.num_rows;
    for (int64_t k = file.row_offsets[size_t(row)]; k < file.row_offsets[size_t(row) + 1]; ++k) {
      visit(file.col_indices[size_t(k)] + copy * file.num_cols, file.values[size_t(k)]);
    }
    return;
  }
  const int64_t i = r % c.nx, j = (r / c.nx) % c.ny, k = r / (c.nx * c.ny);
  for (int64_t dk = -1; dk <= 1; ++dk)
    for (int64_t dj = -1; dj <= 1; ++dj)
      for (int64_t di = -1; di <= 1; ++di) {
        const bool in_stencil = c.points == 27 || di * di + dj * dj + dk * dk <= 1;
        const int64_t ii = i + di, jj = j + dj, kk = k + dk;
        if (!in_stencil || ii < 0 || ii >= c.nx || jj < 0 || jj >= c.ny || kk < 0 || kk >= c.nz) continue;
        visit(ii + c.nx * (jj + c.ny * kk), di == 0 && dj == 0 && dk == 0 ? double(c.points - 1) : -1.0);
      }
}

// Rows [begin, end) of a file's case as a host CSR with global columns.
kspmv::HostCsr host_rows(const Case& c, const kspmv::HostCsr& file, int64_t begin, int64_t end) {
  kspmv::HostCsr h;
  h.num_rows = end - begin;
  h.num_cols = file.num_cols * c.copies;
  for (int64_t r = begin; r < end; ++r) {
    for_each_entry(c, file, r, [&](int64_t col, double value) {
      h.col_indices.push_back(col);
      h.values.push_back(value);
    });
    h.row_offsets.push_back(int64_t(h.col_indices.size()));
  }
  return h;
}

// The largest error of this rank's rows of y against a host product of the same rows, relative
// to each row's magnitude (NaN counts as infinite); rows split over the host's threads, shared
// by the ranks of the node, since the largest runs check tens of millions of rows a rank.
template <class YHost>
double max_row_error(const Case& c, const kspmv::HostCsr& file, int64_t begin, const YHost& y_host) {
  const int64_t rows = int64_t(y_host.extent(0));
  const int threads = int(std::clamp<int64_t>(
      int64_t(std::thread::hardware_concurrency()) / std::max(1, ranks_of_world()), 1, std::max<int64_t>(1, rows / 4096)));
  std::vector<double> errors(size_t(threads), 0.0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      double error = 0;
      for (int64_t i = rows * t / threads; i < rows * (t + 1) / threads; ++i) {
        double sum = 0, magnitude = 0;
        for_each_entry(c, file, begin + i, [&](int64_t col, double value) {
          const double term = value * x_entry(col);
          sum += term;
          magnitude += std::abs(term);
        });
        const double e = std::abs(y_host(i) - sum) / (magnitude > 0 ? magnitude : 1.0);
        error = std::max(error, std::isnan(e) ? INFINITY : e);
      }
      errors[size_t(t)] = error;
    });
  }
  for (auto& t : pool) t.join();
  return *std::max_element(errors.begin(), errors.end());
}

// This rank's device copy bandwidth in bytes read and written per second: Kokkos::deep_copy
// between two 2 GB Views, median of 5 after a warm-up, every rank at once (after a barrier).
double copy_bandwidth() {
  const size_t n = size_t(1) << 28;
  Kokkos::View<double*, Device> a(Kokkos::view_alloc("bandwidth a", Kokkos::WithoutInitializing), n),
      b("bandwidth b", n);
  Kokkos::deep_copy(a, 1.0);
  std::vector<double> times;
  for (int trial = 0; trial < 6; ++trial) {
    ExecSpace().fence();
    MPI_Barrier(MPI_COMM_WORLD);
    const auto start = Clock::now();
    Kokkos::deep_copy(b, a);
    ExecSpace().fence();
    if (trial > 0) times.push_back(std::chrono::duration<double>(Clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return 2.0 * double(n * sizeof(double)) / times[times.size() / 2];
}

// Writes v (on the device) to path as raw doubles.
void dump(const Kokkos::View<double*, Device>& v, const std::string& path) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(h.data()), std::streamsize(h.extent(0) * sizeof(double)));
  if (!out) throw std::runtime_error("cannot write " + path);
}

// Median over `repeat` batches of the slowest rank's time per call.
double time_per_call(const std::function<void()>& call, int repeat, double batch_ms) {
  call();
  ExecSpace().fence();
  // Calls per batch from a trial, agreed on by every rank (the largest count).
  MPI_Barrier(MPI_COMM_WORLD);
  auto start = Clock::now();
  call();
  ExecSpace().fence();
  double one = std::chrono::duration<double>(Clock::now() - start).count();
  MPI_Allreduce(MPI_IN_PLACE, &one, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const int calls = std::max(1, int(batch_ms * 1e-3 / std::max(one, 1e-7)));
  std::vector<double> batches;
  for (int b = 0; b < repeat; ++b) {
    MPI_Barrier(MPI_COMM_WORLD);
    start = Clock::now();
    for (int k = 0; k < calls; ++k) call();
    ExecSpace().fence();
    MPI_Barrier(MPI_COMM_WORLD);  // the batch ends when the slowest rank's does
    batches.push_back(std::chrono::duration<double>(Clock::now() - start).count() / calls);
  }
  std::sort(batches.begin(), batches.end());
  double median = batches[batches.size() / 2];
  MPI_Bcast(&median, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return median;
}

int64_t max_over_ranks(int64_t v) {
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  return v;
}
int64_t sum_over_ranks(int64_t v) {
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  return v;
}

// One-way time of an n-byte message between ranks 0 and 1 (half a round trip, median of 50),
// host buffers: the latency and bandwidth terms of the model's messages on this machine.
double ping_pong_seconds(size_t bytes) {
  const int rank = rank_of_world();
  std::vector<char> buffer(std::max<size_t>(bytes, 1));
  std::vector<double> times;
  for (int trial = 0; trial < 60; ++trial) {
    MPI_Barrier(MPI_COMM_WORLD);
    const auto start = Clock::now();
    if (rank == 0) {
      MPI_Send(buffer.data(), int(bytes), MPI_BYTE, 1, 7, MPI_COMM_WORLD);
      MPI_Recv(buffer.data(), int(bytes), MPI_BYTE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buffer.data(), int(bytes), MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buffer.data(), int(bytes), MPI_BYTE, 0, 7, MPI_COMM_WORLD);
    }
    if (trial >= 10) times.push_back(std::chrono::duration<double>(Clock::now() - start).count() / 2);
  }
  std::sort(times.begin(), times.end());
  double median = times[times.size() / 2];
  MPI_Bcast(&median, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return median;
}

int run(const Options& o) {
  const int rank = rank_of_world(), ranks = ranks_of_world();
  std::ofstream json;
  if (rank == 0 && !o.json.empty()) {
    json.open(o.json);
    json << "{\n  \"backend\": \"" << ExecSpace::name() << "\",\n  \"ranks\": " << ranks;
  }
  // Which device each rank drives (Kokkos maps ranks to GPUs by local rank).
  {
    int device = -1;
#if KOKKOS_VERSION >= 40100
    device = Kokkos::device_id();
#endif
    std::vector<int> devices(size_t(ranks), -1);
    MPI_Gather(&device, 1, MPI_INT, devices.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      std::printf("devices by rank:");
      for (int d : devices) std::printf(" %d", d);
      std::printf("\n");
      if (json.is_open()) {
        json << ",\n  \"devices\": [";
        for (int r = 0; r < ranks; ++r) json << (r ? ", " : "") << devices[size_t(r)];
        json << "]";
      }
    }
  }
  double bandwidth = 0;
  if (o.bandwidth) {
    double lowest = copy_bandwidth(), highest = lowest;
    MPI_Allreduce(MPI_IN_PLACE, &lowest, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &highest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    bandwidth = lowest;
    if (rank == 0) {
      std::printf("device copy bandwidth (every rank at once): %.0f-%.0f GB/s\n", lowest * 1e-9, highest * 1e-9);
      if (json.is_open()) json << ",\n  \"copy_bandwidth_GBs_min\": " << lowest * 1e-9 << ", \"copy_bandwidth_GBs_max\": " << highest * 1e-9;
    }
  }
  if (ranks >= 2) {
    const double latency = ping_pong_seconds(8), large = ping_pong_seconds(size_t(1) << 22);
    if (rank == 0) {
      std::printf("ping-pong between ranks 0 and 1 (host buffers): 8 B %.2f us, 4 MiB %.1f us (%.2f GB/s)\n",
                  latency * 1e6, large * 1e6, double(1 << 22) / large * 1e-9);
      if (json.is_open()) {
        json << ",\n  \"ping_pong_8B_us\": " << latency * 1e6 << ",\n  \"ping_pong_4MiB_us\": " << large * 1e6;
      }
    }
  }
  if (json.is_open()) json << ",\n  \"results\": [\n";
  if (rank == 0) {
    std::printf("%-30s %5s %11s %12s %9s %9s %9s %9s %9s %7s %9s %9s %9s %8s %10s\n", "matrix", "ranks", "rows", "nnz",
                "setup ms", "dist us", "local us", "exch us", "ghost us", "beyond", "ordrd us", "ghost/rk", "halo MB",
                "error", "local GB/s");
  }
  bool failed = false;
  for (size_t ci = 0; ci < o.cases.size(); ++ci) {
    const Case& c = o.cases[ci];
    kspmv::HostCsr file;
    int64_t m = c.nx * c.ny * c.nz;
    if (c.kind == Case::mtx) {
      file = kspmv::read_matrix_market(c.file);
      m = file.num_rows * c.copies;
    }
    const auto partition = kspmv::contiguous_partition(m, ranks);
    const int64_t begin = partition[size_t(rank)], end = partition[size_t(rank) + 1];

    const auto build = [&](const kspmv::DistributedOptions& options) {
      if (c.kind == Case::mtx) {
        return kspmv::make_distributed_csr<int, int>(
            MPI_COMM_WORLD, kspmv::to_device<double, int64_t, int64_t, Device>(host_rows(c, file, begin, end)), {},
            options);
      }
      return kspmv::poisson_3d_distributed<double, int, int, Device>(MPI_COMM_WORLD, c.nx, c.ny, c.nz, c.points, {},
                                                                     options);
    };
    MPI_Barrier(MPI_COMM_WORLD);
    const auto setup_start = Clock::now();
    Distributed A = build(kspmv::DistributedOptions());
    ExecSpace().fence();
    MPI_Barrier(MPI_COMM_WORLD);
    const double setup = std::chrono::duration<double>(Clock::now() - setup_start).count();
    // The reproducible variant: rows kept in order, summed by csr_scalar after the exchange.
    kspmv::DistributedOptions keep;
    keep.keep_row_order = true;
    const Distributed ordered = o.ordered ? build(keep) : Distributed();
    kspmv::SpmvOptions scalar;
    scalar.algorithm = kspmv::Algorithm::csr_scalar;

    Kokkos::View<double*, Device> x("x", size_t(A.num_local_cols())), y("y", size_t(A.num_local_rows()));
    const auto x_host = Kokkos::create_mirror_view(x);
    for (int64_t j = 0; j < A.num_local_cols(); ++j) x_host(j) = x_entry(A.first_col() + j);
    Kokkos::deep_copy(x, x_host);

    // The check: this rank's rows of y against the host product of the same rows (first call,
    // which also analyses the blocks, and a later one; the same for the ordered variant).
    std::string slug = c.name;
    std::replace(slug.begin(), slug.end(), ' ', '_');
    const std::string dump_stem = o.dump_dir + "/" + slug + ".np" + std::to_string(ranks) + ".r" + std::to_string(rank);
    double error = 0;
    for (int call = 0; call < (o.ordered ? 4 : 2); ++call) {
      Kokkos::deep_copy(y, std::nan(""));
      if (call < 2) {
        kspmv::spmv(1.0, A, x, 0.0, y);
      } else {
        kspmv::spmv(1.0, ordered, x, 0.0, y, scalar);
      }
      ExecSpace().fence();
      error = std::max(error, max_row_error(c, file, begin, Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y)));
      if (!o.dump_dir.empty() && (call == 1 || call == 3)) dump(y, dump_stem + (call == 1 ? ".default" : ".ordered") + ".f64");
    }
    MPI_Allreduce(MPI_IN_PLACE, &error, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);

    const double t_distributed = time_per_call([&] { kspmv::spmv(1.0, A, x, 0.0, y); }, o.repeat, o.batch_ms);
    const double t_ordered =
        o.ordered ? time_per_call([&] { kspmv::spmv(1.0, ordered, x, 0.0, y, scalar); }, o.repeat, o.batch_ms) : NAN;
    const double t_local = time_per_call([&] { kspmv::spmv(1.0, A.local_block, x, 0.0, y); }, o.repeat, o.batch_ms);
    const double t_exchange = time_per_call(
        [&] {
          auto halo = kspmv::impl::start_halo_exchange(ExecSpace(), A, x);
          kspmv::impl::finish_halo_receives(ExecSpace(), A, halo);
          kspmv::impl::finish_halo_sends(halo);
        },
        o.repeat, o.batch_ms);
    const double t_ghost =
        time_per_call([&] { kspmv::impl::add_ghost_block(ExecSpace(), 1.0, A, y); }, o.repeat, o.batch_ms);

    const int64_t nnz = sum_over_ranks(int64_t(A.local_block.nnz() + A.ghost_block.nnz()));
    const int64_t max_local_nnz = max_over_ranks(int64_t(A.local_block.nnz()));
    const int64_t max_local_rows = max_over_ranks(int64_t(A.num_local_rows()));
    const int64_t max_ghost_cols = max_over_ranks(int64_t(A.num_ghost_cols()));
    const int64_t max_ghost_nnz = max_over_ranks(int64_t(A.ghost_block.nnz()));
    const int64_t max_messages = max_over_ranks(int64_t(A.recv_ranks.size() + A.send_ranks.size()));
    const int64_t halo_entries = sum_over_ranks(int64_t(A.num_ghost_cols()));
    const double halo_mb = double(halo_entries) * sizeof(double) * 1e-6;
    // The local block's rate by the CSR byte model (values and int columns, int offsets, x and
    // y once), the slowest rank's time over the largest block's bytes.
    const int64_t local_bytes = max_over_ranks(int64_t(A.local_block.nnz()) * 12 + (A.num_local_rows() + 1) * 4 +
                                               A.num_local_cols() * 8 + A.num_local_rows() * 8);
    const double local_gbs = double(local_bytes) / t_local * 1e-9;
    const double beyond = (t_distributed - t_local) / t_distributed;
    const bool wrong = !(error <= 1e-12);
    failed = failed || wrong;
    if (rank == 0) {
      std::printf("%-30s %5d %11lld %12lld %9.2f %9.1f %9.1f %9.1f %9.1f %6.0f%% %9.1f %9lld %9.3f %8.1e %10.0f%s\n",
                  c.name.c_str(), ranks, (long long)m, (long long)nnz, setup * 1e3, t_distributed * 1e6, t_local * 1e6,
                  t_exchange * 1e6, t_ghost * 1e6, beyond * 100, t_ordered * 1e6, (long long)max_ghost_cols, halo_mb,
                  error, local_gbs, wrong ? " WRONG" : "");
      if (json.is_open()) {
        json << (ci ? ",\n" : "") << "    {\"matrix\": \"" << c.name << "\", \"ranks\": " << ranks
             << ", \"rows\": " << m << ", \"nnz\": " << nnz << ", \"setup_s\": " << setup
             << ", \"distributed_us\": " << t_distributed * 1e6 << ", \"local_us\": " << t_local * 1e6
             << ", \"exchange_us\": " << t_exchange * 1e6 << ", \"ghost_us\": " << t_ghost * 1e6
             << ", \"ordered_csr_scalar_us\": ";
        if (o.ordered) {
          json << t_ordered * 1e6;
        } else {
          json << "null";
        }
        json
             << ", \"max_local_rows\": " << max_local_rows << ", \"max_local_nnz\": " << max_local_nnz
             << ", \"max_ghost_cols\": " << max_ghost_cols << ", \"max_ghost_nnz\": " << max_ghost_nnz
             << ", \"max_messages\": " << max_messages << ", \"halo_entries\": " << halo_entries
             << ", \"max_error\": " << error << ", \"local_csr_bytes\": " << local_bytes
             << ", \"local_GBs\": " << local_gbs;
        if (bandwidth > 0) json << ", \"local_of_copy_bandwidth\": " << local_gbs / (bandwidth * 1e-9);
        json << "}";
      }
    }
  }
  if (json.is_open()) json << "\n  ]\n}\n";
  return failed ? 2 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  Kokkos::initialize(argc, argv);
  try {
    const Options o = parse(argc, argv);
    if (rank_of_world() == 0) {
      std::printf("distributed_bench: %d MPI ranks, Kokkos %s, %d thread(s) a rank\n", ranks_of_world(),
                  ExecSpace::name(), ExecSpace().concurrency());
    }
    status = run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "distributed_bench (rank %d): %s\n", rank_of_world(), e.what());
    status = 1;
  }
  Kokkos::finalize();
  MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
