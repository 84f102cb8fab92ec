#pragma once
// MPI helpers of the distributed SpMV: the communicator a distributed matrix owns, sends and
// receives of any size, and the agreement that makes every rank throw when one rank's input is
// bad (a rank that throws alone would leave the others waiting in the next collective).
//
// Only this header and the distributed ones include <mpi.h>; they need KSPMV_HAVE_MPI, which
// the CMake target kspmv::distributed defines.

#include <mpi.h>

#include "../io.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace kspmv {
namespace impl {

// Throws std::runtime_error naming the call and MPI's reason. The matrix's communicator returns
// errors (MPI_ERRORS_RETURN) rather than aborting, so they arrive here.
inline void mpi_check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char reason[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, reason, &length);
  throw std::runtime_error(std::string("kspmv: ") + call + " failed: " + std::string(reason, size_t(length)));
}

inline int mpi_rank(MPI_Comm comm) {
  int rank = 0;
  mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  return rank;
}

inline int mpi_size(MPI_Comm comm) {
  int size = 0;
  mpi_check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  return size;
}

// A duplicate of the caller's communicator, so that the halo messages never meet the
// application's, with the byte type used for values (MPI counts are int: counting in values
// rather than bytes moves up to 2^31 - 1 of them in one message). Freed with the last copy of
// the matrix, unless MPI has been finalised by then (freeing after MPI_Finalize is an error).
class OwnedCommunicator {
 public:
  OwnedCommunicator(MPI_Comm user, size_t value_bytes) {
    mpi_check(MPI_Comm_dup(user, &m_comm), "MPI_Comm_dup");
    mpi_check(MPI_Comm_set_errhandler(m_comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    mpi_check(MPI_Type_contiguous(int(value_bytes), MPI_BYTE, &m_value_type), "MPI_Type_contiguous");
    mpi_check(MPI_Type_commit(&m_value_type), "MPI_Type_commit");
  }
  OwnedCommunicator(const OwnedCommunicator&) = delete;
  OwnedCommunicator& operator=(const OwnedCommunicator&) = delete;
  ~OwnedCommunicator() {
    int finalized = 1;
    MPI_Finalized(&finalized);
    if (finalized) return;
    MPI_Type_free(&m_value_type);
    MPI_Comm_free(&m_comm);
  }
  MPI_Comm comm() const { return m_comm; }
  MPI_Datatype value_type() const { return m_value_type; }

 private:
  MPI_Comm m_comm = MPI_COMM_NULL;
  MPI_Datatype m_value_type = MPI_DATATYPE_NULL;
};

// Blocking transfers of any number of bytes, in pieces MPI's int counts can hold. Both sides
// must know the size beforehand.
constexpr size_t mpi_piece_bytes = size_t(1) << 30;

inline void send_bytes(const void* data, size_t bytes, int dest, int tag, MPI_Comm comm) {
  const char* p = static_cast<const char*>(data);
  for (size_t done = 0; done < bytes; done += mpi_piece_bytes) {
    const int piece = int(std::min(mpi_piece_bytes, bytes - done));
    mpi_check(MPI_Send(p + done, piece, MPI_BYTE, dest, tag, comm), "MPI_Send");
  }
}

inline void recv_bytes(void* data, size_t bytes, int source, int tag, MPI_Comm comm) {
  char* p = static_cast<char*>(data);
  for (size_t done = 0; done < bytes; done += mpi_piece_bytes) {
    const int piece = int(std::min(mpi_piece_bytes, bytes - done));
    mpi_check(MPI_Recv(p + done, piece, MPI_BYTE, source, tag, comm, MPI_STATUS_IGNORE), "MPI_Recv");
  }
}

inline void broadcast_string(std::string& s, int root, MPI_Comm comm) {
  int64_t length = int64_t(s.size());
  mpi_check(MPI_Bcast(&length, 1, MPI_INT64_T, root, comm), "MPI_Bcast");
  s.resize(size_t(length));
  for (int64_t done = 0; done < length; done += int64_t(mpi_piece_bytes)) {
    const int piece = int(std::min<int64_t>(int64_t(mpi_piece_bytes), length - done));
    mpi_check(MPI_Bcast(&s[size_t(done)], piece, MPI_CHAR, root, comm), "MPI_Bcast");
  }
}

// What a step of a collective construction threw on one rank, to be thrown on all.
struct RankError {
  enum Kind : int { none = 0, invalid_argument, overflow_error, matrix_market, runtime_error };
  Kind kind = none;
  std::string message;
  std::string file;  // MatrixMarketError only
  long long line = 0;
};

// Runs step() (local work only: no collective inside, or a rank that throws would leave the
// others waiting in it) and then, collectively, makes every rank throw the exception of the
// lowest rank whose step threw: std::invalid_argument, std::overflow_error and
// MatrixMarketError keep their type, anything else becomes std::runtime_error; ranks other
// than the one that threw add " (on MPI rank r)" to the message.
template <class Step>
void on_every_rank(MPI_Comm comm, Step&& step) {
  RankError error;
  try {
    step();
  } catch (const MatrixMarketError& e) {
    const std::string what = e.what();
    const std::string prefix = e.file() + ":" + std::to_string(e.line()) + ": ";
    error = {RankError::matrix_market, what.compare(0, prefix.size(), prefix) == 0 ? what.substr(prefix.size()) : what,
             e.file(), e.line()};
  } catch (const std::invalid_argument& e) {
    error = {RankError::invalid_argument, e.what(), "", 0};
  } catch (const std::overflow_error& e) {
    error = {RankError::overflow_error, e.what(), "", 0};
  } catch (const std::exception& e) {
    error = {RankError::runtime_error, e.what(), "", 0};
  }
  const int rank = mpi_rank(comm);
  int mine = error.kind == RankError::none ? INT_MAX : rank, first = INT_MAX;
  mpi_check(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (first == INT_MAX) return;
  int kind = int(error.kind);
  mpi_check(MPI_Bcast(&kind, 1, MPI_INT, first, comm), "MPI_Bcast");
  mpi_check(MPI_Bcast(&error.line, 1, MPI_LONG_LONG, first, comm), "MPI_Bcast");
  broadcast_string(error.message, first, comm);
  broadcast_string(error.file, first, comm);
  const std::string where = rank == first ? "" : " (on MPI rank " + std::to_string(first) + ")";
  switch (RankError::Kind(kind)) {
    case RankError::invalid_argument: throw std::invalid_argument(error.message + where);
    case RankError::overflow_error: throw std::overflow_error(error.message + where);
    case RankError::matrix_market: throw MatrixMarketError(error.file, error.line, error.message + where);
    default: throw std::runtime_error(error.message + where);
  }
}

}  // namespace impl
}  // namespace kspmv
