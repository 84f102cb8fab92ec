// Lab: where CodedCsrMatrix's conversion spends its time (poisson 7-point, 2 values; and a
// 3-value variant), each step fenced, median of 7.
#include <kspmv/convert.hpp>
#include <kspmv/generate.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdio>
#include <vector>
using D = Kokkos::Device<Kokkos::Cuda, Kokkos::CudaSpace>;
using E = Kokkos::Cuda;
double med(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  const int n = argc > 1 ? std::atoi(argv[1]) : 200;
  auto A = kspmv::poisson_3d<double, int, int64_t, D>(n, n, n, 7);
  // three values: -1 becomes -1.5 on every third entry
  auto vals = A.values;
  Kokkos::parallel_for("v3", Kokkos::RangePolicy<E, Kokkos::IndexType<int64_t>>(0, int64_t(vals.extent(0))),
                       KOKKOS_LAMBDA(int64_t k) { if (vals(k) < 0 && k % 3 == 0) vals(k) = -1.5; });
  Kokkos::fence();
  const int64_t nnz = A.nnz();
  std::printf("n %d nnz %lld\n", n, (long long)nnz);
  using M = kspmv::CodedCsrMatrix<double, int, int64_t, D>;
  std::vector<double> total, t_state, t_sample, t_table, t_alloc, t_codes, t_wait, t_part;
  for (int r = 0; r < 7; ++r) {
    Kokkos::Timer t;
    { auto C = kspmv::convert<kspmv::CodedCsrMatrix>(A); Kokkos::fence(); total.push_back(t.seconds()); }
    using namespace kspmv::impl;
    Kokkos::fence(); t.reset();
    Kokkos::View<uint64_t*, D> keys(Kokkos::view_alloc(Kokkos::WithoutInitializing, "keys"), coded_set_slots);
    Kokkos::View<int64_t*, D> state("state", 3);
    Kokkos::fence(); t_state.push_back(t.seconds()); t.reset();
    launch_value_sample<E>(A.values, keys, state);
    double first; Kokkos::deep_copy(first, Kokkos::subview(A.values, 0));
    auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state);
    t_sample.push_back(t.seconds()); t.reset();
    auto table = coded_table<M::table_view>(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), keys), value_bits(first));
    Kokkos::fence(); t_table.push_back(t.seconds()); t.reset();
    M::code_view codes(Kokkos::view_alloc(Kokkos::WithoutInitializing, "codes"), size_t(nnz));
    Kokkos::fence(); t_alloc.push_back(t.seconds()); t.reset();
    launch_codes<E>(A.values, table, codes, keys, state, M::max_values - 1);
    Kokkos::fence(); t_codes.push_back(t.seconds()); t.reset();
    Kokkos::deep_copy(hs, state);
    t_wait.push_back(t.seconds()); t.reset();
    { auto B = balanced_from_csr(A); Kokkos::fence(); }
    t_part.push_back(t.seconds());
    if (r == 0) std::printf("table size %d, state %lld %lld %lld\n", int(table.extent(0)), (long long)hs(0), (long long)hs(1), (long long)hs(2));
  }
  {
    using namespace kspmv::impl;
    auto C = kspmv::convert<kspmv::CodedCsrMatrix>(A);
    auto table = C.table; auto codes = C.codes; const int64_t size = table.extent(0);
    std::vector<double> v0, v1, v2, v4, v5;
    for (int r = 0; r < 7; ++r) {
      Kokkos::fence(); Kokkos::Timer t;
      Kokkos::parallel_for("v0", Kokkos::RangePolicy<E, Kokkos::IndexType<int64_t>>(0, nnz), KOKKOS_LAMBDA(int64_t k) {
        codes(k) = uint8_t(value_bits(vals(k)) >> 52); });
      Kokkos::fence(); v0.push_back(t.seconds()); t.reset();
      const int64_t threads = (nnz + 2047) / 2048 * 256;
      Kokkos::parallel_for("v1", Kokkos::RangePolicy<E, Kokkos::IndexType<int64_t>>(0, threads), KOKKOS_LAMBDA(int64_t t) {
        const int64_t first = t / 256 * 2048 + t % 256;
        uint64_t b[8];
        for (int j = 0; j < 8; ++j) { const int64_t k = first + j * 256; b[j] = k < nnz ? value_bits(vals(k)) : 0; }
        for (int j = 0; j < 8; ++j) { const int64_t k = first + j * 256; if (k < nnz) codes(k) = uint8_t(b[j] >> 52); }
      });
      Kokkos::fence(); v1.push_back(t.seconds()); t.reset();
      Kokkos::parallel_for("v2", Kokkos::RangePolicy<E, Kokkos::IndexType<int64_t>>(0, threads), KOKKOS_LAMBDA(int64_t t) {
        const int64_t first = t / 256 * 2048 + t % 256;
        uint64_t b[8];
        for (int j = 0; j < 8; ++j) { const int64_t k = first + j * 256; b[j] = k < nnz ? value_bits(vals(k)) : 0; }
        for (int j = 0; j < 8; ++j) {
          const int64_t k = first + j * 256; if (k >= nnz) break;
          int lo = 0;
          for (int64_t s = 0; s < size; ++s) lo += value_bits(table(s)) < b[j];
          codes(k) = uint8_t(lo);
        }
      });
      Kokkos::fence(); v2.push_back(t.seconds()); t.reset();
      // v4: teams of 256, the table in team scratch, 8 entries a thread, binary search in scratch
      using Team = Kokkos::TeamPolicy<E>;
      using Scratch = Kokkos::View<uint64_t*, E::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
      const int teams = int((nnz + 2047) / 2048);
      Kokkos::parallel_for("v4", Team(teams, 256).set_scratch_size(0, Kokkos::PerTeam(Scratch::shmem_size(size))),
        KOKKOS_LAMBDA(const Team::member_type& team) {
          Scratch tab(team.team_scratch(0), size);
          for (int64_t s = team.team_rank(); s < size; s += team.team_size()) tab(s) = value_bits(table(s));
          team.team_barrier();
          const int64_t first = int64_t(team.league_rank()) * 2048 + team.team_rank();
          uint64_t b[8];
          for (int j = 0; j < 8; ++j) { const int64_t k = first + j * 256; b[j] = k < nnz ? value_bits(vals(k)) : 0; }
          for (int j = 0; j < 8; ++j) {
            const int64_t k = first + j * 256;
            int64_t lo = 0, hi = size;
            while (lo < hi) { const int64_t mid = (lo + hi) / 2; if (tab(mid) < b[j]) lo = mid + 1; else hi = mid; }
            if (k < nnz) codes(k) = uint8_t(lo);
          }
        });
      Kokkos::fence(); v4.push_back(t.seconds()); t.reset();
      // v5: RangePolicy, 8 a thread, no break, binary search in global memory
      Kokkos::parallel_for("v5", Kokkos::RangePolicy<E, Kokkos::IndexType<int64_t>>(0, threads), KOKKOS_LAMBDA(int64_t t) {
        const int64_t first = t / 256 * 2048 + t % 256;
        uint64_t b[8];
        for (int j = 0; j < 8; ++j) { const int64_t k = first + j * 256; b[j] = k < nnz ? value_bits(vals(k)) : 0; }
        uint8_t c[8];
        for (int j = 0; j < 8; ++j) {
          int64_t lo = 0, hi = size;
          while (lo < hi) { const int64_t mid = (lo + hi) / 2; if (value_bits(table(mid)) < b[j]) lo = mid + 1; else hi = mid; }
          c[j] = uint8_t(lo);
        }
        for (int j = 0; j < 8; ++j) { const int64_t k = first + j * 256; if (k < nnz) codes(k) = c[j]; }
      });
      Kokkos::fence(); v5.push_back(t.seconds());
    }
    std::printf("lab us: v0 stream 1/thread %.1f, v1 stream 8/thread %.1f, v2 count search 8/thread %.1f, v4 team scratch %.1f, v5 searches before stores %.1f\n", 1e6 * med(v0), 1e6 * med(v1), 1e6 * med(v2), 1e6 * med(v4), 1e6 * med(v5));
  }
  std::printf("us (median of 7): total %.1f | state alloc %.1f sample+wait %.1f table %.1f codes alloc %.1f codes %.1f state copy %.1f partition %.1f\n",
              1e6 * med(total), 1e6 * med(t_state), 1e6 * med(t_sample), 1e6 * med(t_table), 1e6 * med(t_alloc),
              1e6 * med(t_codes), 1e6 * med(t_wait), 1e6 * med(t_part));
  std::printf("codes pass bytes %.1f MB -> %.0f GB/s\n", nnz * 9e-6, nnz * 9.0 / med(t_codes) * 1e-9);
}
