// Every failure of the gpusort command: non-zero exit, one "gpusort: error:" line on stderr, no
// output file created, an existing output untouched, the input unchanged.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <algorithm>

#include "cli_test_util.hpp"
#include "gpusort/context.hpp"
#include "gpusort/sort.hpp"

namespace {

using namespace cli_test;

class CliErrors : public WithKeysFile {
 protected:
  void SetUp() override {
    WithKeysFile::SetUp();
    keys_bytes_ = read_bytes(keys_);
    existing_ = (dir_ / "existing.out").string();
    write_bytes(existing_, "keep me", 7);
  }

  // Runs a failing sort twice: to a fresh output name (must not appear) and onto an existing
  // file (must keep its content). Returns the first result.
  RunResult expect_failure(std::vector<std::string> args_before_output, std::vector<std::string> args_after,
                           int code = -1) {
    auto run_to = [&](const std::string& out) {
      std::vector<std::string> args = args_before_output;
      args.push_back("-o");
      args.push_back(out);
      args.insert(args.end(), args_after.begin(), args_after.end());
      return run_cli(args);
    };
    const auto before = dir_.entries();
    const auto fresh = (dir_ / "fresh.out").string();
    const auto r = run_to(fresh);
    expect_clean_error(r, code);
    EXPECT_FALSE(fs::exists(fresh)) << "failed run created its output";
    EXPECT_EQ(dir_.entries(), before) << "failed run left files behind";
    const auto r2 = run_to(existing_);
    expect_clean_error(r2, code);
    EXPECT_EQ(read_text(existing_), "keep me") << "failed run clobbered an existing output";
    EXPECT_EQ(read_bytes(keys_), keys_bytes_) << "input changed";
    return r;
  }

  std::string existing_;
  std::vector<unsigned char> keys_bytes_;
};

TEST_F(CliErrors, MissingInputFile) {
  const auto r = expect_failure({"sort", (dir_ / "no-such-file").string()}, {"--type", "u32"}, 2);
  EXPECT_NE(r.err.find("no-such-file"), std::string::npos) << r.err;
}

TEST_F(CliErrors, InputSizeNotMultipleOfElementSize) {
  write_bytes(dir_ / "odd", "12345", 5);
  const auto r = expect_failure({"sort", (dir_ / "odd").string()}, {"--type", "u32"}, 2);
  EXPECT_NE(r.err.find("multiple"), std::string::npos) << r.err;
}

TEST_F(CliErrors, UnknownType) {
  const auto r = expect_failure({"sort", keys_}, {"--type", "u33"}, 2);
  EXPECT_NE(r.err.find("u33"), std::string::npos) << r.err;
}

TEST_F(CliErrors, MissingTypeForRawInput) { expect_failure({"sort", keys_}, {}, 2); }

TEST_F(CliErrors, UnknownValuesType) {
  expect_failure({"sort", keys_}, {"-t", "u32", "--values", keys_, "--values-type", "bytes3", "--values-out",
                                   (dir_ / "vo").string()},
                 2);
  EXPECT_FALSE(fs::exists(dir_ / "vo"));
}

TEST_F(CliErrors, ValuesCountMismatch) {
  std::vector<std::uint32_t> vals(999, 7);
  write_vec(dir_ / "vals", vals);
  const auto vals_before = read_bytes(dir_ / "vals");
  const auto r = expect_failure({"sort", keys_}, {"-t", "u32", "--values", (dir_ / "vals").string(), "--values-type",
                                                  "u32", "--values-out", (dir_ / "vo").string()},
                                2);
  EXPECT_FALSE(fs::exists(dir_ / "vo"));
  EXPECT_EQ(read_bytes(dir_ / "vals"), vals_before);
  EXPECT_NE(r.err.find("999"), std::string::npos) << r.err;
}

TEST_F(CliErrors, ValuesWithoutValuesOut) {
  expect_failure({"sort", keys_}, {"-t", "u32", "--values", keys_, "--values-type", "u32"}, 2);
}

TEST_F(CliErrors, UnwritableOutputDirectory) {
  const auto r = run_cli({"sort", keys_, "-o", (dir_ / "no-such-dir" / "out").string(), "-t", "u32"});
  expect_clean_error(r, 2);
  EXPECT_FALSE(fs::exists(dir_ / "no-such-dir"));
  EXPECT_EQ(read_bytes(keys_), keys_bytes_);
}

TEST_F(CliErrors, UnwritableValuesOutputLeavesKeysOutputAlone) {
  std::vector<std::uint32_t> vals(1000, 1);
  write_vec(dir_ / "vals", vals);
  const auto r = run_cli({"sort", keys_, "-o", existing_, "-t", "u32", "--values", (dir_ / "vals").string(),
                          "--values-type", "u32", "--values-out", (dir_ / "nodir" / "vo").string()});
  expect_clean_error(r, 2);
  EXPECT_EQ(read_text(existing_), "keep me");
}

TEST_F(CliErrors, OutputIsADirectory) {
  fs::create_directory(dir_ / "sub");
  expect_clean_error(run_cli({"sort", keys_, "-o", (dir_ / "sub").string(), "-t", "u32"}), 2);
  EXPECT_TRUE(fs::is_directory(dir_ / "sub"));
}

TEST_F(CliErrors, UnknownAlgorithm) {
  const auto r = expect_failure({"sort", keys_}, {"-t", "u32", "--algorithm", "quantum-bogosort"});
  EXPECT_NE(r.err.find("quantum-bogosort"), std::string::npos) << r.err;
}

TEST_F(CliErrors, StableWithAlgorithmThatCannotBeStable) {
  const auto algos = gpusort::algorithms();
  const auto it = std::find_if(algos.begin(), algos.end(), [](const auto& a) { return !a.can_be_stable; });
  if (it == algos.end()) GTEST_SKIP() << "every algorithm can be stable";
  expect_failure({"sort", keys_}, {"-t", "u32", "--stable", "--algorithm", it->name});
}

TEST_F(CliErrors, UnknownDevice) {
  expect_failure({"sort", keys_}, {"-t", "u32", "--device", "opencl:97:3"});
  expect_failure({"sort", keys_}, {"-t", "u32", "--device", "gibberish"});
}

// Out of device memory: a (sparse) input larger than the whole device. Only where that is cheap
// on the host: small-memory devices such as PoCL's CPU device.
// Out of device memory: inputs larger than the device are sorted in chunks (out-of-core), so the
// error appears when even the smallest chunk cannot fit the device memory gpusort may use. The
// limit option stands in for a small device.
TEST_F(CliErrors, DeviceMemoryLimitTooSmall) {
  const auto in = dir_ / "in.u32";
  std::vector<std::uint32_t> keys(100000);
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<std::uint32_t>(i * 2654435761u);
  write_bytes(in, keys.data(), keys.size() * sizeof keys[0]);
  const auto before = dir_.entries();
  const auto r = run_cli({"sort", in.string(), "-o", existing_, "-t", "u32", "--device-memory-limit", "4096"});
  expect_clean_error(r, 2);  // below what one chunk needs: a usage error naming the flag
  EXPECT_NE(r.err.find("--device-memory-limit"), std::string::npos) << r.err;
  EXPECT_EQ(read_text(existing_), "keep me");
  EXPECT_EQ(dir_.entries(), before) << "failed run left files behind";
  // With room for a few chunks the same input sorts (out-of-core).
  const auto out = dir_ / "out.u32";
  const auto ok = run_cli({"sort", in.string(), "-o", out.string(), "-t", "u32", "--device-memory-limit", "200000"});
  EXPECT_EQ(ok.code, 0) << describe(ok);
  EXPECT_EQ(run_cli({"verify", out.string(), "-t", "u32"}).code, 0);
}

// Out of host memory: the input does not fit in the (limited) address space.
TEST_F(CliErrors, OutOfHostMemory) {
  const auto big = dir_ / "big.u8";
  {
    std::ofstream f(big, std::ios::binary);
  }
  fs::resize_file(big, std::uint64_t(1) << 30);  // sparse
  const auto before = dir_.entries();
  // Through standard input: a regular file would be streamed through the device, not read whole.
  const auto r = run_cli({"sort", "-", "-o", existing_, "-t", "u8"}, "ulimit -v 600000; exec <" + shell_quote(big.string()) + ";");
  expect_clean_error(r, 1);
  EXPECT_NE(r.err.find("memory"), std::string::npos) << r.err;
  EXPECT_EQ(read_text(existing_), "keep me");
  EXPECT_EQ(dir_.entries(), before);
}

TEST_F(CliErrors, UsageErrors) {
  expect_clean_error(run_cli({}), 2);
  expect_clean_error(run_cli({"frobnicate"}), 2);
  expect_clean_error(run_cli({"sort", "-t", "u32", "-o", existing_}), 2);  // no input (-o may be left out)
  expect_clean_error(run_cli({"sort", keys_, "-o", existing_, "-t", "u32", "--no-such-flag"}), 2);
  EXPECT_EQ(read_text(existing_), "keep me");
  expect_clean_error(run_cli({"gen", "-t", "u32", "-n", "10", "--dist", "entropy-0", "-o", existing_}), 2);
  expect_clean_error(run_cli({"gen", "-t", "u32", "-n", "10", "--dist", "zipf", "-o", existing_}), 2);
  expect_clean_error(run_cli({"gen", "-t", "x", "-n", "10", "-o", existing_}), 2);
  expect_clean_error(run_cli({"gen", "-t", "u32", "-n", "10", "-o", (dir_ / "nodir" / "g").string()}), 2);
  EXPECT_EQ(read_text(existing_), "keep me");
  expect_clean_error(run_cli({"verify", (dir_ / "missing").string(), "-t", "u32"}), 2);
  expect_clean_error(run_cli({"verify", keys_, "-t", "nope"}), 2);
  expect_clean_error(run_cli({"verify", keys_}), 2);  // raw needs --type
}

TEST_F(CliErrors, HelpAndVersionSucceed) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"--help"}, {"sort", "--help"}, {"--version"}}) {
    const auto r = run_cli(args);
    EXPECT_CLI_OK(r);
    EXPECT_FALSE(r.out.empty());
  }
}

}  // namespace
