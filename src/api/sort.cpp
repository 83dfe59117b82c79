// The public sort entry points: validation, the one choice of algorithm per request, delegation.
#include <vector>

#include "algorithms/algorithm.hpp"
#include "algorithms/planner.hpp"
#include "api/device_run.hpp"
#include "api/host_sort.hpp"
#include "gpusort/device_array.hpp"
#include "gpusort/sort.hpp"
#include "runtime/device.hpp"

namespace gpusort {
namespace {

// What SortRequest cannot say: values given without their width or the other way round.
void check_values_given(const void* values, std::size_t value_bytes, std::uint64_t n) {
  if ((value_bytes == 0 && values != nullptr) || (value_bytes != 0 && values == nullptr && n > 0))
    throw Error(errc::invalid_argument, "values and value size must be given together");
}

}  // namespace

std::vector<AlgorithmInfo> algorithms() {
  std::vector<AlgorithmInfo> out;
  for (const auto& a : algo::registry())
    out.push_back({a.name, a.description, a.can_be_stable, algo::to_string(a.complexity), algo::to_string(a.runs_on),
                   a.options.comparator});
  return out;
}

SortReport sort_host(Context& ctx, key_type type, void* keys, std::size_t n, void* values, std::size_t value_bytes,
                     const SortOptions& options) {
  check_values_given(values, value_bytes, n);
  if (n > 0 && !keys) throw Error(errc::invalid_argument, "keys is null");
  rt::Device& device = ctx.runtime_device();
  // Planned (and refused) before any transfer, so bad requests cost nothing.
  const algo::Plan plan = algo::make_plan({.type = type, .n = n, .value_bytes = value_bytes, .options = options}, device);
  return detail::sort_host_with(device, plan, keys, values);
}

DeviceBuffer::DeviceBuffer(Context& ctx, std::size_t bytes)
    : device_(ctx.shared_runtime_device()), buffer_(device_->alloc(bytes)) {}
void DeviceBuffer::upload(const void* src, std::size_t bytes, std::size_t offset) {
  if (offset + bytes > this->bytes()) throw Error(errc::invalid_argument, "DeviceBuffer::upload past the end");
  device_->write(*buffer_, offset, src, bytes);
}
void DeviceBuffer::download(void* dst, std::size_t bytes, std::size_t offset) const {
  if (offset + bytes > this->bytes()) throw Error(errc::invalid_argument, "DeviceBuffer::download past the end");
  device_->read(*buffer_, offset, dst, bytes);
}
DeviceBuffer DeviceBuffer::view(std::size_t offset, std::size_t bytes) const {
  rt::Buffer& parent = runtime_buffer();  // throws for an empty DeviceBuffer
  DeviceBuffer v;
  v.device_ = device_;
  v.buffer_ = device_->sub_buffer(parent, offset, bytes);
  return v;
}
std::size_t DeviceBuffer::bytes() const noexcept { return buffer_ ? buffer_->bytes() : 0; }
rt::Buffer& DeviceBuffer::runtime_buffer() const {
  if (!buffer_) throw Error(errc::invalid_argument, "empty DeviceBuffer");
  return *buffer_;
}

namespace {

SortReport sort_device_impl(Context& ctx, key_type type, DeviceBuffer& keys, std::size_t n, DeviceBuffer* values,
                            std::size_t value_bytes, const SortOptions& options, DeviceBuffer* temporary_storage) {
  check_values_given(values, value_bytes, n);
  rt::Device& device = ctx.runtime_device();
  const algo::Plan plan = algo::make_plan(
      {.type = type, .n = n, .value_bytes = value_bytes, .where = data_location::device, .options = options}, device);
  if (n * key_size(type) > keys.bytes())
    throw Error(errc::invalid_argument, "keys buffer holds fewer than n keys");
  if (values && n * value_bytes > values->bytes())
    throw Error(errc::invalid_argument, "values buffer holds fewer than n values");
  const algo::Algorithm& algorithm = *plan.algorithm;
  SortReport report;
  report.device = device.description().id;
  // Sorting in place on the device: a failure may leave device data partly sorted, but every key
  // and value is still present (drivers only permute within the buffers or their temporaries); a
  // sort by a comparator keeps a copy and restores it (algorithms/order_check.hpp).
  rt::Buffer* temp = nullptr;
  if (temporary_storage) {
    temp = &temporary_storage->runtime_buffer();
    if (temp == &keys.runtime_buffer() || (values && temp == &values->runtime_buffer()))
      throw Error(errc::invalid_argument, "the temporary storage must be a buffer of its own, not the keys or values");
  }
  const detail::DeviceRun run = detail::run_on_device(device, plan, keys.runtime_buffer(),
                                                      values ? &values->runtime_buffer() : nullptr, temp);
  report.algorithm = algorithm.name;
  report.sort_ms = run.ms;
  report.programs_compiled = run.compiled;
  return report;
}

}  // namespace

SortReport sort_device(Context& ctx, key_type type, DeviceBuffer& keys, std::size_t n, DeviceBuffer* values,
                       std::size_t value_bytes, const SortOptions& options) {
  return sort_device_impl(ctx, type, keys, n, values, value_bytes, options, nullptr);
}

SortReport sort_device(Context& ctx, key_type type, DeviceBuffer& keys, std::size_t n, DeviceBuffer* values,
                       std::size_t value_bytes, const SortOptions& options, DeviceBuffer& temporary_storage) {
  return sort_device_impl(ctx, type, keys, n, values, value_bytes, options, &temporary_storage);
}

std::size_t temporary_storage_bytes(Context& ctx, key_type type, std::size_t n, std::size_t value_bytes,
                                    const SortOptions& options) {
  rt::Device& device = ctx.runtime_device();
  const algo::Plan plan = algo::make_plan(
      {.type = type, .n = n, .value_bytes = value_bytes, .where = data_location::device, .options = options}, device);
  return static_cast<std::size_t>(detail::needed_temp_bytes(plan, device));
}

}  // namespace gpusort
