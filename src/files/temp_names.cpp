#include "files/temp_names.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>
#include <set>
#include <vector>

namespace gpusort::files {
namespace {

constexpr const char* kTempMarker = ".gpusort-tmp-";
constexpr const char* kKeptMarker = ".gpusort-kept-";

std::string read_small_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Field 22 of /proc/PID/stat (start time in clock ticks after boot); 0 if it cannot be read. The
// fields after the command name, which may hold spaces and parentheses, are counted from its end.
std::uint64_t start_time_of(const std::string& pid) {
  const std::string stat = read_small_file("/proc/" + pid + "/stat");
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  std::size_t at = close + 1;
  for (int field = 3; field < 22 && at != std::string::npos; ++field) at = stat.find(' ', at + 1);
  if (at == std::string::npos) return 0;
  return std::strtoull(stat.c_str() + at + 1, nullptr, 10);
}

std::uint32_t fnv1a(const std::string& s) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : s) h = (h ^ c) * 16777619u;
  return h;
}

struct ProcessTag {
  long pid = 0;
  std::uint64_t start = 0;
  std::uint32_t host = 0;
};

// This process's tag, worked out once.
const ProcessTag& own_tag() {
  static const ProcessTag tag = [] {
    ProcessTag t;
    t.pid = static_cast<long>(::getpid());
    t.start = start_time_of("self");
    char ns[64] = {};
    const ssize_t len = ::readlink("/proc/self/ns/pid", ns, sizeof ns - 1);
    t.host = fnv1a(read_small_file("/proc/sys/kernel/random/boot_id") + "|" + std::string(ns, len > 0 ? len : 0));
    return t;
  }();
  return tag;
}

std::string tag_text(const ProcessTag& t) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%ld.%llu.%08x", t.pid, (unsigned long long)t.start, t.host);
  return buf;
}

// "PID.START.HOST-" at the start of `s`, as written by tag_text.
bool parse_tag(const std::string& s, ProcessTag& t) {
  unsigned long long start = 0;
  unsigned host = 0;
  long pid = 0;
  int used = 0;
  if (std::sscanf(s.c_str(), "%ld.%llu.%8x-%n", &pid, &start, &host, &used) != 3 || used == 0 || pid <= 0) return false;
  t.pid = pid;
  t.start = start;
  t.host = host;
  return true;
}

// When this machine started (/proc/stat's btime, seconds since the epoch); 0 if unknown.
long long boot_time() {
  static const long long at = [] {
    const std::string stat = read_small_file("/proc/stat");
    const auto line = stat.find("\nbtime ");
    return line == std::string::npos ? 0LL : std::atoll(stat.c_str() + line + 7);
  }();
  return at;
}

enum class Writer {
  alive,    // or cannot be told
  gone,     // this boot and pid namespace, and that process is no more
  earlier,  // another boot or pid namespace, and the file is older than this boot
};

// What became of the process that wrote `t`. Only a tag of this boot and pid namespace can be
// looked up. Any other is from before this machine started, or from another machine or container
// sharing the directory; a file last changed before this boot is reported then, never removed.
Writer writer_of(const ProcessTag& t, const struct stat& st) {
  const ProcessTag& self = own_tag();
  if (t.host != self.host) return boot_time() > 0 && st.st_mtime < boot_time() ? Writer::earlier : Writer::alive;
  if (t.pid == self.pid) return t.start != self.start ? Writer::gone : Writer::alive;
  bool gone = false;
  if (self.start != 0) {  // /proc is there: the pid's start time says whether it is the same process
    const std::uint64_t now = start_time_of(std::to_string(t.pid));
    gone = now != 0 ? now != t.start
                    : ::access(("/proc/" + std::to_string(t.pid)).c_str(), F_OK) != 0 && errno == ENOENT;
  } else {
    gone = ::kill(static_cast<pid_t>(t.pid), 0) != 0 && errno == ESRCH;
  }
  return gone ? Writer::gone : Writer::alive;
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

void sweep(const std::string& directory) {
  DIR* dir = ::opendir(directory.c_str());
  if (!dir) return;
  const int dfd = ::dirfd(dir);
  const uid_t me = ::geteuid();
  std::vector<std::string> reports;
  while (const dirent* e = ::readdir(dir)) {
    const std::string name = e->d_name;
    if (name.size() < 2 || name[0] != '.') continue;
    const bool kept = name.find(kKeptMarker) != std::string::npos;
    const char* marker = kept ? kKeptMarker : kTempMarker;
    const auto at = name.rfind(marker);
    if (at == std::string::npos || at < 1) continue;
    ProcessTag tag;
    const std::string rest = name.substr(at + std::string(marker).size());
    if (!parse_tag(rest, tag)) continue;
    const bool backup = !kept && rest.size() > 4 && rest.compare(rest.size() - 4, 4, ".old") == 0;
    struct stat st {};
    if (::fstatat(dfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) || st.st_uid != me)
      continue;
    const Writer writer = writer_of(tag, st);
    if (writer == Writer::alive) continue;
    const std::string path = (directory == "." ? "" : directory + "/") + name;
    const std::string output = (directory == "." ? "" : directory + "/") + name.substr(1, at - 1);
    const std::string by = "gpusort (pid " + std::to_string(tag.pid) + ")";
    const std::string when = writer == Writer::gone ? "when it was killed"
                                                    : "before this machine last started (or on another machine)";
    if (kept)
      reports.push_back("gpusort: warning: " + quoted(path) + " holds the complete output that " + by +
                        " was copying into " + quoted(output) + " " + when +
                        "; that file may be incomplete: move this copy over it, or remove the copy if the file is "
                        "whole");
    else if (backup)
      reports.push_back("gpusort: warning: " + quoted(path) + " holds the previous content of " + quoted(output) +
                        ", which " + by + " was replacing together with another output " + when +
                        "; remove it if both outputs are whole");
    else if (writer == Writer::earlier)
      reports.push_back("gpusort: warning: " + quoted(path) + " is a temporary file of " + by +
                        " from before this machine last started (or from another machine): remove it if no "
                        "gpusort is writing there");
    else
      (void)::unlinkat(dfd, name.c_str(), 0);  // an output never committed: the target is as it was
  }
  ::closedir(dir);
  for (const std::string& line : reports) std::fprintf(stderr, "%s\n", line.c_str());
}

}  // namespace

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}


std::string temp_template_for(const std::string& target) {
  // 1 + 160 + marker (14) + tag (at most 7 + 1 + 20 + 1 + 8) + "-XXXXXX" + ".old" < NAME_MAX (255).
  constexpr std::size_t kKeepOfName = 160;
  std::string base = base_of(target);
  if (base.size() > kKeepOfName) base.resize(kKeepOfName);
  return directory_of(target) + "/." + base + kTempMarker + tag_text(own_tag()) + "-XXXXXX";
}

std::string kept_name_for(const std::string& temp_path) {
  std::string kept = temp_path;
  const auto at = kept.rfind(kTempMarker);
  if (at != std::string::npos) kept.replace(at, std::string(kTempMarker).size(), kKeptMarker);
  return kept;
}

void sweep_stale_temporaries(const std::string& directory) {
  static std::mutex m;
  static std::set<std::string> done;
  char real[4096];
  const std::string key = ::realpath(directory.c_str(), real) ? std::string(real) : directory;
  {
    std::lock_guard<std::mutex> lock(m);
    if (!done.insert(key).second) return;
  }
  sweep(directory);
}

}  // namespace gpusort::files
