// Lab 2, mode T (y = A^T x): a thread per run of E consecutive entries (merge-path shape:
// one row search per thread, then a walk), against kspmv's split entries (a search per entry),
// lanes per row, and cuSPARSE's transposed SpMV. Standalone: reads .mtx (or .mtx.gz) itself.
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
Csr poisson27(int s) {
  Csr p; p.m = p.n = (long long)s * s * s; p.off.push_back(0);
  for (int z = 0; z < s; ++z) for (int yy = 0; yy < s; ++yy) for (int xx = 0; xx < s; ++xx) {
    for (int dz = -1; dz <= 1; ++dz) for (int dy = -1; dy <= 1; ++dy) for (int dx = -1; dx <= 1; ++dx) {
      int X = xx + dx, Y = yy + dy, Z = z + dz; if (X < 0 || Y < 0 || Z < 0 || X >= s || Y >= s || Z >= s) continue;
      p.col.push_back(int((Z * (long long)s + Y) * s + X)); p.val.push_back(dx == 0 && dy == 0 && dz == 0 ? 26.0 : -1.0 - 0.01 * dx); }
    p.off.push_back(p.col.size()); }
  return p;
}

// kspmv's split entries: blocks of 2048, 256 threads, entry k0+t+256*s, a row search per entry.
__global__ void __launch_bounds__(256) entries_search(long long nnz, const int* __restrict__ off, const int* __restrict__ col,
    const double* __restrict__ val, const double* __restrict__ x, double* y, const int* __restrict__ brow) {
  const long long k0 = (long long)blockIdx.x * 2048, k1 = min(k0 + 2048, nnz);
  const int first = brow[blockIdx.x], last = brow[blockIdx.x + 1];
  for (long long k = k0 + threadIdx.x; k < k1; k += 256) {
    int lo = first, hi = last;
    while (lo < hi) { const int mid = (lo + hi + 1) / 2; if (off[mid] <= k) lo = mid; else hi = mid - 1; }
    atomicAdd(&y[col[k]], val[k] * x[lo]);
  }
}
// lanes per row
template <int G>
__global__ void __launch_bounds__(256) lanes_kernel(int m, const int* __restrict__ off, const int* __restrict__ col,
    const double* __restrict__ val, const double* __restrict__ x, double* y) {
  const int row = blockIdx.x * (256 / G) + threadIdx.x / G, lane = threadIdx.x % G;
  if (row >= m) return;
  const double s = x[row];
  for (int k = off[row] + lane; k < off[row + 1]; k += G) atomicAdd(&y[col[k]], val[k] * s);
}

// The lanes of a warp holding the same column add their products first (match, then a tree
// over the peers: NVIDIA's "reduce_peers"); the lowest lane of each group adds into y.
__device__ __forceinline__ void add_aggregated(double* y, int c, double v, bool valid) {
  const int lane = threadIdx.x & 31;
  const int key = valid ? c : -1 - lane;  // invalid lanes: a key of their own
  unsigned peers = __match_any_sync(0xffffffffu, key);
  const int first = __ffs(peers) - 1;
  int rel = __popc(peers << (32 - lane));
  if (lane == 0) rel = 0;
  peers &= (0xfffffffeu << lane);
  while (__any_sync(0xffffffffu, peers != 0)) {
    const int next = __ffs(peers);
    const double t = __shfl_sync(0xffffffffu, v, (next > 0 ? next : 1) - 1);
    if (next) v += t;
    const unsigned done = __ballot_sync(0xffffffffu, rel & 1);
    peers &= ~done;
    rel >>= 1;
  }
  if (valid && lane == first) atomicAdd(&y[c], v);
}
template <int T, int B>
__global__ void __launch_bounds__(T) entries_agg(long long nnz, const int* __restrict__ off, const int* __restrict__ col,
    const double* __restrict__ val, const double* __restrict__ x, double* y, const int* __restrict__ brow) {
  const long long k0 = (long long)blockIdx.x * B, k1 = min(k0 + B, nnz);
  const int first = brow[blockIdx.x], last = brow[blockIdx.x + 1];
  for (int s = 0; s < B / T; ++s) {
    const long long k = k0 + threadIdx.x + (long long)s * T;
    const bool valid = k < k1;
    int c = 0; double v = 0;
    if (valid) {
      int lo = first, hi = last;
      while (lo < hi) { const int mid = (lo + hi + 1) / 2; if (off[mid] <= k) lo = mid; else hi = mid - 1; }
      c = col[k]; v = val[k] * x[lo];
    }
    add_aggregated(y, c, v, valid);
  }
}
template <int G>
__global__ void __launch_bounds__(256) lanes_agg(int m, const int* __restrict__ off, const int* __restrict__ col,
    const double* __restrict__ val, const double* __restrict__ x, double* y, int steps) {
  const int row = blockIdx.x * (256 / G) + threadIdx.x / G, lane = threadIdx.x % G;
  const bool in = row < m;
  const int b = in ? off[row] : 0, e = in ? off[row + 1] : 0;
  const double s = in ? x[row] : 0.0;
  // the warp's longest row sets its steps
  int my = (e - b + G - 1) / G;
  for (int o = 16; o > 0; o >>= 1) my = max(my, __shfl_xor_sync(0xffffffffu, my, o));
  for (int st = 0; st < my; ++st) {
    const int k = b + lane + st * G;
    const bool valid = k < e;
    add_aggregated(y, valid ? col[k] : 0, valid ? val[k] * s : 0.0, valid);
  }
}

#include <cub/block/block_scan.cuh>
// row of each entry from a row array (COO): no search, 4 more bytes an entry
__global__ void __launch_bounds__(256) entries_coo(long long nnz, const int* __restrict__ rows, const int* __restrict__ col,
    const double* __restrict__ val, const double* __restrict__ x, double* y) {
  const long long k0 = (long long)blockIdx.x * 2048, k1 = min(k0 + 2048, nnz);
  for (long long k = k0 + threadIdx.x; k < k1; k += 256) atomicAdd(&y[col[k]], val[k] * x[rows[k]]);
}
// rows of the block's entries staged in shared memory: row starts counted, then a block scan
__global__ void __launch_bounds__(256) entries_scan(long long nnz, const int* __restrict__ off, const int* __restrict__ col,
    const double* __restrict__ val, const double* __restrict__ x, double* y, const int* __restrict__ brow) {
  using Scan = cub::BlockScan<int, 256>;
  __shared__ typename Scan::TempStorage tmp;
  __shared__ int rid[2048];
  const long long k0 = (long long)blockIdx.x * 2048, k1 = min(k0 + 2048, nnz);
  const int first = brow[blockIdx.x], last = brow[blockIdx.x + 1];
  for (int i = threadIdx.x; i < 2048; i += 256) rid[i] = 0;
  __syncthreads();
  for (int r = first + 1 + threadIdx.x; r <= last; r += 256) atomicAdd(&rid[int(off[r] - k0)], 1);
  __syncthreads();
  int items[8];
#pragma unroll
  for (int i = 0; i < 8; ++i) items[i] = rid[threadIdx.x * 8 + i];
  Scan(tmp).InclusiveSum(items, items);
  __syncthreads();
#pragma unroll
  for (int i = 0; i < 8; ++i) rid[threadIdx.x * 8 + i] = items[i];
  __syncthreads();
  for (long long k = k0 + threadIdx.x; k < k1; k += 256) atomicAdd(&y[col[k]], val[k] * x[first + rid[k - k0]]);
}
// the row of every 8th entry searched once, then each entry searches between two of those
__global__ void __launch_bounds__(256) entries_run8(long long nnz, const int* __restrict__ off, const int* __restrict__ col,
    const double* __restrict__ val, const double* __restrict__ x, double* y, const int* __restrict__ brow) {
  __shared__ int rs[257];
  const long long k0 = (long long)blockIdx.x * 2048, k1 = min(k0 + 2048, nnz);
  const int first = brow[blockIdx.x], last = brow[blockIdx.x + 1];
  {
    const long long k = min(k0 + threadIdx.x * 8, k1 - 1);
    int lo = first, hi = last;
    while (lo < hi) { const int mid = (lo + hi + 1) / 2; if (off[mid] <= k) lo = mid; else hi = mid - 1; }
    rs[threadIdx.x] = lo;
    if (threadIdx.x == 0) rs[256] = last;
  }
  __syncthreads();
  for (long long k = k0 + threadIdx.x; k < k1; k += 256) {
    const int j = int(k - k0) >> 3;
    int lo = rs[j], hi = rs[j + 1];
    while (lo < hi) { const int mid = (lo + hi + 1) / 2; if (off[mid] <= k) lo = mid; else hi = mid - 1; }
    atomicAdd(&y[col[k]], val[k] * x[lo]);
  }
}
// a run of E consecutive entries a thread: one row search (within the block's rows), then a walk.
template <int E, int T>
__global__ void __launch_bounds__(T) run_kernel(long long nnz, const int* __restrict__ off, const int* __restrict__ col,
    const double* __restrict__ val, const double* __restrict__ x, double* y, const int* __restrict__ brow) {
  long long k = (long long)blockIdx.x * (E * T) + (long long)threadIdx.x * E;
  if (k >= nnz) return;
  const int kn = int(min((long long)E, nnz - k));
  int lo = brow[blockIdx.x], hi = brow[blockIdx.x + 1];
  while (lo < hi) { const int mid = (lo + hi + 1) / 2; if (off[mid] <= k) lo = mid; else hi = mid - 1; }
  int row = lo, next = off[row + 1];
  double s = x[row];
  int c[E]; double v[E];
#pragma unroll
  for (int i = 0; i < E; ++i) if (i < kn) { c[i] = col[k + i]; v[i] = val[k + i]; }
#pragma unroll
  for (int i = 0; i < E; ++i) {
    if (i < kn) {
      while (k + i >= next) { ++row; next = off[row + 1]; s = x[row]; }
      atomicAdd(&y[c[i]], v[i] * s);
    }
  }
}

template <class F> double time_it(F&& f) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int i = 0; i < 3; ++i) f();
  std::vector<float> t;
  for (int r = 0; r < 21; ++r) { cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms); }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2] * 1e3;
}
std::vector<int> partition(const Csr& h, long long B) {
  const long long nnz = h.col.size(), nb = (nnz + B - 1) / B;
  std::vector<int> br(nb + 1);
  for (long long b = 0; b <= nb; ++b) {
    const long long k = std::min(b * B, nnz - 1);
    br[b] = int(std::upper_bound(h.off.begin(), h.off.end(), k) - h.off.begin() - 1);
  }
  return br;
}

void run(const std::string& name, const Csr& h) {
  const int m = int(h.m), n = int(h.n); const long long nnz = h.col.size();
  std::vector<int> off(h.off.begin(), h.off.end());
  int *doff, *dcol; double *dval;
  CK(cudaMalloc(&doff, (m + 1) * 4)); CK(cudaMalloc(&dcol, nnz * 4)); CK(cudaMalloc(&dval, nnz * 8));
  cudaMemcpy(doff, off.data(), (m + 1) * 4, cudaMemcpyHostToDevice); cudaMemcpy(dcol, h.col.data(), nnz * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dval, h.val.data(), nnz * 8, cudaMemcpyHostToDevice);
  std::vector<double> xh(m); for (int i = 0; i < m; ++i) xh[i] = 1.0 + (i % 7) * 0.1;
  double *x, *y, *y2; CK(cudaMalloc(&x, m * 8)); CK(cudaMalloc(&y, n * 8)); CK(cudaMalloc(&y2, n * 8));
  cudaMemcpy(x, xh.data(), m * 8, cudaMemcpyHostToDevice);
  const double bytes = nnz * 12.0 + (m + 1) * 4.0 + m * 8.0 + n * 16.0;
  cusparseHandle_t hd; cusparseCreate(&hd);
  cusparseSpMatDescr_t A; cusparseDnVecDescr_t X, Y;
  cusparseCreateCsr(&A, m, n, nnz, doff, dcol, dval, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
  cusparseCreateDnVec(&X, m, x, CUDA_R_64F); cusparseCreateDnVec(&Y, n, y, CUDA_R_64F);
  double one = 1, zero = 0; size_t ws = 0; void* wsp = nullptr;
  cusparseSpMV_bufferSize(hd, CUSPARSE_OPERATION_TRANSPOSE, &one, A, X, &zero, Y, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, &ws);
  cudaMalloc(&wsp, ws + 8);
  const double t_cus = time_it([&] { cusparseSpMV(hd, CUSPARSE_OPERATION_TRANSPOSE, &one, A, X, &zero, Y, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, wsp); });
  std::vector<double> ref(n, 0.0);
  for (int r = 0; r < m; ++r) for (int k = off[r]; k < off[r + 1]; ++k) ref[h.col[k]] += h.val[k] * xh[r];
  auto check = [&](double* yy) { std::vector<double> v(n); cudaMemcpy(v.data(), yy, n * 8, cudaMemcpyDeviceToHost); double e = 0, s = 0; for (int i = 0; i < n; ++i) { e = std::max(e, std::abs(v[i] - ref[i])); s = std::max(s, std::abs(ref[i])); } return s > 0 ? e / s : e; };
  const double e_cus = check(y);
  const double avg = double(nnz) / m;
  int L = 1; while (L * 2 <= 32 && L * 2 <= avg) L *= 2;
  std::printf("%-34s m %9d nnz %10lld avg %6.1f lanes %2d | cusparse %7.1f us (%4.0f GB/s, err %.0e)\n", name.c_str(), m, nnz, avg, L, t_cus, bytes / t_cus * 1e-3, e_cus);
  auto report = [&](const char* what, double t) { std::printf("    %-16s %8.1f us  %.2fx cusparse  err %.0e\n", what, t, t_cus / t, check(y2)); };
  { auto br = partition(h, 2048); int* d; cudaMalloc(&d, br.size() * 4); cudaMemcpy(d, br.data(), br.size() * 4, cudaMemcpyHostToDevice);
    const int nb = int(br.size() - 1);
    report("entries_search", time_it([&] { cudaMemsetAsync(y2, 0, n * 8); entries_search<<<nb, 256>>>(nnz, doff, dcol, dval, x, y2, d); }));
    cudaFree(d); }
  auto lanes = [&](int G) {
    const int rows = 256 / G, nb = (m + rows - 1) / rows;
    return time_it([&] { cudaMemsetAsync(y2, 0, n * 8);
      switch (G) { case 1: lanes_kernel<1><<<nb, 256>>>(m, doff, dcol, dval, x, y2); break; case 2: lanes_kernel<2><<<nb, 256>>>(m, doff, dcol, dval, x, y2); break;
        case 4: lanes_kernel<4><<<nb, 256>>>(m, doff, dcol, dval, x, y2); break; case 8: lanes_kernel<8><<<nb, 256>>>(m, doff, dcol, dval, x, y2); break;
        case 16: lanes_kernel<16><<<nb, 256>>>(m, doff, dcol, dval, x, y2); break; default: lanes_kernel<32><<<nb, 256>>>(m, doff, dcol, dval, x, y2); } });
  };
  { char b[32]; std::snprintf(b, 32, "lanes %d (avg)", L); report(b, lanes(L)); }
  if (L != 2) report("lanes 2", lanes(2));
  auto runk = [&](auto kern, int E, int T, const char* label) {
    auto br = partition(h, (long long)E * T); int* d; cudaMalloc(&d, br.size() * 4); cudaMemcpy(d, br.data(), br.size() * 4, cudaMemcpyHostToDevice);
    const int nb = int(br.size() - 1);
    report(label, time_it([&] { cudaMemsetAsync(y2, 0, n * 8); kern<<<nb, T>>>(nnz, doff, dcol, dval, x, y2, d); }));
    cudaFree(d);
  };
  runk(entries_scan, 8, 256, "entries_scan");
  runk(entries_run8, 8, 256, "entries_run8");
  { std::vector<int> rows(nnz); for (int r = 0; r < m; ++r) for (long long k = off[r]; k < off[r + 1]; ++k) rows[k] = r;
    int* dr; cudaMalloc(&dr, nnz * 4); cudaMemcpy(dr, rows.data(), nnz * 4, cudaMemcpyHostToDevice);
    const int nb = int((nnz + 2047) / 2048);
    report("entries_coo", time_it([&] { cudaMemsetAsync(y2, 0, n * 8); entries_coo<<<nb, 256>>>(nnz, dr, dcol, dval, x, y2); }));
    cudaFree(dr); }
  runk(entries_agg<256, 2048>, 8, 256, "entries_agg 256");
  std::printf("    memset %.1f us\n", time_it([&] { cudaMemsetAsync(y2, 0, n * 8); }));
  std::fflush(stdout);
  cudaFree(doff); cudaFree(dcol); cudaFree(dval); cudaFree(x); cudaFree(y); cudaFree(y2); cudaFree(wsp);
  cusparseDestroySpMat(A); cusparseDestroyDnVec(X); cusparseDestroyDnVec(Y); cusparseDestroy(hd);
}

int main(int argc, char** argv) {
  // args: file[:copies] ... ; "poisson27:S" builds one
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i]; int k = 1; auto p = a.rfind(':');
    if (p != std::string::npos) { k = std::atoi(a.substr(p + 1).c_str()); a = a.substr(0, p); }
    if (a == "poisson27") { run("poisson27_" + std::to_string(k) + "^3", poisson27(k)); continue; }
    Csr h = read_mtx(a);
    if (k <= 0) k = int(std::max<long long>(1, (50000000 + (long long)h.col.size() - 1) / std::max<long long>(1, (long long)h.col.size())));
    std::string nm = a.substr(a.rfind('/') + 1) + " x" + std::to_string(k);
    run(nm, k > 1 ? replicate(h, k) : h);
  }
}
