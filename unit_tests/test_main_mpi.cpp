// The distributed tests' program: MPI, then Kokkos, initialised once; every rank runs every test
// (they are collective). Rank 0 prints GoogleTest's usual output, the other ranks their failures
// alone, each line marked with its rank; the program fails, on every rank, if a test failed on
// any rank, so mpirun's exit status is the suite's.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <string>

namespace {
class FailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit FailurePrinter(int rank) : m_rank(rank) {}
  // The test's name is kept here: GoogleTest calls OnTestPartResult holding the lock that
  // UnitTest::current_test_info() takes, so asking it there deadlocks.
  void OnTestStart(const ::testing::TestInfo& test) override {
    m_test = std::string(test.test_suite_name()) + "." + test.name();
  }
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::fprintf(stderr, "[rank %d] %s: %s:%d: %s\n", m_rank, m_test.c_str(),
                 result.file_name() ? result.file_name() : "?", result.line_number(), result.message());
  }

 private:
  int m_rank;
  std::string m_test = "?";
};
}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ::testing::InitGoogleTest(&argc, argv);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new FailurePrinter(rank));
  }
  Kokkos::initialize(argc, argv);
  int failed = 0;
  {
    if (rank == 0) {
      std::printf("kspmv distributed tests on %d MPI ranks\n", size);
      Kokkos::print_configuration(std::cout);
    }
    failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  }
  Kokkos::finalize();
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && any_failed && !failed) std::printf("a test failed on another rank: see the [rank r] lines\n");
  MPI_Finalize();
  return any_failed;
}
