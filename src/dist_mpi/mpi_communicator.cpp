// gpusort::dist::Communicator over MPI (gpusort/dist_mpi.hpp).
#include <algorithm>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "gpusort/dist_mpi.hpp"

namespace gpusort::dist {
namespace {

void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw Error(errc::device_error, std::string("MPI: ") + what + " failed: " + text);
}

// MPI counts are int: large messages go as pieces of at most 1 GiB.
constexpr std::uint64_t kPiece = std::uint64_t(1) << 30;

class MpiCommunicator final : public Communicator {
 public:
  explicit MpiCommunicator(MPI_Comm comm) {
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (!initialised) throw Error(errc::invalid_argument, "MPI is not initialised (call MPI_Init first)");
    check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  ~MpiCommunicator() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Comm_free(&comm_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void allgather(const void* send, std::size_t bytes, void* recv) override {
    if (bytes > std::size_t(INT_MAX)) throw Error(errc::invalid_argument, "MPI allgather of more than 2^31 bytes");
    check(MPI_Allgather(send, int(bytes), MPI_BYTE, recv, int(bytes), MPI_BYTE, comm_), "MPI_Allgather");
  }

  void allreduce_sum(std::uint64_t* values, std::size_t count) override {
    if (count > std::size_t(INT_MAX)) throw Error(errc::invalid_argument, "MPI allreduce of more than 2^31 values");
    check(MPI_Allreduce(MPI_IN_PLACE, values, int(count), MPI_UINT64_T, MPI_SUM, comm_), "MPI_Allreduce");
  }

  void alltoallv(const void* send, const std::uint64_t* send_bytes, const std::uint64_t* send_offsets, void* recv,
                 const std::uint64_t* recv_bytes, const std::uint64_t* recv_offsets) override {
    if (send_bytes[rank_] != recv_bytes[rank_])
      throw Error(errc::invalid_argument, "alltoallv: this rank sends itself a different size than it receives");
    std::vector<MPI_Request> requests;
    // Posted requests must finish before their buffers can go: on an error, cancel and wait them.
    auto post = [&](int rc, const char* what) {
      if (rc == MPI_SUCCESS) return;
      for (MPI_Request& r : requests) MPI_Cancel(&r);
      MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
      check(rc, what);
    };
    const auto* s = static_cast<const unsigned char*>(send);
    auto* r = static_cast<unsigned char*>(recv);
    for (int peer = 0; peer < size_; ++peer) {
      if (peer == rank_) continue;
      for (std::uint64_t at = 0, piece = 0; at < recv_bytes[peer]; at += kPiece, ++piece) {
        MPI_Request q = MPI_REQUEST_NULL;
        const int rc = MPI_Irecv(r + recv_offsets[peer] + at, int(std::min(kPiece, recv_bytes[peer] - at)), MPI_BYTE,
                                 peer, int(piece), comm_, &q);
        post(rc, "MPI_Irecv");
        requests.push_back(q);
      }
    }
    for (int peer = 0; peer < size_; ++peer) {
      if (peer == rank_) continue;
      for (std::uint64_t at = 0, piece = 0; at < send_bytes[peer]; at += kPiece, ++piece) {
        MPI_Request q = MPI_REQUEST_NULL;
        const int rc = MPI_Isend(s + send_offsets[peer] + at, int(std::min(kPiece, send_bytes[peer] - at)), MPI_BYTE,
                                 peer, int(piece), comm_, &q);
        post(rc, "MPI_Isend");
        requests.push_back(q);
      }
    }
    if (send_bytes[rank_]) std::memmove(r + recv_offsets[rank_], s + send_offsets[rank_], send_bytes[rank_]);
    check(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  }

  void barrier() override { check(MPI_Barrier(comm_), "MPI_Barrier"); }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
};

}  // namespace

std::unique_ptr<Communicator> mpi_communicator(MPI_Comm comm) { return std::make_unique<MpiCommunicator>(comm); }

}  // namespace gpusort::dist
