// Lab (issue 16, several vectors): Y = A*X with X and Y of k columns. Kernels:
//  lanes   kspmv's raw csr_multivector_kernel shape (lanes per row, each lane all k sums), any strides
//  rows    a group of G lanes a row, lane l owning vectors l*V..l*V+V-1 of a row-major X (each entry's
//          k values one contiguous load per group), the group's entries loaded once and broadcast
//  chunk   the same walk over chunks of C consecutive entries a group (uneven rows): rows inside a
//          chunk stored, rows crossing chunk ends added with atomics into a zeroed Y
// LayoutLeft X goes through a row-major copy (timed with the kernel). cuSPARSE SpMM beside.
#include <cuda_runtime.h>
#include <cusparse.h>
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

template <int V> struct Acc { double a[V]; };
template <int V> __device__ __forceinline__ void fma_x(Acc<V>& acc, double v, const double* p) {
  if constexpr (V == 2) { const double2 t = *reinterpret_cast<const double2*>(p); acc.a[0] += v * t.x; acc.a[1] += v * t.y; }
  else acc.a[0] += v * __ldg(p);
}
// a group of G lanes a row on row-major X (ldx), lane l owning vectors l*V..
template <int G, int V>
__global__ void __launch_bounds__(256) rows_rm(int m, const int* __restrict__ off, const int* __restrict__ col,
    const double* __restrict__ val, const double* __restrict__ X, int ldx, double* __restrict__ Y, long long yr, long long yv) {
  const int t = blockIdx.x * 256 + threadIdx.x;
  const int row = t / G, lane = threadIdx.x % G;
  if (row >= m) return;
  const unsigned mask = G == 32 ? 0xffffffffu : (((1u << G) - 1) << ((threadIdx.x % 32) / G * G));
  const int b = off[row], e = off[row + 1];
  Acc<V> acc; for (int j = 0; j < V; ++j) acc.a[j] = 0;
  const double* xl = X + lane * V;
  for (int k0 = b; k0 < e; k0 += G) {
    const int n = min(G, e - k0);
    const int c = lane < n ? col[k0 + lane] : 0; const double v = lane < n ? val[k0 + lane] : 0.0;
#pragma unroll
    for (int s = 0; s < G; ++s) {
      if (s < n) {
        const int cc = __shfl_sync(mask, c, s, G); const double vv = __shfl_sync(mask, v, s, G);
        fma_x<V>(acc, vv, xl + (long long)cc * ldx);
      }
    }
  }
  for (int j = 0; j < V; ++j) Y[row * yr + (lane * V + j) * yv] = acc.a[j];
}
// chunks of C entries a group; Y zeroed before
template <int G, int V, int C>
__global__ void __launch_bounds__(256) chunk_rm(int m, long long nnz, const int* __restrict__ crow, const int* __restrict__ off,
    const int* __restrict__ col, const double* __restrict__ val, const double* __restrict__ X, int ldx, double* __restrict__ Y,
    long long yr, long long yv) {
  const long long gi = ((long long)blockIdx.x * 256 + threadIdx.x) / G;
  const int lane = threadIdx.x % G;
  const long long k0 = gi * C;
  if (k0 >= nnz) return;
  const unsigned mask = G == 32 ? 0xffffffffu : (((1u << G) - 1) << ((threadIdx.x % 32) / G * G));
  const int k1 = int(min(k0 + C, nnz));
  int row = crow[gi], row_end = off[row + 1];
  bool shared = off[row] < k0;
  Acc<V> acc; for (int j = 0; j < V; ++j) acc.a[j] = 0;
  const double* xl = X + lane * V;
  auto flush = [&](bool atomic) {
    double* out = Y + row * yr + lane * V * yv;
    for (int j = 0; j < V; ++j) { if (atomic) atomicAdd(out + j * yv, acc.a[j]); else out[j * yv] = acc.a[j]; acc.a[j] = 0; }
  };
  for (int kk = int(k0); kk < k1; kk += G) {
    const int n = min(G, k1 - kk);
    const int c = lane < n ? col[kk + lane] : 0; const double v = lane < n ? val[kk + lane] : 0.0;
#pragma unroll
    for (int s = 0; s < G; ++s) {
      if (s < n) {
        while (kk + s >= row_end) { flush(shared); shared = false; ++row; row_end = off[row + 1]; }
        const int cc = __shfl_sync(mask, c, s, G); const double vv = __shfl_sync(mask, v, s, G);
        fma_x<V>(acc, vv, xl + (long long)cc * ldx);
      }
    }
  }
  flush(shared || row_end > k1);
}
__global__ void to_row_major(long long n, int k, const double* __restrict__ xl, double* __restrict__ xr) {
  const long long t = (long long)blockIdx.x * 256 + threadIdx.x;  // t over n*k in row-major order
  if (t >= n * k) return;
  const long long i = t / k; const int j = int(t % k);
  xr[t] = xl[j * n + i];
}

template <class F> double time_it(F&& f) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int i = 0; i < 3; ++i) f();
  std::vector<float> t;
  for (int r = 0; r < 15; ++r) { cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms); }
  std::sort(t.begin(), t.end());
  CK(cudaGetLastError());
  return t[t.size() / 2] * 1e3;
}
double xval(long long i, int j) { return 1.0 + 0.1 * ((i * 3 + j * 5) % 7) - 0.05 * j; }

void run(const std::string& name, const Csr& h) {
  const int m = int(h.m), n = int(h.n); const long long nnz = h.col.size();
  std::vector<int> off(h.off.begin(), h.off.end());
  int *doff, *dcol; double *dval;
  CK(cudaMalloc(&doff, (m + 1) * 4)); CK(cudaMalloc(&dcol, nnz * 4)); CK(cudaMalloc(&dval, nnz * 8));
  cudaMemcpy(doff, off.data(), (m + 1) * 4, cudaMemcpyHostToDevice); cudaMemcpy(dcol, h.col.data(), nnz * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dval, h.val.data(), nnz * 8, cudaMemcpyHostToDevice);
  const int KMAX = 16;
  std::vector<double> xl((size_t)n * KMAX), xr((size_t)n * KMAX);  // column-major, row-major (k = 16)
  for (long long i = 0; i < n; ++i) for (int j = 0; j < KMAX; ++j) { xl[j * (size_t)n + i] = xval(i, j); }
  std::vector<double> ref((size_t)m * KMAX, 0.0);
  for (int r = 0; r < m; ++r) for (int k = off[r]; k < off[r + 1]; ++k) { const double v = h.val[k]; const long long c = h.col[k];
    for (int j = 0; j < KMAX; ++j) ref[(size_t)r * KMAX + j] += v * xval(c, j); }
  double *dxl, *dxr, *dy, *x1, *y1;
  CK(cudaMalloc(&dxl, (size_t)n * KMAX * 8)); CK(cudaMalloc(&dxr, (size_t)n * KMAX * 8)); CK(cudaMalloc(&dy, (size_t)m * KMAX * 8));
  CK(cudaMalloc(&x1, (size_t)n * 8)); CK(cudaMalloc(&y1, (size_t)m * 8));
  cudaMemcpy(x1, xl.data(), n * 8, cudaMemcpyHostToDevice);
  std::vector<int> crow;
  const double avg = double(nnz) / m;
  long long longest = 0; for (int r = 0; r < m; ++r) longest = std::max<long long>(longest, off[r + 1] - off[r]);
  int L = 1; while (L * 2 <= 32 && L * 2 <= avg) L *= 2;
  auto v1 = [&](int G) { const int nb = int(((long long)m * G + 255) / 256); return time_it([&] {
      switch (G) { case 1: vec1<1><<<nb, 256>>>(m, doff, dcol, dval, x1, y1); break; case 2: vec1<2><<<nb, 256>>>(m, doff, dcol, dval, x1, y1); break;
      case 4: vec1<4><<<nb, 256>>>(m, doff, dcol, dval, x1, y1); break; case 8: vec1<8><<<nb, 256>>>(m, doff, dcol, dval, x1, y1); break;
      case 16: vec1<16><<<nb, 256>>>(m, doff, dcol, dval, x1, y1); break; default: vec1<32><<<nb, 256>>>(m, doff, dcol, dval, x1, y1); } }); };
  double t1 = v1(L); if (L > 1) t1 = std::min(t1, v1(L / 2)); if (L < 32) t1 = std::min(t1, v1(L * 2));
  const double bytes1 = nnz * 12.0 + (m + 1) * 4.0 + n * 8.0 + m * 8.0;
  std::printf("%-34s m %9d nnz %10lld avg %6.1f longest %7lld | rank-1 %7.1f us (%4.0f GB/s)\n", name.c_str(), m, nnz, avg, longest, t1, bytes1 / t1 * 1e-3);
  cusparseHandle_t hd; cusparseCreate(&hd);
  cusparseSpMatDescr_t A;
  cusparseCreateCsr(&A, m, n, nnz, doff, dcol, dval, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
  for (int k : {4, 8, 16}) {
    for (long long i = 0; i < n; ++i) for (int j = 0; j < k; ++j) { xl[j * (size_t)n + i] = xval(i, j); xr[i * k + j] = xval(i, j); }
    cudaMemcpy(dxl, xl.data(), (size_t)n * k * 8, cudaMemcpyHostToDevice);
    const double bytes = nnz * 12.0 + (m + 1) * 4.0 + (double)k * (n + m) * 8.0;
    for (int layout = 0; layout < 2; ++layout) {  // 0 = LayoutLeft, 1 = LayoutRight
      const bool left = layout == 0;
      if (!left) cudaMemcpy(dxr, xr.data(), (size_t)n * k * 8, cudaMemcpyHostToDevice);
      const long long yr = left ? 1 : k, yv = left ? m : 1;
      auto check = [&]() { std::vector<double> v((size_t)m * k); cudaMemcpy(v.data(), dy, (size_t)m * k * 8, cudaMemcpyDeviceToHost);
        double e = 0, s = 0; for (long long r = 0; r < m; ++r) for (int j = 0; j < k; ++j) { const double R = ref[r * KMAX + j];
          e = std::max(e, std::abs(v[r * yr + j * yv] - R)); s = std::max(s, std::abs(R)); } return s > 0 ? e / s : e; };
      std::printf("  k %2d %s  ideal %7.1f us at 4.4 TB/s\n", k, left ? "L" : "R", bytes / 4.4e6);
      auto report = [&](const char* what, double t) { cudaDeviceSynchronize(); const double err = check();
        std::printf("    %-22s %8.1f us  per vector / rank-1 %.2f  %4.0f GB/s  err %.0e%s\n", what, t, t / k / t1, bytes / t * 1e-3, err, err > 1e-10 ? "  WRONG" : "");
        cudaMemset(dy, 0xff, (size_t)m * k * 8); };
      {  // cuSPARSE SpMM
        cusparseDnMatDescr_t X, Y;
        if (left) { cusparseCreateDnMat(&X, n, k, n, dxl, CUDA_R_64F, CUSPARSE_ORDER_COL); cusparseCreateDnMat(&Y, m, k, m, dy, CUDA_R_64F, CUSPARSE_ORDER_COL); }
        else { cusparseCreateDnMat(&X, n, k, k, dxr, CUDA_R_64F, CUSPARSE_ORDER_ROW); cusparseCreateDnMat(&Y, m, k, k, dy, CUDA_R_64F, CUSPARSE_ORDER_ROW); }
        double one = 1, zero = 0; size_t ws = 0; void* wsp = nullptr;
        const auto alg = CUSPARSE_SPMM_ALG_DEFAULT;
        cusparseSpMM_bufferSize(hd, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, CUDA_R_64F, alg, &ws);
        cudaMalloc(&wsp, ws + 8);
        report("cusparse spmm", time_it([&] { cusparseSpMM(hd, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, CUDA_R_64F, alg, wsp); }));
        cudaFree(wsp); cusparseDestroyDnMat(X); cusparseDestroyDnMat(Y);
      }
      {  // kspmv's lanes kernel shape
        int g = 1; while (g * 2 <= 32 && g * 2 <= avg / 4) g *= 2; int sh = 0; while ((1 << sh) < g) ++sh;
        const int nb = int(((long long)m * g + 255) / 256);
        const double* xx = left ? dxl : dxr; const long long xr_ = left ? 1 : k, xv_ = left ? n : 1;
        char b[64]; std::snprintf(b, 64, "lanes (%d a row)", g);
        report(b, time_it([&] { for (int f = 0; f < k; f += 8) {
            if (k == 4) lanes_mv<4><<<nb, 256>>>(m, sh, doff, dcol, dval, xx, xr_, xv_, dy, yr, yv);
            else lanes_mv<8><<<nb, 256>>>(m, sh, doff, dcol, dval, xx + f * xv_, xr_, xv_, dy + f * yv, yr, yv); } }));
      }
      auto copy = [&] { if (left) { const long long t = (long long)n * k; to_row_major<<<unsigned((t + 255) / 256), 256>>>(n, k, dxl, dxr); } };
      if (left) report("copy X to row-major", time_it(copy));
      auto rows = [&](auto kern, int G, const char* label) {
        const int nb = int(((long long)m * G + 255) / 256);
        report(label, time_it([&] { copy(); kern<<<nb, 256>>>(m, doff, dcol, dval, dxr, k, dy, yr, yv); }));
      };
      auto chunk = [&](auto kern, int G, int C, const char* label) {
        const long long ng = (nnz + C - 1) / C; crow.resize(ng);
        for (long long g = 0; g < ng; ++g) crow[g] = int(std::upper_bound(h.off.begin(), h.off.end(), g * C) - h.off.begin() - 1);
        int* dc; cudaMalloc(&dc, ng * 4); cudaMemcpy(dc, crow.data(), ng * 4, cudaMemcpyHostToDevice);
        const unsigned nb = unsigned((ng * G + 255) / 256);
        report(label, time_it([&] { copy(); cudaMemsetAsync(dy, 0, (size_t)m * k * 8); kern<<<nb, 256>>>(m, nnz, dc, doff, dcol, dval, dxr, k, dy, yr, yv); }));
        cudaFree(dc);
      };
      if (k == 4) { rows(rows_rm<4, 1>, 4, "rows G4 V1"); rows(rows_rm<2, 2>, 2, "rows G2 V2");
                    chunk(chunk_rm<4, 1, 64>, 4, 64, "chunk G4 V1 C64"); chunk(chunk_rm<2, 2, 64>, 2, 64, "chunk G2 V2 C64"); }
      if (k == 8) { rows(rows_rm<8, 1>, 8, "rows G8 V1"); rows(rows_rm<4, 2>, 4, "rows G4 V2");
                    chunk(chunk_rm<8, 1, 64>, 8, 64, "chunk G8 V1 C64"); chunk(chunk_rm<4, 2, 64>, 4, 64, "chunk G4 V2 C64");
                    chunk(chunk_rm<4, 2, 256>, 4, 256, "chunk G4 V2 C256"); }
      if (k == 16) { rows(rows_rm<16, 1>, 16, "rows G16 V1"); rows(rows_rm<8, 2>, 8, "rows G8 V2");
                     chunk(chunk_rm<16, 1, 64>, 16, 64, "chunk G16 V1 C64"); chunk(chunk_rm<8, 2, 64>, 8, 64, "chunk G8 V2 C64"); }
      std::fflush(stdout);
    }
  }
  cusparseDestroySpMat(A); cusparseDestroy(hd);
  cudaFree(doff); cudaFree(dcol); cudaFree(dval); cudaFree(dxl); cudaFree(dxr); cudaFree(dy); cudaFree(x1); cudaFree(y1);
}

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i]; int k = 1; auto p = a.rfind(':');
    if (p != std::string::npos) { k = std::atoi(a.substr(p + 1).c_str()); a = a.substr(0, p); }
    if (a == "poisson27") { run("poisson27_" + std::to_string(k) + "^3", poisson(k, 1)); continue; }
    if (a == "poisson7") { run("poisson7_" + std::to_string(k) + "^3", poisson(k, 0)); continue; }
    Csr h = read_mtx(a);
    if (k <= 0) k = int(std::max<long long>(1, (50000000 + (long long)h.col.size() - 1) / std::max<long long>(1, (long long)h.col.size())));
    std::string nm = a.substr(a.rfind('/') + 1) + " x" + std::to_string(k);
    run(nm, k > 1 ? replicate(h, k) : h);
  }
}
