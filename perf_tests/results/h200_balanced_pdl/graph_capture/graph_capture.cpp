// Lab check (session 19): the plain kspmv::spmv captured into a CUDA graph on one stream, its
// raw balanced kernel launched as a programmatic dependent, replayed 3 times with beta = 0.5:
// y_3 = (1 + 0.5 + 0.25 + 0.125) A x against 1.875 times a plain call's y.
#include <kspmv/kspmv.hpp>
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <vector>

int check(const char* name, int n, int points) {
  using Device = Kokkos::Cuda::device_type;
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  int failures = 0;
  {
    Kokkos::Cuda space(stream);
    const auto A = kspmv::poisson_3d<double, int, int, Device>(n, n, n, points);
    const int64_t m = A.num_rows();
    Kokkos::View<double*, Device> x("x", m), y("y", m), y_ref("y_ref", m);
    Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::Cuda>(space, 0, m), KOKKOS_LAMBDA(int64_t i) {
      x(i) = 1.0 + double((i * 7919) % 1000) / 1000.0;
    });
    kspmv::spmv(space, 1.0, A, x, 0.0, y_ref);  // the first call: analysis, workspace
    kspmv::spmv(space, 1.0, A, x, 0.0, y_ref);
    Kokkos::deep_copy(space, y, y_ref);
    space.fence();
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaError_t e = cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
    kspmv::spmv(space, 1.0, A, x, 0.5, y);
    e = e != cudaSuccess ? e : cudaStreamEndCapture(stream, &graph);
    e = e != cudaSuccess ? e : cudaGraphInstantiate(&exec, graph, 0);
    for (int r = 0; r < 3 && e == cudaSuccess; ++r) e = cudaGraphLaunch(exec, stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
    if (e != cudaSuccess) {
      std::printf("%s: CUDA error %s\n", name, cudaGetErrorString(e));
      return 1;
    }
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y_ref);
    double worst = 0;
    for (int64_t i = 0; i < m; ++i) {
      const double expected = 1.875 * r(i);
      worst = std::max(worst, std::abs(h(i) - expected) / std::max(1.0, std::abs(expected)));
    }
    size_t nodes = 0;
    cudaGraphGetNodes(graph, nullptr, &nodes);
    std::printf("%s: %lld rows, %lld entries, automatic: %s, graph of %zu nodes, worst relative error %.3g: %s\n",
                name, (long long)m, (long long)A.nnz(), kspmv::automatic_choice(A).c_str(), nodes, worst,
                worst < 1e-12 ? "OK" : "WRONG");
    failures += worst < 1e-12 ? 0 : 1;
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
  }
  cudaStreamDestroy(stream);
  return failures;
}

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  int failures = 0;
  failures += check("poisson7 40^3 (one launch)", 40, 7);
  failures += check("poisson7 200^3 (two launches)", 200, 7);
  failures += check("poisson27 100^3 (two launches)", 100, 27);
  Kokkos::finalize();
  std::printf("graph capture: %s\n", failures == 0 ? "all OK" : "FAILED");
  return failures;
}
