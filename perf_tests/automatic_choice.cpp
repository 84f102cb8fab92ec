// automatic_choice: what the automatic spmv would choose on a GPU for Matrix Market files, from
// their structure, without the GPU: the statistics raw::row_statistics measures on the device,
// computed here on the host the same way (row lengths; 2048 windows of 32 rows, at most 256
// entries a window), then impl::choose_csr_kernel with the GPU's figures given on the command line.
//
//   automatic_choice [--wave W] [--l2 BYTES] [--resident THREADS] [--replicate-to NNZ] FILE...
//
// Defaults describe the H200: warps of 32, 60 MiB of L2, 132 x 2048 resident threads. A file is
// replicated block-diagonally to at least NNZ entries as spmv_bench --replicate-to does (0: once).
#include <kspmv/impl/csr_analysis.hpp>
#include <kspmv/impl/launch.hpp>
#include <kspmv/io.hpp>

#include "matrices.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

kspmv::impl::CsrStructure structure_of(const kspmv::HostCsr& h, double cache_bytes, int64_t windows) {
  kspmv::impl::CsrStructure s;
  s.rows = h.num_rows;
  s.cols = h.num_cols;
  s.nnz = int64_t(h.col_indices.size());
  s.x_bytes = 8.0 * double(s.cols);
  s.bytes = 12.0 * double(s.nnz) + 4.0 * double(s.rows + 1) + s.x_bytes + 8.0 * double(s.rows);  // fp64, int, int
  for (int64_t i = 0; i < s.rows; ++i) {
    const int64_t length = h.row_offsets[size_t(i) + 1] - h.row_offsets[size_t(i)];
    s.longest_row = std::max(s.longest_row, length);
    s.length_squares += double(length) * double(length);
  }
  if (s.bytes <= kspmv::impl::latency_bound_bytes(cache_bytes)) return s;  // the device samples no windows
  const int64_t count = std::min<int64_t>(windows, (s.rows + 31) / 32);
  int64_t lines = 0, entries = 0;
  for (int64_t w = 0; w < count; ++w) {
    const int64_t r0 = w * (s.rows / count), r1 = std::min(r0 + 32, s.rows);
    const int64_t begin = h.row_offsets[size_t(r0)], n = h.row_offsets[size_t(r1)] - begin;
    const int64_t step = std::max<int64_t>(1, (n + 255) / 256);
    std::vector<int64_t> seen;
    for (int64_t k = begin; k < begin + n; k += step) seen.push_back(h.col_indices[size_t(k)] / 16);
    entries += int64_t(seen.size());
    std::sort(seen.begin(), seen.end());
    lines += std::unique(seen.begin(), seen.end()) - seen.begin();
  }
  s.window_lines_per_entry = entries > 0 ? double(lines) / double(entries) : 0.0;
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    kspmv::impl::CsrBackend gpu{32, true, 62914560.0, 132 * 2048};
    int64_t replicate_to = 0;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw std::invalid_argument("missing value after " + a);
        return argv[++i];
      };
      if (a == "--wave") {
        gpu.wave = std::stoi(value());
      } else if (a == "--l2") {
        gpu.cache_bytes = std::stod(value());
      } else if (a == "--resident") {
        gpu.resident_threads = std::stoll(value());
      } else if (a == "--replicate-to") {
        replicate_to = std::stoll(value());
      } else {
        files.push_back(a);
      }
    }
    for (const std::string& file : files) {
      const kspmv::HostCsr one = kspmv::read_matrix_market(file);
      const int64_t nnz = std::max<int64_t>(1, int64_t(one.col_indices.size()));
      const int k = replicate_to > 0 ? std::max<int>(1, int((replicate_to + nnz - 1) / nnz)) : 1;
      const kspmv::HostCsr h = k > 1 ? kspmv_bench::replicate(one, k) : one;
      const kspmv::impl::CsrStructure s = structure_of(h, gpu.cache_bytes, kspmv::impl::analysis_windows);
      const kspmv::impl::CsrChoice c = kspmv::impl::choose_csr_kernel(s, gpu);
      const std::string name = file.substr(file.find_last_of('/') + 1) + (k > 1 ? " x" + std::to_string(k) : "");
      std::printf("%s | avg %7.1f longest %7lld variation %5.2f lines/entry %5.3f -> %s lanes %d threads %d (%s)\n",
                  name.c_str(), s.average_row(), (long long)s.longest_row, s.row_length_variation(),
                  s.window_lines_per_entry, kspmv::impl::to_string(c.kernel), c.lanes_per_row, c.block_threads,
                  c.reason.c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "automatic_choice: %s\n", e.what());
    return 1;
  }
  return 0;
}
