#pragma once
/// \file kspmv.hpp
/// Umbrella header: everything a kspmv user needs on one device. The distributed SpMV over MPI
/// (distributed.hpp) is apart: it needs MPI and the target kspmv::distributed.

#include "blocked_ell.hpp"
#include "cg.hpp"
#include "convert.hpp"
#include "coo.hpp"
#include "csr.hpp"
#include "csr_balanced.hpp"
#include "csr16.hpp"
#include "csr_uniform.hpp"
#include "csr_coded.hpp"
#include "dia.hpp"
#include "ell.hpp"
#include "generate.hpp"
#include "hyb.hpp"
#include "io.hpp"
#include "plan.hpp"
#include "spmv.hpp"
#include "spmv_options.hpp"
