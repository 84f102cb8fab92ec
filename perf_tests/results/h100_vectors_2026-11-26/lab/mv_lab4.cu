// Lab (issue 16, several vectors): Y = A*X with X and Y of k columns. Kernels:
//  lanes   kspmv's raw csr_multivector_kernel shape (lanes per row, each lane all k sums), any strides
//  rows    a group of G lanes a row, lane l owning vectors l*V..l*V+V-1 of a row-major X (each entry's
//          k values one contiguous load per group), the group's entries loaded once and broadcast
//  chunk   the same walk over chunks of C consecutive entries a group (uneven rows): rows inside a
//          chunk stored, rows crossing chunk ends added with atomics into a zeroed Y
// LayoutLeft X goes through a row-major copy (timed with the kernel). cuSPARSE SpMM beside.
#include <cuda_runtime.h>
#include <cusparse.h>
#include "raw/kernels.hpp"
#include "raw/csr_multivector_row_lanes.hpp"
namespace kr = kspmv::impl::raw;
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#define CK(x) do { auto e_ = (x); if (e_ != 0) { std::printf("error %d at %d\n", int(e_), __LINE__); std::exit(1); } } while (0)

struct Csr { long long m = 0, n = 0; std::vector<long long> off; std::vector<int> col; std::vector<double> val; };

Csr read_mtx(const std::string& path) {
  std::string cmd = (path.size() > 3 && path.substr(path.size() - 3) == ".gz" ? "gunzip -c " : "cat ") + path;
  FILE* f = popen(cmd.c_str(), "r");
  char line[4096];
  if (!fgets(line, sizeof line, f)) std::exit(2);
  std::string ban(line); for (auto& c : ban) c = std::tolower(c);
  const bool pattern = ban.find("pattern") != std::string::npos, sym = ban.find("general") == std::string::npos;
  const bool skew = ban.find("skew") != std::string::npos;
  do { if (!fgets(line, sizeof line, f)) std::exit(2); } while (line[0] == '%');
  long long m, n, nz; std::sscanf(line, "%lld %lld %lld", &m, &n, &nz);
  std::vector<std::pair<long long, std::pair<int, double>>> e; e.reserve(sym ? 2 * nz : nz);
  for (long long i = 0; i < nz; ++i) {
    if (!fgets(line, sizeof line, f)) std::exit(3);
    long long r, c; double v = 1.0;
    char* p = line; r = std::strtoll(p, &p, 10); c = std::strtoll(p, &p, 10); if (!pattern) v = std::strtod(p, &p);
    if (pattern) v = 1.0 + double((r * 7 + c * 3) % 11) / 10.0;
    e.push_back({(r - 1), {int(c - 1), v}});
    if (sym && r != c) e.push_back({(c - 1), {int(r - 1), skew ? -v : v}});
  }
  pclose(f);
  std::sort(e.begin(), e.end());
  Csr a; a.m = m; a.n = n; a.off.assign(m + 1, 0);
  for (auto& t : e) { a.off[t.first + 1]++; a.col.push_back(t.second.first); a.val.push_back(t.second.second); }
  for (long long i = 0; i < m; ++i) a.off[i + 1] += a.off[i];
  return a;
}
Csr replicate(const Csr& a, int k) {
  Csr r; r.m = a.m * k; r.n = a.n * k; const size_t nnz = a.col.size();
  r.off.resize(r.m + 1); r.col.resize(nnz * k); r.val.resize(nnz * k); r.off[0] = 0;
  for (int c = 0; c < k; ++c) {
    for (long long i = 0; i < a.m; ++i) r.off[c * a.m + i + 1] = (long long)(c * nnz) + a.off[i + 1];
    for (size_t p = 0; p < nnz; ++p) { r.col[c * nnz + p] = a.col[p] + int(c * a.n); r.val[c * nnz + p] = a.val[p]; }
  }
  return r;
}
Csr poisson(int s, int reach) {  // reach 1 and 27 points, or the 7-point star (reach 0)
  Csr p; p.m = p.n = (long long)s * s * s; p.off.push_back(0);
  for (int z = 0; z < s; ++z) for (int yy = 0; yy < s; ++yy) for (int xx = 0; xx < s; ++xx) {
    for (int dz = -1; dz <= 1; ++dz) for (int dy = -1; dy <= 1; ++dy) for (int dx = -1; dx <= 1; ++dx) {
      if (reach == 0 && std::abs(dx) + std::abs(dy) + std::abs(dz) > 1) continue;
      int X = xx + dx, Y = yy + dy, Z = z + dz; if (X < 0 || Y < 0 || Z < 0 || X >= s || Y >= s || Z >= s) continue;
      p.col.push_back(int((Z * (long long)s + Y) * s + X)); p.val.push_back(dx == 0 && dy == 0 && dz == 0 ? 26.0 : -1.0 - 0.01 * dx); }
    p.off.push_back(p.col.size()); }
  return p;
}

template <int G> __device__ __forceinline__ double gsum(double v) {
#pragma unroll
  for (int d = G / 2; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
  return v;
}
// rank-1 vector CSR (G lanes a row): the denominator
template <int G>
__global__ void __launch_bounds__(256) vec1(int m, const int* __restrict__ off, const int* __restrict__ col,
    const double* __restrict__ val, const double* __restrict__ x, double* __restrict__ y) {
  const int row = (blockIdx.x * 256 + threadIdx.x) / G, lane = threadIdx.x % G;
  double s = 0;
  if (row < m) for (int k = off[row] + lane; k < off[row + 1]; k += G) s += val[k] * x[col[k]];
  s = gsum<G>(s);
  if (row < m && lane == 0) y[row] = s;
}
// kspmv's lanes kernel (one pass of C vectors; k == C here)
template <int C>
__global__ void __launch_bounds__(256) lanes_mv(int m, int shift, const int* __restrict__ off, const int* __restrict__ col,
    const double* __restrict__ val, const double* __restrict__ x, long long xr, long long xv, double* __restrict__ y,
    long long yr, long long yv) {
  const int g = 1 << shift;
  const int row = (blockIdx.x * 256 + threadIdx.x) >> shift, lane = threadIdx.x & (g - 1);
  const bool act = row < m;
  const int b = act ? off[row] : 0, e = act ? off[row + 1] : 0;
  double s[C];
#pragma unroll
  for (int j = 0; j < C; ++j) s[j] = 0;
  for (int k = b + lane; k < e; k += g) {
    const double v = val[k]; const double* xe = x + (long long)col[k] * xr;
#pragma unroll
    for (int j = 0; j < C; ++j) s[j] += v * xe[j * xv];
  }
#pragma unroll
  for (int j = 0; j < C; ++j) for (int d = g / 2; d > 0; d /= 2) s[j] += __shfl_xor_sync(0xffffffffu, s[j], d);
  if (act && lane == 0) for (int j = 0; j < C; ++j) y[row * yr + j * yv] = s[j];
}


template <class F> double time_it(F&& f) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int i = 0; i < 3; ++i) f();
  std::vector<float> t;
  for (int r = 0; r < 11; ++r) { cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms); }
  std::sort(t.begin(), t.end());
  CK(cudaGetLastError());
  return t[t.size() / 2] * 1e3;
}
double xval(long long i, int j) { return 1.0 + 0.1 * ((i * 3 + j * 5) % 7) - 0.05 * j; }
template <int P> using K = void (*)(int64_t, int, int64_t, const int*, const int*, const double*, const double*, int64_t, int64_t, double*, int64_t, int64_t, double, double);

void run(const std::string& name, const Csr& h) {
  const int m = int(h.m), n = int(h.n); const long long nnz = h.col.size();
  std::vector<int> off(h.off.begin(), h.off.end());
  int *doff, *dcol; double *dval;
  CK(cudaMalloc(&doff, (m + 1) * 4)); CK(cudaMalloc(&dcol, nnz * 4)); CK(cudaMalloc(&dval, nnz * 8));
  cudaMemcpy(doff, off.data(), (m + 1) * 4, cudaMemcpyHostToDevice); cudaMemcpy(dcol, h.col.data(), nnz * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dval, h.val.data(), nnz * 8, cudaMemcpyHostToDevice);
  const int k = 4;
  std::vector<double> xl((size_t)n * k), xr((size_t)n * k);
  for (long long i = 0; i < n; ++i) for (int j = 0; j < k; ++j) { xl[j * (size_t)n + i] = xval(i, j); xr[i * k + j] = xval(i, j); }
  std::vector<double> ref((size_t)m * k, 0.0);
  for (int r = 0; r < m; ++r) for (int e = off[r]; e < off[r + 1]; ++e) { const double v = h.val[e]; const long long c = h.col[e];
    for (int j = 0; j < k; ++j) ref[(size_t)r * k + j] += v * xval(c, j); }
  double *dxl, *dxr, *dy;
  CK(cudaMalloc(&dxl, (size_t)n * k * 8)); CK(cudaMalloc(&dxr, (size_t)n * k * 8)); CK(cudaMalloc(&dy, (size_t)m * k * 8));
  cudaMemcpy(dxl, xl.data(), (size_t)n * k * 8, cudaMemcpyHostToDevice); cudaMemcpy(dxr, xr.data(), (size_t)n * k * 8, cudaMemcpyHostToDevice);
  const double avg = double(nnz) / m;
  int g = 1; while (g * 2 <= 32 && g * 2 <= avg / 4) g *= 2; int sh = 0; while ((1 << sh) < g) ++sh;
  std::printf("%-30s m %9d nnz %10lld avg %5.1f group %d\n", name.c_str(), m, nnz, avg, g);
  int smem_sm = 0; cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0);
  for (int layout = 0; layout < 2; ++layout) {
    const bool left = layout == 0;
    const double* xx = left ? dxl : dxr; const long long xr_ = left ? 1 : k, xv_ = left ? n : 1;
    const long long yr = left ? 1 : k, yv = left ? m : 1;
    auto check = [&]() { std::vector<double> v((size_t)m * k); cudaMemcpy(v.data(), dy, (size_t)m * k * 8, cudaMemcpyDeviceToHost);
      double e = 0, s = 0; for (long long r = 0; r < m; ++r) for (int j = 0; j < k; ++j) { const double R = ref[r * k + j];
        e = std::max(e, std::abs(v[r * yr + j * yv] - R)); s = std::max(s, std::abs(R)); } return s > 0 ? e / s : e; };
    auto report = [&](const char* what, double t) { cudaDeviceSynchronize(); const double err = check();
      std::printf("  %s %-34s %8.1f us  err %.0e%s\n", left ? "L" : "R", what, t, err, err > 1e-10 ? "  WRONG" : "");
      cudaMemset(dy, 0xff, (size_t)m * k * 8); };
    const unsigned nb = unsigned(((long long)m * g + 255) / 256);
    auto lanes = [&](auto kern, int cap, const char* label) {
      size_t smem = 0;
      if (cap > 0) { smem = size_t(smem_sm / cap) - 1024 - 16; if (smem > 48 * 1024) cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)); }
      int blocks = 0; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kern, 256, smem);
      char b[96]; std::snprintf(b, 96, "%s (%d blocks/SM)", label, blocks);
      report(b, time_it([&] { kern<<<nb, 256, smem>>>(m, sh, k, doff, dcol, dval, xx, xr_, xv_, dy, yr, yv, 1.0, 0.0); }));
    };
    auto one = kr::csr_multivector_kernel<32, 4, true, kr::kOnePass, double, int, int>;
    auto gen = kr::csr_multivector_kernel<32, 4, true, kr::kAnyPasses, double, int, int>;
    auto one8 = kr::csr_multivector_kernel<32, 8, true, kr::kAnyPasses, double, int, int>;
    lanes(one, 0, "one-pass");
    for (int cap : {6, 5, 4, 3}) lanes(one, cap, "one-pass capped");
    lanes(gen, 0, "general");
    lanes(one8, 0, "columns 8 general");
    if (g > 1) {  // half and double the group
      const int g0 = g; const int sh0 = sh;
      for (int gg : {g0 / 2, g0 * 2}) { g = gg; sh = 0; while ((1 << sh) < g) ++sh;
        const unsigned nb2 = unsigned(((long long)m * g + 255) / 256); char b[64]; std::snprintf(b, 64, "one-pass group %d", g);
        report(b, time_it([&] { one<<<nb2, 256>>>(m, sh, k, doff, dcol, dval, xx, xr_, xv_, dy, yr, yv, 1.0, 0.0); })); }
      g = g0; sh = sh0;
    } else {
      g = 2; sh = 1; const unsigned nb2 = unsigned(((long long)m * 2 + 255) / 256);
      report("one-pass group 2", time_it([&] { one<<<nb2, 256>>>(m, 1, k, doff, dcol, dval, xx, xr_, xv_, dy, yr, yv, 1.0, 0.0); }));
      g = 1; sh = 0;
    }
    if (!left) report("row lanes", time_it([&] { kr::launch_csr_multivector_row_lanes<32>(0, m, k, doff, dcol, dval, dxr, k, dy, yr, yv, 1.0, 0.0); }));
    std::fflush(stdout);
  }
  cudaFree(doff); cudaFree(dcol); cudaFree(dval); cudaFree(dxl); cudaFree(dxr); cudaFree(dy);
}

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i]; int k = 1; auto p = a.rfind(':');
    if (p != std::string::npos) { k = std::atoi(a.substr(p + 1).c_str()); a = a.substr(0, p); }
    if (a == "urand") {  // k million rows of 1..16 entries in uniformly random columns
      Csr u; u.m = u.n = (long long)k * 1000000; u.off.push_back(0); unsigned long long st = 12345;
      auto nx = [&] { st = st * 6364136223846793005ull + 1442695040888963407ull; return st >> 33; };
      for (long long r = 0; r < u.m; ++r) { const int len = 1 + int(nx() % 16); std::vector<int> cs(len);
        for (auto& c : cs) c = int(nx() % u.n); std::sort(cs.begin(), cs.end());
        for (int c : cs) { u.col.push_back(c); u.val.push_back(1.0 + 0.01 * (c % 7)); } u.off.push_back(u.col.size()); }
      run("uniform_random " + std::to_string(k) + "M", u); continue; }
    if (a == "poisson27") { run("poisson27_" + std::to_string(k) + "^3", poisson(k, 1)); continue; }
    if (a == "poisson7") { run("poisson7_" + std::to_string(k) + "^3", poisson(k, 0)); continue; }
    Csr h = read_mtx(a);
    if (k <= 0) k = int(std::max<long long>(1, (50000000 + (long long)h.col.size() - 1) / std::max<long long>(1, (long long)h.col.size())));
    std::string nm = a.substr(a.rfind('/') + 1) + " x" + std::to_string(k);
    run(nm, k > 1 ? replicate(h, k) : h);
  }
}
