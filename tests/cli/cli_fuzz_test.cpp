// Bounded fuzzing of `gpusort sort`: thousands of damaged .npy headers and hundreds of random
// option lines, each run as a real process with a time limit and held to the invariants of
// fuzz/sort_invariants.hpp (no crash, no hang, no partial or wrong output, clean errors).
//
// Every case is generated from one 64-bit seed (SplitMix64), printed when the case fails:
//   GPUSORT_FUZZ_SEED=0x...   run only that case (its directory is kept and its path printed)
//   GPUSORT_FUZZ_BASE=N       start the seed sequence elsewhere (explore new cases)
//   GPUSORT_FUZZ_CASES=N      run N cases per test instead of the default
//   GPUSORT_FUZZ_SCALE=P      run P percent of the default number (CI's sanitizer build: slower runs)
//   GPUSORT_FUZZ_LOG=FILE     append one line per case: seed, exit status, first stderr line
// Kernel programs come from $GPUSORT_CACHE_DIR (one cache for all cases, as CTest sets it), so
// only the first sorts of each profile pay a compile.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>

#include "cli_test_util.hpp"
#include "fuzz/header_cases.hpp"
#include "fuzz/option_lines.hpp"
#include "fuzz/run_with_timeout.hpp"
#include "fuzz/sort_invariants.hpp"
#include "fuzz/splitmix64.hpp"

namespace {

using namespace cli_fuzz;
using CaseMaker = std::function<std::vector<std::string>(std::uint64_t seed, const cli_test::TempDir& dir)>;

std::uint64_t env_number(const char* name, std::uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 0) : fallback;
}

// The first word of each line the command prints for `algorithms` and `devices`.
std::vector<std::string> first_words(const std::vector<std::string>& args) {
  cli_test::TempDir capture;
  const Outcome o = run_with_timeout(args, 120, capture.path());
  std::vector<std::string> words;
  std::istringstream in(o.out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream l(line);
    std::string w;
    if (l >> w) words.push_back(w);
  }
  return words;
}

const CliFacts& cli_facts() {
  static const CliFacts facts{first_words({"algorithms"}), first_words({"devices"})};
  return facts;
}

std::string command_line(const std::vector<std::string>& args) {
  std::string s = "gpusort";
  for (const auto& a : args) s += " " + cli_test::shell_quote(a);
  return s;
}

struct Tally {
  std::size_t cases = 0, ok = 0, failed = 0, broken = 0;
  double ok_seconds = 0, failed_seconds = 0;  // where the time went
};

// Runs the cases, reports each broken invariant with its replay seed, and returns the counts.
Tally fuzz(const std::string& test_name, std::uint64_t default_base, std::size_t default_cases, double limit_s,
           const CaseMaker& make) {
  const char* replay = std::getenv("GPUSORT_FUZZ_SEED");
  std::vector<std::uint64_t> seeds;
  if (replay && *replay) {
    seeds.push_back(std::strtoull(replay, nullptr, 0));
  } else {
    SplitMix64 seq(env_number("GPUSORT_FUZZ_BASE", default_base));
    const std::size_t scaled = std::max<std::size_t>(1, default_cases * env_number("GPUSORT_FUZZ_SCALE", 100) / 100);
    for (std::size_t i = env_number("GPUSORT_FUZZ_CASES", scaled); i > 0; --i) seeds.push_back(seq.next());
  }
  Tally t;
  const auto t0 = std::chrono::steady_clock::now();
  cli_test::TempDir capture;
  const char* log_path = std::getenv("GPUSORT_FUZZ_LOG");
  std::ofstream log;
  if (log_path && *log_path) log.open(log_path, std::ios::app);
  for (const std::uint64_t seed : seeds) {
    cli_test::TempDir dir;
    if (replay) dir.keep();
    const auto args = make(seed, dir);
    SortInvariants invariants(args, dir);
    const Outcome o = run_with_timeout(args, limit_s, capture.path());
    const std::string problem = invariants.check(o);
    ++t.cases;
    if (log.is_open())
      log << test_name << " " << hex_seed(seed) << " exit " << o.exit_code << " " << o.seconds << " s: "
          << o.err.substr(0, o.err.find('\n')) << "\n";
    if (o.exit_code == 0) ++t.ok, t.ok_seconds += o.seconds;
    if (o.exit_code > 0) ++t.failed, t.failed_seconds += o.seconds;
    if (replay)
      std::printf("case %s in %s\n%s\nexit %d, signal %d, timed out %d, %.2f s\nstderr:\n%s", hex_seed(seed).c_str(),
                  dir.path().c_str(), command_line(args).c_str(), o.exit_code, o.signal, int(o.timed_out), o.seconds,
                  o.err.c_str());
    if (problem.empty()) continue;
    // The first few in full; a systematic bug would otherwise print thousands of copies.
    if (++t.broken <= 8)
      ADD_FAILURE() << problem << "\n  replay: GPUSORT_FUZZ_SEED=" << hex_seed(seed)
                    << " tests/test_cli --gtest_filter=CliFuzz." << test_name << "\n  command: " << command_line(args)
                    << "\n  exit " << o.exit_code << ", stderr: " << o.err.substr(0, 600);
  }
  if (t.broken > 8) ADD_FAILURE() << t.broken - 8 << " more failing cases (not shown)";
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s: %zu cases in %.1f s: %zu sorted (%.1f s), %zu refused (%.1f s), %zu broke an invariant\n",
              test_name.c_str(), t.cases, s, t.ok, t.ok_seconds, t.failed, t.failed_seconds, t.broken);
  return t;
}

TEST(CliFuzz, NpyHeaders) {
  const auto& algorithms = cli_facts().algorithms;
  ASSERT_FALSE(algorithms.empty()) << "`gpusort algorithms` listed nothing";
  const Tally t = fuzz("NpyHeaders", 0x6e70792d68656164ull, 2000, 20,
                       [&](std::uint64_t seed, const cli_test::TempDir& dir) {
                         return make_header_case(seed, algorithms, dir);
                       });
  // Undamaged and harmlessly damaged files must still sort, or the test only exercises refusals.
  if (t.cases >= 100) EXPECT_GE(t.ok, t.cases / 100) << "almost nothing sorted";
}

TEST(CliFuzz, SortOptionLines) {
  const auto& facts = cli_facts();
  ASSERT_FALSE(facts.algorithms.empty()) << "`gpusort algorithms` listed nothing";
  // The time limit covers a first use that compiles several kernel programs on a busy machine.
  const Tally t = fuzz("SortOptionLines", 0x6f7074696f6e73ull, 250, 90,
                       [&](std::uint64_t seed, const cli_test::TempDir& dir) {
                         return OptionLineMaker(seed, facts, dir).make();
                       });
  if (t.cases >= 100) EXPECT_GE(t.ok, t.cases / 10) << "too few option lines sorted";
}

}  // namespace
