// The command's output module directly: keys and values outputs are committed together or not at
// all, even when the second replacement fails after the first succeeded.
#include <fcntl.h>
#include <gtest/gtest.h>

#include "cli_test_util.hpp"
#include "file_io.hpp"
#include "gpusort/errors.hpp"
#include "output_file.hpp"

namespace {

using namespace cli_test;
using gpusort::cli::OutputFile;

TEST(OutputFile, PairIsCommittedTogetherOrNotAtAll) {
  TempDir d;
  const auto keys = d / "keys", values = d / "values";
  write_bytes(keys, "old keys", 8);
  write_bytes(values, "old values", 10);
  OutputFile k(keys.string(), "output"), v(values.string(), "values output");
  k.write("new keys", 8);
  v.write("new values", 10);
  // The values target turns into a non-empty directory: its rename must fail, after the keys'.
  fs::remove(values);
  fs::create_directories(values / "inside");
  std::vector<OutputFile*> both{&k, &v};
  EXPECT_THROW(gpusort::cli::commit_together(both), gpusort::Error);
  EXPECT_EQ(read_text(keys), "old keys") << "keys were replaced although the values could not be";
  EXPECT_TRUE(fs::is_directory(values / "inside"));
  // No temporary or backup left once the outputs are gone.
}

TEST(OutputFile, PairWithANewKeysFileRollsBackToNothing) {
  TempDir d;
  const auto keys = d / "keys", values = d / "values";
  {
    OutputFile k(keys.string(), "output"), v(values.string(), "values output");
    k.write("k", 1);
    v.write("v", 1);
    fs::create_directories(values / "inside");
    std::vector<OutputFile*> both{&k, &v};
    EXPECT_THROW(gpusort::cli::commit_together(both), gpusort::Error);
    EXPECT_FALSE(fs::exists(keys)) << "a keys file appeared without its values";
  }
  EXPECT_EQ(d.entries(), std::vector<std::string>{"values"});
}

TEST(OutputFile, UnfinishedOutputLeavesTargetAndNoTemporary) {
  TempDir d;
  const auto target = d / "t";
  write_bytes(target, "keep", 4);
  {
    OutputFile o(target.string(), "output");
    o.write("partial", 7);
  }
  EXPECT_EQ(read_text(target), "keep");
  EXPECT_EQ(d.entries(), std::vector<std::string>{"t"});
}

TEST(OutputFile, DistinctCheckSeesThroughSpellings) {
  TempDir d;
  OutputFile a((d / "x").string(), "output"), b((d / "." / "x").string(), "values output");
  std::vector<OutputFile*> both{&a, &b};
  EXPECT_THROW(gpusort::cli::check_distinct(both), gpusort::Error);
}

// What gpusort dist-sort's other ranks write into: a file beside the target that another writer
// may fill at positions, and that only the OutputFile removes or renames.
TEST(OutputFile, TemporaryPathTakesWritesFromAnotherDescriptor) {
  TempDir d;
  const auto target = d / "t";
  OutputFile o(target.string(), "output");
  const std::string temp = o.temporary_path();
  ASSERT_FALSE(temp.empty());
  EXPECT_EQ(fs::path(temp).parent_path(), fs::path(target).parent_path());
  EXPECT_EQ(fs::path(temp).filename().string().front(), '.') << temp;  // hidden
  o.write_at(0, "head", 4);
  {
    const gpusort::cli::Fd other(::open(temp.c_str(), O_WRONLY | O_CLOEXEC));
    ASSERT_GE(other.get(), 0) << temp;
    gpusort::cli::write_at(other.get(), "tail", 4, 4, "the temporary file");
  }
  o.commit();
  EXPECT_TRUE(o.temporary_path().empty());
  EXPECT_EQ(read_text(target), "headtail");
  EXPECT_EQ(d.entries(), std::vector<std::string>{"t"});
}

TEST(OutputFile, StreamHasNoTemporaryPath) {
  OutputFile o("-", "output");
  EXPECT_TRUE(o.temporary_path().empty());
}

}  // namespace
