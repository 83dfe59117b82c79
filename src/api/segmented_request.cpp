#include "api/segmented_request.hpp"

#include <string>
#include <variant>

#include "runtime/buffer_pool.hpp"

namespace gpusort::detail {
namespace {

std::uint64_t offset_at(const Segments& s, std::uint64_t i) {
  if (s.offset_bytes == 4) return static_cast<const std::uint32_t*>(s.host)[i];
  return static_cast<const std::uint64_t*>(s.host)[i];
}

std::string offset_text(std::uint64_t i, std::uint64_t value) {
  return "offsets[" + std::to_string(i) + "] = " + std::to_string(value);
}

}  // namespace

SortRequest segmented_request(const Segments& segments, SortRequest base) {
  SortRequest r = std::move(base);
  r.rows = segments.count;
  if (segments.form == Segments::kind::rows) {
    r.row_length = segments.count == 1 && segments.length == 0 ? r.n : segments.length;
    r.offset_bytes = 0;
  } else {
    r.row_length = 0;
    r.offset_bytes = segments.offset_bytes;
  }
  return r;
}

void check_segments_given(const Segments& s, std::uint64_t n) {
  if (s.form == Segments::kind::device_offsets) {
    if (!s.device) throw Error(errc::invalid_argument, "Segments: device offsets without a view of them");
    return;
  }
  if (s.form != Segments::kind::host_offsets) return;
  if (s.offset_bytes != 4 && s.offset_bytes != 8)
    throw Error(errc::invalid_argument, "segment offsets are 4 or 8 bytes wide, not " + std::to_string(s.offset_bytes));
  if (!s.host) throw Error(errc::invalid_argument, "Segments: the host offsets are null");
  if (const std::uint64_t first = offset_at(s, 0); first != 0)
    throw Error(errc::invalid_argument, "segment offsets must start at 0: " + offset_text(0, first));
  for (std::uint64_t i = 1; i <= s.count; ++i)
    if (offset_at(s, i) < offset_at(s, i - 1))
      throw Error(errc::invalid_argument, "segment offsets must not decrease: " + offset_text(i, offset_at(s, i)) +
                                              " after " + offset_text(i - 1, offset_at(s, i - 1)));
  if (const std::uint64_t last = offset_at(s, s.count); last != n)
    throw Error(errc::invalid_argument, "segment offsets must end at n = " + std::to_string(n) + " (the " +
                                            std::to_string(s.count) + " segments' last offset): " +
                                            offset_text(s.count, last));
}

DeviceSegments device_segments(rt::Device& device, const Segments& segments, const SortRequest& r) {
  DeviceSegments d;
  d.shape.count = r.rows;
  d.shape.row_length = r.row_length;
  d.shape.offset_bytes = r.offset_bytes ? r.offset_bytes : 8;
  const std::size_t bytes = (r.rows + 1) * d.shape.offset_bytes;
  if (segments.form == Segments::kind::host_offsets) {
    d.offsets = device.temp_pool().get(bytes);
    device.write(*d.offsets, 0, segments.host, bytes);
  } else if (segments.form == Segments::kind::device_offsets) {
    // kernels read the offsets through typed pointers (OpenCL offsets: wrap checks the device's alignment)
    if (const auto* v = std::get_if<CudaView>(&*segments.device); v && v->ptr % d.shape.offset_bytes != 0)
      throw Error(errc::invalid_argument, "segment offsets: CUDA address " + std::to_string(v->ptr) +
                                              " is not a multiple of their width (" +
                                              std::to_string(d.shape.offset_bytes) + " bytes)");
    d.offsets = device.wrap(*segments.device, bytes);
  }
  d.shape.offsets = d.offsets.get();
  return d;
}

}  // namespace gpusort::detail
