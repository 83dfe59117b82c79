// gpusort: sort, generate and verify files of keys on a GPU (or any OpenCL device).
// Parses the command line, runs one subcommand, and turns every failure into one line on stderr
// starting with "gpusort: error: " and an exit status: 2 for usage and input errors, 1 otherwise.
#include <CLI/CLI.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>
#include <exception>
#include <new>
#include <sstream>
#include <string>

#include "cache_command.hpp"
#include "commands.hpp"
#include "core/key_generator.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/version.hpp"
#include "signal_cleanup.hpp"


namespace {

using namespace gpusort::cli;

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

int exit_code_for(gpusort::errc code) {
  switch (code) {
    case gpusort::errc::invalid_argument:
    case gpusort::errc::io_error:
      return kExitUsage;
    default:
      return kExitFailure;
  }
}

// The first line of a message, and whether more followed (compiler logs are long).
std::string first_line(const std::string& message, bool* more = nullptr) {
  const auto nl = message.find('\n');
  if (more) *more = nl != std::string::npos && message.find_first_not_of(" \t\r\n", nl) != std::string::npos;
  return nl == std::string::npos ? message : message.substr(0, nl);
}

// The library's errors name its API fields; on the command line the flag that sets each one is
// what the user can act on.
std::string in_flag_terms(std::string message) {
  static const std::pair<const char*, const char*> kFieldFlags[] = {
      {"SortOptions::work_group_size", "--wg"},
      {"SortOptions::items_per_thread", "--items-per-thread"},
      {"SortOptions::local_variant", "--local"},
      {"SortOptions::merge_variant", "--merge"},
      {"SortOptions::host_merge_levels", "--host-levels"},
      {"SortOptions::comparator", "--comparator"},
      {"SortOptions::device_memory_limit", "--device-memory-limit"},
      {"SortOptions::host_threads", "--threads"},
      {"SortOptions::stable", "--stable (-u and --indices-out imply it)"},
      {"SortOptions::algorithm", "--algorithm"},
      {"SortOptions::order", "--descending"},
      {"SortFileRequest::memory_limit", "--memory-limit"},
      {"SortFileRequest::temporary_directory", "--temporary-directory"},
      {"SortFileRequest::values_type", "--values-type"},
  };
  for (const auto& [field, flag] : kFieldFlags)
    for (std::size_t at; (at = message.find(field)) != std::string::npos;) message.replace(at, std::strlen(field), flag);
  return message;
}

void print_error(const std::string& raw_message, bool details) {
  bool more = false;
  const std::string message = in_flag_terms(raw_message);
  std::fprintf(stderr, "gpusort: error: %s\n", first_line(message, &more).c_str());
  // The rest (e.g. a kernel build log) only when asked for: the error itself is one line. A build
  // log's lines about the user's --comparator are theirs to fix, so those are always shown.
  if (more && details) {
    std::fprintf(stderr, "%s\n", message.substr(message.find('\n') + 1).c_str());
  } else if (more) {
    std::istringstream lines(message.substr(message.find('\n') + 1));
    int shown = 0;
    for (std::string line; std::getline(lines, line) && shown < 8;)
      if (line.find("comparator:") != std::string::npos || line.find("comparator(") != std::string::npos) {
        std::fprintf(stderr, "gpusort: %s\n", line.c_str());
        ++shown;
      }
  }
}

// `gpusort dist-sort ...` runs gpusort-dist, installed beside this program when gpusort was built
// with MPI (only that program links the MPI libraries). exec keeps the process, so mpirun's ranks
// stay what mpirun started.
int run_dist_sort(int argc, char** argv) {
  char self[4096] = {};
  const ssize_t len = ::readlink("/proc/self/exe", self, sizeof self - 1);
  std::string dir = len > 0 ? std::string(self, std::size_t(len)) : std::string(argv[0]);
  dir = dir.substr(0, dir.find_last_of('/') + 1);
  const std::string program = dir + "gpusort-dist";
  std::vector<char*> args{const_cast<char*>("gpusort-dist")};
  for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  ::execv(program.c_str(), args.data());
  std::fprintf(stderr, "gpusort: error: dist-sort needs %s, which this build lacks (%s): build gpusort with MPI\n",
               program.c_str(), std::strerror(errno));
  return kExitFailure;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "dist-sort") == 0) return run_dist_sort(argc, argv);
  // Before anything starts a thread (the OpenCL runtime starts its own): only the thread made for
  // them takes the terminating signals.
  handle_signals_in_one_thread();
  CLI::App app{"gpusort " GPUSORT_VERSION_STRING ": sort arrays of keys (and values) on a GPU or any OpenCL device.\n"
               "Files are raw little-endian arrays or .npy files (recognised by their magic bytes)."};
  app.name("gpusort");
  app.set_version_flag("--version", "gpusort " GPUSORT_VERSION_STRING);
  app.require_subcommand(1);
  app.footer(
      "Exit status: 0 success; 1 failure (device, memory) or, for verify and sort -c, not sorted; 2 usage or input\n"
      "error.\n"
      "Errors are one line on stderr starting with \"gpusort: error: \". A file output is written to a temporary\n"
      "file and renamed into place (keys and values together), so a failed run never leaves a partial or\n"
      "clobbered file; standard output, devices and FIFOs are written as a stream.");

  bool devices_verbose = false;
  auto* devices = app.add_subcommand("devices", "List the devices gpusort can use (id for --device, backend, name, memory)");
  devices->add_flag("-v,--verbose", devices_verbose, "Also show driver, compute units and work-group limits");

  app.add_subcommand("algorithms", "List the sorting algorithms (names for --algorithm)");

  SortArgs s;
  auto* sort = app.add_subcommand("sort", "Sort files of keys (optionally carrying files of values along), or check "
                                          "that they are sorted (-c)");
  sort->footer(
      "Without -o the sorted keys go to standard output (refused where that is a terminal: give -o FILE, redirect "
      "it, or -o -).\n"
      "Several inputs are sorted as one array, concatenated in the order given (one key type; with values, one "
      "--values per input, paired in the same order).\n"
      "Exit status: 0 success (-c: sorted); 1 failure, or for -c keys out of order; 2 usage or input error.");
  // CLI11 lists the groups in the order their first option is added.
  const char* kInput = "Input";
  const char* kOutput = "Output";
  const char* kOrder = "Order and mode";
  const char* kAlgorithm = "Algorithm and tuning";
  const char* kMemory = "Memory";
  const char* kRecords = "Records";
  const char* kSegments = "Rows and segments (each sorted on its own)";
  const char* kReport = "Reporting";
  sort->add_option("input", s.inputs,
                   "Keys: raw little-endian arrays of --type, or .npy files; several are concatenated; - reads "
                   "standard input")
      ->type_name("FILE")
      ->required();
  sort->add_option("-t,--type", s.type, "Key type: u8 u16 u32 u64 i8 i16 i32 i64 f32 f64 f16 bf16 bool c64 c128 (optional for .npy input)")
      ->type_name("TYPE")
      ->group(kInput);
  sort->add_option("--format", s.format,
                   "How inputs are read: auto (a .npy magic, else raw; a warning if raw bytes look like text), "
                   "raw (even if the bytes start like .npy; no text warning) or npy")
      ->type_name("auto|raw|npy")
      ->group(kInput);
  sort->add_option("--values", s.values_files,
                   "Values carried along with the keys (same element count); once per input, in the same order")
      ->type_name("FILE")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->group(kInput);
  sort->add_option("--values-type", s.values_type,
                   "Value type: any key type name (its size is the value width) or bytesK (K opaque bytes, K = 1, 2, "
                   "4, 8, 16); optional for .npy values")
      ->type_name("TYPE")
      ->group(kInput);
  sort->add_option("--axis", s.axis,
                   "Sort a .npy input along this axis, each row on its own, output shaped like it (negative counts "
                   "from the end; an n-D .npy is sorted along its last axis without --axis; others through a copy "
                   "on the host)")
      ->type_name("A")
      ->group(kSegments);
  sort->add_option("--row-length", s.row_length,
                   "Cut the input (raw or 1-D .npy) into rows of N keys, N dividing the key count, and sort each "
                   "row on its own")
      ->type_name("N")
      ->group(kSegments);
  sort->add_option("--segments", s.segments,
                   "Cut the input (raw or 1-D .npy) at these offsets and sort each segment on its own: S + 1 "
                   "offsets, raw little-endian u64 or a 1-D .npy of uint64/uint32/int64/int32, starting at 0, "
                   "ending at the key count, never decreasing (empty segments allowed)")
      ->type_name("OFFSETS_FILE")
      ->group(kSegments);
  sort->add_option("-o,--output", s.output,
                   "Where the sorted keys go (a file is replaced only once complete; - is standard output, also the "
                   "default unless --indices-out is given; .npy if every input is .npy or the name ends in .npy)")
      ->type_name("FILE")
      ->group(kOutput);
  sort->add_option("--values-out", s.values_out, "Where the permuted values go")->type_name("FILE")->group(kOutput);
  sort->add_option("--indices-out", s.indices_out,
                   "Where argsort's indices go: int64 positions in the (concatenated) input, stable (with --axis, "
                   "--row-length or --segments: positions within each row or segment); .npy if every input is .npy "
                   "or the name ends in .npy. Without -o only the indices (and values) are written")
      ->type_name("FILE")
      ->group(kOutput);
  sort->add_option("--top", s.top,
                   "Write only the K smallest keys (-r: largest) of the input, or of each row (--row-length, --axis), "
                   "in order, ties by position; --indices-out their int64 positions (within the row)")
      ->type_name("K")
      ->group(kOutput);
  sort->add_option("--partition", s.partition,
                   "Write each row (--row-length, --axis) or the input partitioned as numpy.partition does around "
                   "its key of rank KTH (negative: from the end): the smaller keys, the equal ones, the greater, each "
                   "in input order; --indices-out argpartition's int64 positions (within the row)")
      ->type_name("KTH")
      ->group(kOutput);
  sort->add_flag("-d,--descending,-r,--reverse", s.descending, "Sort in descending order (NaNs first for floats)")
      ->group(kOrder);
  sort->add_flag("-s,--stable", s.stable, "Keep equal keys in input order (error if the algorithm cannot)")
      ->group(kOrder);
  sort->add_flag("-u,--unique", s.unique,
                 "Keep only the first of each run of equal keys (and its value and index; implies --stable; -0 "
                 "equals +0, NaN equals NaN); with -c, equal neighbours are out of order")
      ->group(kOrder);
  sort->add_flag("-c,--check", s.check,
                 "Sort nothing: exit 0 if the inputs are in order (with rows or segments: each on its own), else 1 "
                 "naming the first key out of order on stderr (FILE:INDEX: disorder: ...)")
      ->group(kOrder);
  sort->add_flag("-C", s.check_quietly, "Like -c, but print nothing")->group(kOrder);
  sort->add_option("--comparator", s.comparator,
                   "A run-time order: the body of `int before(K a, K b)` in the kernel dialect (K: the key type), "
                   "e.g. 'return (a & 255u) < (b & 255u);', or @FILE to read it from FILE; sorts with merge "
                   "unless --algorithm names another comparison sort (compiled once, then cached). With "
                   "--record-size: the body of `int before(GLOBAL const u8* a, GLOBAL const u8* b)` over two "
                   "records, reading fields with gs_u32(a, OFFSET), gs_bytes_cmp(a, b, OFFSET, K) and the like")
      ->type_name("BODY|@FILE")
      ->group(kOrder);
  sort->add_option("-a,--algorithm", s.algorithm, "Algorithm name from `gpusort algorithms`, or auto")
      ->type_name("NAME")
      ->capture_default_str()
      ->group(kAlgorithm);
  sort->add_option("--device", s.device,
                   "Device id from `gpusort devices` (default: $GPUSORT_DEVICE or the best one); several ids "
                   "separated by commas sort on all of them (chunks, then buckets cut at exact ranks)")
      ->type_name("ID[,ID...]")
      ->group(kAlgorithm);
  sort->add_option("--wg", s.work_group_size,
                   "Work-group (CUDA block) size, a power of two; 0 = the algorithm's default (only for algorithms "
                   "that take it)")
      ->type_name("N")
      ->group(kAlgorithm);
  sort->add_option("--items-per-thread", s.items_per_thread,
                   "Keys per work-item in tiled kernels; 0 = default (only for algorithms that take it)")
      ->type_name("N")
      ->group(kAlgorithm);
  sort->add_option("--local", s.local_variant, "Algorithm-specific local-sort variant (SortOptions::local_variant)")
      ->type_name("NAME")
      ->group(kAlgorithm);
  sort->add_option("--merge", s.merge_variant, "Algorithm-specific merge variant (SortOptions::merge_variant)")
      ->type_name("NAME")
      ->group(kAlgorithm);
  sort->add_option("--host-levels", s.host_merge_levels,
                   "hybrid: how many top merge levels host threads do, -1..64; -1 = automatic")
      ->type_name("N")
      ->group(kAlgorithm);
  sort->add_option("--threads", s.threads,
                   "Host threads per copy direction between host memory and the device, 0..64; 0 = automatic "
                   "(one-piece sorts: every hardware thread, at most 16; pipelined: half, at most 8)")
      ->type_name("N")
      ->group(kAlgorithm);
  sort->add_option("--device-memory-limit", s.device_memory_limit,
                   "Device memory the sort may use, in bytes or with a unit (768M, 4GiB, 2GB; 0 = 70% of the "
                   "device); larger inputs are sorted in two passes: chunks, then buckets cut at exact ranks")
      ->type_name("SIZE")
      ->group(kMemory);
  sort->add_option("-S,--memory-limit", s.memory_limit,
                   "Host memory for keys and values, in bytes or with a unit (like sort -S); raw files larger than "
                   "it are sorted externally through runs in the temporary directory (standard input and pipes "
                   "are read whole; several inputs, -u and --indices-out refuse inputs larger than it)")
      ->type_name("SIZE")
      ->group(kMemory);
  sort->add_option("-T,--temporary-directory", s.temporary_directory,
                   "Where external sorts keep their runs (default: $TMPDIR, else /tmp)")
      ->type_name("DIR")
      ->group(kMemory);
  sort->add_option("--record-size", s.record_size,
                   "Sort fixed-size binary records of this many bytes (1..1024) by --key (or --comparator) instead "
                   "of keys")
      ->type_name("N")
      ->group(kRecords);
  sort->add_option("--key", s.key,
                   "Record key fields OFFSET:TYPE[:desc], comma-separated, the first deciding: TYPE a key type or "
                   "bytesK (K bytes, unsigned, lexicographic); records with equal keys keep their order")
      ->type_name("FIELDS")
      ->group(kRecords);
  sort->add_flag("--progress", s.progress, "Draw a progress line on stderr even when it is not a terminal")
      ->group(kReport);
  sort->add_flag("--no-progress", s.no_progress, "Never draw the progress line")->group(kReport);
  sort->add_flag("-v,--verbose", s.verbose, "Print device, algorithm, timings and keys/s to stderr")->group(kReport);

  GenArgs g;
  auto* gen = app.add_subcommand("gen", "Generate test keys");
  gen->footer("Distributions:\n" + gpusort::core::distribution_help());
  gen->add_option("-t,--type", g.type, "Key type: u8 u16 u32 u64 i8 i16 i32 i64 f32 f64 f16 bf16 bool c64 c128")->required();
  gen->add_option("-n,--count", g.count, "Number of keys: decimal, or 2^K")->required();
  gen->add_option("--dist", g.dist, "Distribution (see below)")->capture_default_str();
  gen->add_option("--seed", g.seed, "Random seed (same seed, same data)")->capture_default_str();
  gen->add_option("-o,--output", g.output,
                  "Output file: raw little-endian, or .npy if the name ends in .npy; - is standard output")
      ->required();

  VerifyArgs v;
  auto* verify = app.add_subcommand("verify", "Exit 0 if a file of keys is sorted, else 1 naming the first unsorted index");
  verify->add_option("file", v.file, "Keys: raw little-endian array of --type, or a .npy file")->required();
  verify->add_option("-t,--type", v.type, "Key type (optional for .npy files)");
  verify->add_option("--format", v.format, "How the file is read: auto, raw or npy (as for sort)");
  verify->add_flag("-d,--descending,-r,--reverse", v.descending, "Check descending order");
  verify->add_flag("-q,--quiet", v.quiet, "Print nothing; only the exit status tells");

  PlanArgs pl;
  auto* plan = app.add_subcommand("plan", "Print what a sort would run (algorithm, path, each pass with its tuning, "
                                          "temporaries) without sorting anything");
  plan->add_option("-t,--type", pl.sort.type, "Key type: u8 u16 u32 u64 i8 i16 i32 i64 f32 f64 f16 bf16 bool c64 c128 (keys; not with --record-size)");
  plan->add_option("-n,--count", pl.count, "Number of keys: decimal, or 2^K")->required();
  plan->add_option("--values", pl.sort.values_type, "Value type carried along: a key type name or bytesK");
  plan->add_option("--indices", pl.indices, "argsort: the indices' width in bytes, 4 or 8");
  plan->add_option("--where", pl.where, "Where the data lie: host (files, host arrays) or device")->capture_default_str();
  plan->add_flag("-d,--descending,-r,--reverse", pl.sort.descending, "Descending order");
  plan->add_flag("-s,--stable", pl.sort.stable, "A stable sort");
  plan->add_option("-a,--algorithm", pl.sort.algorithm, "Algorithm name from `gpusort algorithms`, or auto")
      ->capture_default_str();
  plan->add_option("--device", pl.sort.device, "Device id from `gpusort devices` (default: $GPUSORT_DEVICE or the best one)");
  plan->add_option("--wg", pl.sort.work_group_size, "Work-group (CUDA block) size, as for sort");
  plan->add_option("--items-per-thread", pl.sort.items_per_thread, "Keys per work-item, as for sort");
  plan->add_option("--local", pl.sort.local_variant, "Local-sort variant, as for sort");
  plan->add_option("--merge", pl.sort.merge_variant, "Merge variant, as for sort");
  plan->add_option("--comparator", pl.sort.comparator, "A run-time order (or @FILE), as for sort");
  plan->add_option("--host-levels", pl.sort.host_merge_levels, "hybrid: host merge levels, as for sort");
  plan->add_option("--device-memory-limit", pl.sort.device_memory_limit, "Device memory the sort may use, as for sort");
  plan->add_option("--threads", pl.sort.threads, "Host threads per copy direction, as for sort");
  plan->add_option("-S,--memory-limit", pl.sort.memory_limit,
                   "Host memory for keys and values, as for sort: larger data plan the external sort through runs");
  plan->add_option("--ranks", pl.ranks, "The distributed sort (gpusort dist-sort) over this many ranks");
  plan->add_option("--rows", pl.rows, "A segmented sort of this many rows of count / rows keys each (sort --axis, "
                                      "--row-length)");
  plan->add_option("--segments", pl.segments, "A segmented sort of this many segments of any lengths, given by "
                                              "offsets (sort --segments)");
  plan->add_option("--top", pl.top, "A top-k: the K smallest (-r: largest) keys of each row (--rows) or of all, "
                                    "with --indices 4 or 8 their positions");
  plan->add_flag("--unsorted", pl.unsorted, "A top-k's K not sorted (unordered: as the selection settles them)");
  plan->add_option("--partition", pl.partition, "A partition (numpy's): each row (--rows) or all around its key of "
                                                "rank KTH, with --indices 4 or 8 the positions");
  plan->add_option("--record-size", pl.sort.record_size, "Records of this many bytes (1..1024), as for sort");
  plan->add_option("--key", pl.sort.key, "Record key fields OFFSET:TYPE[:desc],..., as for sort");

  auto* cache = add_cache_command(app);
  // Listed for --help only: main() hands dist-sort to gpusort-dist before parsing.
  app.add_subcommand("dist-sort", "Distributed sort of one raw file across MPI ranks: mpirun -np P gpusort dist-sort "
                                  "IN -o OUT -t T (see gpusort dist-sort --help)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    for (char& c : msg)
      if (c == '\n') c = ' ';
    std::fprintf(stderr, "gpusort: error: %s (see gpusort --help)\n", msg.c_str());
    return kExitUsage;
  }

  try {
    if (*devices) return run_devices(devices_verbose);
    if (app.got_subcommand("algorithms")) return run_algorithms();
    if (*sort) return run_sort(s);
    if (*plan) return run_plan(pl);
    if (*gen) return run_gen(g);
    if (*verify) return run_verify(v);
    if (*cache) return run_cache(*cache);
    return kExitUsage;
  } catch (const gpusort::Error& e) {
    print_error(e.what(), s.verbose);
    return exit_code_for(e.code());
  } catch (const std::bad_alloc&) {
    print_error("out of host memory", false);
    return kExitFailure;
  } catch (const std::exception& e) {
    print_error(e.what(), s.verbose);
    return kExitFailure;
  }
}
