#pragma once
// Loads libgpusort_cub_peer.so (bench/cub_peer.cu, cub_records.cu, cub_segmented.cu,
// cub_topk.cu) with dlopen, so
// the benchmarks need no CUDA to build or run: when the library or a CUDA device is missing, the CUB
// rows are left out.
#include <dlfcn.h>
#include <unistd.h>

#include <string>

#include "cub_peer.h"

namespace bench {

struct CubPeer {
  void* handle = nullptr;
  cub_peer_init_fn init = nullptr;
  cub_sort_keys_fn radix_keys = nullptr, merge_keys = nullptr;
  cub_sort_pairs_fn radix_pairs = nullptr, merge_pairs = nullptr;
  cub_copy_fn copy_ms = nullptr;
  cub_sort_records_fn sort_records = nullptr;
  cub_seg_open_fn seg_open = nullptr;
  cub_seg_sort_fn seg_sort = nullptr;
  cub_seg_close_fn seg_close = nullptr;
  cub_topk_entries_fn topk_entries = nullptr;
  cub_topk_open_fn topk_open = nullptr;
  cub_topk_fn topk = nullptr;
  cub_topk_close_fn topk_close = nullptr;
  std::string device_name;
  std::string cub_version;  // "3.0.1": the CUB headers the peer was built with
  std::string why_absent;  // set when not usable
  bool usable() const { return handle && why_absent.empty(); }

  static std::string exe_dir() {
    char buf[4096];
    ssize_t len = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (len <= 0) return ".";
    std::string p(buf, static_cast<std::size_t>(len));
    auto slash = p.rfind('/');
    return slash == std::string::npos ? "." : p.substr(0, slash);
  }

  // path empty: $GPUSORT_CUB_PEER, else libgpusort_cub_peer.so next to the executable.
  void load(std::string path, int cuda_device) {
    if (path.empty())
      if (const char* env = std::getenv("GPUSORT_CUB_PEER"); env && *env) path = env;
    if (path.empty()) path = exe_dir() + "/libgpusort_cub_peer.so";
    if (access(path.c_str(), R_OK) != 0) {
      why_absent = path + " not found (built only when CMake finds the CUDA toolkit)";
      return;
    }
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* e = dlerror();
      why_absent = std::string("dlopen failed: ") + (e ? e : "?");
      return;
    }
    auto abi = reinterpret_cast<cub_peer_abi_fn>(dlsym(handle, "cub_peer_abi"));
    auto version = reinterpret_cast<cub_peer_cub_version_fn>(dlsym(handle, "cub_peer_cub_version"));
    init = reinterpret_cast<cub_peer_init_fn>(dlsym(handle, "cub_peer_init"));
    radix_keys = reinterpret_cast<cub_sort_keys_fn>(dlsym(handle, "cub_radix_sort_keys"));
    merge_keys = reinterpret_cast<cub_sort_keys_fn>(dlsym(handle, "cub_merge_sort_keys"));
    radix_pairs = reinterpret_cast<cub_sort_pairs_fn>(dlsym(handle, "cub_radix_sort_pairs"));
    merge_pairs = reinterpret_cast<cub_sort_pairs_fn>(dlsym(handle, "cub_merge_sort_pairs"));
    copy_ms = reinterpret_cast<cub_copy_fn>(dlsym(handle, "cub_copy_d2d_ms"));
    sort_records = reinterpret_cast<cub_sort_records_fn>(dlsym(handle, "cub_sort_records"));
    seg_open = reinterpret_cast<cub_seg_open_fn>(dlsym(handle, "cub_seg_open"));
    seg_sort = reinterpret_cast<cub_seg_sort_fn>(dlsym(handle, "cub_seg_sort"));
    seg_close = reinterpret_cast<cub_seg_close_fn>(dlsym(handle, "cub_seg_close"));
    topk_entries = reinterpret_cast<cub_topk_entries_fn>(dlsym(handle, "cub_topk_entries"));
    topk_open = reinterpret_cast<cub_topk_open_fn>(dlsym(handle, "cub_topk_open"));
    topk = reinterpret_cast<cub_topk_fn>(dlsym(handle, "cub_topk"));
    topk_close = reinterpret_cast<cub_topk_close_fn>(dlsym(handle, "cub_topk_close"));
    if (!abi || abi() != GPUSORT_CUB_PEER_ABI || !init || !radix_keys || !merge_keys || !radix_pairs ||
        !merge_pairs || !copy_ms || !sort_records || !seg_open || !seg_sort || !seg_close || !version ||
        !topk_entries || !topk_open || !topk || !topk_close) {
      why_absent = path + " has the wrong interface";
      return;
    }
    char name[256] = {};
    if (init(cuda_device, name, sizeof name) <= 0) {
      why_absent = "no CUDA device " + std::to_string(cuda_device) + " visible to the CUDA runtime";
      return;
    }
    device_name = name;
    const int v = version();
    cub_version = std::to_string(v / 100000) + "." + std::to_string(v / 100 % 1000) + "." + std::to_string(v % 100);
  }
};

}  // namespace bench
