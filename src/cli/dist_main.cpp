// gpusort-dist (also `gpusort dist-sort`, which runs this program): one rank of a distributed sort
// of one raw file, under mpirun. Rank r reads its share of the input by offset, the ranks sort
// together (gpusort::dist over MPI), and each writes its range of the sorted whole into the
// outputs, which rank 0 opens before the sort and puts in place once every rank has written
// (dist_outputs.hpp: the same output layer as gpusort sort's).
//
//   mpirun -np P gpusort dist-sort IN -o OUT --type T [--values V --values-type T --values-out VOUT]
//                                  [--descending] [--stable] [--device ID] [-v]
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
#include "dist_outputs.hpp"
#include "file_io.hpp"
#include "progress.hpp"
#include "signal_cleanup.hpp"
#include "core/host_array.hpp"
#include "gpusort/dist_mpi.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/version.hpp"

namespace {

using gpusort::Error;
using gpusort::errc;
using gpusort::cli::read_at;
using gpusort::cli::throw_io_error;

struct Args {
  std::string input, output, type, device;
  std::string values, values_type, values_out;
  bool progress = false, no_progress = false;
  bool descending = false, stable = false, verbose = false;
};

gpusort::core::HostArray read_share(const std::string& path, std::uint64_t first, std::size_t count, std::size_t item,
                                    const std::string& what) {
  gpusort::core::HostArray data = gpusort::core::make_host_array(std::max<std::size_t>(1, count * item));
  const int in = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) throw_io_error("open " + what + " '" + path + "'", errno);
  read_at(in, data.get(), count * item, first * item, what + " '" + path + "'");
  ::close(in);
  return data;
}

std::uint64_t elements_of(const std::string& path, std::size_t item, const std::string& what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw_io_error("open " + what + " '" + path + "'", errno);
  if (!S_ISREG(st.st_mode) || std::uint64_t(st.st_size) % item != 0)
    throw Error(errc::invalid_argument, what + " '" + path + "' must be a regular raw file of elements of " +
                                            std::to_string(item) + " bytes");
  return std::uint64_t(st.st_size) / item;
}

int run(const Args& a, int rank, int ranks) {
  const gpusort::key_type type = gpusort::cli::parse_key_type_arg(a.type, "--type");
  const std::size_t kb = gpusort::key_size(type);
  const bool pairs = !a.values.empty();
  if (pairs != !a.values_out.empty() || (pairs && a.values_type.empty()))
    throw Error(errc::invalid_argument, "--values needs --values-type and --values-out (and they need --values)");
  const std::size_t vb = pairs ? gpusort::cli::parse_value_type_arg(a.values_type, "--values-type").size : 0;
  const std::uint64_t n = elements_of(a.input, kb, "input");
  if (pairs && elements_of(a.values, vb, "values") != n)
    throw Error(errc::invalid_argument, "values '" + a.values + "' do not hold as many elements as the input");
  gpusort::cli::DistOutputs outputs(MPI_COMM_WORLD, a.output, pairs ? a.values_out : std::string());
  if (outputs.open_status() != 0) return outputs.open_status();
  const std::uint64_t first = n * std::uint64_t(rank) / ranks, last = n * std::uint64_t(rank + 1) / ranks;
  const std::size_t count = std::size_t(last - first);
  // Rank 0's share stands for all ranks' progress (the shares are equal to one element).
  gpusort::cli::Progress progress(rank != 0 || a.no_progress ? gpusort::cli::ProgressMode::off
                                  : a.progress               ? gpusort::cli::ProgressMode::on
                                                             : gpusort::cli::ProgressMode::automatic);
  const std::uint64_t share_bytes = count * (kb + vb);
  progress.phase("reading", share_bytes);
  gpusort::core::HostArray keys = read_share(a.input, first, count, kb, "input");
  gpusort::core::HostArray values;
  if (pairs) values = read_share(a.values, first, count, vb, "values");

  progress.advance(share_bytes);
  progress.phase("sorting across " + std::to_string(ranks) + " ranks", share_bytes);
  gpusort::Context ctx(a.device);
  auto comm = gpusort::dist::mpi_communicator(MPI_COMM_WORLD);
  gpusort::SortOptions opt;
  opt.order = a.descending ? gpusort::order::descending : gpusort::order::ascending;
  opt.stable = a.stable;
  const gpusort::dist::DistReport rep =
      gpusort::dist::sort_host(ctx, *comm, type, keys.get(), count, pairs ? values.get() : nullptr, vb, opt);

  // Every rank writes its ranges of both outputs; rank 0 then puts both in place together.
  progress.advance(share_bytes);
  progress.phase("writing", share_bytes);
  bool done = outputs.write(0, keys.get(), first * kb, count * kb);
  if (pairs && done) done = outputs.write(1, values.get(), first * vb, count * vb);
  if (!done || !outputs.commit()) return 1;
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
  // Before MPI and the OpenCL runtime start their threads: only the thread made for them takes
  // the terminating signals (signal_cleanup.hpp).
  gpusort::cli::handle_signals_in_one_thread();
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
  app.add_option("-t,--type", a.type, "Key type: u8 u16 u32 u64 i8 i16 i32 i64 f32 f64 f16 bf16 bool c64")->required();
  app.add_option("--values", a.values, "Values carried with the keys: a raw file of as many elements");
  app.add_option("--values-type", a.values_type, "Value type: a key type name or bytesK (K = 1, 2, 4, 8, 16)");
  app.add_option("--values-out", a.values_out, "Where the permuted values go");
  app.add_flag("-d,--descending", a.descending, "Sort in descending order");
  app.add_flag("-s,--stable", a.stable, "Keep equal keys in input order");
  app.add_option("--device", a.device, "Device id for every rank (default: $GPUSORT_DEVICE or the best one)");
  app.add_flag("-v,--verbose", a.verbose, "Rank 0 prints every rank's phase times");
  app.add_flag("--progress", a.progress, "Rank 0 draws a progress line even when stderr is not a terminal");
  app.add_flag("--no-progress", a.no_progress, "Never draw the progress line");
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
