// Matrix Market reader and writer. Strict by design: every deviation from the coordinate
// format is reported with the file and line rather than guessed around, because a silently
// misread matrix gives wrong solver results far from the cause.

#include "kspmv/io.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <istream>
#include <limits>
#include <ostream>
#include <sstream>
#include <unistd.h>
#include <utility>

namespace kspmv {
namespace {

enum class Field { real, integer, pattern, complex };
enum class Symmetry { general, symmetric, skew_symmetric, hermitian };

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> tokens;
  std::istringstream s(line);
  std::string t;
  while (s >> t) tokens.push_back(t);
  return tokens;
}

bool is_blank(const std::string& line) {
  return std::all_of(line.begin(), line.end(), [](unsigned char c) { return std::isspace(c); });
}

// Bytes of this machine's memory (0 if unknown): the bound on what a size line may make us allocate.
unsigned long long physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? (unsigned long long)pages * (unsigned long long)page : 0ull;
}

class Parser {
 public:
  Parser(std::istream& in, std::string name, MatrixMarketLimits limits)
      : m_in(in), m_name(std::move(name)), m_limits(std::move(limits)) {}

  HostCsr parse() {
    parse_header();
    parse_size();
    parse_entries();
    return assemble();
  }

 private:
  struct Entry {
    int64_t row, col;
    double value, imaginary;
  };

  std::istream& m_in;
  std::string m_name;
  MatrixMarketLimits m_limits;
  long long m_line_number = 0;
  std::string m_line;
  Field m_field = Field::real;
  Symmetry m_symmetry = Symmetry::general;
  int64_t m_rows = 0, m_cols = 0, m_declared = 0;
  std::vector<Entry> m_entries;

  [[noreturn]] void fail(const std::string& problem, long long line = -1) const {
    throw MatrixMarketError(m_name, line < 0 ? m_line_number : line, problem);
  }

  bool next_line() {
    if (!std::getline(m_in, m_line)) return false;
    ++m_line_number;
    if (!m_line.empty() && m_line.back() == '\r') m_line.pop_back();  // files written on Windows
    return true;
  }

  // Next line that is neither a comment nor blank.
  bool next_data_line() {
    while (next_line()) {
      if (!m_line.empty() && m_line[0] == '%') continue;
      if (is_blank(m_line)) continue;
      return true;
    }
    return false;
  }

  int64_t parse_integer(const std::string& token, const char* what) const {
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(token.c_str(), &end, 10);
    if (end == token.c_str() || *end != '\0') fail(std::string(what) + " '" + token + "' is not an integer");
    if (errno == ERANGE) fail(std::string(what) + " '" + token + "' is out of range");
    return v;
  }

  double parse_real(const std::string& token) const {
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(token.c_str(), &end);
    if (end == token.c_str() || *end != '\0') fail("value '" + token + "' is not a number");
    if (errno == ERANGE && std::abs(v) > 1) fail("value '" + token + "' overflows double");
    return v;
  }

  void parse_header() {
    if (!next_line()) fail("empty file: expected a '%%MatrixMarket matrix coordinate ...' header", 1);
    const auto tokens = split(m_line);
    if (tokens.empty() || tokens[0] != "%%MatrixMarket") {
      fail("not a Matrix Market file: the first line must start with '%%MatrixMarket'");
    }
    if (tokens.size() != 5) {
      fail("malformed header: expected '%%MatrixMarket matrix coordinate <field> <symmetry>', got '" + m_line + "'");
    }
    const std::string object = lower(tokens[1]), format = lower(tokens[2]), field = lower(tokens[3]),
                      symmetry = lower(tokens[4]);
    if (object != "matrix") fail("unsupported object '" + tokens[1] + "': only 'matrix' is supported");
    if (format == "array") fail("unsupported format 'array' (dense): only 'coordinate' (sparse) is supported");
    if (format != "coordinate") fail("malformed header: unknown format '" + tokens[2] + "'");
    if (field == "real" || field == "double") {
      m_field = Field::real;
    } else if (field == "integer") {
      m_field = Field::integer;
    } else if (field == "pattern") {
      m_field = Field::pattern;
    } else if (field == "complex") {
      m_field = Field::complex;
    } else {
      fail("malformed header: unknown field '" + tokens[3] + "'");
    }
    if (symmetry == "general") {
      m_symmetry = Symmetry::general;
    } else if (symmetry == "symmetric") {
      m_symmetry = Symmetry::symmetric;
    } else if (symmetry == "skew-symmetric") {
      m_symmetry = Symmetry::skew_symmetric;
    } else if (symmetry == "hermitian") {
      if (m_field != Field::complex) fail("symmetry 'hermitian' needs field 'complex', not '" + tokens[3] + "'");
      m_symmetry = Symmetry::hermitian;
    } else {
      fail("malformed header: unknown symmetry '" + tokens[4] + "'");
    }
  }

  void parse_size() {
    if (!next_data_line()) fail("unexpected end of file: expected the size line 'rows columns entries'", m_line_number + 1);
    const auto tokens = split(m_line);
    if (tokens.size() != 3) fail("malformed size line: expected 'rows columns entries', got '" + m_line + "'");
    m_rows = parse_integer(tokens[0], "row count");
    m_cols = parse_integer(tokens[1], "column count");
    m_declared = parse_integer(tokens[2], "entry count");
    if (m_rows < 0 || m_cols < 0 || m_declared < 0) fail("negative size in '" + m_line + "'");
    if (m_symmetry != Symmetry::general && m_rows != m_cols) {
      fail("a symmetric, skew-symmetric or hermitian matrix must be square, but the size is " + std::to_string(m_rows) + " x " +
           std::to_string(m_cols));
    }
    if (static_cast<long double>(m_declared) > static_cast<long double>(m_rows) * static_cast<long double>(m_cols)) {
      fail("entry count " + std::to_string(m_declared) + " exceeds rows x columns");
    }
    // Before anything is allocated for them: the sizes the requested types can hold, and the
    // row offsets (8 bytes a row, whatever the entries) against this machine's memory.
    for (const auto& [what, count] : {std::make_pair("row", m_rows), std::make_pair("column", m_cols)}) {
      if (count > m_limits.max_rows) {
        fail(std::string(what) + " count " + std::to_string(count) + " does not fit in the index type " +
             m_limits.index_type + " (at most " + std::to_string(m_limits.max_rows) + ")");
      }
    }
    if (m_declared > m_limits.max_entries) {
      fail("entry count " + std::to_string(m_declared) + " does not fit in the offset type " + m_limits.offset_type +
           " (at most " + std::to_string(m_limits.max_entries) + ")");
    }
    const unsigned long long memory = physical_memory_bytes();
    const long double offsets_bytes = (static_cast<long double>(m_rows) + 1) * sizeof(int64_t);
    if (memory > 0 && offsets_bytes > static_cast<long double>(memory)) {
      std::ostringstream s;
      s << std::fixed << std::setprecision(1) << "the row offsets of " << m_rows << " rows need " << double(offsets_bytes) * 1e-9
        << " GB, more than this machine's " << double(memory) * 1e-9 << " GB of memory";
      fail(s.str());
    }
  }

  void parse_entries() {
    const size_t expected_tokens = m_field == Field::pattern ? 2 : m_field == Field::complex ? 4 : 3;
    // Do not trust a huge declared count with the allocation before the entries are seen.
    m_entries.reserve(static_cast<size_t>(std::min<int64_t>(m_declared, int64_t(1) << 24)));
    for (int64_t e = 0; e < m_declared; ++e) {
      if (!next_data_line()) {
        fail("unexpected end of file: " + std::to_string(e) + " of " + std::to_string(m_declared) +
                 " declared entries read",
             m_line_number + 1);
      }
      const auto tokens = split(m_line);
      if (tokens.size() != expected_tokens) {
        fail("expected " + std::to_string(expected_tokens) + " fields ('row column" +
             (expected_tokens == 4 ? " real imaginary" : expected_tokens == 3 ? " value" : "") + "'), got " +
             std::to_string(tokens.size()) + ": '" + m_line + "'");
      }
      const int64_t row = parse_integer(tokens[0], "row index");
      const int64_t col = parse_integer(tokens[1], "column index");
      if (row < 1 || row > m_rows) {
        fail("row index " + tokens[0] + " out of range [1, " + std::to_string(m_rows) + "]");
      }
      if (col < 1 || col > m_cols) {
        fail("column index " + tokens[1] + " out of range [1, " + std::to_string(m_cols) + "]");
      }
      double value = 1.0, imaginary = 0.0;
      if (m_field == Field::real || m_field == Field::complex) value = parse_real(tokens[2]);
      if (m_field == Field::complex) imaginary = parse_real(tokens[3]);
      if (m_field == Field::integer) value = static_cast<double>(parse_integer(tokens[2], "value"));
      if (m_symmetry != Symmetry::general && col > row) {
        fail("entry (" + tokens[0] + ", " + tokens[1] +
             ") lies above the diagonal, but a symmetric file stores only the lower triangle");
      }
      if (m_symmetry == Symmetry::skew_symmetric && col == row) {
        fail("diagonal entry (" + tokens[0] + ", " + tokens[1] + ") in a skew-symmetric matrix");
      }
      if (m_symmetry == Symmetry::hermitian && col == row && imaginary != 0.0) {
        fail("diagonal entry (" + tokens[0] + ", " + tokens[1] + ") of a hermitian matrix has imaginary part " +
             tokens[3] + " (it must be real)");
      }
      m_entries.push_back({row - 1, col - 1, value, imaginary});
      if (row != col) {
        // The mirrored entry: a_ji = a_ij (symmetric), -a_ij (skew-symmetric), conj(a_ij) (hermitian).
        if (m_symmetry == Symmetry::symmetric) m_entries.push_back({col - 1, row - 1, value, imaginary});
        if (m_symmetry == Symmetry::skew_symmetric) m_entries.push_back({col - 1, row - 1, -value, -imaginary});
        if (m_symmetry == Symmetry::hermitian) m_entries.push_back({col - 1, row - 1, value, -imaginary});
      }
    }
    if (next_data_line()) {
      fail("more entries than the " + std::to_string(m_declared) + " declared in the size line");
    }
  }

  HostCsr assemble() {
    std::sort(m_entries.begin(), m_entries.end(),
              [](const Entry& a, const Entry& b) { return a.row != b.row ? a.row < b.row : a.col < b.col; });
    HostCsr h;
    h.num_rows = m_rows;
    h.num_cols = m_cols;
    h.row_offsets.assign(static_cast<size_t>(m_rows) + 1, 0);
    h.col_indices.reserve(m_entries.size());
    h.values.reserve(m_entries.size());
    const bool complex = m_field == Field::complex;
    h.complex_field = complex;
    if (complex) h.imaginary.reserve(m_entries.size());
    for (size_t k = 0; k < m_entries.size(); ++k) {
      const Entry& e = m_entries[k];
      if (k > 0 && e.row == m_entries[k - 1].row && e.col == m_entries[k - 1].col) {
        h.values.back() += e.value;  // duplicates are summed, as the format's users expect
        if (complex) h.imaginary.back() += e.imaginary;
        continue;
      }
      h.col_indices.push_back(e.col);
      h.values.push_back(e.value);
      if (complex) h.imaginary.push_back(e.imaginary);
      ++h.row_offsets[static_cast<size_t>(e.row) + 1];
    }
    for (size_t i = 0; i < static_cast<size_t>(m_rows); ++i) h.row_offsets[i + 1] += h.row_offsets[i];
    return h;
  }
};

// The writer walks the rows by their offsets into the other arrays: a HostCsr whose arrays
// disagree would be read past their ends, so it is refused before a line is written.
void check_writable(const HostCsr& m) {
  const auto fail = [](const std::string& what) { throw std::invalid_argument("kspmv::write_matrix_market: " + what); };
  const std::string shape = "HostCsr of " + std::to_string(m.num_rows) + " x " + std::to_string(m.num_cols);
  const size_t nnz = m.col_indices.size();
  if (m.num_rows < 0 || m.num_cols < 0) fail(shape + ": negative size");
  if (m.row_offsets.size() != static_cast<size_t>(m.num_rows) + 1) {
    fail(shape + " has " + std::to_string(m.row_offsets.size()) + " row offsets (needs num_rows + 1)");
  }
  if (m.row_offsets.front() != 0 || m.row_offsets.back() != static_cast<int64_t>(nnz)) {
    fail(shape + ": row offsets run from " + std::to_string(m.row_offsets.front()) + " to " +
         std::to_string(m.row_offsets.back()) + ", not from 0 to the " + std::to_string(nnz) + " column indices");
  }
  for (size_t i = 0; i + 1 < m.row_offsets.size(); ++i) {
    if (m.row_offsets[i + 1] < m.row_offsets[i]) fail(shape + ": row offsets decrease at row " + std::to_string(i));
  }
  if (m.values.size() != nnz) {
    fail(shape + " has " + std::to_string(nnz) + " column indices but " + std::to_string(m.values.size()) + " values");
  }
  if (m.is_complex() && m.imaginary.size() != m.values.size()) {
    fail("a complex HostCsr has " + std::to_string(m.values.size()) + " values but " +
         std::to_string(m.imaginary.size()) + " imaginary parts");
  }
  for (size_t k = 0; k < nnz; ++k) {
    if (m.col_indices[k] < 0 || m.col_indices[k] >= m.num_cols) {
      fail(shape + ": column index " + std::to_string(m.col_indices[k]) + " (entry " + std::to_string(k) +
           ") is out of range [0, " + std::to_string(m.num_cols) + ")");
    }
  }
}

}  // namespace

HostCsr read_matrix_market(std::istream& in, const std::string& name, const MatrixMarketLimits& limits) {
  return Parser(in, name, limits).parse();
}

HostCsr read_matrix_market(const std::string& path, const MatrixMarketLimits& limits) {
  std::ifstream in(path);
  if (!in) throw MatrixMarketError(path, 0, "cannot open file");
  return read_matrix_market(in, path, limits);
}

void write_matrix_market(std::ostream& out, const HostCsr& m) {
  check_writable(m);
  const bool complex = m.is_complex();
  out << "%%MatrixMarket matrix coordinate " << (complex ? "complex" : "real") << " general\n";
  out << "% written by kspmv\n";
  out << m.num_rows << ' ' << m.num_cols << ' ' << m.col_indices.size() << '\n';
  out << std::setprecision(17);
  for (int64_t i = 0; i < m.num_rows; ++i) {
    for (int64_t k = m.row_offsets[static_cast<size_t>(i)]; k < m.row_offsets[static_cast<size_t>(i) + 1]; ++k) {
      out << i + 1 << ' ' << m.col_indices[static_cast<size_t>(k)] + 1 << ' ' << m.values[static_cast<size_t>(k)];
      if (complex) out << ' ' << m.imaginary[static_cast<size_t>(k)];
      out << '\n';
    }
  }
}

void write_matrix_market(const std::string& path, const HostCsr& m) {
  check_writable(m);  // before the file is created
  std::ofstream out(path);
  if (!out) throw std::runtime_error("kspmv: cannot open '" + path + "' for writing");
  write_matrix_market(out, m);
  out.flush();
  if (!out) throw std::runtime_error("kspmv: error while writing '" + path + "'");
}

}  // namespace kspmv
