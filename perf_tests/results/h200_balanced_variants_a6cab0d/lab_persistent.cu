// Lab 6 (issue 15): the raw load-balanced CSR kernel against a persistent, pipelined variant
// whose blocks of 2048 entries (values and column indices) arrive in shared memory by bulk
// copies (cp.async.bulk, Hopper's TMA, 1-D), several in flight a CTA, while the CTA sums the
// previous one. Same partition, same summing order: results must match bit for bit.
// Build: nvcc -O3 -arch=sm_90 -std=c++17 -I/work/main/src/raw lab6.cu -o lab6
// Run:   lab6 [--min-nnz N] [--repeat R] file.mtx ...   (files may be gzip'ed: read through zcat)
#include "kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace kspmv::impl::raw;

#define CK(x)                                                                                   \
  do {                                                                                          \
    cudaError_t e_ = (x);                                                                       \
    if (e_ != cudaSuccess) {                                                                    \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));        \
      exit(1);                                                                                  \
    }                                                                                           \
  } while (0)

// ---- PTX helpers ---------------------------------------------------------------------------
__device__ __forceinline__ unsigned smem_addr(const void* p) { return unsigned(__cvta_generic_to_shared(p)); }
__device__ __forceinline__ void mbar_init(uint64_t* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void fence_mbar_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
__device__ __forceinline__ void mbar_expect_tx(uint64_t* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void bulk_load(void* dst, const void* src, unsigned bytes, uint64_t* bar, uint64_t policy) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;" ::"r"(
          smem_addr(dst)),
      "l"(src), "r"(bytes), "r"(smem_addr(bar)), "l"(policy)
      : "memory");
}
__device__ __forceinline__ uint64_t evict_first_policy() {
  uint64_t p;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
  return p;
}
__device__ __forceinline__ void mbar_wait(uint64_t* bar, unsigned parity) {
  unsigned done = 0;
  while (!done) {
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(smem_addr(bar)), "r"(parity)
        : "memory");
  }
}

// ---- the experimental kernel: the library's, with paired loads and/or persistent blocks ------
constexpr int kEntries = 2048;
constexpr int kThreads = 256;
constexpr int kItems = kEntries / kThreads;

template <bool Paired, bool Persistent, class O, class Off>
__global__ void __launch_bounds__(kThreads, Persistent ? 8 : 0)
    exp_balanced_kernel(int64_t nnz, int64_t num_blocks, const O* __restrict__ first_row, const Off* __restrict__ offsets,
                        const O* __restrict__ cols, const double* __restrict__ vals, const double* __restrict__ x,
                        double* __restrict__ y, double* head_sum, double* tail_sum, int* arrivals, double alpha,
                        double beta) {
  using S = double;
  constexpr bool BetaIsZero = true;
  __shared__ __align__(16) S products[kEntries];
  __shared__ int long_rows[kEntries / 32 + 2];
  __shared__ int long_count;
  __shared__ int64_t last_arrival[2];
  __shared__ Off row_offsets[kThreads + 1];
  const int tid = int(threadIdx.x);
  int64_t b = blockIdx.x;
  int64_t r0 = 0, r1 = 0;
  if (b < num_blocks) { r0 = int64_t(first_row[b]); r1 = int64_t(first_row[b + 1]); }
  for (; b < num_blocks; b += Persistent ? gridDim.x : num_blocks) {
    const int64_t k0 = b * kEntries;
    const int n = int(k0 + kEntries < nnz ? kEntries : nnz - k0);
    if (tid == 0) long_count = 0;
    const int64_t staged_rows = r1 - r0 < kThreads ? r1 - r0 : kThreads;
    if (tid <= staged_rows) row_offsets[tid] = offsets[r0 + tid];
    if (tid == 0 && staged_rows == kThreads) row_offsets[kThreads] = offsets[r0 + kThreads];
    if (n == kEntries) {
      if (Paired) {
        using O2 = typename std::conditional<sizeof(O) == 4, int2, longlong2>::type;
        const double2* v2 = reinterpret_cast<const double2*>(vals + k0) + tid;
        const O2* c2 = reinterpret_cast<const O2*>(cols + k0) + tid;
        O2 c[kItems / 2];
        double2 v[kItems / 2];
#pragma unroll
        for (int i = 0; i < kItems / 2; ++i) {
          c[i] = __ldcs(c2 + i * kThreads);
          v[i] = __ldcs(v2 + i * kThreads);
        }
#pragma unroll
        for (int i = 0; i < kItems / 2; ++i) {
          double2 p;
          p.x = v[i].x * x[c[i].x];
          p.y = v[i].y * x[c[i].y];
          reinterpret_cast<double2*>(products)[tid + i * kThreads] = p;
        }
      } else {
        O c[kItems];
        S v[kItems];
#pragma unroll
        for (int i = 0; i < kItems; ++i) {
          c[i] = stream_load(cols + k0 + tid + i * kThreads);
          v[i] = stream_load(vals + k0 + tid + i * kThreads);
        }
#pragma unroll
        for (int i = 0; i < kItems; ++i) products[tid + i * kThreads] = v[i] * x[c[i]];
      }
    } else {
      for (int i = 0; i < kItems; ++i) {
        const int k = i * kThreads + tid;
        if (k < n) products[k] = stream_load(vals + k0 + k) * x[stream_load(cols + k0 + k)];
      }
    }
    // The next block's rows, loaded while this one sums.
    const int64_t next = b + gridDim.x;
    int64_t nr0 = 0, nr1 = 0;
    if (Persistent && next < num_blocks) { nr0 = int64_t(first_row[next]); nr1 = int64_t(first_row[next + 1]); }
    __syncthreads();
    // From here as csr_balanced_kernel (kernels.hpp), BlockSize 256, SinglePass.
    auto local = [&](Off offset) { return int64_t(offset) - k0 < n ? int(int64_t(offset) - k0) : n; };
    const int head_end = r0 < r1 ? local(row_offsets[0]) : n;
    if (tid == 0 && head_end > 0) long_rows[atomicAdd(&long_count, 1)] = -1;
    const int64_t rows = r1 - r0;
    const int body = n - head_end;
    int shift = 0;
    while ((2 << shift) <= 32 && rows > 0 && (int64_t(2) << shift) * rows <= body &&
           (int64_t(2) << shift) * rows <= kThreads)
      ++shift;
    const int group = 1 << shift;
    const int long_segment = kLongSegmentSteps * group;
    const int groups = kThreads >> shift, lane = tid & (group - 1);
    for (int64_t first = 0; first < rows; first += groups) {
      const int64_t i = first + (tid >> shift), row = r0 + i;
      S sum = 0;
      bool done = false;
      if (row < r1) {
        const int begin = int(int64_t(i < kThreads ? row_offsets[i] : offsets[row]) - k0);
        const Off row_end = i < kThreads ? row_offsets[i + 1] : offsets[row + 1];
        const int end = local(row_end);
        if (end - begin > long_segment || int64_t(row_end) - k0 > n) {
          if (lane == 0) long_rows[atomicAdd(&long_count, 1)] = int(row - r0);
        } else {
          for (int k = begin + lane; k < end; k += group) sum += products[k];
          done = true;
        }
      }
      sum = group_sum(sum, group);
      if (done && lane == 0) y[row] = finish(sum, alpha, beta, y + row, BetaIsZero);
    }
    __syncthreads();
    const int wave = tid / 32, wave_lane = tid % 32;
    for (int i = wave; i < long_count; i += kThreads / 32) {
      const int entry = long_rows[i];
      const int64_t row = r0 + entry;
      const int64_t row_end = entry < 0 ? k0 + head_end : int64_t(offsets[row + 1]);
      const int begin = entry < 0 ? 0 : int(int64_t(offsets[row]) - k0);
      const int end = row_end - k0 < n ? int(row_end - k0) : n;
      S sum = 0;
      for (int k = begin + wave_lane; k < end; k += 32) sum += products[k];
      sum = group_sum<32>(sum);
      if (wave_lane != 0) continue;
      if (entry < 0 || row_end - k0 > n) {
        (entry < 0 ? head_sum : tail_sum)[b] = sum;
        __threadfence();
      } else {
        y[row] = finish(sum, alpha, beta, y + row, BetaIsZero);
      }
    }
    __syncthreads();
    if (tid == 0) {
      last_arrival[0] = last_arrival[1] = -1;
      if (head_end > 0) {
        const int64_t row = r0 - 1;
        const int64_t owner = int64_t(offsets[row]) / kEntries;
        const int64_t blocks = (int64_t(offsets[row + 1]) - 1) / kEntries - owner + 1;
        if (atomicAdd(arrivals + owner, 1) == blocks - 1) last_arrival[0] = owner;
      }
      if (r0 < r1 && int64_t(offsets[r1]) - k0 > n) {
        const int64_t blocks = (int64_t(offsets[r1]) - 1) / kEntries - b + 1;
        if (atomicAdd(arrivals + b, 1) == blocks - 1) last_arrival[1] = b;
      }
    }
    __syncthreads();
    if (wave < 2 && last_arrival[wave] >= 0) {
      __threadfence();
      const int64_t owner = last_arrival[wave];
      const int64_t row = int64_t(first_row[owner + 1]) - 1;
      const int64_t last_block = (int64_t(offsets[row + 1]) - 1) / kEntries;
      const volatile S* heads = head_sum;
      S sum = 0;
      for (int64_t d = owner + 1 + wave_lane; d <= last_block; d += 32) sum += heads[d];
      sum = group_sum<32>(sum);
      if (wave_lane == 0) {
        arrivals[owner] = 0;
        y[row] = finish(static_cast<const volatile S*>(tail_sum)[owner] + sum, alpha, beta, y + row, BetaIsZero);
      }
    }
    __syncthreads();
    r0 = nr0;
    r1 = nr1;
  }
}

// ---- host ------------------------------------------------------------------------------------
struct Csr {
  int64_t m = 0, n = 0;
  std::vector<int> off, col;
  std::vector<double> val;
};

static Csr read_mtx(const std::string& path) {
  std::string cmd = "zcat -f '" + path + "'";
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) { perror("popen"); exit(1); }
  char line[4096];
  if (!fgets(line, sizeof line, f)) { fprintf(stderr, "%s: empty\n", path.c_str()); exit(1); }
  std::string header(line);
  for (auto& ch : header) ch = char(tolower(ch));
  const bool pattern = header.find("pattern") != std::string::npos;
  const bool symmetric = header.find("symmetric") != std::string::npos || header.find("hermitian") != std::string::npos;
  const bool skew = header.find("skew") != std::string::npos;
  const bool complex = header.find("complex") != std::string::npos;
  while (fgets(line, sizeof line, f) && line[0] == '%') {}
  long long m, n, e;
  sscanf(line, "%lld %lld %lld", &m, &n, &e);
  std::vector<std::pair<int, int>> ij;
  std::vector<double> v;
  ij.reserve(e * (symmetric ? 2 : 1));
  for (long long t = 0; t < e; ++t) {
    if (!fgets(line, sizeof line, f)) break;
    long long i, j;
    double a = 1, b = 0;
    if (pattern) sscanf(line, "%lld %lld", &i, &j);
    else if (complex) sscanf(line, "%lld %lld %lf %lf", &i, &j, &a, &b);
    else sscanf(line, "%lld %lld %lf", &i, &j, &a);
    ij.push_back({int(i - 1), int(j - 1)});
    v.push_back(a);
    if (symmetric && i != j) {
      ij.push_back({int(j - 1), int(i - 1)});
      v.push_back(skew ? -a : a);
    }
  }
  pclose(f);
  Csr A;
  A.m = m;
  A.n = n;
  A.off.assign(m + 1, 0);
  for (auto& p : ij) A.off[p.first + 1]++;
  for (int64_t r = 0; r < m; ++r) A.off[r + 1] += A.off[r];
  A.col.resize(ij.size());
  A.val.resize(ij.size());
  std::vector<int> pos(A.off.begin(), A.off.end() - 1);
  for (size_t t = 0; t < ij.size(); ++t) {
    int p = pos[ij[t].first]++;
    A.col[p] = ij[t].second;
    A.val[p] = v[t];
  }
  for (int64_t r = 0; r < m; ++r) {  // sort each row by column
    std::vector<std::pair<int, double>> row;
    for (int p = A.off[r]; p < A.off[r + 1]; ++p) row.push_back({A.col[p], A.val[p]});
    std::sort(row.begin(), row.end(), [](auto& a, auto& b) { return a.first < b.first; });
    for (int p = A.off[r]; p < A.off[r + 1]; ++p) { A.col[p] = row[p - A.off[r]].first; A.val[p] = row[p - A.off[r]].second; }
  }
  return A;
}

static Csr replicate(const Csr& A, int64_t copies) {
  Csr R;
  R.m = A.m * copies;
  R.n = A.n * copies;
  const int64_t nnz = A.off[A.m];
  R.off.resize(R.m + 1);
  R.col.resize(nnz * copies);
  R.val.resize(nnz * copies);
  for (int64_t c = 0; c < copies; ++c) {
    for (int64_t r = 0; r < A.m; ++r) R.off[c * A.m + r] = int(c * nnz + A.off[r]);
    for (int64_t p = 0; p < nnz; ++p) {
      R.col[c * nnz + p] = int(c * A.n + A.col[p]);
      R.val[c * nnz + p] = A.val[p];
    }
  }
  R.off[R.m] = int(nnz * copies);
  return R;
}

struct Variant {
  std::string name;
  int kind = 0;  // 0: the library's kernel; 1 paired; 2 persistent; 3 both
};

template <bool Paired, bool Persistent>
static void launch_exp(int sms, int64_t nnz, int64_t blocks, const int* first_row, const int* off, const int* col,
                       const double* val, const double* x, double* y, double* head, double* tail, int* arrivals) {
  const int64_t grid = Persistent ? std::min<int64_t>(blocks, int64_t(sms) * 8) : blocks;
  exp_balanced_kernel<Paired, Persistent, int, int><<<unsigned(grid), kThreads>>>(nnz, blocks, first_row, off, col, val,
                                                                                   x, y, head, tail, arrivals, 1.0, 0.0);
}

int main(int argc, char** argv) {
  int64_t min_nnz = 50000000;
  int repeat = 15;
  int only = -1;
  std::vector<std::string> files;
  for (int a = 1; a < argc; ++a) {
    if (!strcmp(argv[a], "--min-nnz")) min_nnz = atoll(argv[++a]);
    else if (!strcmp(argv[a], "--repeat")) repeat = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--only")) only = atoi(argv[++a]);
    else files.push_back(argv[a]);
  }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  // Copy bandwidth: 4 GB device to device, median of 9.
  double copy_bw = 0;
  {
    const size_t bytes = size_t(2) << 30;
    void *a, *b;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&b, bytes));
    CK(cudaMemset(a, 1, bytes));
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    std::vector<float> t;
    for (int r = 0; r < 9; ++r) {
      cudaEventRecord(e0);
      CK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice));
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    copy_bw = 2.0 * bytes / (t[4] * 1e-3) / 1e9;
    cudaFree(a);
    cudaFree(b);
  }
  printf("device %s, %d SMs, copy bandwidth %.0f GB/s\n", prop.name, sms, copy_bw);
  std::vector<Variant> all_variants = {{"library", 0}, {"paired", 1}, {"persist", 2}, {"pair+per", 3}};
  std::vector<Variant> variants;
  for (auto& v : all_variants)
    if (only < 0 || v.kind == only) variants.push_back(v);
  printf("%-28s %10s %8s", "matrix", "nnz", "rows");
  for (auto& v : variants) printf(" %9s", v.name.c_str());
  printf("   (%% of copy bw by CSR bytes; best marked)\n");
  std::vector<std::vector<double>> all_fracs(variants.size());
  for (auto& path : files) {
    Csr A0 = read_mtx(path);
    const int64_t nnz0 = A0.off[A0.m];
    if (nnz0 == 0) continue;
    const int64_t copies = std::max<int64_t>(1, (min_nnz + nnz0 - 1) / nnz0);
    Csr A = copies > 1 ? replicate(A0, copies) : A0;
    A0 = Csr();
    const int64_t nnz = A.off[A.m];
    const int64_t blocks = (nnz + kEntries - 1) / kEntries;
    int *d_off, *d_col, *d_first, *d_arr;
    double *d_val, *d_x, *d_y, *d_yref, *d_part;
    CK(cudaMalloc(&d_off, (A.m + 1) * 4));
    CK(cudaMalloc(&d_col, nnz * 4));
    CK(cudaMalloc(&d_val, nnz * 8));
    CK(cudaMalloc(&d_x, A.n * 8));
    CK(cudaMalloc(&d_y, A.m * 8));
    CK(cudaMalloc(&d_yref, A.m * 8));
    CK(cudaMalloc(&d_first, (blocks + 1) * 4));
    CK(cudaMalloc(&d_arr, blocks * 4));
    CK(cudaMalloc(&d_part, 2 * blocks * 8));
    CK(cudaMemcpy(d_off, A.off.data(), (A.m + 1) * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_col, A.col.data(), nnz * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_val, A.val.data(), nnz * 8, cudaMemcpyHostToDevice));
    std::vector<double> hx(A.n);
    std::mt19937_64 rng(7);
    for (auto& v : hx) v = std::uniform_real_distribution<double>(-1, 1)(rng);
    CK(cudaMemcpy(d_x, hx.data(), A.n * 8, cudaMemcpyHostToDevice));
    launch_balanced_partition<int, int>(nullptr, A.m, d_off, kEntries, blocks, d_first, d_arr);
    CK(cudaDeviceSynchronize());
    const bool single_pass = blocks <= 4096;
    auto run = [&](const Variant& v, double* y) {
      if (v.kind == 0) {
        launch_csr_balanced<32, double, int, int, CsrColumns<int>>(nullptr, single_pass, 256, nnz, kEntries, blocks,
                                                                   d_first, d_off, CsrColumns<int>{d_col}, d_val, d_x,
                                                                   y, d_part, d_part + blocks, d_arr, 1.0, 0.0);
        return;
      }
      switch (v.kind) {
        case 1: launch_exp<true, false>(sms, nnz, blocks, d_first, d_off, d_col, d_val, d_x, y, d_part, d_part + blocks, d_arr); break;
        case 2: launch_exp<false, true>(sms, nnz, blocks, d_first, d_off, d_col, d_val, d_x, y, d_part, d_part + blocks, d_arr); break;
        case 3: launch_exp<true, true>(sms, nnz, blocks, d_first, d_off, d_col, d_val, d_x, y, d_part, d_part + blocks, d_arr); break;
      }
      CK(cudaGetLastError());
    };
    // Reference: the library kernel; every variant checked bit for bit against it.
    run(variants[0], d_yref);
    CK(cudaDeviceSynchronize());
    std::vector<double> ref(A.m), got(A.m);
    CK(cudaMemcpy(ref.data(), d_yref, A.m * 8, cudaMemcpyDeviceToHost));
    std::vector<bool> ok(variants.size(), true);
    for (size_t v = 1; v < variants.size(); ++v) {
      CK(cudaMemset(d_y, 0xff, A.m * 8));
      run(variants[v], d_y);
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(got.data(), d_y, A.m * 8, cudaMemcpyDeviceToHost));
      ok[v] = memcmp(got.data(), ref.data(), A.m * 8) == 0;
    }
    // Timing: batches of calls lasting ~2 ms, the variants in turn, median of `repeat` rounds.
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    auto time_batch = [&](const Variant& v, int calls) {
      run(v, d_y);
      cudaEventRecord(e0);
      for (int c = 0; c < calls; ++c) run(v, d_y);
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      return double(ms) * 1e3 / calls;  // us
    };
    const double once = time_batch(variants[0], 3);
    const int calls = std::max(1, int(2000.0 / once));
    std::vector<std::vector<double>> times(variants.size());
    for (int r = 0; r < repeat; ++r)
      for (size_t v = 0; v < variants.size(); ++v) times[v].push_back(time_batch(variants[v], calls));
    const double bytes = double(nnz) * 12 + double(A.m + 1) * 4 + double(A.n) * 8 + double(A.m) * 8;
    std::string name = path.substr(path.find_last_of('/') + 1);
    name = name.substr(0, name.find('.'));
    char label[64];
    snprintf(label, sizeof label, "%s x%lld", name.c_str(), (long long)copies);
    printf("%-28s %10lld %8lld", label, (long long)nnz, (long long)A.m);
    std::vector<double> med(variants.size());
    size_t best = 0;
    for (size_t v = 0; v < variants.size(); ++v) {
      std::sort(times[v].begin(), times[v].end());
      med[v] = times[v][times[v].size() / 2];
      if (med[v] < med[best]) best = v;
    }
    for (size_t v = 0; v < variants.size(); ++v) {
      const double frac = bytes / (med[v] * 1e-6) / 1e9 / copy_bw;
      all_fracs[v].push_back(frac);
      printf(" %7.1f%s%s", 100 * frac, v == best ? "*" : " ", ok[v] ? " " : "!");
    }
    printf("  library %.1f us\n", med[0]);
    fflush(stdout);
    cudaFree(d_off); cudaFree(d_col); cudaFree(d_val); cudaFree(d_x); cudaFree(d_y); cudaFree(d_yref);
    cudaFree(d_first); cudaFree(d_arr); cudaFree(d_part);
  }
  printf("%-48s", "geometric mean");
  for (auto& f : all_fracs) {
    double s = 0;
    for (double v : f) s += std::log(v);
    printf(" %7.1f  ", f.empty() ? 0 : 100 * std::exp(s / f.size()));
  }
  printf("\n%-48s", "at >= 90%");
  for (auto& f : all_fracs) printf(" %7d  ", int(std::count_if(f.begin(), f.end(), [](double v) { return v >= 0.9; })));
  printf("\n('!' marks a result that differs from the library kernel's bits)\n");
  return 0;
}
