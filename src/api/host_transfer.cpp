#include "api/host_transfer.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <memory>
#include <thread>
#include <vector>

#include "core/streaming_copy.hpp"
#include "runtime/pinned_pool.hpp"

namespace gpusort::detail {
namespace {

constexpr std::size_t kSlot = rt::PinnedPool::kSlotBytes;

// One slot-sized part of a piece.
struct Unit {
  std::size_t piece;
  std::size_t at;  // offset into the piece
  std::size_t bytes;
};

template <class Piece>
std::vector<Unit> units_of(std::span<const Piece> pieces) {
  std::vector<Unit> units;
  for (std::size_t p = 0; p < pieces.size(); ++p)
    for (std::size_t at = 0; at < pieces[p].bytes; at += kSlot)
      units.push_back({p, at, std::min(kSlot, pieces[p].bytes - at)});
  return units;
}

// One copy thread's means: a queue of its own and two pinned slots, each with the event of its
// last copy. The queue is finished before the slots go back (a copy in flight must never touch a
// reused slot), whatever happened.
struct Lane {
  rt::Device& device;
  std::unique_ptr<rt::Queue> queue;
  rt::PinnedSlot slot[2];
  std::unique_ptr<rt::Event> copied[2];

  explicit Lane(rt::Device& d) : device(d), queue(d.create_queue()) {}
  ~Lane() {
    try {
      queue->finish();
    } catch (...) {
    }
  }
  unsigned char* slot_data(int s) {
    if (!slot[s].bytes()) slot[s] = device.pinned_pool().lend();
    return slot[s].data();
  }
};

// Runs worker(t) for t in [0, threads) on threads of their own (the last on the caller); rethrows
// the first error once all have stopped. `failed` tells workers to stop early.
template <class Worker>
void run_workers(unsigned threads, std::atomic<bool>& failed, Worker&& worker) {
  std::vector<std::exception_ptr> errors(threads);
  auto guarded = [&](unsigned t) {
    try {
      worker(t);
    } catch (...) {
      errors[t] = std::current_exception();
      failed.store(true);
    }
  };
  {
    std::vector<std::jthread> pool;
    for (unsigned t = 0; t + 1 < threads; ++t) {
      try {
        pool.emplace_back(guarded, t);
      } catch (...) {  // no thread: its share runs here
        guarded(t);
      }
    }
    guarded(threads - 1);
  }
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

unsigned threads_for_units(std::size_t units, unsigned threads) {
  return unsigned(std::max<std::size_t>(1, std::min<std::size_t>(units, transfer_threads(threads))));
}

}  // namespace

unsigned transfer_threads(unsigned requested, bool both_directions) {
  if (requested != 0) return requested;
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  return both_directions ? std::clamp(hw / 2, 1u, 8u) : std::clamp(hw, 1u, 16u);
}

namespace {

// Cuts the pieces into units and runs work(lane, units of this thread, failed) on each copy thread.
template <class Piece, class Work>
void transfer(rt::Device& device, std::span<const Piece> pieces, unsigned threads, Work&& work) {
  const std::vector<Unit> units = units_of(pieces);
  if (units.empty()) return;
  threads = threads_for_units(units.size(), threads);
  std::atomic<bool> failed{false};
  run_workers(threads, failed, [&](unsigned t) {
    Lane lane(device);
    std::vector<const Unit*> mine;
    for (std::size_t u = t; u < units.size(); u += threads) mine.push_back(&units[u]);
    work(lane, mine, failed);
    lane.queue->finish();
  });
}

}  // namespace

void upload(rt::Device& device, std::span<const UploadPiece> pieces, unsigned threads) {
  transfer(device, pieces, threads, [&](Lane& lane, const std::vector<const Unit*>& mine, std::atomic<bool>& failed) {
    for (std::size_t k = 0; k < mine.size() && !failed.load(std::memory_order_relaxed); ++k) {
      const Unit& unit = *mine[k];
      const UploadPiece& piece = pieces[unit.piece];
      const int s = int(k & 1);
      unsigned char* staging = lane.slot_data(s);
      if (lane.copied[s]) lane.copied[s]->wait();  // the slot's previous copy has left it
      if (piece.read)
        (*piece.read)(piece.read_offset + unit.at, staging, unit.bytes);
      else
        core::streaming_copy(staging, static_cast<const unsigned char*>(piece.host) + unit.at, unit.bytes);
      device.write(*piece.buffer, piece.offset + unit.at, staging, unit.bytes, lane.queue.get(), true);
      lane.copied[s] = device.record(lane.queue.get());
    }
  });
}

void download(rt::Device& device, std::span<const DownloadPiece> pieces, unsigned threads) {
  transfer(device, pieces, threads, [&](Lane& lane, const std::vector<const Unit*>& mine, std::atomic<bool>& failed) {
    // Unit k's copy into slot k & 1 is started while unit k - 1 is copied out of the other slot.
    auto start = [&](std::size_t k) {
      const Unit& unit = *mine[k];
      const DownloadPiece& piece = pieces[unit.piece];
      const int s = int(k & 1);
      device.read(*piece.buffer, piece.offset + unit.at, lane.slot_data(s), unit.bytes, lane.queue.get(), true);
      lane.copied[s] = device.record(lane.queue.get());
    };
    if (!mine.empty()) start(0);
    for (std::size_t k = 0; k < mine.size() && !failed.load(std::memory_order_relaxed); ++k) {
      if (k + 1 < mine.size()) start(k + 1);
      const int s = int(k & 1);
      lane.copied[s]->wait();
      const Unit& unit = *mine[k];
      const DownloadPiece& piece = pieces[unit.piece];
      if (piece.write)
        (*piece.write)(piece.write_offset + unit.at, lane.slot[s].data(), unit.bytes);
      else
        core::streaming_copy(static_cast<unsigned char*>(piece.host) + unit.at, lane.slot[s].data(), unit.bytes);
    }
  });
}

}  // namespace gpusort::detail
