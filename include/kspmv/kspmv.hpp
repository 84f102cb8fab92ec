#pragma once
/// \file kspmv.hpp
/// Umbrella header: everything a kspmv user needs.

#include "csr.hpp"
#include "generate.hpp"
#include "io.hpp"
#include "spmv.hpp"
