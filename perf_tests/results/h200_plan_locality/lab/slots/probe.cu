// LAB probe: which multiprocessor runs each block of a 1D grid, to see whether blocks
// dispatched `slots` apart share one (the premise of slot-major tiles).
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
__global__ void probe(int* sm, long long* start, int spin) {
  __shared__ float pad[6000];
  unsigned id; asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  long long t0 = clock64();
  if (threadIdx.x == 0) { sm[blockIdx.x] = id; start[blockIdx.x] = t0; }
  float a = threadIdx.x;
  // uneven durations: +-25%
  int n = spin + (blockIdx.x * 2654435761u >> 20) % (spin / 2) - spin / 4;
  for (int i = 0; i < n; ++i) { a = a * 1.0001f + 0.5f; pad[threadIdx.x % 6000] = a; }
  if (a == 12345.f) sm[0] = -1;
}
int main() {
  int dev = 0, sms = 0; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  for (int spin : {2000, 20000}) {
    const int blocks = sms * 8 * 20;
    int* sm; long long* st; cudaMalloc(&sm, blocks * 4); cudaMalloc(&st, blocks * 8);
    probe<<<blocks, 256>>>(sm, st, spin); cudaDeviceSynchronize();
    std::vector<int> h(blocks); cudaMemcpy(h.data(), sm, blocks * 4, cudaMemcpyDeviceToHost);
    int same = 0, first_same = 0;
    for (int i = 0; i + sms < blocks; ++i) same += h[i] == h[i + sms];
    for (int i = 0; i < sms * 8 - sms; ++i) first_same += h[i] == h[i + sms];
    // distinct SMs among the first sms blocks
    std::vector<int> seen(1024, 0); int distinct = 0;
    for (int i = 0; i < sms; ++i) distinct += !seen[h[i]]++;
    printf("spin %d: %d SMs, %d blocks; block i and i+%d on one SM: %.3f overall, %.3f in the first wave; distinct SMs among the first %d: %d\n",
           spin, sms, blocks, sms, double(same) / (blocks - sms), double(first_same) / (sms * 7), sms, distinct);
    printf("first 40 smids:"); for (int i = 0; i < 40; ++i) printf(" %d", h[i]); printf("\n");
    cudaFree(sm); cudaFree(st);
  }
}
