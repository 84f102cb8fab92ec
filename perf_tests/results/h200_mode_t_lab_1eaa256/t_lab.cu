// Lab: mode T (y = A^T x) with block-local aggregation in shared memory vs direct atomics vs cuSPARSE.
#include <kspmv/io.hpp>
#include "/work/main/perf_tests/matrices.hpp"
#include <cuda_runtime.h>
#include <cusparse.h>
#include <algorithm>
#include <cstdio>
#include <vector>
#define CK(x) do { auto e = (x); if (e != 0) { std::printf("error %d at %d\n", int(e), __LINE__); std::exit(1); } } while (0)

__global__ void direct_kernel(int m, const int* __restrict__ off, const int* __restrict__ col, const double* __restrict__ val,
                              const double* __restrict__ x, double* y) {
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (warp >= m) return;
  const double s = x[warp];
  for (int k = off[warp] + lane; k < off[warp + 1]; k += 32) atomicAdd(&y[col[k]], val[k] * s);
}
constexpr int CAP = 6144;
// block b: rows [b*R, min(m,(b+1)*R)); window [wlo[b], wlo[b]+wlen[b]) or wlen < 0: direct
template <int GROUP>
__global__ void __launch_bounds__(256) window_kernel(int m, int R, const int* __restrict__ off, const int* __restrict__ col,
                              const double* __restrict__ val, const double* __restrict__ x, double* y,
                              const int* __restrict__ wlo, const int* __restrict__ wlen) {
  __shared__ double acc[CAP];
  const int r0 = blockIdx.x * R, r1 = min(m, r0 + R);
  const int lo = wlo[blockIdx.x], len = wlen[blockIdx.x];
  const int g = threadIdx.x / GROUP, lane = threadIdx.x % GROUP, groups = 256 / GROUP;
  if (len < 0) {
    for (int row = r0 + g; row < r1; row += groups) {
      const double s = x[row];
      for (int k = off[row] + lane; k < off[row + 1]; k += GROUP) atomicAdd(&y[col[k]], val[k] * s);
    }
    return;
  }
  for (int i = threadIdx.x; i < len; i += 256) acc[i] = 0;
  __syncthreads();
  for (int row = r0 + g; row < r1; row += groups) {
    const double s = x[row];
    for (int k = off[row] + lane; k < off[row + 1]; k += GROUP) atomicAdd(&acc[col[k] - lo], val[k] * s);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < len; i += 256) {
    const double v = acc[i];
    if (v != 0) atomicAdd(&y[lo + i], v);
  }
}

struct Dev { int m, n; long long nnz; int *off, *col; double* val; };

template <class F> double time_it(F&& f) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int i = 0; i < 3; ++i) f();
  std::vector<float> t;
  for (int r = 0; r < 15; ++r) { cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms); }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2] * 1e3;
}

void run(const char* name, const kspmv::HostCsr& h) {
  const int m = int(h.num_rows), n = int(h.num_cols); const long long nnz = h.col_indices.size();
  std::vector<int> off(h.row_offsets.begin(), h.row_offsets.end()), col(h.col_indices.begin(), h.col_indices.end());
  Dev d{m, n, nnz};
  CK(cudaMalloc(&d.off, (m + 1) * 4)); CK(cudaMalloc(&d.col, nnz * 4)); CK(cudaMalloc(&d.val, nnz * 8));
  cudaMemcpy(d.off, off.data(), (m + 1) * 4, cudaMemcpyHostToDevice); cudaMemcpy(d.col, col.data(), nnz * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d.val, h.values.data(), nnz * 8, cudaMemcpyHostToDevice);
  std::vector<double> xh(m); for (int i = 0; i < m; ++i) xh[i] = 1.0 + (i % 7) * 0.1;
  double *x, *y, *y2; CK(cudaMalloc(&x, m * 8)); CK(cudaMalloc(&y, n * 8)); CK(cudaMalloc(&y2, n * 8));
  cudaMemcpy(x, xh.data(), m * 8, cudaMemcpyHostToDevice);
  const double bytes = nnz * 12.0 + (m + 1) * 4.0 + m * 8.0 + n * 16.0;
  // cuSPARSE
  cusparseHandle_t hd; cusparseCreate(&hd);
  cusparseSpMatDescr_t A; cusparseDnVecDescr_t X, Y;
  cusparseCreateCsr(&A, m, n, nnz, d.off, d.col, d.val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
  cusparseCreateDnVec(&X, m, x, CUDA_R_64F); cusparseCreateDnVec(&Y, n, y, CUDA_R_64F);
  double one = 1, zero = 0; size_t ws = 0; void* wsp = nullptr;
  cusparseSpMV_bufferSize(hd, CUSPARSE_OPERATION_TRANSPOSE, &one, A, X, &zero, Y, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, &ws);
  cudaMalloc(&wsp, ws + 8);
  double t_cus = time_it([&] { cusparseSpMV(hd, CUSPARSE_OPERATION_TRANSPOSE, &one, A, X, &zero, Y, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, wsp); });
  std::vector<double> ref(n, 0.0), cus(n); cudaMemcpy(cus.data(), y, n * 8, cudaMemcpyDeviceToHost);
  for (int r = 0; r < m; ++r) for (int k = off[r]; k < off[r + 1]; ++k) ref[col[k]] += h.values[k] * xh[r];
  { double e = 0, s2 = 0; for (int i = 0; i < n; ++i) { e = std::max(e, std::abs(cus[i] - ref[i])); s2 = std::max(s2, std::abs(ref[i])); } std::printf("  cusparse vs host: %.1e\n", e / s2); }
  auto check = [&](double* yy) { std::vector<double> v(n); cudaMemcpy(v.data(), yy, n * 8, cudaMemcpyDeviceToHost); double e = 0, s = 0; for (int i = 0; i < n; ++i) { e = std::max(e, std::abs(v[i] - ref[i])); s = std::max(s, std::abs(ref[i])); } return e / s; };
  double t_dir = time_it([&] { cudaMemsetAsync(y2, 0, n * 8); direct_kernel<<<(m + 7) / 8, 256>>>(m, d.off, d.col, d.val, x, y2); });
  double e_dir = check(y2);
  double t_set = time_it([&] { cudaMemsetAsync(y2, 0, n * 8); });
  std::printf("%-22s m %9d nnz %10lld  cusparse %8.1f us (%5.0f GB/s)  direct %8.1f us (err %.1e)  memset %.1f\n", name, m, nnz, t_cus, bytes / t_cus * 1e-3, t_dir, e_dir, t_set);
  const double avg = double(nnz) / m;
  for (int target : {1024, 2048, 4096}) {
    const int R = std::max(1, int(target / avg));
    const int blocks = (m + R - 1) / R;
    std::vector<int> wlo(blocks), wlen(blocks);
    int windowed = 0; long long flush = 0;
    for (int b = 0; b < blocks; ++b) {
      int lo = n, hi = -1;
      for (int r = b * R; r < std::min(m, (b + 1) * R); ++r) for (int k = off[r]; k < off[r + 1]; ++k) { lo = std::min(lo, col[k]); hi = std::max(hi, col[k]); }
      wlo[b] = hi < 0 ? 0 : lo; wlen[b] = -1;
      if (wlen[b] >= 0) { ++windowed; flush += wlen[b]; }
    }
    int *dlo, *dlen; cudaMalloc(&dlo, blocks * 4); cudaMalloc(&dlen, blocks * 4);
    cudaMemcpy(dlo, wlo.data(), blocks * 4, cudaMemcpyHostToDevice); cudaMemcpy(dlen, wlen.data(), blocks * 4, cudaMemcpyHostToDevice);
    for (int G : {2, 4, 8, 16}) {
      double t = time_it([&] {
        cudaMemsetAsync(y2, 0, n * 8);
        if (G == 2) window_kernel<2><<<blocks, 256>>>(m, R, d.off, d.col, d.val, x, y2, dlo, dlen);
        if (G == 16) window_kernel<16><<<blocks, 256>>>(m, R, d.off, d.col, d.val, x, y2, dlo, dlen);
        if (G == 4) window_kernel<4><<<blocks, 256>>>(m, R, d.off, d.col, d.val, x, y2, dlo, dlen);
        if (G == 8) window_kernel<8><<<blocks, 256>>>(m, R, d.off, d.col, d.val, x, y2, dlo, dlen);
        if (G == 32) window_kernel<32><<<blocks, 256>>>(m, R, d.off, d.col, d.val, x, y2, dlo, dlen);
      });
      std::printf("    rowblock R %5d (%4d entries) group %2d: %8.1f us (%5.0f GB/s, %.2fx cusparse) windowed blocks %d/%d, flush/nnz %.3f, err %.1e\n", R, target, G, t, bytes / t * 1e-3, t_cus / t, windowed, blocks, double(flush) / nnz, check(y2));
    }
    cudaFree(dlo); cudaFree(dlen);
  }
  cudaFree(d.off); cudaFree(d.col); cudaFree(d.val); cudaFree(x); cudaFree(y); cudaFree(y2); cudaFree(wsp);
  cusparseDestroySpMat(A); cusparseDestroyDnVec(X); cusparseDestroyDnVec(Y); cusparseDestroy(hd);
}

int main() {
  auto a = kspmv::read_matrix_market("bcsstk13.mtx");
  run("bcsstk13 x597", kspmv_bench::replicate(a, 597));
  auto b = kspmv::read_matrix_market("poly_chain.512.mtx");
  run("poly_chain x509", kspmv_bench::replicate(b, 509));
  // banded: 8M rows, half bandwidth 3
  kspmv::HostCsr c; c.num_rows = c.num_cols = 8000000; c.row_offsets.push_back(0);
  for (int64_t i = 0; i < c.num_rows; ++i) { for (int64_t j = std::max<int64_t>(0, i - 3); j <= std::min<int64_t>(c.num_rows - 1, i + 3); ++j) { c.col_indices.push_back(j); c.values.push_back(1.0 + (j % 5)); } c.row_offsets.push_back(c.col_indices.size()); }
  run("banded hb3 8M", c);
  // 27-point Poisson 160^3 (host)
  kspmv::HostCsr p; const int s = 160; p.num_rows = p.num_cols = int64_t(s) * s * s; p.row_offsets.push_back(0);
  for (int z = 0; z < s; ++z) for (int yy = 0; yy < s; ++yy) for (int xx = 0; xx < s; ++xx) {
    for (int dz = -1; dz <= 1; ++dz) for (int dy = -1; dy <= 1; ++dy) for (int dx = -1; dx <= 1; ++dx) {
      int X = xx + dx, Y = yy + dy, Z = z + dz; if (X < 0 || Y < 0 || Z < 0 || X >= s || Y >= s || Z >= s) continue;
      p.col_indices.push_back((int64_t(Z) * s + Y) * s + X); p.values.push_back(dx == 0 && dy == 0 && dz == 0 ? 26.0 : -1.0); }
    p.row_offsets.push_back(p.col_indices.size()); }
  run("poisson27_160^3", p);
  { kspmv::HostCsr q; const int s2 = 200; q.num_rows = q.num_cols = int64_t(s2) * s2 * s2; q.row_offsets.push_back(0);
  for (int z = 0; z < s2; ++z) for (int yy = 0; yy < s2; ++yy) for (int xx = 0; xx < s2; ++xx) {
    for (int dz = -1; dz <= 1; ++dz) for (int dy = -1; dy <= 1; ++dy) for (int dx = -1; dx <= 1; ++dx) {
      int X = xx + dx, Y = yy + dy, Z = z + dz; if (X < 0 || Y < 0 || Z < 0 || X >= s2 || Y >= s2 || Z >= s2) continue;
      q.col_indices.push_back((int64_t(Z) * s2 + Y) * s2 + X); q.values.push_back(dx == 0 && dy == 0 && dz == 0 ? 26.0 : -1.0); }
    q.row_offsets.push_back(q.col_indices.size()); }
  run("poisson27_200^3", q); }
}
