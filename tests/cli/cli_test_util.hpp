#pragma once
// Helpers for the tests of the gpusort command: run it, capture stdout/stderr, make files.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace cli_test {

namespace fs = std::filesystem;

// $GPUSORT_CLI overrides the built-in path (scripts/device-check runs a carried build elsewhere).
inline std::string cli_path() {
  const char* env = std::getenv("GPUSORT_CLI");
  return env && *env ? env : GPUSORT_CLI_PATH;
}

inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

inline std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline std::vector<unsigned char> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(in), {});
}

inline void write_bytes(const fs::path& p, const void* data, std::size_t n) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
  ASSERT_TRUE(out.good()) << "cannot write " << p;
}

template <class T>
void write_vec(const fs::path& p, const std::vector<T>& v) {
  write_bytes(p, v.data(), v.size() * sizeof(T));
}

template <class T>
std::vector<T> read_vec(const fs::path& p, std::size_t offset = 0) {
  const auto b = read_bytes(p);
  std::vector<T> v(b.size() > offset ? (b.size() - offset) / sizeof(T) : 0);
  if (!v.empty()) std::memcpy(v.data(), b.data() + offset, v.size() * sizeof(T));
  return v;
}

// A .npy file written by hand: version 1 (or 2) header padded to a multiple of 64 bytes.
inline std::vector<unsigned char> make_npy(const std::string& descr, const std::string& shape, const void* data,
                                           std::size_t bytes, int version = 1) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  const std::size_t prefix = version == 1 ? 10 : 12;
  std::size_t total = (prefix + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - prefix - dict.size() - 1, ' ');
  dict += '\n';
  std::vector<unsigned char> out = {0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<unsigned char>(version), 0};
  const std::size_t len = dict.size();
  out.push_back(len & 0xFF);
  out.push_back((len >> 8) & 0xFF);
  if (version != 1) {
    out.push_back((len >> 16) & 0xFF);
    out.push_back((len >> 24) & 0xFF);
  }
  out.insert(out.end(), dict.begin(), dict.end());
  const auto* p = static_cast<const unsigned char*>(data);
  out.insert(out.end(), p, p + bytes);
  return out;
}

struct RunResult {
  int code = -1;
  std::string out;
  std::string err;
};

// A fresh directory, removed with everything in it at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string templ = (fs::temp_directory_path() / "gpusort-cli-test-XXXXXX").string();
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (!::mkdtemp(buf.data())) throw std::runtime_error("mkdtemp failed");
    path_ = buf.data();
  }
  ~TempDir() {
    std::error_code ec;
    if (!keep_) fs::remove_all(path_, ec);
  }
  // Leave the directory in place (to look at a failing case by hand).
  void keep() { keep_ = true; }
  fs::path operator/(const std::string& name) const { return path_ / name; }
  const fs::path& path() const { return path_; }
  // Every entry in the directory (to prove failed runs leave nothing behind).
  std::vector<std::string> entries() const {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(path_)) v.push_back(e.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
  }

 private:
  fs::path path_;
  bool keep_ = false;
};

// Runs the gpusort command with the given arguments; stdout and stderr are captured to files.
// shell_prefix runs first in the same shell (e.g. "ulimit -v 500000;").
inline RunResult run_cli(const std::vector<std::string>& args, const std::string& shell_prefix = "") {
  TempDir capture;
  std::string cmd = shell_prefix + " " + shell_quote(cli_path());
  for (const auto& a : args) cmd += " " + shell_quote(a);
  cmd += " >" + shell_quote((capture / "stdout").string()) + " 2>" + shell_quote((capture / "stderr").string());
  const int status = std::system(cmd.c_str());
  RunResult r;
  r.code = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
  r.out = read_text(capture / "stdout");
  r.err = read_text(capture / "stderr");
  return r;
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) v.push_back(line);
  return v;
}

inline std::string describe(const RunResult& r) {
  return "exit " + std::to_string(r.code) + "\n--- stdout:\n" + r.out + "--- stderr:\n" + r.err;
}

// Exit status non-zero and exactly one stderr line, starting with "gpusort: error: ".
inline void expect_clean_error(const RunResult& r, int expected_code = -1) {
  EXPECT_NE(r.code, 0) << describe(r);
  if (expected_code >= 0) {
    EXPECT_EQ(r.code, expected_code) << describe(r);
  }
  const auto lines = lines_of(r.err);
  ASSERT_EQ(lines.size(), 1u) << describe(r);
  EXPECT_EQ(lines[0].rfind("gpusort: error: ", 0), 0u) << describe(r);
  EXPECT_GT(lines[0].size(), std::strlen("gpusort: error: ") + 5) << describe(r);
}

// A fresh directory holding keys.u32: 1000 distinct u32 keys in no order, for tests that run the
// command on a small input.
class WithKeysFile : public ::testing::Test {
 protected:
  void SetUp() override {
    keys_ = (dir_ / "keys.u32").string();
    input_.resize(1000);
    for (std::uint32_t i = 0; i < input_.size(); ++i) input_[i] = i * 2654435761u;
    write_vec(keys_, input_);
  }
  TempDir dir_;
  std::string keys_;
  std::vector<std::uint32_t> input_;
};

#define EXPECT_CLI_OK(r) EXPECT_EQ((r).code, 0) << ::cli_test::describe(r)
#define ASSERT_CLI_OK(r) ASSERT_EQ((r).code, 0) << ::cli_test::describe(r)

}  // namespace cli_test
