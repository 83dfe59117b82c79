#pragma once
// A gpusort::dist::Communicator over MPI (library gpusort::gpusort_mpi, built when CMake finds
// MPI). It works on a duplicate of the caller's communicator, so its messages never meet the
// caller's; MPI must be initialised before and finalised after it lives.
#include <memory>

#include <mpi.h>

#include "gpusort/dist.hpp"

namespace gpusort::dist {

std::unique_ptr<Communicator> mpi_communicator(MPI_Comm comm);

}  // namespace gpusort::dist
