#include "runtime/kernel_sources.hpp"

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

void inline_file(const std::string& name, std::set<std::string>& seen, std::string& out) {
  const std::string* text = find_file(name);
  if (!text) throw Error(errc::invalid_argument, "no embedded kernel file named '" + name + "'");
  if (!seen.insert(name).second) return;
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    auto first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line.compare(first, 8, "#include") == 0) {
      auto open = line.find('"');
      auto close = line.rfind('"');
      if (open != std::string::npos && close > open) {
        std::string inc = line.substr(open + 1, close - open - 1);
        if (find_file(inc)) {
          inline_file(inc, seen, out);
          continue;
        }
      }
    }
    out += line;
    out += '\n';
  }
}

}  // namespace

std::string assemble_kernel_source(const std::string& file) {
  std::set<std::string> seen;
  std::string out;
  inline_file(file, seen, out);
  return out;
}

}  // namespace gpusort::rt
