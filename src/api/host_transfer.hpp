#pragma once
// Copies between host memory and device buffers at the link's rate: staged through the device's
// pinned slots (runtime/pinned_pool.hpp) by several host threads, each on a queue of its own.
//  - The pieces are cut into slot-sized units; thread t takes units t, t + T, t + 2T, ...
//  - Each thread holds two slots, so its host copy into (out of) one slot overlaps the device
//    copy of the other: the link stays busy while the host threads feed it.
//  - Both calls return once every copy has completed; on an error every copy in flight is
//    waited for before the slots go back (a copy must never touch a reused slot).
// The host memory needs no pinning and may be freshly allocated; faults on first touch then fall
// on the copying threads, in parallel.
#include <cstddef>
#include <span>

#include "runtime/device.hpp"

namespace gpusort::detail {

struct UploadPiece {
  const void* host;
  rt::Buffer* buffer;
  std::size_t offset;  // in buffer
  std::size_t bytes;
};

struct DownloadPiece {
  void* host;
  const rt::Buffer* buffer;
  std::size_t offset;  // in buffer
  std::size_t bytes;
};

// Host threads a transfer uses when the caller asks for `requested` (0: automatic, half the
// hardware threads, at most 8: beyond that one PCIe link is saturated and the sort pipeline runs
// an upload and a download at once).
unsigned transfer_threads(unsigned requested);

void upload(rt::Device& device, std::span<const UploadPiece> pieces, unsigned threads);
void download(rt::Device& device, std::span<const DownloadPiece> pieces, unsigned threads);

}  // namespace gpusort::detail
