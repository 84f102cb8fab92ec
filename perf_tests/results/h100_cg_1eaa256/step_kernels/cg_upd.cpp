#include <kspmv/cg.hpp>
#include <chrono>
#include <cstdio>
using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = ExecSpace::device_type;
using Clock = std::chrono::steady_clock;
using V = Kokkos::View<double*, Device>;
using namespace kspmv::impl;
static double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count() * 1e6; }
template <class F>
void timeit(const char* name, int reps, double bytes, F&& f) {
  Kokkos::fence();
  for (int i = 0; i < 10; ++i) f();
  Kokkos::fence();
  auto t0 = Clock::now();
  for (int i = 0; i < reps; ++i) f();
  Kokkos::fence();
  double tot = since(t0) / reps;
  std::printf("  %-40s %8.2f us  %7.1f GB/s\n", name, tot, bytes / tot * 1e-3);
}
struct Two { double a, b; };
struct TwoSums {
  using value_type = Two;
  KOKKOS_INLINE_FUNCTION void init(value_type& s) const { s.a = s.b = 0; }
  KOKKOS_INLINE_FUNCTION void join(value_type& d, const value_type& s) const { d.a += s.a; d.b += s.b; }
};
struct TeamUpdate : TwoSums {
  using member = Kokkos::TeamPolicy<ExecSpace>::member_type;
  V p, q, x, r; Kokkos::View<const double*, Device> pq; Kokkos::View<const double**, Kokkos::LayoutRight, Device> sums; Kokkos::View<const int*, Device> halt; int slot, previous; int n; int per;
  KOKKOS_INLINE_FUNCTION void operator()(const member& t, value_type& s) const {
    if (halt(previous) != cg_running || !(pq(slot) > 0)) return;
    const double alpha = sums(previous, 0) / pq(slot);
    const int base = t.league_rank() * t.team_size() * per;
    Two local{0, 0};
    for (int j = 0; j < per; ++j) {
      const int i = base + j * t.team_size() + t.team_rank();
      if (i < n) {
        x(i) += alpha * p(i);
        const double ri = r(i) - alpha * q(i);
        r(i) = ri;
        local.a += ri * ri; local.b += ri * ri;
      }
    }
    s.a += local.a; s.b += local.b;
  }
};
// raw CUDA: 4 elements a thread, block shuffle reduce, partials, last block sums in order
__global__ void raw_update(int n, const double* __restrict__ p, const double* __restrict__ q, double* __restrict__ x, double* __restrict__ r,
                           const double* pq, const double* sums, double* partials, unsigned* counter, double* out) {
  const double alpha = sums[0] / pq[0];
  double a = 0;
  const int base = blockIdx.x * 1024 + threadIdx.x;
  double pv[4], qv[4], xv[4], rv[4];
#pragma unroll
  for (int j = 0; j < 4; ++j) { int i = base + j * 256; if (i < n) { pv[j] = p[i]; qv[j] = q[i]; xv[j] = x[i]; rv[j] = r[i]; } }
#pragma unroll
  for (int j = 0; j < 4; ++j) { int i = base + j * 256; if (i < n) { x[i] = xv[j] + alpha * pv[j]; double ri = rv[j] - alpha * qv[j]; r[i] = ri; a += ri * ri; } }
  for (int o = 16; o > 0; o >>= 1) a += __shfl_down_sync(0xffffffff, a, o);
  __shared__ double w[8];
  __shared__ bool last;
  if ((threadIdx.x & 31) == 0) w[threadIdx.x >> 5] = a;
  __syncthreads();
  if (threadIdx.x == 0) {
    double s = 0; for (int k = 0; k < 8; ++k) s += w[k];
    partials[blockIdx.x] = s;
    __threadfence();
    last = atomicAdd(counter, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  double s = 0;
  for (int b = threadIdx.x; b < gridDim.x; b += 256) s += ((volatile double*)partials)[b];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);
  if ((threadIdx.x & 31) == 0) w[threadIdx.x >> 5] = s;
  __syncthreads();
  if (threadIdx.x == 0) { double t = 0; for (int k = 0; k < 8; ++k) t += w[k]; out[0] = t; out[1] = t; *counter = 0; }
}
__global__ void raw_copy(int n, const double* __restrict__ a, double* __restrict__ b) { int i = blockIdx.x * 256 + threadIdx.x; if (i < n) b[i] = a[i]; }

void run(int n) {
  std::printf("n = %d\n", n);
  ExecSpace space;
  V p("p", n), q("q", n), x("x", n), r("r", n), inv;
  Kokkos::deep_copy(p, 1.0); Kokkos::deep_copy(q, 1.0); Kokkos::deep_copy(r, 1.0);
  Kokkos::View<double*, Device> pq("pq", 4); Kokkos::deep_copy(pq, 1.0);
  Kokkos::View<double**, Kokkos::LayoutRight, Device> sums("s", 4, 3); Kokkos::deep_copy(sums, 1e-9);
  Kokkos::View<int*, Device> halt("h", 4);
  Kokkos::View<Two, Device> two("two");
  V partials("partials", n / 1024 + 1), out("out", 2);
  Kokkos::View<unsigned, Device> counter("c");
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int>>;
  using PolicyLB = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int>, Kokkos::LaunchBounds<256, 4>>;
  const double b6 = 6.0 * 8 * n, b3 = 3.0 * 8 * n, b2 = 2.0 * 8 * n;
  timeit("raw copy (2 passes)", 100, b2, [&] { raw_copy<<<(n + 255) / 256, 256, 0, space.cuda_stream()>>>(n, p.data(), q.data()); });
  timeit("CgUpdate array reducer", 100, b6, [&] { Kokkos::parallel_reduce("u", Policy(space, 0, n), CgUpdate<double, int, Device>{{}, p, q, inv, x, r, r, pq, sums, halt, 1, 0, false}, Kokkos::subview(sums, 1, Kokkos::ALL)); });
  timeit("CgUpdate array reducer LB<256,4>", 100, b6, [&] { Kokkos::parallel_reduce("u", PolicyLB(space, 0, n), CgUpdate<double, int, Device>{{}, p, q, inv, x, r, r, pq, sums, halt, 1, 0, false}, Kokkos::subview(sums, 1, Kokkos::ALL)); });
  for (int per : {1, 2, 4, 8}) {
    TeamUpdate f; f.p = p; f.q = q; f.x = x; f.r = r; f.pq = pq; f.sums = sums; f.halt = halt; f.slot = 1; f.previous = 0; f.n = n; f.per = per;
    const int league = (n + 256 * per - 1) / (256 * per);
    char name[64]; std::snprintf(name, 64, "team update, %d a thread", per);
    timeit(name, 100, b6, [&] { Kokkos::parallel_reduce("t", Kokkos::TeamPolicy<ExecSpace>(space, league, 256), f, two); });
  }
  timeit("raw update 4 a thread + last block", 100, b6, [&] { raw_update<<<(n + 1023) / 1024, 256, 0, space.cuda_stream()>>>(n, p.data(), q.data(), x.data(), r.data(), pq.data(), sums.data(), partials.data(), counter.data(), out.data()); });
  timeit("CgCurvature", 100, b2, [&] { Kokkos::parallel_reduce("c", Policy(space, 0, n), CgCurvature<double, int, Device>{p, q, halt, 0}, Kokkos::subview(pq, 2)); });
  timeit("CgDirection", 100, b3, [&] { Kokkos::parallel_for("d", Policy(space, 0, n), CgDirection<double, int, Device>{r, p, pq, sums, halt, 1, 0, 0.0, true}); });
}
int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  run(110592); run(1000000); run(2400000); run(20000000);
}
