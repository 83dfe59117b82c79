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

// Finishes a thread's queue before its slots go back, whatever happened.
struct QueueDrain {
  rt::Queue& queue;
  ~QueueDrain() {
    try {
      queue.finish();
    } catch (...) {
    }
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

unsigned transfer_threads(unsigned requested) {
  if (requested != 0) return requested;
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  return std::clamp(hw / 2, 1u, 8u);
}

void upload(rt::Device& device, std::span<const UploadPiece> pieces, unsigned threads) {
  const std::vector<Unit> units = units_of(pieces);
  if (units.empty()) return;
  threads = threads_for_units(units.size(), threads);
  std::atomic<bool> failed{false};
  run_workers(threads, failed, [&](unsigned t) {
    rt::PinnedSlot slot[2];
    std::unique_ptr<rt::Event> copied[2];
    std::unique_ptr<rt::Queue> queue = device.create_queue();
    QueueDrain drain{*queue};
    std::size_t k = 0;
    for (std::size_t u = t; u < units.size() && !failed.load(std::memory_order_relaxed); u += threads, ++k) {
      const Unit& unit = units[u];
      const UploadPiece& piece = pieces[unit.piece];
      const int s = int(k & 1);
      if (!slot[s].bytes()) slot[s] = device.pinned_pool().lend();
      if (copied[s]) copied[s]->wait();  // the slot's previous copy has left it
      core::streaming_copy(slot[s].data(), static_cast<const unsigned char*>(piece.host) + unit.at, unit.bytes);
      device.write(*piece.buffer, piece.offset + unit.at, slot[s].data(), unit.bytes, queue.get(), true);
      copied[s] = device.record(queue.get());
    }
    queue->finish();
  });
}

void download(rt::Device& device, std::span<const DownloadPiece> pieces, unsigned threads) {
  const std::vector<Unit> units = units_of(pieces);
  if (units.empty()) return;
  threads = threads_for_units(units.size(), threads);
  std::atomic<bool> failed{false};
  run_workers(threads, failed, [&](unsigned t) {
    rt::PinnedSlot slot[2];
    std::unique_ptr<rt::Event> arrived[2];
    std::unique_ptr<rt::Queue> queue = device.create_queue();
    QueueDrain drain{*queue};
    std::vector<std::size_t> mine;  // this thread's units, in order
    for (std::size_t u = t; u < units.size(); u += threads) mine.push_back(u);
    // Unit k's copy into slot k & 1 is started while unit k - 1 is copied out of the other slot.
    auto start = [&](std::size_t k) {
      const Unit& unit = units[mine[k]];
      const DownloadPiece& piece = pieces[unit.piece];
      const int s = int(k & 1);
      if (!slot[s].bytes()) slot[s] = device.pinned_pool().lend();
      device.read(*piece.buffer, piece.offset + unit.at, slot[s].data(), unit.bytes, queue.get(), true);
      arrived[s] = device.record(queue.get());
    };
    if (!mine.empty()) start(0);
    for (std::size_t k = 0; k < mine.size() && !failed.load(std::memory_order_relaxed); ++k) {
      if (k + 1 < mine.size()) start(k + 1);
      const int s = int(k & 1);
      arrived[s]->wait();
      const Unit& unit = units[mine[k]];
      core::streaming_copy(static_cast<unsigned char*>(pieces[unit.piece].host) + unit.at, slot[s].data(), unit.bytes);
    }
    queue->finish();
  });
}

}  // namespace gpusort::detail
