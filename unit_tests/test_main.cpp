// Kokkos is initialised once for the whole test program; every test runs on every enabled
// backend through the typed-test list in backends.hpp.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::initialize(argc, argv);
  int result = 0;
  {
    Kokkos::print_configuration(std::cout);
    result = RUN_ALL_TESTS();
  }
  Kokkos::finalize();
  return result;
}
