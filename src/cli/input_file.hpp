#pragma once
// Reading a whole input for the gpusort command: a file, a pipe, a device or, for "-", standard
// input. Reads to end of file: the size stat() reports is only a hint (it is 0 for /proc files and
// pipes), so nothing is silently dropped.
#include <string>
#include <vector>

namespace gpusort::cli {

// `what` names the input in errors ("input", "values"). Throws gpusort::Error: io_error if it
// cannot be opened or read (or is a directory), out_of_memory if it does not fit in host memory.
std::vector<unsigned char> read_input(const std::string& path, const std::string& what);

// The name errors use for a path: "standard input" for "-", else the quoted path.
std::string display_name(const std::string& path);

}  // namespace gpusort::cli
