#include "sort_indices.hpp"

#include <cstring>
#include <new>

#include "gpusort/errors.hpp"

namespace gpusort::cli {

core::HostArray positions(std::size_t n) {
  core::HostArray a;
  try {
    a = core::make_host_array(n * sizeof(std::int64_t) + 1);
  } catch (const std::bad_alloc&) {
    throw Error(errc::out_of_memory, "not enough host memory for --indices-out (" + std::to_string(n * 8) + " bytes)");
  }
  auto* p = reinterpret_cast<std::int64_t*>(a.get());
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::int64_t>(i);
  return a;
}

void gather_by_indices(const void* in, void* out, std::size_t n, std::size_t item_size, const std::int64_t* indices) {
  const auto* src = static_cast<const unsigned char*>(in);
  auto* dst = static_cast<unsigned char*>(out);
  for (std::size_t i = 0; i < n; ++i)
    std::memcpy(dst + i * item_size, src + static_cast<std::size_t>(indices[i]) * item_size, item_size);
}

}  // namespace gpusort::cli
