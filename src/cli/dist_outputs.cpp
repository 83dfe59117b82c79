#include "dist_outputs.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <exception>

#include "file_io.hpp"
#include "gpusort/errors.hpp"
#include "signal_cleanup.hpp"

namespace gpusort::cli {
namespace {

// What gpusort sort exits with for the same error: 2 for a usage or file error, 1 otherwise.
int exit_status_for(const std::exception& e) {
  const auto* error = dynamic_cast<const Error*>(&e);
  return error && (error->code() == errc::invalid_argument || error->code() == errc::io_error) ? 2 : 1;
}

void print_error(const std::exception& e) { std::fprintf(stderr, "gpusort: error: %s\n", e.what()); }

std::string broadcast(MPI_Comm comm, std::string s) {
  unsigned long long size = s.size();
  MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  s.resize(std::size_t(size));
  if (size > 0) MPI_Bcast(s.data(), int(size), MPI_CHAR, 0, comm);
  return s;
}

// Ranges travel to rank 0 in pieces MPI's int counts can hold.
constexpr std::size_t kPiece = std::size_t(64) << 20;
constexpr int kRangeTag = 4901;

}  // namespace

DistOutputs::DistOutputs(MPI_Comm comm, const std::string& keys_path, const std::string& values_path) : comm_(comm) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &ranks_);
  const std::size_t count = values_path.empty() ? 1 : 2;
  positionable_.assign(count, 0);
  if (rank_ == 0) {
    try {
      outputs_.push_back(std::make_unique<OutputFile>(keys_path, "output"));
      if (count == 2) outputs_.push_back(std::make_unique<OutputFile>(values_path, "values output"));
      std::vector<OutputFile*> all;
      for (auto& o : outputs_) all.push_back(o.get());
      check_distinct(all);
      for (std::size_t i = 0; i < count; ++i) positionable_[i] = outputs_[i]->positionable() ? 1 : 0;
    } catch (const std::exception& e) {
      print_error(e);
      open_status_ = exit_status_for(e);
      outputs_.clear();  // removes the temporary files already made
    }
  }
  MPI_Bcast(&open_status_, 1, MPI_INT, 0, comm_);
  MPI_Bcast(positionable_.data(), int(count), MPI_INT, 0, comm_);
  if (open_status_ != 0) return;
  temporaries_.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (!positionable_[i]) continue;
    temporaries_[i] = broadcast(comm_, rank_ == 0 ? outputs_[i]->temporary_path() : std::string());
    // Every rank removes the temporary files on a terminating signal: when a rank dies, mpirun
    // sends that to the others, and rank 0 may be the one that died (SIGKILL, a crash).
    if (rank_ != 0) {
      register_temp(temporaries_[i]);
      registered_.push_back(temporaries_[i]);
    }
  }
}

DistOutputs::~DistOutputs() { forget_registered(); }

void DistOutputs::forget_registered() {
  for (const std::string& path : registered_) unregister_temp(path);
  registered_.clear();
}

bool DistOutputs::all_ok(bool mine) const {
  int ok = mine ? 1 : 0, all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm_);
  return all == 1;
}

bool DistOutputs::write(std::size_t index, const void* data, std::uint64_t offset, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  if (positionable_.at(index)) return write_positioned(index, p, offset, bytes);
  return write_through_rank0(index, p, offset, bytes);
}

bool DistOutputs::write_positioned(std::size_t index, const unsigned char* data, std::uint64_t offset,
                                   std::size_t bytes) {
  const std::string& temp = temporaries_[index];
  // Written where rank 0 created it: never created here, and never through a link.
  const int fd = rank_ == 0 ? -1 : ::open(temp.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
  if (!all_ok(rank_ == 0 || fd >= 0)) {
    if (fd >= 0) ::close(fd);
    return write_through_rank0(index, data, offset, bytes);
  }
  bool wrote = true;
  try {
    if (rank_ == 0) {
      outputs_[index]->write_at(offset, data, bytes);
    } else {
      cli::write_at(fd, data, bytes, offset, "the output's temporary file '" + temp + "'");
      if (::fsync(fd) != 0) throw_io_error("sync '" + temp + "'", errno);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpusort: error: rank %d: %s\n", rank_, e.what());
    wrote = false;
  }
  if (fd >= 0) ::close(fd);
  return all_ok(wrote);
}

bool DistOutputs::write_through_rank0(std::size_t index, const unsigned char* data, std::uint64_t offset,
                                      std::size_t bytes) {
  unsigned long long mine[2] = {offset, bytes};
  std::vector<unsigned long long> ranges(rank_ == 0 ? 2 * std::size_t(ranks_) : 0);
  MPI_Gather(mine, 2, MPI_UNSIGNED_LONG_LONG, ranges.data(), 2, MPI_UNSIGNED_LONG_LONG, 0, comm_);
  if (rank_ != 0) {
    for (std::size_t done = 0; done < bytes; done += kPiece)
      MPI_Send(data + done, int(std::min(kPiece, bytes - done)), MPI_BYTE, 0, kRangeTag, comm_);
    return all_ok(true);
  }
  // Rank 0 writes its own range, then every other rank's as it arrives. After an error it still
  // receives everything (the senders would wait for it), and writes no more.
  OutputFile& out = *outputs_[index];
  bool ok = true;
  auto append = [&](const unsigned char* p, std::size_t n) {
    if (!ok) return;
    try {
      out.write(p, n);
    } catch (const std::exception& e) {
      print_error(e);
      ok = false;
    }
  };
  std::vector<unsigned char> piece;
  unsigned long long next = 0;  // where the ranges so far end
  for (int r = 0; r < ranks_; ++r) {
    const unsigned long long from = ranges[2 * r], size = ranges[2 * r + 1];
    if (ok && from != next) {
      std::fprintf(stderr, "gpusort: error: internal: rank %d's range does not start where the ranges before it end\n",
                   r);
      ok = false;
    }
    next = from + size;
    if (r == 0) {
      append(data, bytes);
      continue;
    }
    for (unsigned long long done = 0; done < size; done += kPiece) {
      const std::size_t n = std::size_t(std::min<unsigned long long>(kPiece, size - done));
      piece.resize(std::max(piece.size(), n));
      MPI_Recv(piece.data(), int(n), MPI_BYTE, r, kRangeTag, comm_, MPI_STATUS_IGNORE);
      append(piece.data(), n);
    }
  }
  return all_ok(ok);
}

bool DistOutputs::commit() {
  // From here on only rank 0 may remove a temporary file: while it rewrites a hard-linked output
  // in place, its temporary file holds the only complete copy.
  forget_registered();
  MPI_Barrier(comm_);
  bool ok = true;
  if (rank_ == 0) {
    std::vector<OutputFile*> all;
    for (auto& o : outputs_) all.push_back(o.get());
    try {
      commit_together(all);
    } catch (const std::exception& e) {
      print_error(e);
      ok = false;
    }
  }
  return all_ok(ok);
}

}  // namespace gpusort::cli
