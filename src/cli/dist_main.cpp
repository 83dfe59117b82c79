// gpusort-dist (also `gpusort dist-sort`, which runs this program): one rank of a distributed sort
// of one raw file, under mpirun. Rank r reads its share of the input by offset, the ranks sort
// together (gpusort::dist over MPI), and each writes its range of the sorted whole into one output
// file by offset: rank 0 creates a temporary file beside the target at the full size, every rank
// writes and syncs its range, and rank 0 renames it into place once all have succeeded.
//
//   mpirun -np P gpusort dist-sort IN -o OUT --type T [--descending] [--stable] [--device ID] [-v]
#include <fcntl.h>
#include <mpi.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "array_file.hpp"
#include "file_io.hpp"
#include "core/host_array.hpp"
#include "gpusort/dist_mpi.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/version.hpp"

namespace {

using gpusort::Error;
using gpusort::errc;
using gpusort::cli::read_at;
using gpusort::cli::write_at;

struct Args {
  std::string input, output, type, device;
  bool descending = false, stable = false, verbose = false;
};

[[noreturn]] void io_failure(const std::string& what, int err) {
  throw Error(errc::io_error, "cannot " + what + ": " + std::strerror(err));
}

// Whether every rank succeeded so far; all ranks call it at the same points.
bool all_ok(bool mine) {
  int ok = mine ? 1 : 0, all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}

int run(const Args& a, int rank, int ranks) {
  const gpusort::key_type type = gpusort::cli::parse_key_type_arg(a.type, "--type");
  const std::size_t kb = gpusort::key_size(type);
  struct stat st {};
  if (::stat(a.input.c_str(), &st) != 0) io_failure("open input '" + a.input + "'", errno);
  if (!S_ISREG(st.st_mode) || std::uint64_t(st.st_size) % kb != 0)
    throw Error(errc::invalid_argument, "input '" + a.input + "' must be a regular raw file of " + a.type +
                                            " keys (a multiple of " + std::to_string(kb) + " bytes)");
  const std::uint64_t n = std::uint64_t(st.st_size) / kb;
  const std::uint64_t first = n * std::uint64_t(rank) / ranks, last = n * std::uint64_t(rank + 1) / ranks;
  const std::size_t count = std::size_t(last - first);

  gpusort::core::HostArray keys = gpusort::core::make_host_array(std::max<std::size_t>(1, count * kb));
  const int in = ::open(a.input.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) io_failure("open input '" + a.input + "'", errno);
  read_at(in, keys.get(), count * kb, first * kb, "input '" + a.input + "'");
  ::close(in);

  gpusort::Context ctx(a.device);
  auto comm = gpusort::dist::mpi_communicator(MPI_COMM_WORLD);
  gpusort::SortOptions opt;
  opt.order = a.descending ? gpusort::order::descending : gpusort::order::ascending;
  opt.stable = a.stable;
  const gpusort::dist::DistReport rep = gpusort::dist::sort_host(ctx, *comm, type, keys.get(), count, nullptr, 0, opt);

  // One output file: rank 0 makes the temporary file at full size, all write their ranges.
  char temp[4096] = {};
  int ok = 1;
  if (rank == 0) {
    const std::string pattern = a.output + ".gpusort-XXXXXX";
    if (pattern.size() >= sizeof temp) throw Error(errc::invalid_argument, "output path too long");
    std::memcpy(temp, pattern.c_str(), pattern.size() + 1);
    const int fd = ::mkstemp(temp);
    // Permissions as a new file of `gpusort sort` gets them (mkstemp makes 0600).
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ok = fd >= 0 && ::ftruncate(fd, off_t(n * kb)) == 0 && ::fchmod(fd, 0666 & ~mask) == 0;
    const int err = errno;
    if (fd >= 0) ::close(fd);
    if (!ok) {
      if (fd >= 0) ::unlink(temp);
      std::fprintf(stderr, "gpusort: error: cannot create the output beside '%s': %s\n", a.output.c_str(),
                   std::strerror(err));
    }
  }
  MPI_Bcast(temp, sizeof temp, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (!all_ok(ok)) return 1;
  bool wrote = false;
  try {
    const int out = ::open(temp, O_WRONLY | O_CLOEXEC);
    if (out < 0) io_failure("open the output's temporary file", errno);
    write_at(out, keys.get(), count * kb, first * kb, "the output's temporary file");
    wrote = ::fsync(out) == 0;
    ::close(out);
  } catch (const Error& e) {
    std::fprintf(stderr, "gpusort: error: rank %d: %s\n", rank, e.what());
  }
  // Rank 0 renames once every rank has written; all ranks learn whether that worked.
  bool done = all_ok(wrote);
  if (rank == 0) {
    if (done && ::rename(temp, a.output.c_str()) != 0) {
      std::fprintf(stderr, "gpusort: error: cannot rename the output into place: %s\n", std::strerror(errno));
      done = false;
    }
    if (!done) ::unlink(temp);
  }
  if (!all_ok(done)) return 1;
  if (a.verbose) {
    // Rank 0 prints every rank's phases, gathered.
    double mine[5] = {rep.local_sort_ms, rep.split_ms, rep.exchange_ms, rep.final_sort_ms, rep.total_ms};
    std::vector<double> all(5 * std::size_t(ranks));
    MPI_Gather(mine, 5, MPI_DOUBLE, all.data(), 5, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      std::fprintf(stderr, "gpusort: dist-sort of %llu %s keys on %d ranks (%s on rank 0)\n", (unsigned long long)n,
                   a.type.c_str(), ranks, ctx.device().id.c_str());
      for (int r = 0; r < ranks; ++r)
        std::fprintf(stderr,
                     "gpusort: rank %d: local sort %.3f ms, splits %.3f ms, exchange %.3f ms, final sort %.3f ms, "
                     "total %.3f ms\n",
                     r, all[5 * r], all[5 * r + 1], all[5 * r + 2], all[5 * r + 3], all[5 * r + 4]);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  CLI::App app{"gpusort dist-sort " GPUSORT_VERSION_STRING
               ": one rank of a distributed sort of a raw file (run it under mpirun -np P)"};
  app.name("gpusort dist-sort");
  Args a;
  app.add_option("input", a.input, "Keys: a raw little-endian array of --type (each rank reads its share)")->required();
  app.add_option("-o,--output", a.output, "Where the sorted keys go (one file, renamed into place when complete)")
      ->required();
  app.add_option("-t,--type", a.type, "Key type: u8 u16 u32 u64 i8 i16 i32 i64 f32 f64")->required();
  app.add_flag("-d,--descending", a.descending, "Sort in descending order");
  app.add_flag("-s,--stable", a.stable, "Keep equal keys in input order");
  app.add_option("--device", a.device, "Device id for every rank (default: $GPUSORT_DEVICE or the best one)");
  app.add_flag("-v,--verbose", a.verbose, "Rank 0 prints every rank's phase times");
  int code = 0;
  try {
    app.parse(argc, argv);
    code = run(a, rank, ranks);
  } catch (const CLI::ParseError& e) {
    if (rank == 0) code = app.exit(e);
    else code = e.get_exit_code();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpusort: error: rank %d: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return code;
}
