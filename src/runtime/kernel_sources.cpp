#include "runtime/kernel_sources.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "gpusort/errors.hpp"

namespace gpusort::rt {
namespace {

const std::string* find_file(const std::string& name) {
  for (const auto& f : embedded_kernel_files())
    if (name == f.name) return &f.text;
  return nullptr;
}

// Registered run-time orders by name, for the life of the process (programs built from them are
// cached by the devices).
std::mutex g_orders_mutex;
std::map<std::string, std::string>& user_orders() {
  static std::map<std::string, std::string> orders;
  return orders;
}

constexpr const char* kUserOrderFile = "user_order.h";

void inline_file(const std::string& name, std::set<std::string>& seen, std::string& out,
                 const std::string* user_order);

// Copies `text` to `out`, inlining its includes of embedded files.
void inline_text(const std::string& text, std::set<std::string>& seen, std::string& out,
                 const std::string* user_order) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    auto first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line.compare(first, 8, "#include") == 0) {
      auto open = line.find('"');
      auto close = line.rfind('"');
      if (open != std::string::npos && close > open) {
        std::string inc = line.substr(open + 1, close - open - 1);
        if (find_file(inc)) {
          inline_file(inc, seen, out, user_order);
          continue;
        }
      }
    }
    out += line;
    out += '\n';
  }
}

void inline_file(const std::string& name, std::set<std::string>& seen, std::string& out,
                 const std::string* user_order) {
  if (name == kUserOrderFile && user_order) {  // the run-time order instead of the empty default
    if (seen.insert(name).second) inline_text(*user_order, seen, out, user_order);
    return;
  }
  const std::string* text = find_file(name);
  if (!text) throw Error(errc::invalid_argument, "no embedded kernel file named '" + name + "'");
  if (!seen.insert(name).second) return;
  inline_text(*text, seen, out, user_order);
}

}  // namespace

std::string assemble_kernel_source(const std::string& file) {
  std::set<std::string> seen;
  std::string out;
  const std::size_t hash = file.find('#');
  if (hash == std::string::npos) {
    inline_file(file, seen, out, nullptr);
    return out;
  }
  std::string order;
  {
    std::lock_guard lock(g_orders_mutex);
    auto it = user_orders().find(file.substr(hash + 1));
    if (it == user_orders().end())
      throw Error(errc::invalid_argument, "no run-time order named '" + file.substr(hash + 1) + "'");
    order = it->second;
  }
  inline_file(file.substr(0, hash), seen, out, &order);
  return out;
}

namespace {
// Registers `text` under a hash of itself and returns the name (a collision gets a name of its own).
std::string register_order_text(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  char name[32];
  std::snprintf(name, sizeof name, "order-%016llx", static_cast<unsigned long long>(h));
  std::lock_guard lock(g_orders_mutex);
  std::string unique = name;
  for (int i = 2;; ++i) {
    auto [it, added] = user_orders().emplace(unique, text);
    if (added || it->second == text) return unique;
    unique = std::string(name) + "-" + std::to_string(i);
  }
}
}  // namespace

namespace {
// The text of a run-time order: `prelude`, then the user's body as
// `int gs_user_order_body(param_type a, param_type b)` after a #line, so compile errors name its own
// lines, then ours: gs_user_before(key_t a, key_t b) calling it on convert(a), convert(b), turned
// around for a descending sort.
std::string order_text(const std::string& prelude, const std::string& param_type, const std::string& convert,
                       const std::string& body, bool descending) {
  const std::string a = convert + "(a)", b = convert + "(b)";
  return prelude + "#define GPUSORT_USER_ORDER 1\nDEVICE_FN int gs_user_order_body(" + param_type + " a, " +
         param_type + " b) {\n#line 1 \"comparator\"\n" + body +
         "\n}\n#line 1 \"user_order.h\"\nDEVICE_FN int gs_user_before(key_t a, key_t b) { return gs_user_order_body(" +
         (descending ? b + ", " + a : a + ", " + b) + ") ? 1 : 0; }\n";
}
}  // namespace

std::string register_user_order(const std::string& body, bool descending) {
  return register_order_text(order_text("#include \"user_key.h\"\n", "user_key_t", "user_key", body, descending));
}

std::string register_record_order(const std::string& body, bool descending) {
  // The keys are the records' addresses (kernels/records.cl, records_addresses); the body reads
  // the records through them with the field readers of record_fields.h.
  return register_order_text(order_text(
      "#include \"record_fields.h\"\n#if KEY_BITS != 64\n#error \"a record order sorts 64-bit record addresses\"\n"
      "#endif\nDEVICE_FN GLOBAL const u8* gs_record_at(key_t k) { return (GLOBAL const u8*)k; }\n",
      "GLOBAL const u8*", "gs_record_at", body, descending));
}

namespace {
// Rewrites every `prefix<digits>suffix` of text as rewrite(number) (number: the digits' value);
// rewrite returns "" to leave that occurrence as it was. Plain scanning, not std::regex: libstdc++'s
// regex instantiations can bind to another library's (PyTorch's, in a Python process) and crash.
template <class Rewrite>
std::string rewrite_numbered(const std::string& text, const std::string& prefix, const std::string& suffix,
                             Rewrite rewrite) {
  std::string out;
  std::size_t from = 0;
  for (std::size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at + 1)) {
    std::size_t end = at + prefix.size(), number = 0;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9' && end - at - prefix.size() < 9)
      number = number * 10 + std::size_t(text[end++] - '0');
    if (end == at + prefix.size() || text.compare(end, suffix.size(), suffix) != 0) continue;
    const std::string replacement = rewrite(number);
    if (replacement.empty()) continue;
    out += text.substr(from, at - from) + replacement;
    from = end + suffix.size();
    at = from - 1;
  }
  return out + text.substr(from);
}
}  // namespace

std::string with_comparator_lines(const std::string& log, const std::string& source) {
  const std::size_t marker = source.find("#line 1 \"comparator\"");
  if (marker == std::string::npos) return log;
  auto ours = [](std::size_t line) { return "comparator:" + std::to_string(line); };
  // NVRTC writes file(line), EDG-style front ends "file", line N; clang already file:line.
  std::string out = rewrite_numbered(log, "comparator(", ")", ours);
  out = rewrite_numbered(out, "\"comparator\", line ", "", ours);
  // Compilers that ignore #line (NVIDIA's OpenCL: "<kernel>:233:12:") count lines of the whole
  // source: those inside the comparator's body become its own.
  std::size_t marker_line = 1;  // 1-based line of the marker; the body starts on the next
  for (std::size_t i = 0; i < marker; ++i) marker_line += source[i] == '\n';
  std::size_t last_line = marker_line;
  const std::size_t body_end = std::min(source.size(), source.find("\n}\n#line 1 \"user_order.h\"", marker));
  for (std::size_t i = marker; i < body_end; ++i) last_line += source[i] == '\n';
  return rewrite_numbered(out, "<kernel>:", ":", [&](std::size_t line) {
    return line > marker_line && line <= last_line ? ours(line - marker_line) + ":" : std::string();
  });
}

}  // namespace gpusort::rt
