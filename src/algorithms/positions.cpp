#include "algorithms/positions.hpp"

#include <string>

#include "algorithms/algorithm.hpp"
#include "gpusort/errors.hpp"

namespace gpusort::algo {

void fill_positions(rt::Device& device, rt::Buffer& out, std::uint64_t n, std::size_t position_bytes) {
  if (position_bytes != 4 && position_bytes != 8)
    throw Error(errc::invalid_argument, "positions are 4 or 8 bytes wide, not " + std::to_string(position_bytes));
  if (n == 0) return;
  constexpr std::uint32_t kPreferredGroup = 256;
  const std::uint32_t group = default_group_size(device, kPreferredGroup);
  rt::Program& program = device.program("positions.cl", {"POSITION_BYTES=" + std::to_string(position_bytes)});
  device.launch(program.kernel("fill_positions"), {ceil_div(n, group), group, 0}, {out, n});
}

void widen_positions(rt::Device& device, rt::Buffer& in, rt::Buffer& out, std::uint64_t n) {
  if (n == 0) return;
  constexpr std::uint32_t kPreferredGroup = 256;
  const std::uint32_t group = default_group_size(device, kPreferredGroup);
  rt::Program& program = device.program("positions.cl", {"POSITION_BYTES=8"});
  device.launch(program.kernel("widen_positions"), {ceil_div(n, group), group, 0}, {in, out, n});
}

}  // namespace gpusort::algo
