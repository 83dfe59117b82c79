#pragma once
// Copies between host memory and device buffers at the link's rate: staged through the device's
// pinned slots (runtime/pinned_pool.hpp) by several host threads, each on a queue of its own.
//  - The pieces are cut into slot-sized units; thread t takes units t, t + T, t + 2T, ...
//  - Each thread holds two slots, so its host copy into (out of) one slot overlaps the device
//    copy of the other: the link stays busy while the host threads feed it.
//  - Both calls return once every copy has completed; on an error every copy in flight is
//    waited for before the slots go back (a copy must never touch a reused slot).
// The host memory needs no pinning and may be freshly allocated; faults on first touch then fall
// on the copying threads, in parallel. A piece may instead name a caller's function that fills
// (drains) the pinned slot itself -- a file read or write (gpusort/streamed.hpp) -- so the data
// never take a detour through host memory of their own.
#include <cstddef>
#include <cstdint>
#include <span>

#include "gpusort/streamed.hpp"
#include "runtime/device.hpp"

namespace gpusort::detail {

struct UploadPiece {
  const void* host;  // ignored when `read` is given
  rt::Buffer* buffer;
  std::size_t offset;  // in buffer
  std::size_t bytes;
  const ReadPiece* read = nullptr;  // called as read(read_offset + at, slot, len) for the piece's parts
  std::uint64_t read_offset = 0;
};

struct DownloadPiece {
  void* host;  // ignored when `write` is given
  const rt::Buffer* buffer;
  std::size_t offset;  // in buffer
  std::size_t bytes;
  const WritePiece* write = nullptr;  // called as write(write_offset + at, slot, len)
  std::uint64_t write_offset = 0;
};

// Host threads a transfer uses when the caller asks for `requested` (0: automatic). Automatic: a
// transfer that runs alone (a one-piece sort copies up, then down) takes every hardware thread, at
// most 16; transfers that run both ways at once (the pipelined steps) take half each, at most 8.
// On the H200 machine (16 cores), 2^28 u32 keys one piece, 2026-11-26: 61.7 ms with 8 threads and
// 55.3 with 16 in one run, 61.7 with the automatic 16 in the next (floor 38.8 ms): no clear gain.
unsigned transfer_threads(unsigned requested, bool both_directions = true);

void upload(rt::Device& device, std::span<const UploadPiece> pieces, unsigned threads);
void download(rt::Device& device, std::span<const DownloadPiece> pieces, unsigned threads);

}  // namespace gpusort::detail
