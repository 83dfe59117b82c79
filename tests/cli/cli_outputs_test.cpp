// Where the gpusort command's outputs go, and that none is ever lost: devices, FIFOs and standard
// output are streamed to, links are written through, a replaced file keeps its mode, keys and
// values outputs that name one file are refused, interrupted or broken-pipe runs leave nothing; in a
// shared sticky directory, other users' links and files are refused; extended attributes are kept.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "cli_test_util.hpp"

namespace {

using namespace cli_test;

std::vector<std::uint32_t> sorted_copy(std::vector<std::uint32_t> v) {
  std::stable_sort(v.begin(), v.end());
  return v;
}

class CliOutputs : public WithKeysFile {
 protected:
  // No temporary or backup file of gpusort left in the directory.
  void expect_no_leftovers() {
    for (const auto& name : dir_.entries()) EXPECT_EQ(name.find("gpusort-tmp"), std::string::npos) << name;
  }
};

TEST_F(CliOutputs, CharacterDeviceIsWrittenNotReplaced) {
  const auto node = dir_ / "null";
  if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) GTEST_SKIP() << "cannot make a device node here";
  ASSERT_CLI_OK(run_cli({"gen", "-t", "u32", "-n", "10", "-o", node.string()}));
  ASSERT_CLI_OK(run_cli({"sort", keys_, "-t", "u32", "-o", node.string()}));
  struct stat st {};
  ASSERT_EQ(::stat(node.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "the device node was replaced";
  expect_no_leftovers();
}

TEST_F(CliOutputs, DevNullWorks) {
  EXPECT_CLI_OK(run_cli({"sort", keys_, "-t", "u32", "-o", "/dev/null"}));
  struct stat st {};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST_F(CliOutputs, FifoReaderGetsTheData) {
  const auto fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto got = dir_ / "got";
  // The reader runs in the same shell, in the background, so the writer's open() finds it.
  const auto r = run_cli({"sort", keys_, "-t", "u32", "-o", fifo.string()},
                         "cat " + shell_quote(fifo.string()) + " > " + shell_quote(got.string()) + " & ");
  ASSERT_CLI_OK(r);
  for (int i = 0; i < 100 && fs::file_size(got) < input_.size() * 4; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(read_vec<std::uint32_t>(got), sorted_copy(input_));
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced";
}

TEST_F(CliOutputs, StandardOutputAndInput) {
  const auto out = dir_ / "out";
  // "-" as input and as output: the sorted keys come out on stdout.
  auto r = run_cli({"sort", "-", "-t", "u32", "-o", "-"}, "cat " + shell_quote(keys_) + " | ");
  ASSERT_CLI_OK(r);
  ASSERT_EQ(r.out.size(), input_.size() * 4);
  std::vector<std::uint32_t> got(input_.size());
  std::memcpy(got.data(), r.out.data(), r.out.size());
  EXPECT_EQ(got, sorted_copy(input_));
  // /dev/stdout is the same stream, whatever it points to.
  r = run_cli({"sort", keys_, "-t", "u32", "-o", "/dev/stdout"});
  ASSERT_CLI_OK(r);
  EXPECT_EQ(r.out.size(), input_.size() * 4);
  // gen to stdout feeds sort from stdin.
  r = run_cli({"sort", "-", "-t", "u32", "-o", out.string()},
              shell_quote(cli_path()) + " gen -t u32 -n 777 -o - | ");
  ASSERT_CLI_OK(r);
  EXPECT_EQ(fs::file_size(out), 777u * 4);
  EXPECT_CLI_OK(run_cli({"verify", out.string(), "-t", "u32"}));
}

TEST_F(CliOutputs, ReplacedFileKeepsItsMode) {
  ASSERT_EQ(::chmod(keys_.c_str(), 0640), 0);
  ASSERT_CLI_OK(run_cli({"sort", keys_, "-t", "u32", "-o", keys_}));
  struct stat st {};
  ASSERT_EQ(::stat(keys_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_EQ(read_vec<std::uint32_t>(keys_), sorted_copy(input_));
  expect_no_leftovers();
}

TEST_F(CliOutputs, SymlinkIsWrittenThrough) {
  const auto real = dir_ / "real", link = dir_ / "link", dangling = dir_ / "dangling";
  write_bytes(real, "old", 3);
  fs::create_symlink("real", link);
  ASSERT_CLI_OK(run_cli({"sort", keys_, "-t", "u32", "-o", link.string()}));
  EXPECT_TRUE(fs::is_symlink(link)) << "the link was replaced";
  EXPECT_EQ(read_vec<std::uint32_t>(real), sorted_copy(input_));
  // A link to a file that does not exist yet creates that file.
  fs::create_symlink("made-by-sort", dangling);
  ASSERT_CLI_OK(run_cli({"sort", keys_, "-t", "u32", "-o", dangling.string()}));
  EXPECT_TRUE(fs::is_symlink(dangling));
  EXPECT_EQ(read_vec<std::uint32_t>(dir_ / "made-by-sort"), sorted_copy(input_));
  expect_no_leftovers();
}

TEST_F(CliOutputs, HardLinkedTargetIsRewrittenInPlace) {
  const auto target = dir_ / "target", other = dir_ / "other-name";
  write_bytes(target, "old", 3);
  fs::create_hard_link(target, other);
  ASSERT_CLI_OK(run_cli({"sort", keys_, "-t", "u32", "-o", target.string()}));
  EXPECT_EQ(fs::hard_link_count(target), 2u);
  EXPECT_EQ(read_vec<std::uint32_t>(other), sorted_copy(input_)) << "the other link kept the old content";
  expect_no_leftovers();
}

TEST_F(CliOutputs, SameFileUnderTwoSpellingsIsRefused) {
  const auto before = dir_.entries();
  // Neither exists: "same" and "./same" (and an absolute spelling) name one new file.
  for (const std::string& second : {std::string("./same"), (dir_ / "same").string(), (dir_ / "sub/../same").string()}) {
    fs::create_directories(dir_ / "sub");
    const auto r = run_cli({"sort", keys_, "-t", "u32", "-o", (dir_ / "same").string(), "--values", keys_,
                            "--values-type", "u32", "--values-out", second},
                           "cd " + shell_quote(dir_.path().string()) + " && ");
    expect_clean_error(r, 2);
    EXPECT_FALSE(fs::exists(dir_ / "same")) << second;
    fs::remove(dir_ / "sub");
  }
  // A link and its target.
  write_bytes(dir_ / "t", "keep", 4);
  fs::create_symlink("t", dir_ / "l");
  expect_clean_error(run_cli({"sort", keys_, "-t", "u32", "-o", (dir_ / "t").string(), "--values", keys_,
                              "--values-type", "u32", "--values-out", (dir_ / "l").string()}),
                     2);
  EXPECT_EQ(read_text(dir_ / "t"), "keep");
  expect_no_leftovers();
}

TEST_F(CliOutputs, LongOutputNames) {
  for (std::size_t len : {235u, 236u, 250u, 255u}) {
    const auto out = dir_ / std::string(len, 'n');
    ASSERT_CLI_OK(run_cli({"sort", keys_, "-t", "u32", "-o", out.string()})) << len;
    EXPECT_EQ(read_vec<std::uint32_t>(out), sorted_copy(input_)) << len;
    fs::remove(out);
  }
  expect_no_leftovers();
}

TEST_F(CliOutputs, ClosedPipeIsAnErrorAndLeavesNothing) {
  // The reader reads nothing and goes away: the write fails with EPIPE, reported, exit non-zero.
  std::vector<std::uint32_t> many(1 << 20);
  for (std::uint32_t i = 0; i < many.size(); ++i) many[i] = i * 2654435761u;
  write_vec(keys_, many);
  const auto status = dir_ / "status";
  const std::string cmd = "cd " + shell_quote(dir_.path().string()) + " && { " + shell_quote(cli_path()) +
                          " sort keys.u32 -t u32 -o - --verbose 2>err; echo $? > status; } | head -c 10 > /dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_NE(read_text(status), "0\n");
  const auto err = read_text(dir_ / "err");
  EXPECT_NE(err.find("gpusort: error: "), std::string::npos) << err;
  EXPECT_EQ(err.find("Broken"), std::string::npos) << err;
  // The same into a file output with --verbose piped away: the output is complete, nothing left over.
  const std::string cmd2 = "cd " + shell_quote(dir_.path().string()) + " && " + shell_quote(cli_path()) +
                           " sort keys.u32 -t u32 -o out --verbose 2>&1 | head -c 1 > /dev/null";
  ASSERT_EQ(std::system(cmd2.c_str()), 0);
  EXPECT_EQ(fs::file_size(dir_ / "out"), many.size() * 4);
  fs::remove(dir_ / "status");
  fs::remove(dir_ / "err");
  expect_no_leftovers();
}

TEST_F(CliOutputs, ReplacedFileKeepsExtendedAttributesAndAcl) {
  const std::string value = "kept";
  if (::setxattr(keys_.c_str(), "user.gpusort-test", value.data(), value.size(), 0) != 0)
    GTEST_SKIP() << "no user.* extended attributes here: " << std::strerror(errno);
  // A POSIX ACL as the kernel stores it: version 2, then (tag, permissions, id) entries:
  // owner rw, user 65534 r, group r, mask r, others nothing.
  struct Entry {
    std::uint16_t tag, perm;
    std::uint32_t id;
  };
  std::vector<unsigned char> acl(4);
  const std::uint32_t version = 2;
  std::memcpy(acl.data(), &version, 4);
  for (const Entry e : {Entry{0x01, 6, 0xFFFFFFFFu}, Entry{0x02, 4, 65534u}, Entry{0x04, 4, 0xFFFFFFFFu},
                        Entry{0x10, 4, 0xFFFFFFFFu}, Entry{0x20, 0, 0xFFFFFFFFu}}) {
    const auto* p = reinterpret_cast<const unsigned char*>(&e);
    acl.insert(acl.end(), p, p + sizeof e);
  }
  const bool with_acl = ::setxattr(keys_.c_str(), "system.posix_acl_access", acl.data(), acl.size(), 0) == 0;
  ASSERT_CLI_OK(run_cli({"sort", keys_, "-t", "u32", "-o", keys_}));
  EXPECT_EQ(read_vec<std::uint32_t>(keys_), sorted_copy(input_));
  char buf[256];
  const ssize_t n = ::getxattr(keys_.c_str(), "user.gpusort-test", buf, sizeof buf);
  ASSERT_EQ(n, 4) << "the extended attribute was lost";
  EXPECT_EQ(std::string(buf, 4), value);
  if (with_acl) {
    const ssize_t m = ::getxattr(keys_.c_str(), "system.posix_acl_access", buf, sizeof buf);
    ASSERT_GT(m, 0) << "the ACL was lost";
    EXPECT_EQ(std::vector<unsigned char>(buf, buf + m), acl);
  }
  expect_no_leftovers();
}

TEST_F(CliOutputs, SharedStickyDirectoryRefusesOtherUsersLinksAndFiles) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give files to another user";
  const uid_t other = 65534;
  const auto shared = dir_ / "shared";
  fs::create_directory(shared);
  ASSERT_EQ(::chmod(shared.c_str(), 01777), 0);
  auto sort_into = [&](const fs::path& out) { return run_cli({"sort", keys_, "-t", "u32", "-o", out.string()}); };

  // A link another user planted, to the caller's private file: not followed.
  const auto victim = dir_ / "victim";
  write_bytes(victim, "secret", 6);
  ASSERT_EQ(::chmod(victim.c_str(), 0600), 0);
  fs::create_symlink(victim, shared / "planted-link");
  ASSERT_EQ(::lchown((shared / "planted-link").c_str(), other, other), 0);
  auto r = sort_into(shared / "planted-link");
  expect_clean_error(r, 2);
  EXPECT_NE(r.err.find("symbolic link of user 65534"), std::string::npos) << r.err;
  EXPECT_EQ(read_text(victim), "secret");
  // Nor through the caller's own link to it.
  fs::create_symlink("planted-link", shared / "my-link-to-planted");
  expect_clean_error(sort_into(shared / "my-link-to-planted"), 2);
  EXPECT_EQ(read_text(victim), "secret");

  // A file another user made first: not replaced (its owner would read the result).
  write_bytes(shared / "planted-file", "theirs", 6);
  ASSERT_EQ(::chown((shared / "planted-file").c_str(), other, other), 0);
  r = sort_into(shared / "planted-file");
  expect_clean_error(r, 2);
  EXPECT_NE(r.err.find("belongs to user 65534"), std::string::npos) << r.err;
  EXPECT_EQ(read_text(shared / "planted-file"), "theirs");
  // Nor a FIFO (a reader is kept open, so that a write would not wait).
  ASSERT_EQ(::mkfifo((shared / "planted-fifo").c_str(), 0666), 0);
  ASSERT_EQ(::chown((shared / "planted-fifo").c_str(), other, other), 0);
  const int reader = ::open((shared / "planted-fifo").c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  expect_clean_error(sort_into(shared / "planted-fifo"), 2);
  char byte = 0;
  EXPECT_LE(::read(reader, &byte, 1), 0) << "the FIFO was written";
  ::close(reader);

  // The caller's own link and file there still work.
  fs::create_symlink("my-target", shared / "my-link");
  ASSERT_CLI_OK(sort_into(shared / "my-link"));
  EXPECT_EQ(read_vec<std::uint32_t>(shared / "my-target"), sorted_copy(input_));
  write_bytes(shared / "my-file", "mine", 4);
  ASSERT_CLI_OK(sort_into(shared / "my-file"));
  EXPECT_EQ(read_vec<std::uint32_t>(shared / "my-file"), sorted_copy(input_));
  // So does a file of the directory's owner, which keeps its owner.
  ASSERT_EQ(::chown(shared.c_str(), other, other), 0);
  write_bytes(shared / "owners-file", "owner's", 7);
  ASSERT_EQ(::chown((shared / "owners-file").c_str(), other, other), 0);
  ASSERT_CLI_OK(sort_into(shared / "owners-file"));
  EXPECT_EQ(read_vec<std::uint32_t>(shared / "owners-file"), sorted_copy(input_));
  struct stat st {};
  ASSERT_EQ(::stat((shared / "owners-file").c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, other);
  for (const auto& e : fs::directory_iterator(shared))
    EXPECT_EQ(e.path().filename().string().find("gpusort-"), std::string::npos) << e.path();
}

TEST_F(CliOutputs, TerminatingSignalsLeaveNoTemporaryFile) {
  // Large enough that the sort is still running when the signal comes.
  std::vector<std::uint32_t> many(1 << 23);
  for (std::uint32_t i = 0; i < many.size(); ++i) many[i] = i * 2654435761u;
  write_vec(keys_, many);
  for (int sig : {SIGTERM, SIGHUP, SIGALRM}) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      const std::string cli = cli_path(), out = (dir_ / "out").string();
      ::execl(cli.c_str(), cli.c_str(), "sort", keys_.c_str(), "-t", "u32", "-o", out.c_str(), (char*)nullptr);
      ::_exit(127);
    }
    // Wait until the temporary output exists (the input is read), then signal.
    bool seen = false;
    for (int i = 0; i < 500 && !seen; ++i) {
      for (const auto& name : dir_.entries()) seen = seen || name.find("gpusort-tmp") != std::string::npos;
      if (!seen) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::kill(pid, sig);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    if (WIFSIGNALED(status)) {
      EXPECT_EQ(WTERMSIG(status), sig);
      EXPECT_FALSE(fs::exists(dir_ / "out")) << "a killed run produced its output";
    }  // else the sort finished first (a fast machine): then the output is complete
    expect_no_leftovers();
    fs::remove(dir_ / "out");
  }
}

}  // namespace
