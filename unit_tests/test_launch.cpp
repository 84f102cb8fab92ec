// The launch heuristics of impl/launch.hpp, which the kernels obey without deciding anything.
#include <kspmv/impl/launch.hpp>

#include "backends.hpp"

#include <vector>

namespace kspmv_test {
namespace {

TEST(Launch, LanesAreLargestPowerOfTwoBelowAverageCappedAtWarp) {
  using kspmv::impl::lanes_for_average_row_length;
  EXPECT_EQ(lanes_for_average_row_length(0.0, 32), 1);
  EXPECT_EQ(lanes_for_average_row_length(1.9, 32), 1);
  EXPECT_EQ(lanes_for_average_row_length(2.0, 32), 2);
  EXPECT_EQ(lanes_for_average_row_length(7.0, 32), 4);
  EXPECT_EQ(lanes_for_average_row_length(27.0, 32), 16);
  EXPECT_EQ(lanes_for_average_row_length(1000.0, 32), 32);
  EXPECT_EQ(lanes_for_average_row_length(1000.0, 64), 64);
  EXPECT_EQ(lanes_for_average_row_length(1000.0, 1), 1);
}

TEST(Launch, RawVectorLanesAreAThirdOfTheAverageRowClampedToFourAndTheWave) {
  using kspmv::impl::raw_vector_lanes;
  EXPECT_EQ(raw_vector_lanes(0.0, 32), 4);
  EXPECT_EQ(raw_vector_lanes(5.0, 32), 4);
  EXPECT_EQ(raw_vector_lanes(13.2, 32), 4);   // cage10
  EXPECT_EQ(raw_vector_lanes(24.0, 32), 8);
  EXPECT_EQ(raw_vector_lanes(41.9, 32), 8);   // bcsstk13
  EXPECT_EQ(raw_vector_lanes(48.0, 32), 16);
  EXPECT_EQ(raw_vector_lanes(100.6, 32), 32);  // mbeacxc
  EXPECT_EQ(raw_vector_lanes(1000.0, 32), 32);
  EXPECT_EQ(raw_vector_lanes(1000.0, 64), 64);
}

// Several vectors: 4 or 8 sums a lane; lanes a quarter of the average row; entries split
// evenly where the longest row at that width outlasts an average thread's share.
TEST(Launch, MultivectorPassesLanesAndKernel) {
  using kspmv::impl::MultivectorKernel;
  EXPECT_EQ(kspmv::impl::multivector_columns_per_pass(2), 4);
  EXPECT_EQ(kspmv::impl::multivector_columns_per_pass(4), 4);
  EXPECT_EQ(kspmv::impl::multivector_columns_per_pass(5), 8);
  EXPECT_EQ(kspmv::impl::multivector_columns_per_pass(16), 8);
  EXPECT_EQ(kspmv::impl::raw_multivector_lanes(7.0, 32), 1);
  EXPECT_EQ(kspmv::impl::raw_multivector_lanes(27.0, 32), 4);
  EXPECT_EQ(kspmv::impl::raw_multivector_lanes(1000.0, 32), 32);
  // From 4 vectors on: rows of 4 to 7 entries 2 lanes
  EXPECT_EQ(kspmv::impl::raw_multivector_lanes(7.0, 32, 4), 2);
  EXPECT_EQ(kspmv::impl::raw_multivector_lanes(4.0, 32, 4), 2);
  EXPECT_EQ(kspmv::impl::raw_multivector_lanes(3.9, 32, 4), 1);
  EXPECT_EQ(kspmv::impl::raw_multivector_lanes(7.0, 64, 8), 2);
  EXPECT_EQ(kspmv::impl::raw_multivector_lanes(4.8, 32, 16), 2);
  EXPECT_EQ(kspmv::impl::raw_multivector_lanes(3.9, 32, 8), 1);
  EXPECT_EQ(kspmv::impl::raw_multivector_lanes(7.0, 32, 3), 1);
  EXPECT_EQ(kspmv::impl::raw_multivector_lanes(13.0, 32, 4), 2);
  EXPECT_EQ(kspmv::impl::raw_multivector_lanes(27.0, 32, 4), 4);
  // 27-point Poisson, 8M rows on 270,000 threads: 800 entries a thread, the longest row 7 steps.
  EXPECT_EQ(kspmv::impl::multivector_kernel(8000000, 216000000, 27, 32, 270000, 0.1, false), MultivectorKernel::lanes);
  EXPECT_EQ(kspmv::impl::multivector_kernel(8000000, 216000000, 27, 32, 270000, 1.0, false), MultivectorKernel::lanes);
  // Rows of 8 with one of 4 million entries: 2 lanes take 2 million steps. The balanced kernel
  // where neighbouring rows share lines of x or scattered gathers stay within a small reach, the
  // split entries on a row-major X elsewhere.
  EXPECT_EQ(kspmv::impl::multivector_kernel(8000000, 68000000, 4000000, 32, 270000, 0.64, false), MultivectorKernel::balanced);
  EXPECT_EQ(kspmv::impl::multivector_kernel(8000000, 68000000, 4000000, 32, 270000, 0.75, false), MultivectorKernel::balanced);
  EXPECT_EQ(kspmv::impl::multivector_kernel(8000000, 68000000, 4000000, 32, 270000, 0.76, false), MultivectorKernel::entries);
  EXPECT_EQ(kspmv::impl::multivector_kernel(8000000, 68000000, 4000000, 32, 270000, 0.9, true), MultivectorKernel::balanced);
  using kspmv::impl::scattered_gathers_stay_in_cache;
  EXPECT_TRUE(scattered_gathers_stay_in_cache(0.87, 74e3, 16, 50e6));     // lp_dfl001 replicated
  EXPECT_TRUE(scattered_gathers_stay_in_cache(0.87, 74e3, 4, 50e6, false));
  EXPECT_TRUE(scattered_gathers_stay_in_cache(0.87, 74e3, 8, 50e6, true));
  EXPECT_FALSE(scattered_gathers_stay_in_cache(0.9, 122e3, 4, 50e6, true));  // fit2d, row-major X at 4
  EXPECT_FALSE(scattered_gathers_stay_in_cache(1.0, 5.9e6, 2, 50e6));     // heavy_rows: 12 MB
  EXPECT_FALSE(scattered_gathers_stay_in_cache(0.64, 30e3, 8, 50e6));     // not scattered
  EXPECT_FALSE(scattered_gathers_stay_in_cache(0.9, 74e3, 8, 0.0));       // the cache unknown
}

// Gathers scattered (more than 0.75 lines an entry) over more of X than the L2 holds wait on
// memory: rows of 16 random columns of 16 million reach about 100 MB of x a vector; a replicated
// graph's windows a replica's 185 KB. Unknown cache size: no.
TEST(Launch, GathersMissCacheAndTheirLanes) {
  using kspmv::impl::gathers_miss_cache;
  EXPECT_TRUE(gathers_miss_cache(1.0, 100e6, 4, 50e6));
  EXPECT_TRUE(gathers_miss_cache(1.0, 100e6, 1, 50e6));
  EXPECT_TRUE(gathers_miss_cache(1.0, 13e6, 4, 50e6));
  EXPECT_FALSE(gathers_miss_cache(1.0, 12e6, 4, 50e6));
  EXPECT_FALSE(gathers_miss_cache(1.0, 185e3, 8, 50e6));
  EXPECT_FALSE(gathers_miss_cache(0.75, 100e6, 4, 50e6));
  EXPECT_FALSE(gathers_miss_cache(1.0, 100e6, 4, 0.0));
  // Then at most 2 entries a lane: 8 lanes for uniform random's 15.997 entries (2 without).
  EXPECT_EQ(kspmv::impl::raw_multivector_lanes(15.997, 32, 4, true), 8);
  EXPECT_EQ(kspmv::impl::raw_multivector_lanes(15.997, 32, 4, false), 2);
  EXPECT_EQ(kspmv::impl::raw_multivector_lanes(15.997, 32, 2, true), 8);
  EXPECT_EQ(kspmv::impl::raw_multivector_lanes(200.0, 32, 4, true), 32);
  EXPECT_EQ(kspmv::impl::raw_multivector_lanes(200.0, 16, 4, true), 16);
  EXPECT_EQ(kspmv::impl::raw_multivector_lanes(16.0, 32, 4, true), 8);
  EXPECT_EQ(kspmv::impl::raw_multivector_lanes(17.0, 32, 4, true), 16);
  EXPECT_EQ(kspmv::impl::raw_multivector_lanes(3.0, 32, 4, true), 2);
  EXPECT_EQ(kspmv::impl::raw_multivector_lanes(2.0, 32, 4, true), 1);
}

// On a row-major X from 5 vectors on, the lanes over the vectors: the row lanes for the lanes
// kernel (the chunks where row lengths vary more than their mean and Y is row-major too), the
// chunks for the balanced one; the split entries stay; 4 vectors or fewer unchanged.
TEST(Launch, RowMajorMultivectorKernel) {
  using kspmv::impl::MultivectorKernel;
  using kspmv::impl::row_major_multivector_kernel;
  EXPECT_EQ(row_major_multivector_kernel(MultivectorKernel::lanes, 4), MultivectorKernel::lanes);
  EXPECT_EQ(row_major_multivector_kernel(MultivectorKernel::balanced, 4), MultivectorKernel::balanced);
  EXPECT_EQ(row_major_multivector_kernel(MultivectorKernel::lanes, 5), MultivectorKernel::row_lanes);
  EXPECT_EQ(row_major_multivector_kernel(MultivectorKernel::balanced, 5), MultivectorKernel::chunks);
  EXPECT_EQ(row_major_multivector_kernel(MultivectorKernel::entries, 16), MultivectorKernel::entries);
  EXPECT_EQ(row_major_multivector_kernel(MultivectorKernel::lanes, 100), MultivectorKernel::row_lanes);
  EXPECT_EQ(row_major_multivector_kernel(MultivectorKernel::lanes, 8, 1.2, true), MultivectorKernel::chunks);
  EXPECT_EQ(row_major_multivector_kernel(MultivectorKernel::lanes, 8, 1.2, false), MultivectorKernel::row_lanes);
  EXPECT_EQ(row_major_multivector_kernel(MultivectorKernel::lanes, 8, 1.0, true), MultivectorKernel::row_lanes);
  EXPECT_EQ(row_major_multivector_kernel(MultivectorKernel::lanes, 4, 3.0, true), MultivectorKernel::lanes);
  EXPECT_EQ(row_major_multivector_kernel(MultivectorKernel::balanced, 8, 0.1, false), MultivectorKernel::chunks);
  // A run of rows too long for one balanced block: no chunks (one group would walk the run)
  EXPECT_EQ(row_major_multivector_kernel(MultivectorKernel::lanes, 8, 1.2, true, 32768), MultivectorKernel::row_lanes);
  EXPECT_EQ(row_major_multivector_kernel(MultivectorKernel::balanced, 8, 0.1, false, 32768),
            MultivectorKernel::balanced);
  EXPECT_EQ(row_major_multivector_kernel(MultivectorKernel::entries, 8, 1.2, true, 32768), MultivectorKernel::entries);
}

// The ways the plain call times on A's first call (launch.hpp: multivector_ways): column-major X
// and Y, as they are, staged row-major, and the balanced kernel where the rules chose another and
// the gathers do not miss the cache; a row-major X, the chunks where the rules chose another;
// nothing to time elsewhere.
TEST(Launch, MultivectorWays) {
  using kspmv::impl::MultivectorKernel;
  using kspmv::impl::MultivectorWay;
  using kspmv::impl::multivector_ways;
  using Ways = std::vector<MultivectorWay>;
  const MultivectorWay as_is = MultivectorWay::as_is, staged = MultivectorWay::staged,
                       balanced = MultivectorWay::balanced, chunks = MultivectorWay::chunks;
  const int64_t m = 1000, nnz = 5000;
  // (x's row stride, x's vector stride, y's row stride, vectors, entries, the rules' kernel)
  EXPECT_EQ(multivector_ways(1, m, 1, 8, nnz, MultivectorKernel::lanes), (Ways{as_is, staged, balanced}));
  EXPECT_EQ(multivector_ways(1, m, 1, 5, nnz, MultivectorKernel::entries), (Ways{as_is, staged, balanced}));
  EXPECT_EQ(multivector_ways(1, m, 1, 4, nnz, MultivectorKernel::lanes), (Ways{as_is, staged, balanced}));
  EXPECT_EQ(multivector_ways(1, m, 1, 2, nnz, MultivectorKernel::lanes), (Ways{as_is, staged, balanced}));
  EXPECT_EQ(multivector_ways(1, m, 1, 8, nnz, MultivectorKernel::lanes, true), (Ways{as_is, staged}));  // gathers miss
  EXPECT_EQ(multivector_ways(1, m, 1, 16, nnz, MultivectorKernel::balanced), (Ways{as_is, staged}));
  EXPECT_EQ(multivector_ways(1, m, 1, 4, nnz, MultivectorKernel::balanced), (Ways{as_is, staged}));
  EXPECT_EQ(multivector_ways(1, m, 8, 8, nnz, MultivectorKernel::lanes), (Ways{as_is}));  // Y row-major
  EXPECT_EQ(multivector_ways(1, m, 1, 8, 0, MultivectorKernel::lanes), (Ways{as_is}));    // no entries
  EXPECT_EQ(multivector_ways(1, m, 1, 1, nnz, MultivectorKernel::lanes), (Ways{as_is}));  // one vector
  EXPECT_EQ(multivector_ways(4, 1, 4, 4, nnz, MultivectorKernel::balanced), (Ways{as_is, chunks}));
  EXPECT_EQ(multivector_ways(4, 1, 1, 4, nnz, MultivectorKernel::balanced), (Ways{as_is, chunks}));  // Y column-major
  EXPECT_EQ(multivector_ways(2, 1, 2, 2, nnz, MultivectorKernel::lanes), (Ways{as_is, chunks}));
  EXPECT_EQ(multivector_ways(8, 1, 8, 8, nnz, MultivectorKernel::row_lanes), (Ways{as_is, chunks}));
  EXPECT_EQ(multivector_ways(8, 1, 8, 8, nnz, MultivectorKernel::entries), (Ways{as_is, chunks}));
  EXPECT_EQ(multivector_ways(8, 1, 8, 8, nnz, MultivectorKernel::chunks), (Ways{as_is}));
  EXPECT_EQ(multivector_ways(4, 1, 4, 4, 0, MultivectorKernel::balanced), (Ways{as_is}));
  // A run of rows too long for one balanced block: no chunks; the balanced kernel stays
  EXPECT_EQ(multivector_ways(1, m, 1, 8, nnz, MultivectorKernel::lanes, false, 32768), (Ways{as_is, staged, balanced}));
  EXPECT_EQ(multivector_ways(8, 1, 8, 8, nnz, MultivectorKernel::row_lanes, false, 32768), (Ways{as_is}));
  EXPECT_EQ(multivector_ways(4, 1, 4, 4, nnz, MultivectorKernel::balanced, false, 65536), (Ways{as_is}));
}

TEST(Launch, RowMajorCopyOfColumnMajorXWhereGathersScatter) {
  using kspmv::impl::stage_x_row_major;
  EXPECT_TRUE(stage_x_row_major(1, 8, 1.0));     // LayoutLeft, random columns
  EXPECT_TRUE(stage_x_row_major(1, 2, 0.85));
  EXPECT_FALSE(stage_x_row_major(1, 8, 0.75));   // rows sharing lines: the caches serve X as it is
  EXPECT_FALSE(stage_x_row_major(1, 8, 0.0));    // not measured (cache-resident)
  EXPECT_FALSE(stage_x_row_major(8, 8, 1.0));    // already row-major
  EXPECT_FALSE(stage_x_row_major(1, 1, 1.0));    // one vector
  // The lanes kernel below a wave a row, from 5 vectors on (the row lanes then): from 0.25
  EXPECT_TRUE(stage_x_row_major(1, 8, 0.3, 2, 32));
  EXPECT_TRUE(stage_x_row_major(1, 5, 0.26, 16, 32));
  EXPECT_FALSE(stage_x_row_major(1, 8, 0.25, 2, 32));
  EXPECT_FALSE(stage_x_row_major(1, 8, 0.5, 32, 32));  // a wave a row (wood1p's 288 entries)
  EXPECT_FALSE(stage_x_row_major(1, 4, 0.5, 2, 32));   // 4 vectors: the lanes kernel on the copy
  EXPECT_FALSE(stage_x_row_major(1, 8, 0.5, 0, 32));   // not the lanes kernel
  EXPECT_FALSE(stage_x_row_major(8, 8, 0.5, 2, 32));   // already row-major
}

TEST(Launch, RawBalancedBlocksOf512WhereRowsShareNoLinesOfX) {
  using kspmv::impl::raw_balanced_block_threads;
  EXPECT_EQ(raw_balanced_block_threads(1.0, 16), 512);   // uniform random columns
  EXPECT_EQ(raw_balanced_block_threads(0.85, 6), 512);   // ca-CondMat, lp_dfl001
  EXPECT_EQ(raw_balanced_block_threads(0.75, 6), 256);
  EXPECT_EQ(raw_balanced_block_threads(0.43, 15), 256);  // tech-WHOIS
  EXPECT_EQ(raw_balanced_block_threads(0.05, 7), 256);   // FEM, stencils
  EXPECT_EQ(raw_balanced_block_threads(0.0, 7), 256);    // not measured
  EXPECT_EQ(raw_balanced_block_threads(1.0, 5161), 256);  // fit2d: long rows, sparsely sampled
}

TEST(Launch, RawBalancedFewerBlocksWhereGathersMissAtBlocksOf256) {
  using kspmv::impl::raw_balanced_resident_blocks;
  EXPECT_EQ(raw_balanced_resident_blocks(0.72, 5, 256), 7);    // PGPgiantcompo
  EXPECT_EQ(raw_balanced_resident_blocks(0.43, 10, 256), 7);   // email-Enron
  EXPECT_EQ(raw_balanced_resident_blocks(0.4, 10, 256), 0);
  EXPECT_EQ(raw_balanced_resident_blocks(0.28, 6, 256), 0);    // crack
  EXPECT_EQ(raw_balanced_resident_blocks(0.06, 9, 256), 0);    // meshes
  EXPECT_EQ(raw_balanced_resident_blocks(0.53, 288, 256), 0);  // wood1p: long rows, sparsely sampled
  EXPECT_EQ(raw_balanced_resident_blocks(0.9, 6, 512), 0);     // 512 threads: as many as fit
}

TEST(Launch, AutomaticChoiceByAverageRowLength) {
  using kspmv::Algorithm;
  using kspmv::impl::choose_csr_algorithm;
  EXPECT_EQ(choose_csr_algorithm(1.5, 32), Algorithm::csr_scalar);
  EXPECT_EQ(choose_csr_algorithm(16.0, 32), Algorithm::csr_scalar);
  EXPECT_EQ(choose_csr_algorithm(27.0, 32), Algorithm::csr_vector);
  EXPECT_EQ(choose_csr_algorithm(27.0, 64), Algorithm::csr_vector);
  EXPECT_EQ(choose_csr_algorithm(100.0, 1), Algorithm::csr_scalar);  // host: one lane per row anyway
}

// The automatic CSR choice from structure alone, for each backend kind; sizes are made up.
TEST(Launch, AutomaticCsrKernelFromTheStructure) {
  using kspmv::impl::CsrKernel;
  using kspmv::impl::choose_csr_kernel;
  // Rows of `length` on average, the longest `longest`, windows of rows gathering `lines` distinct
  // lines of x an entry, lengths varying by `variation` (standard deviation over mean).
  auto structure = [](int64_t rows, double length, int64_t longest, double lines = 0.5, double variation = 0.0) {
    kspmv::impl::CsrStructure s;
    s.rows = s.cols = rows;
    s.nnz = int64_t(length * double(rows));
    s.longest_row = longest;
    s.length_squares = double(rows) * length * length * (1 + variation * variation);
    s.window_lines_per_entry = lines;
    s.x_bytes = 8.0 * double(rows);
    s.bytes = 12.0 * double(s.nnz) + 20.0 * double(rows);
    return s;
  };
  const kspmv::impl::CsrBackend host{1, false, 0, 0}, cuda{32, true, 60e6, 270336}, hip{64, true, 8e6, 225280},
      kokkos_gpu{32, false, 0, 0};
  // Host backends: always the row chunks.
  EXPECT_EQ(choose_csr_kernel(structure(1000, 7, 7), host).kernel, CsrKernel::host_rows);
  EXPECT_EQ(choose_csr_kernel(structure(100000000, 8, 5000000), host).kernel, CsrKernel::host_rows);
  // Latency-bound on a GPU (under a quarter of L2). Rows that do not all fit at a wave each: lanes
  // from the average while the longest row takes at most 12 steps of 4 loads, then a wave per row,
  // then the balanced partition.
  const auto small = choose_csr_kernel(structure(10000, 4, 7), cuda);
  EXPECT_EQ(small.kernel, CsrKernel::raw_vector);
  EXPECT_EQ(small.lanes_per_row, 4);
  EXPECT_EQ(choose_csr_kernel(structure(10000, 4, 192), cuda).lanes_per_row, 4);
  const auto wave = choose_csr_kernel(structure(10000, 4, 193), cuda);
  EXPECT_EQ(wave.kernel, CsrKernel::raw_vector);
  EXPECT_EQ(wave.lanes_per_row, 32);
  EXPECT_EQ(choose_csr_kernel(structure(10000, 4, 1537), cuda).kernel, CsrKernel::raw_balanced);
  EXPECT_EQ(choose_csr_kernel(structure(10000, 4, 1537), hip).lanes_per_row, 64);  // 64 x 48 = 3072 steps' reach
  // Rows that all fit at a wave each (2000 x 32 threads): a wave per row whatever the average.
  EXPECT_EQ(choose_csr_kernel(structure(2000, 42, 95), cuda).lanes_per_row, 32);
  EXPECT_EQ(choose_csr_kernel(structure(8448, 4, 7), cuda).lanes_per_row, 32);
  EXPECT_EQ(choose_csr_kernel(structure(8449, 4, 7), cuda).lanes_per_row, 4);
  EXPECT_EQ(choose_csr_kernel(structure(2000, 42, 95), kspmv::impl::CsrBackend{32, true, 60e6, 0}).lanes_per_row, 8);
  // The latency bound scales with the cache: 14 MB moved is under a quarter of 60 MB, not of 8 MB.
  EXPECT_EQ(choose_csr_kernel(structure(100000, 10, 1000), cuda).lanes_per_row, 32);
  EXPECT_EQ(choose_csr_kernel(structure(100000, 10, 1000), hip).kernel, CsrKernel::raw_balanced);
  EXPECT_EQ(choose_csr_kernel(structure(100000, 10, 2000), cuda).kernel, CsrKernel::raw_balanced);
  // Beyond the latency bound: the balanced kernel whatever the rows, 512 threads where rows share
  // no lines of x.
  const auto large = choose_csr_kernel(structure(20000000, 7, 7), cuda);
  EXPECT_EQ(large.kernel, CsrKernel::raw_balanced);
  EXPECT_EQ(large.block_threads, 256);
  EXPECT_EQ(large.resident_blocks, 7);  // 0.5 lines of x an entry: one block fewer, more L1
  EXPECT_EQ(choose_csr_kernel(structure(20000000, 7, 7, 0.9), cuda).block_threads, 512);
  EXPECT_EQ(choose_csr_kernel(structure(20000000, 7, 7, 0.9), cuda).resident_blocks, 0);
  EXPECT_EQ(choose_csr_kernel(structure(20000000, 7, 7, 0.1), cuda).resident_blocks, 0);
  for (const auto& s : {structure(20000000, 7, 9, 0.1, 0.3), structure(20000000, 4, 4, 0.1, 0.0),
                        structure(1000000, 60, 120), structure(1000000, 60, 2000), structure(10000, 5000, 10000)}) {
    const auto choice = choose_csr_kernel(s, cuda);
    EXPECT_EQ(choice.kernel, CsrKernel::raw_balanced) << s.average_row() << " " << s.longest_row;
    EXPECT_EQ(choice.block_threads, 256);
    EXPECT_EQ(choose_csr_kernel(s, hip).kernel, CsrKernel::raw_balanced);
  }
  // A run of rows one balanced block would walk alone (raw::RowStatistics::crowded_run, the
  // longest run's rows, 0.9 us a pass of the block's threads): the vector kernel where that
  // outlasts its longest row (0.3 us a step of 4 loads a lane).
  auto crowded = [&](kspmv::impl::CsrStructure s, int64_t rows) {
    s.crowded_run = rows;
    return s;
  };
  EXPECT_EQ(kspmv::impl::raw_balanced_walk_seconds(0, 256), 0.0);
  EXPECT_DOUBLE_EQ(kspmv::impl::raw_balanced_walk_seconds(32768, 256), 32768.0 / 256 * 0.9e-6);
  EXPECT_DOUBLE_EQ(kspmv::impl::raw_balanced_walk_seconds(65536, 512), 65536.0 / 512 * 0.9e-6);
  const auto run = choose_csr_kernel(crowded(structure(20000000, 7, 7), 32768), cuda);
  EXPECT_EQ(run.kernel, CsrKernel::raw_vector);
  EXPECT_EQ(run.lanes_per_row, 4);
  EXPECT_EQ(choose_csr_kernel(crowded(structure(20000000, 7, 7, 0.9), 32768), cuda).kernel, CsrKernel::raw_vector);
  // 32768 rows at 256 a pass: 115 us; a row of 5 million at 4 lanes: 94 ms.
  EXPECT_EQ(choose_csr_kernel(crowded(structure(20000000, 7, 5000000), 32768), cuda).kernel, CsrKernel::raw_balanced);
  // The longest run 8.4 million rows: 29 ms; a row of a million at 4 lanes: 19 ms; of 5 million: 94 ms.
  EXPECT_EQ(choose_csr_kernel(crowded(structure(20000000, 7, 1000000), 8388608), cuda).kernel, CsrKernel::raw_vector);
  EXPECT_EQ(choose_csr_kernel(crowded(structure(20000000, 7, 5000000), 8388608), cuda).kernel, CsrKernel::raw_balanced);
  // 100 runs of 60000 empty rows beside rows of 60000 entries (gpu_crowded_runs/multivector_h200/):
  // each run walked by its own block, 115 us; the long row at 4 lanes 1.1 ms: balanced.
  EXPECT_EQ(choose_csr_kernel(crowded(structure(8000000, 6, 60000), 32768), cuda).kernel, CsrKernel::raw_balanced);
  // Latency-bound with a row too long for the vector kernel: a wave per row where the run's walk
  // (115 us) outlasts that row at a wave (20000 entries: 157 steps, 47 us), not 100000 (235 us).
  const auto latency_run = choose_csr_kernel(crowded(structure(100000, 4, 20000), 32768), cuda);
  EXPECT_EQ(latency_run.kernel, CsrKernel::raw_vector);
  EXPECT_EQ(latency_run.lanes_per_row, 32);
  EXPECT_EQ(choose_csr_kernel(crowded(structure(100000, 4, 100000), 32768), cuda).kernel, CsrKernel::raw_balanced);
  // No run: as before; host backends and the Kokkos kernels ignore it.
  EXPECT_EQ(choose_csr_kernel(crowded(structure(20000000, 7, 7), 0), cuda).kernel, CsrKernel::raw_balanced);
  EXPECT_EQ(choose_csr_kernel(crowded(structure(20000000, 7, 7), 32768), host).kernel, CsrKernel::host_rows);
  EXPECT_EQ(choose_csr_kernel(crowded(structure(10000, 7, 7), 32768), kokkos_gpu).kernel, CsrKernel::thread_per_row);
  // Kokkos kernels on a GPU: by the average row, balanced for a long tail, whose bar rises with
  // the matrix (nnz / 10000) beyond the latency bound.
  EXPECT_EQ(choose_csr_kernel(structure(10000, 7, 7), kokkos_gpu).kernel, CsrKernel::thread_per_row);
  EXPECT_EQ(choose_csr_kernel(structure(10000, 40, 60), kokkos_gpu).kernel, CsrKernel::vector);
  EXPECT_EQ(choose_csr_kernel(structure(10000, 7, 257), kokkos_gpu).kernel, CsrKernel::balanced);
  EXPECT_EQ(choose_csr_kernel(structure(10000, 40, 8192), kokkos_gpu).kernel, CsrKernel::vector);
  EXPECT_EQ(choose_csr_kernel(structure(10000000, 7, 7000), kokkos_gpu).kernel, CsrKernel::thread_per_row);
  EXPECT_EQ(choose_csr_kernel(structure(10000000, 7, 7001), kokkos_gpu).kernel, CsrKernel::balanced);
}

TEST(Launch, WarpWidthPerBackend) {
#if defined(KOKKOS_ENABLE_CUDA)
  static_assert(kspmv::impl::warp_width<Kokkos::Cuda>() == 32, "CUDA warp");
#endif
#if defined(KOKKOS_ENABLE_HIP) && KOKKOS_VERSION >= 40000
  static_assert(kspmv::impl::warp_width<Kokkos::HIP>() == 64, "HIP wavefront");
#endif
  EXPECT_EQ(kspmv::impl::warp_width<Kokkos::DefaultHostExecutionSpace>(), 1);
}

template <class ExecSpace>
class LaunchShape : public ::testing::Test {};
TYPED_TEST_SUITE(LaunchShape, Backends, BackendName);

TYPED_TEST(LaunchShape, VectorShapeFollowsHeuristicAndOverrides) {
  const auto s = kspmv::impl::csr_vector_shape<TypeParam>(1000, 27000, {});
  const int warp = kspmv::impl::warp_width<TypeParam>();
  EXPECT_EQ(s.lanes_per_row, warp >= 16 ? 16 : warp);
  if (kspmv::impl::is_gpu_space<TypeParam>()) {
    EXPECT_EQ(s.team_size * s.lanes_per_row, 256);
    EXPECT_EQ(s.rows_per_team(), s.team_size);
  } else {
    EXPECT_EQ(s.team_size, 1);
    EXPECT_EQ(s.rows_per_thread, 64);
  }
  kspmv::SpmvOptions forced;
  forced.lanes_per_row = 4;
  forced.team_size = 8;
  forced.rows_per_thread = 2;
  const auto f = kspmv::impl::csr_vector_shape<TypeParam>(1000, 27000, forced);
  EXPECT_EQ(f.lanes_per_row, 4);
  EXPECT_EQ(f.team_size, 8);
  EXPECT_EQ(f.rows_per_team(), 16);
}

TYPED_TEST(LaunchShape, DiaFillStagesRowsThatFitIn44KB) {
  using kspmv::impl::dia_fill_shape;
  if (!kspmv::impl::is_gpu_space<TypeParam>()) {
    const auto host = dia_fill_shape<TypeParam>(7.0, 12);
    EXPECT_EQ(host.team_size, 1);
    EXPECT_EQ(host.staged_entries, 0);
    return;
  }
  // fp64 values, int columns: 12 bytes an entry; the average row rounded up plus 1 entry a row.
  const auto seven = dia_fill_shape<TypeParam>(6.9, 12);  // 7-point Poisson: 8 a row
  EXPECT_EQ(seven.rows_per_team, 256);
  EXPECT_EQ(seven.team_size, 256);
  EXPECT_EQ(seven.staged_entries, 256 * 8);
  const auto twenty_seven = dia_fill_shape<TypeParam>(26.7, 12);  // 28 a row: 43,008 bytes
  EXPECT_EQ(twenty_seven.rows_per_team, 128);
  EXPECT_EQ(twenty_seven.staged_entries, 128 * 28);
  const auto long_rows = dia_fill_shape<TypeParam>(1000.0, 12);  // 32 rows; at most 44 KB staged
  EXPECT_EQ(long_rows.rows_per_team, 32);
  EXPECT_EQ(long_rows.staged_entries, 44 * 1024 / 12);
}

}  // namespace
}  // namespace kspmv_test
