#pragma once
// A gpusort::dist::DeviceExchange over NCCL: grouped ncclSend / ncclRecv of the device buffers'
// slices on the context's own CUDA stream, GPU to GPU (NVLink, InfiniBand), no host copy. For the
// CUDA backend, one rank per GPU (NCCL refuses two ranks on one GPU: ranks sharing a GPU use
// staged_exchange). libnccl.so.2 is opened at run time, like libcuda, so gpusort builds and runs
// without it; nccl_exchange then throws Error(unsupported). The NCCL unique id goes from rank 0 to
// the others through `comm` (e.g. gpusort/dist_mpi.hpp), which must outlive the exchange. NVLink
// multicast (NVLS) is turned off (NCCL_NVLS_ENABLE=0) unless the environment sets it.
#include <memory>

#include "gpusort/context.hpp"
#include "gpusort/dist.hpp"

namespace gpusort::dist {

std::unique_ptr<DeviceExchange> nccl_exchange(Context& ctx, Communicator& comm);

}  // namespace gpusort::dist
