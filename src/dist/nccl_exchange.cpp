// gpusort::dist::nccl_exchange (gpusort/dist_nccl.hpp). NCCL's C ABI is declared here (the few
// entry points used), and libnccl is opened with dlopen, so no NCCL header or library is needed
// to build gpusort.
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "dist/dist_steps.hpp"
#include "gpusort/dist_nccl.hpp"
#include "runtime/device.hpp"

namespace gpusort::dist {
namespace {

// NCCL's ABI (nccl.h, stable since 2.x): results are ints (0 = success), communicators opaque.
using nccl_result = int;
using nccl_comm = void*;
struct NcclUniqueId {
  char internal[128];
};
constexpr int kNcclUint8 = 1;  // ncclUint8 in ncclDataType_t

struct NcclApi {
  nccl_result (*get_unique_id)(NcclUniqueId*) = nullptr;
  nccl_result (*comm_init_rank)(nccl_comm*, int, NcclUniqueId, int) = nullptr;
  nccl_result (*comm_destroy)(nccl_comm) = nullptr;
  nccl_result (*group_start)() = nullptr;
  nccl_result (*group_end)() = nullptr;
  nccl_result (*send)(const void*, std::size_t, int, int, nccl_comm, void*) = nullptr;
  nccl_result (*recv)(void*, std::size_t, int, int, nccl_comm, void*) = nullptr;
  const char* (*error_string)(nccl_result) = nullptr;
  std::string missing;  // why it could not be loaded; empty when loaded
};

// Loaded once per process; never unloaded (communicators may live until exit).
const NcclApi& nccl_api() {
  static NcclApi api;
  static std::once_flag once;
  std::call_once(once, [] {
    void* lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen("libnccl.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      api.missing = "libnccl.so.2 not found (install NCCL, e.g. the nvidia-nccl-cu13 wheel, and put it on the library path)";
      return;
    }
    auto sym = [&](const char* name) {
      void* p = dlsym(lib, name);
      if (!p && api.missing.empty()) api.missing = std::string("libnccl lacks ") + name;
      return p;
    };
    api.get_unique_id = reinterpret_cast<decltype(api.get_unique_id)>(sym("ncclGetUniqueId"));
    api.comm_init_rank = reinterpret_cast<decltype(api.comm_init_rank)>(sym("ncclCommInitRank"));
    api.comm_destroy = reinterpret_cast<decltype(api.comm_destroy)>(sym("ncclCommDestroy"));
    api.group_start = reinterpret_cast<decltype(api.group_start)>(sym("ncclGroupStart"));
    api.group_end = reinterpret_cast<decltype(api.group_end)>(sym("ncclGroupEnd"));
    api.send = reinterpret_cast<decltype(api.send)>(sym("ncclSend"));
    api.recv = reinterpret_cast<decltype(api.recv)>(sym("ncclRecv"));
    api.error_string = reinterpret_cast<decltype(api.error_string)>(sym("ncclGetErrorString"));
  });
  return api;
}

void check(const NcclApi& api, nccl_result r, const char* what) {
  if (r == 0) return;
  throw Error(errc::device_error, std::string("NCCL: ") + what + " failed: " +
                                      (api.error_string ? api.error_string(r) : std::to_string(r)));
}

class NcclExchange final : public DeviceExchange {
 public:
  NcclExchange(Context& ctx, Communicator& comm) : device_(ctx.runtime_device()), comm_(comm), api_(nccl_api()) {
    detail::collectively(comm_, [&] {  // every rank fails alike, none waits in the id exchange
      if (!api_.missing.empty()) throw Error(errc::unsupported, "NCCL exchange: " + api_.missing);
      if (device_.description().backend != "cuda")
        throw Error(errc::unsupported, "NCCL exchange: " + device_.description().id + " is not a CUDA device");
    });
    setenv("NCCL_NVLS_ENABLE", "0", 0);  // no NVLink multicast unless asked for
    NcclUniqueId id{};
    if (comm_.rank() == 0) check(api_, api_.get_unique_id(&id), "ncclGetUniqueId");
    std::vector<NcclUniqueId> all(std::size_t(comm_.size()));
    comm_.allgather(&id, sizeof id, all.data());
    device_.with_cuda_context(
        [&] { check(api_, api_.comm_init_rank(&nccl_, comm_.size(), all[0], comm_.rank()), "ncclCommInitRank"); });
  }
  ~NcclExchange() override {
    if (!nccl_) return;
    try {
      device_.with_cuda_context([&] { api_.comm_destroy(nccl_); });
    } catch (...) {
    }
  }

  void alltoallv(const DeviceBuffer& send, const std::uint64_t* send_bytes, const std::uint64_t* send_offsets,
                 DeviceBuffer& recv, const std::uint64_t* recv_bytes, const std::uint64_t* recv_offsets) override {
    const std::uint64_t from = device_.cuda_address(send.runtime_buffer());
    const std::uint64_t to = device_.cuda_address(recv.runtime_buffer());
    void* stream = device_.cuda_stream();
    device_.with_cuda_context([&] {
      check(api_, api_.group_start(), "ncclGroupStart");
      nccl_result r = 0;
      for (int peer = 0; peer < comm_.size() && r == 0; ++peer) {
        if (send_bytes[peer])
          r = api_.send(reinterpret_cast<const void*>(from + send_offsets[peer]), send_bytes[peer], kNcclUint8, peer,
                        nccl_, stream);
        if (r == 0 && recv_bytes[peer])
          r = api_.recv(reinterpret_cast<void*>(to + recv_offsets[peer]), recv_bytes[peer], kNcclUint8, peer, nccl_,
                        stream);
      }
      const nccl_result end = api_.group_end();  // always closes the group
      check(api_, r, "ncclSend/ncclRecv");
      check(api_, end, "ncclGroupEnd");
    });
    device_.finish();  // the caller may read the buffers next, from any queue
  }

 private:
  rt::Device& device_;
  Communicator& comm_;
  const NcclApi& api_;
  nccl_comm nccl_ = nullptr;
};

}  // namespace

std::unique_ptr<DeviceExchange> nccl_exchange(Context& ctx, Communicator& comm) {
  return std::make_unique<NcclExchange>(ctx, comm);
}

}  // namespace gpusort::dist
