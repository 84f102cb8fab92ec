// libFuzzer harness for the Matrix Market reader (src/matrix_market.cpp, compiled into this
// program with the fuzzer's instrumentation, AddressSanitizer and UndefinedBehaviorSanitizer).
// Any input must either be read or be refused with kspmv::MatrixMarketError; whatever is read
// must be a valid CSR matrix that the writer writes and the reader reads back to the same
// matrix. A crash, a sanitizer report, another exception or a failed property is a finding.
//
// CI (.ci/run, stage "fuzz") builds it with clang (-DKSPMV_ENABLE_FUZZER=ON) and runs it for a
// fixed time from the seed corpus beside this file; add each finding's input there once fixed.
#include <kspmv/io.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

namespace {

// The harness bounds what a size line may make the reader allocate (it checks its limits before
// allocating): the fuzzer's memory limit must flag runaway growth, not a legitimately large matrix.
kspmv::MatrixMarketLimits harness_limits() {
  kspmv::MatrixMarketLimits limits;
  limits.max_rows = int64_t(1) << 20;
  limits.max_entries = int64_t(1) << 20;
  limits.index_type = "the harness's 2^20 rows";
  limits.offset_type = "the harness's 2^20 entries";
  return limits;
}

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "matrix_market_fuzzer: %s\n", what);
  std::abort();
}

void check_valid(const kspmv::HostCsr& h) {
  if (h.num_rows < 0 || h.num_cols < 0) finding("negative size read");
  if (h.row_offsets.size() != size_t(h.num_rows) + 1 || h.row_offsets.front() != 0) finding("bad row offsets");
  if (h.row_offsets.back() != int64_t(h.col_indices.size()) || h.values.size() != h.col_indices.size())
    finding("entry arrays disagree with the offsets");
  if (!h.imaginary.empty() && h.imaginary.size() != h.values.size()) finding("imaginary parts disagree with values");
  for (int64_t i = 0; i < h.num_rows; ++i) {
    if (h.row_offsets[i + 1] < h.row_offsets[i]) finding("row offsets decrease");
    for (int64_t k = h.row_offsets[i]; k < h.row_offsets[i + 1]; ++k) {
      if (h.col_indices[k] < 0 || h.col_indices[k] >= h.num_cols) finding("column index out of range");
      if (k > h.row_offsets[i] && h.col_indices[k] <= h.col_indices[k - 1]) finding("columns not sorted and unique");
    }
  }
}

// Bitwise equality, so that NaN values compare equal to themselves.
bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k) {
    const double x = a[k], y = b[k];
    if (!(x == y) && !(x != x && y != y)) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  kspmv::HostCsr h;
  try {
    h = kspmv::read_matrix_market(in, "fuzz-input", harness_limits());
  } catch (const kspmv::MatrixMarketError&) {
    return 0;  // refused clearly: what the reader must do with a bad file
  }
  check_valid(h);
  std::stringstream text;
  kspmv::write_matrix_market(text, h);
  kspmv::HostCsr again;
  try {
    again = kspmv::read_matrix_market(text, "fuzz-round-trip", harness_limits());
  } catch (const kspmv::MatrixMarketError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    finding("the writer's output of a matrix that was read is refused by the reader");
  }
  if (again.num_rows != h.num_rows || again.num_cols != h.num_cols || again.row_offsets != h.row_offsets ||
      again.col_indices != h.col_indices || !same_bits(again.values, h.values) ||
      !same_bits(again.imaginary, h.imaginary) || again.is_complex() != h.is_complex())
    finding("write then read does not give the matrix back");
  return 0;
}
