#pragma once
// Distributed sorting: data spread over the ranks of a job (processes, possibly on several
// machines), each with its own gpusort Context, sorted as one array. After the call rank r holds
// the r-th range of the globally sorted data, exactly as many elements as it gave: the ranges are
// cut at exact global ranks, so duplicates never unbalance them. With SortOptions::stable, ties are
// broken by (rank, index): the sort is stable. An error on any rank makes every rank throw (none is
// left waiting). See docs/DISTRIBUTED.md for the design and its cost model.
//
// The ranks talk through a Communicator: gpusort/dist_mpi.hpp makes one from an MPI_Comm (host
// buffers; any device, PoCL included).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>

#include "gpusort/context.hpp"
#include "gpusort/device_array.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"
#include "gpusort/sort.hpp"

namespace gpusort::dist {

// What a distributed sort needs of the ranks' communication; every call is collective (all ranks
// make it, in the same order). Buffers are host memory.
class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // recv (size() * bytes) receives every rank's `bytes` bytes of send, in rank order.
  virtual void allgather(const void* send, std::size_t bytes, void* recv) = 0;
  // Element-wise sum over the ranks of `count` values, in place.
  virtual void allreduce_sum(std::uint64_t* values, std::size_t count) = 0;
  // Rank r receives send_bytes[r] bytes from send + send_offsets[r] of every rank; this rank
  // receives recv_bytes[r] bytes from rank r at recv + recv_offsets[r]. Any sizes (above 2^31).
  virtual void alltoallv(const void* send, const std::uint64_t* send_bytes, const std::uint64_t* send_offsets,
                         void* recv, const std::uint64_t* recv_bytes, const std::uint64_t* recv_offsets) = 0;
  virtual void barrier() = 0;
};

// Host-clock times of the phases on this rank (ms), the element counts, and the local sorts'
// reports. The last phase (final_sort_ms) is a sort of the received runs for host data (sort_host:
// final_sort is its report) and a merge of them for device data (sort_device: final_sort stays
// empty).
struct DistReport {
  std::uint64_t total = 0;     // elements over all ranks
  std::uint64_t sent_away = 0;  // elements this rank sent to other ranks
  double local_sort_ms = 0, split_ms = 0, exchange_ms = 0, final_sort_ms = 0, total_ms = 0;
  SortReport local_sort, final_sort;
};

// keys: this rank's n elements of `type` (values: n of value_bytes each, or nullptr with 0); on
// return they hold this rank's range of the sorted whole, n elements still. Collective. Host
// memory; the local sorts run on ctx's device with `options` (stable, order, algorithm...).
DistReport sort_host(Context& ctx, Communicator& comm, key_type type, void* keys, std::size_t n, void* values,
                     std::size_t value_bytes, const SortOptions& options = {});

// ---- data in device memory --------------------------------------------------------------------

// Moves slices of device buffers between ranks: the all-to-all of Communicator::alltoallv on this
// rank's device buffers (of the context the sort runs on). Collective.
class DeviceExchange {
 public:
  virtual ~DeviceExchange() = default;
  virtual void alltoallv(const DeviceBuffer& send, const std::uint64_t* send_bytes, const std::uint64_t* send_offsets,
                         DeviceBuffer& recv, const std::uint64_t* recv_bytes, const std::uint64_t* recv_offsets) = 0;
};

// Through host memory over `comm` (any device, any Communicator): each rank's slices go down to
// the host, through comm.alltoallv, and up again. `comm` must outlive the exchange.
std::unique_ptr<DeviceExchange> staged_exchange(Communicator& comm);

// The same sort on keys (and values) in device memory: the local sorts run on the device
// (gpusort::sort_device), the cut search runs a small kernel per bisection step (only the P - 1
// probe counts cross to the host), and `exchange` moves the slices. keys/values hold this rank's
// n elements before and its range of the sorted whole after. Collective.
// Its temporaries (the local sort's, the receive buffers, the merge's) come from one allocation
// per call on CUDA; elsewhere the receive buffers are allocated apart and the sorts take the
// device pool's temporaries (NVIDIA's OpenCL runs kernels on views of one allocation slowly).
DistReport sort_device(Context& ctx, Communicator& comm, DeviceExchange& exchange, key_type type, DeviceBuffer& keys,
                       std::size_t n, DeviceBuffer* values, std::size_t value_bytes, const SortOptions& options = {});

// Caller-supplied temporary storage (CUB style), for repeated sorts: the sort then allocates no
// device memory. Bytes for a rank with n elements in a job of `ranks` ranks; a rank given less
// throws Error(invalid_argument) on every rank before anything moves.
//   auto bytes = gpusort::dist::sort_device_temporary_bytes(ctx, type, n, 4, comm.size(), options);
//   gpusort::DeviceBuffer temp(ctx, bytes);
//   gpusort::dist::sort_device(ctx, comm, exchange, type, keys, n, &values, 4, options, temp);
std::size_t sort_device_temporary_bytes(Context& ctx, key_type type, std::size_t n, std::size_t value_bytes,
                                        int ranks, const SortOptions& options = {});
DistReport sort_device(Context& ctx, Communicator& comm, DeviceExchange& exchange, key_type type, DeviceBuffer& keys,
                       std::size_t n, DeviceBuffer* values, std::size_t value_bytes, const SortOptions& options,
                       DeviceBuffer& temporary_storage);

template <sortable_key K>
DistReport sort(Context& ctx, Communicator& comm, std::span<K> keys, const SortOptions& options = {}) {
  static_assert(!std::is_const_v<K>, "gpusort::dist::sort sorts in place: the keys must not be const");
  return sort_host(ctx, comm, key_type_of<std::remove_cv_t<K>>::value, keys.data(), keys.size(), nullptr, 0, options);
}

template <sortable_key K, class V>
DistReport sort_pairs(Context& ctx, Communicator& comm, std::span<K> keys, std::span<V> values,
                      const SortOptions& options = {}) {
  static_assert(!std::is_const_v<K> && !std::is_const_v<V>, "gpusort::dist::sort_pairs sorts in place");
  static_assert(std::is_trivially_copyable_v<V>, "values are moved as bytes");
  if (keys.size() != values.size())
    throw Error(errc::invalid_argument, "dist::sort_pairs: " + std::to_string(keys.size()) + " keys but " +
                                            std::to_string(values.size()) + " values");
  return sort_host(ctx, comm, key_type_of<std::remove_cv_t<K>>::value, keys.data(), keys.size(), values.data(),
                   sizeof(V), options);
}

}  // namespace gpusort::dist
