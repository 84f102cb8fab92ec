// Matrix Market reading and writing: golden files, the real matrices' known shapes, every kind
// of bad input (with the line number in the message), and write/read round trips.
#include <kspmv/io.hpp>

#include "backends.hpp"
#include "reference.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace kspmv_test {
namespace {

kspmv::HostCsr read_string(const std::string& text) {
  std::istringstream in(text);
  return kspmv::read_matrix_market(in, "inline.mtx");
}

// Expects reading `text` to fail at `line` with a message containing `needle`.
void expect_error(const std::string& text, long long line, const std::string& needle) {
  try {
    read_string(text);
    ADD_FAILURE() << "accepted bad input (expected '" << needle << "'):\n" << text;
  } catch (const kspmv::MatrixMarketError& e) {
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_EQ(e.file(), "inline.mtx");
    EXPECT_NE(std::string(e.what()).find("inline.mtx:" + std::to_string(line) + ": "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

const std::string general = "%%MatrixMarket matrix coordinate real general\n";

TEST(MatrixMarket, GoldenFileSortedAndDuplicatesSummed) {
  const kspmv::HostCsr A = kspmv::read_matrix_market(data_dir() + "/golden_5x5.mtx");
  EXPECT_EQ(A.num_rows, 5);
  EXPECT_EQ(A.num_cols, 5);
  EXPECT_EQ(A.row_offsets, (std::vector<int64_t>{0, 3, 6, 8, 10, 12}));
  EXPECT_EQ(A.col_indices, (std::vector<int64_t>{0, 1, 4, 0, 1, 2, 2, 3, 1, 3, 0, 4}));
  EXPECT_EQ(A.values, (std::vector<double>{4, -1, 2, -1, 4, -1, 5, -2, 1, 3, 7, 1}));
}

TEST(MatrixMarket, SymmetricExpandsBothTriangles) {
  const kspmv::HostCsr A = kspmv::read_matrix_market(data_dir() + "/symmetric_3x3.mtx");
  EXPECT_EQ(A.row_offsets, (std::vector<int64_t>{0, 2, 4, 6}));
  EXPECT_EQ(A.col_indices, (std::vector<int64_t>{0, 1, 0, 2, 1, 2}));
  EXPECT_EQ(A.values, (std::vector<double>{2, -1, -1, 0.5, 0.5, 4}));
}

TEST(MatrixMarket, SkewSymmetricNegatesMirror) {
  const kspmv::HostCsr A = kspmv::read_matrix_market(data_dir() + "/skew_3x3.mtx");
  EXPECT_EQ(A.row_offsets, (std::vector<int64_t>{0, 2, 3, 4}));
  EXPECT_EQ(A.col_indices, (std::vector<int64_t>{1, 2, 0, 0}));
  EXPECT_EQ(A.values, (std::vector<double>{-3, 2, 3, -2}));
}

TEST(MatrixMarket, PatternRectangularWithEmptyRow) {
  const kspmv::HostCsr A = kspmv::read_matrix_market(data_dir() + "/pattern_2x4.mtx");
  EXPECT_EQ(A.num_rows, 2);
  EXPECT_EQ(A.num_cols, 4);
  EXPECT_EQ(A.row_offsets, (std::vector<int64_t>{0, 0, 3}));
  EXPECT_EQ(A.col_indices, (std::vector<int64_t>{0, 1, 3}));
  EXPECT_EQ(A.values, (std::vector<double>{1, 1, 1}));
}

// Shapes from ../shared/matrices/README.md; stored entries after symmetric expansion are
// 2 * stored - diagonal (the files store the full diagonal).
TEST(MatrixMarket, RealMatricesHaveTheirDocumentedShape) {
  struct Known {
    const char* name;
    int64_t rows, cols, nnz, longest_row, empty_rows;
  };
  const Known known[] = {
      {"lap3D_7pt_n20.mtx", 8000, 8000, 2 * 30800 - 8000, 7, 0},
      {"bcsstk13.mtx", 2003, 2003, 2 * 42943 - 2003, 95, 0},
      {"west0479.mtx", 479, 479, 1910, 12, 0},
      {"rajat01.mtx", 6833, 6833, 43250, 1442, 0},
      {"arrow.mtx", 46500, 46500, 139498, 46500, 0},
      {"wiki-Vote.mtx", 8298, 8298, 103689, 893, 2188},
      {"mbeacxc.mtx", 496, 496, 49920, 484, 48},
      {"Groebner_id2003_aug.mtx", 4967, 2456, 173670, 829, 0},
      {"poly_chain.512.mtx", 6144, 6144, 98304, 19, 0},
      {"ani4.mtx", 3081, 3081, 20971, 9, 0},
  };
  for (const Known& k : known) {
    SCOPED_TRACE(k.name);
    const kspmv::HostCsr A = kspmv::read_matrix_market(data_dir() + "/" + k.name);
    EXPECT_EQ(A.num_rows, k.rows);
    EXPECT_EQ(A.num_cols, k.cols);
    EXPECT_EQ(static_cast<int64_t>(A.col_indices.size()), k.nnz);
    int64_t longest = 0, empty = 0;
    for (int64_t i = 0; i < A.num_rows; ++i) {
      const int64_t len = A.row_offsets[i + 1] - A.row_offsets[i];
      longest = std::max(longest, len);
      empty += len == 0;
      for (int64_t p = A.row_offsets[i] + 1; p < A.row_offsets[i + 1]; ++p) {
        ASSERT_LT(A.col_indices[p - 1], A.col_indices[p]) << "row " << i << " not sorted or has duplicates";
      }
    }
    EXPECT_EQ(longest, k.longest_row);
    EXPECT_EQ(empty, k.empty_rows);
  }
}

TEST(MatrixMarket, CommentsBlankLinesCrLfAndCaseAreAccepted) {
  const auto A = read_string("%%MatrixMarket Matrix Coordinate REAL General\r\n% c\r\n\r\n2 2 1\r\n% c\r\n2 1 -3.5e-1\r\n");
  EXPECT_EQ(A.row_offsets, (std::vector<int64_t>{0, 0, 1}));
  EXPECT_EQ(A.values, (std::vector<double>{-0.35}));
}

TEST(MatrixMarket, EmptyMatrices) {
  const auto none = read_string(general + "0 0 0\n");
  EXPECT_EQ(none.num_rows, 0);
  EXPECT_EQ(none.row_offsets, (std::vector<int64_t>{0}));
  const auto no_entries = read_string(general + "3 2 0\n");
  EXPECT_EQ(no_entries.row_offsets, (std::vector<int64_t>{0, 0, 0, 0}));
}

TEST(MatrixMarket, UnsupportedKindsAreRejectedWithLine) {
  expect_error("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 1, "unsupported format 'array'");
  expect_error("%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n", 1,
               "symmetry 'hermitian' needs field 'complex', not 'real'");
  expect_error("%%MatrixMarket vector coordinate real general\n", 1, "unsupported object 'vector'");
}

// Complex files: general, symmetric (a_ji = a_ij), skew-symmetric (-a_ij) and hermitian
// (conj(a_ij), real diagonal), duplicates summed in both parts.
TEST(MatrixMarket, ComplexFilesKeepImaginaryParts) {
  const auto g = read_string("%%MatrixMarket matrix coordinate complex general\n2 3 3\n2 3 1.5 -2\n1 1 1 2\n2 3 0.5 1\n");
  EXPECT_TRUE(g.is_complex());
  EXPECT_EQ(g.row_offsets, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(g.col_indices, (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(g.values, (std::vector<double>{1, 2}));
  EXPECT_EQ(g.imaginary, (std::vector<double>{2, -1}));
  const std::string lower = "3 3 3\n1 1 4 0\n2 1 1 2\n3 2 -1 0.5\n";
  const auto h = read_string("%%MatrixMarket matrix coordinate complex hermitian\n" + lower);
  EXPECT_EQ(h.row_offsets, (std::vector<int64_t>{0, 2, 4, 5}));
  EXPECT_EQ(h.col_indices, (std::vector<int64_t>{0, 1, 0, 2, 1}));
  EXPECT_EQ(h.values, (std::vector<double>{4, 1, 1, -1, -1}));
  EXPECT_EQ(h.imaginary, (std::vector<double>{0, -2, 2, -0.5, 0.5}));
  const auto sym = read_string("%%MatrixMarket matrix coordinate complex symmetric\n" + lower);
  EXPECT_EQ(sym.imaginary, (std::vector<double>{0, 2, 2, 0.5, 0.5}));
  const auto skew = read_string("%%MatrixMarket matrix coordinate complex skew-symmetric\n3 3 1\n2 1 1 2\n");
  EXPECT_EQ(skew.values, (std::vector<double>{-1, 1}));
  EXPECT_EQ(skew.imaginary, (std::vector<double>{-2, 2}));
  const auto real = read_string(general + "1 1 1\n1 1 3\n");
  EXPECT_FALSE(real.is_complex());
  EXPECT_TRUE(real.imaginary.empty());
  const auto empty = read_string("%%MatrixMarket matrix coordinate complex general\n2 2 0\n");
  EXPECT_TRUE(empty.is_complex());
  const auto young = kspmv::read_matrix_market(data_dir() + "/young1c.mtx");
  EXPECT_EQ(young.num_rows, 841);
  EXPECT_EQ(young.imaginary.size(), young.values.size());
  EXPECT_EQ(young.values.size(), 4089u);
}

TEST(MatrixMarket, BadComplexEntries) {
  const std::string header = "%%MatrixMarket matrix coordinate complex general\n";
  expect_error(header + "2 2 1\n1 1 3\n", 3, "expected 4 fields ('row column real imaginary'), got 3");
  expect_error(header + "2 2 1\n1 1 3 x\n", 3, "value 'x' is not a number");
  expect_error("%%MatrixMarket matrix coordinate complex hermitian\n2 2 1\n2 2 1 1\n", 3,
               "diagonal entry (2, 2) of a hermitian matrix has imaginary part 1 (it must be real)");
  expect_error("%%MatrixMarket matrix coordinate complex hermitian\n2 2 1\n1 2 1 1\n", 3, "above the diagonal");
  expect_error("%%MatrixMarket matrix coordinate complex hermitian\n2 3 1\n1 1 1 0\n", 2, "must be square");
}

TEST(MatrixMarket, MalformedHeaderAndSizeLine) {
  expect_error("", 1, "empty file");
  expect_error("1 1 1\n1 1 1\n", 1, "not a Matrix Market file");
  expect_error("%%MatrixMarket matrix coordinate real\n1 1 1\n", 1, "malformed header");
  expect_error("%%MatrixMarket matrix coordinate float general\n1 1 1\n", 1, "unknown field 'float'");
  expect_error("%%MatrixMarket matrix coordinate real upper\n1 1 1\n", 1, "unknown symmetry 'upper'");
  expect_error(general + "% only comments\n", 3, "expected the size line");
  expect_error(general + "3 3\n", 2, "malformed size line");
  expect_error(general + "3 x 3\n", 2, "column count 'x' is not an integer");
  expect_error(general + "3 3 -1\n", 2, "negative size");
  expect_error(general + "2 2 5\n", 2, "exceeds rows x columns");
  expect_error("%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n1 1 1\n", 2, "must be square");
}

// A size line beyond what the requested types hold, or whose row offsets alone exceed this
// machine's memory, fails on that line at once, before anything is allocated for it.
TEST(MatrixMarket, SizeLineBeyondTypesOrMemoryFailsFast) {
  const auto start = std::chrono::steady_clock::now();
  expect_error(general + "1000000000000 1000000000000 1\n1 1 1\n", 2,
               "the row offsets of 1000000000000 rows need 8000.0 GB, more than this machine's");
  const auto int_limits = kspmv::MatrixMarketLimits::for_types<int, int>();
  const auto expect_limit = [&](const std::string& text, const std::string& needle) {
    try {
      std::istringstream in(text);
      (void)kspmv::read_matrix_market(in, "inline.mtx", int_limits);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const kspmv::MatrixMarketError& e) {
      EXPECT_EQ(e.line(), 2) << e.what();
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect_limit(general + "3000000000 3000000000 1\n1 1 1\n",
               "row count 3000000000 does not fit in the index type int32_t (at most 2147483647)");
  expect_limit(general + "5 3000000000 1\n1 1 1\n", "column count 3000000000 does not fit in the index type int32_t");
  expect_limit(general + "100000 100000 3000000000\n1 1 1\n",
               "entry count 3000000000 does not fit in the offset type int32_t");
  EXPECT_EQ((kspmv::MatrixMarketLimits::for_types<int64_t, size_t>().offset_type), "uint64_t");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.0);
}

TEST(MatrixMarket, BadEntries) {
  expect_error(general + "3 3 2\n1 1 1\n", 4, "unexpected end of file: 1 of 2 declared entries read");
  expect_error(general + "3 3 1\n1 1 1\n2 2 2\n", 4, "more entries than the 1 declared");
  expect_error(general + "3 3 1\n0 1 1\n", 3, "row index 0 out of range [1, 3]");
  expect_error(general + "3 3 1\n4 1 1\n", 3, "row index 4 out of range [1, 3]");
  expect_error(general + "3 3 1\n1 0 1\n", 3, "column index 0 out of range [1, 3]");
  expect_error(general + "3 2 1\n1 3 1\n", 3, "column index 3 out of range [1, 2]");
  expect_error(general + "3 3 1\n1 1 abc\n", 3, "value 'abc' is not a number");
  expect_error(general + "3 3 1\n1 1 1.5x\n", 3, "value '1.5x' is not a number");
  expect_error(general + "3 3 1\n1.5 1 1\n", 3, "row index '1.5' is not an integer");
  expect_error(general + "3 3 1\n1 1\n", 3, "expected 3 fields");
  expect_error(general + "3 3 1\n1 1 1 1\n", 3, "expected 3 fields");
  expect_error("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1 1\n", 3, "expected 2 fields");
  expect_error("%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 2.5\n", 3, "value '2.5' is not an integer");
  expect_error("%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n1 2 1\n", 3, "above the diagonal");
  expect_error("%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n2 2 1\n", 3, "diagonal entry");
}

TEST(MatrixMarket, MissingFileNamesIt) {
  try {
    kspmv::read_matrix_market("/nonexistent/kspmv.mtx");
    ADD_FAILURE();
  } catch (const kspmv::MatrixMarketError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/kspmv.mtx"), std::string::npos);
  }
}

TEST(MatrixMarket, WriteThenReadIsExact) {
  std::mt19937_64 rng(test_seed());
  kspmv::HostCsr A = random_csr({40, 30, 8, 0.2, 0}, rng);
  // The reader sorts and sums duplicates; start from its canonical form.
  std::stringstream canonical;
  kspmv::write_matrix_market(canonical, A);
  A = kspmv::read_matrix_market(canonical, "canonical");
  A.values[0] = 0.1;  // not exactly representable: needs all 17 digits to come back
  std::stringstream text;
  kspmv::write_matrix_market(text, A);
  const kspmv::HostCsr B = kspmv::read_matrix_market(text, "roundtrip");
  EXPECT_EQ(B.num_rows, A.num_rows);
  EXPECT_EQ(B.num_cols, A.num_cols);
  EXPECT_EQ(B.row_offsets, A.row_offsets);
  EXPECT_EQ(B.col_indices, A.col_indices);
  EXPECT_EQ(B.values, A.values);
  // Complex: both parts come back, the header says complex.
  A.imaginary.assign(A.values.size(), 0.0);
  for (size_t k = 0; k < A.imaginary.size(); ++k) A.imaginary[k] = 1.0 / double(k + 3);
  std::stringstream complex_text;
  kspmv::write_matrix_market(complex_text, A);
  EXPECT_EQ(complex_text.str().rfind("%%MatrixMarket matrix coordinate complex general\n", 0), 0u);
  const kspmv::HostCsr C = kspmv::read_matrix_market(complex_text, "complex roundtrip");
  EXPECT_EQ(C.values, A.values);
  EXPECT_EQ(C.imaginary, A.imaginary);
  A.imaginary.pop_back();
  std::stringstream bad;
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::write_matrix_market(bad, A); },
                                                 "kspmv::write_matrix_market: a complex HostCsr has " +
                                                     std::to_string(A.values.size()) + " values but " +
                                                     std::to_string(A.imaginary.size()) + " imaginary parts"));
  EXPECT_EQ(bad.str(), "");  // refused before the header
}

// 2 x 2 with one entry a row.
kspmv::HostCsr two_by_two() {
  kspmv::HostCsr h;
  h.num_rows = h.num_cols = 2;
  h.row_offsets = {0, 1, 2};
  h.col_indices = {0, 1};
  h.values = {1.0, 2.0};
  return h;
}

template <class ExecSpace>
class MatrixMarketDevice : public ::testing::Test {};
TYPED_TEST_SUITE(MatrixMarketDevice, Backends, BackendName);

TYPED_TEST(MatrixMarketDevice, ReadCsrAndWriteFileRoundTrip) {
  using Device = DeviceOf<TypeParam>;
  const std::string path = data_dir() + "/golden_5x5.mtx";
  const auto A = kspmv::read_csr<float, int64_t, size_t, Device>(path);
  EXPECT_EQ(A.num_rows(), 5);
  EXPECT_EQ(A.nnz(), 12u);
  EXPECT_NO_THROW(A.validate());
  const std::string out = testing::TempDir() + "kspmv_roundtrip_" + TypeParam::name() + ".mtx";
  kspmv::write_matrix_market(out, A);
  const kspmv::HostCsr back = kspmv::read_matrix_market(out);
  const kspmv::HostCsr original = kspmv::read_matrix_market(path);
  EXPECT_EQ(back.row_offsets, original.row_offsets);
  EXPECT_EQ(back.col_indices, original.col_indices);
  EXPECT_EQ(back.values, original.values);
  std::remove(out.c_str());
}

TYPED_TEST(MatrixMarketDevice, InconsistentHostArraysAreRejected) {
  using Device = DeviceOf<TypeParam>;
  const auto rejects = [](const kspmv::HostCsr& h, const std::string& what) {
    try {
      (void)kspmv::to_device<double, int, int, Device>(h);
      ADD_FAILURE() << what << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("row offsets"), std::string::npos) << e.what();
    }
  };
  const kspmv::HostCsr h = two_by_two();
  EXPECT_NO_THROW((kspmv::to_device<double, int, int, Device>(h)));
  kspmv::HostCsr extra_zero = h;  // a leading 0 pushed onto the default {0}
  extra_zero.row_offsets = {0, 0, 1, 2};
  rejects(extra_zero, "num_rows + 2 offsets");
  kspmv::HostCsr short_last = h;
  short_last.row_offsets = {0, 1, 1};
  rejects(short_last, "a last offset below the indices");
  kspmv::HostCsr no_values = h;
  no_values.values.pop_back();
  rejects(no_values, "fewer values than indices");
  kspmv::HostCsr short_imaginary = h;
  short_imaginary.imaginary = {1.0};
  rejects(short_imaginary, "fewer imaginary parts than values");
}

// A complex file goes to a complex Scalar with both parts; a real Scalar refuses it by name.
TYPED_TEST(MatrixMarketDevice, ComplexMatricesNeedAComplexScalar) {
  using Device = DeviceOf<TypeParam>;
  const std::string path = data_dir() + "/young1c.mtx";
  const kspmv::HostCsr h = kspmv::read_matrix_market(path);
  const auto A = kspmv::read_csr<Kokkos::complex<double>, int, int, Device>(path);
  EXPECT_NO_THROW(A.validate());
  const kspmv::HostCsr back = kspmv::to_host(A);
  EXPECT_TRUE(back.is_complex());
  EXPECT_EQ(back.values, h.values);
  EXPECT_EQ(back.imaginary, h.imaginary);
  try {
    (void)kspmv::read_csr<double, int, int, Device>(path);
    ADD_FAILURE() << "complex file read into double";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("the matrix is complex"), std::string::npos) << e.what();
  }
  // A real matrix into a complex Scalar: imaginary parts 0.
  const auto R = kspmv::read_csr<Kokkos::complex<float>, int, int, Device>(data_dir() + "/golden_5x5.mtx");
  const kspmv::HostCsr r = kspmv::to_host(R);
  EXPECT_EQ(r.values, kspmv::read_matrix_market(data_dir() + "/golden_5x5.mtx").values);
  EXPECT_EQ(r.imaginary, std::vector<double>(r.values.size(), 0.0));
}

// read_csr checks the size line against its own Ordinal and Offset.
TYPED_TEST(MatrixMarketDevice, ReadCsrRefusesSizesItsTypesCannotHold) {
  using Device = DeviceOf<TypeParam>;
  const std::string path = testing::TempDir() + "kspmv_three_billion_rows_" + TypeParam::name() + ".mtx";
  {
    std::ofstream out(path);
    out << general << "3000000000 3000000000 1\n1 1 1\n";
  }
  try {
    (void)kspmv::read_csr<double, int, int, Device>(path);
    ADD_FAILURE() << "3,000,000,000 rows read into int ordinals";
  } catch (const kspmv::MatrixMarketError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_NE(std::string(e.what()).find("does not fit in the index type int32_t"), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
}

TYPED_TEST(MatrixMarketDevice, IndexTypeOverflowIsReported) {
  using Device = DeviceOf<TypeParam>;
  kspmv::HostCsr h;
  h.num_rows = 1;
  h.num_cols = int64_t(1) << 40;
  h.row_offsets = {0, 0};
  EXPECT_TRUE(throws_with<std::overflow_error>([&] { kspmv::to_device<double, int, int, Device>(h); },
                                               "kspmv: num_cols = 1099511627776 does not fit in the requested index type"));
}

// ---- Argument checks (issue 17, on the model of rocSPARSE's testing_*_bad_arg) ------------------
// io.hpp: one assertion per invalid argument, exact exception type and message. Already covered
// above: every malformed file (MatrixMarketError with its line), a missing file
// (MissingFileNamesIt), sizes beyond the requested types, a complex HostCsr's imaginary parts
// (WriteThenReadIsExact), to_device's array sizes, complex into a real Scalar and a size beyond
// Ordinal. to_host takes any CsrMatrix. Default backend only.
const std::string unwritable = "/nonexistent/kspmv_bad_arg.mtx";

TEST(IoBadArgument, ReadCsrOfAMissingFile) {
  EXPECT_TRUE(throws_with<kspmv::MatrixMarketError>([&] { kspmv::read_csr<double, int, int, DefaultDevice>(unwritable); },
                                                    unwritable + ":0: cannot open file"));
}

TEST(IoBadArgument, WriteToAPathThatCannotBeOpened) {
  EXPECT_TRUE(throws_with<std::runtime_error>([&] { kspmv::write_matrix_market(unwritable, two_by_two()); },
                                              "kspmv: cannot open '" + unwritable + "' for writing"))
      << "HostCsr";
  const auto A = kspmv::to_device<double, int, int, DefaultDevice>(two_by_two());
  EXPECT_TRUE(throws_with<std::runtime_error>([&] { kspmv::write_matrix_market(unwritable, A); },
                                              "kspmv: cannot open '" + unwritable + "' for writing"))
      << "CsrMatrix";
}

// A HostCsr whose arrays disagree would have the writer read past them: refused before a line.
TEST(IoBadArgument, WriteAnInconsistentHostCsr) {
  struct Case {
    const char* what;
    void (*breaks)(kspmv::HostCsr&);
    const char* needle;
  };
  const Case cases[] = {
      {"negative size", [](kspmv::HostCsr& h) { h.num_cols = -2; }, "HostCsr of 2 x -2: negative size"},
      {"an offset too many", [](kspmv::HostCsr& h) { h.row_offsets = {0, 0, 1, 2}; },
       "HostCsr of 2 x 2 has 4 row offsets (needs num_rows + 1)"},
      {"offsets short of the indices", [](kspmv::HostCsr& h) { h.row_offsets = {0, 1, 1}; },
       "HostCsr of 2 x 2: row offsets run from 0 to 1, not from 0 to the 2 column indices"},
      {"decreasing offsets", [](kspmv::HostCsr& h) { h.row_offsets = {0, 3, 2}; },
       "HostCsr of 2 x 2: row offsets decrease at row 1"},  // the middle one runs past the indices
      {"a value short", [](kspmv::HostCsr& h) { h.values.pop_back(); }, "HostCsr of 2 x 2 has 2 column indices but 1 values"},
      {"a column past the last", [](kspmv::HostCsr& h) { h.col_indices[1] = 2; },
       "HostCsr of 2 x 2: column index 2 (entry 1) is out of range [0, 2)"},
  };
  for (const Case& c : cases) {
    kspmv::HostCsr h = two_by_two();
    c.breaks(h);
    std::stringstream out;
    EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::write_matrix_market(out, h); },
                                                   std::string("kspmv::write_matrix_market: ") + c.needle))
        << c.what;
    EXPECT_EQ(out.str(), "") << c.what;
  }
}

TEST(IoBadArgument, ToDeviceNegativeSize) {
  kspmv::HostCsr h;
  h.num_rows = -1;
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::to_device<double, int, int, DefaultDevice>(h); },
                                                 "kspmv::to_device: HostCsr of -1 x 0 has 1 row offsets"));
}

TEST(IoBadArgument, ToDeviceNnzBeyondTheOffsetType) {
  kspmv::HostCsr h;
  h.num_rows = h.num_cols = 1;
  h.row_offsets = {0, 40000};
  h.col_indices.assign(40000, 0);
  h.values.assign(40000, 1.0);
  EXPECT_TRUE(throws_with<std::overflow_error>([&] { kspmv::to_device<double, int, short, DefaultDevice>(h); },
                                               "kspmv: nnz = 40000 does not fit in the requested index type"));
}

// Offsets and indices are CsrMatrix::from_host's to check (test_csr.cpp has every case).
TEST(IoBadArgument, ToDeviceContents) {
  kspmv::HostCsr decreasing = two_by_two();
  decreasing.row_offsets = {0, 3, 2};
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::to_device<double, int, int, DefaultDevice>(decreasing); },
                                                 "kspmv::CsrMatrix::from_host: row_offsets decrease at row 1 (3 then 2)"))
      << "decreasing offsets";
  kspmv::HostCsr column = two_by_two();
  column.col_indices[0] = 5;
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::to_device<double, int, int, DefaultDevice>(column); },
                                                 "kspmv::CsrMatrix::from_host: column index 5 in row 0 (entry 0) is out of range [0, 2)"))
      << "column out of range";
}

}  // namespace
}  // namespace kspmv_test
