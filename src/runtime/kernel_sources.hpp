#pragma once
// Kernel sources embedded at build time (cmake/embed_kernels.cmake), and the assembly of one
// program's full source: `#include "x.h"` lines naming embedded files are inlined (once each), so
// no backend needs include paths or files on disk.
#include <string>
#include <vector>

namespace gpusort::rt {

struct EmbeddedFile {
  const char* name;
  std::string text;
};
const std::vector<EmbeddedFile>& embedded_kernel_files();

// Full source of kernels/<file> with its includes inlined. Throws Error(invalid_argument) for an
// unknown file. "<file>#<name>" names a program built with a run-time order registered under
// <name> (register_user_order): kernels/user_order.h is then replaced by it.
std::string assemble_kernel_source(const std::string& file);

// A run-time order for the comparison sorts (SortOptions::comparator): `body` is the body of
// `int before(key_t a, key_t b)` in the kernel dialect (the subset OpenCL C and CUDA C++ share),
// true when a comes strictly before b; `descending` turns it around. Returns the name to append to
// a kernel file as "#<name>" (a hash of the text: the same order gives the same programs, which the
// program cache keys by their full source). Compile errors name the user's lines as
// "comparator:<line>".
std::string register_user_order(const std::string& body, bool descending);

// A run-time order of fixed-size records (SortOptions::comparator given to a record sort): `body`
// is the body of `int before(GLOBAL const u8* a, GLOBAL const u8* b)`, a and b pointing at the two
// records' first bytes, with the field readers of kernels/record_fields.h (gs_u32(a, 8),
// gs_bytes_cmp(a, b, 0, 10), ...). The programs built with it sort 64-bit keys that are the
// records' device addresses (kernels/records.cl, records_addresses); named and reported like
// register_user_order's.
std::string register_record_order(const std::string& body, bool descending);

// A build log of `source` with the comparator's locations in one form, "comparator:<line>",
// whatever the compiler's own (NVRTC: comparator(2); EDG-style: "comparator", line 2; clang:
// comparator:2:5; NVIDIA's OpenCL ignores #line: <kernel>:233:12 inside the body). The log
// unchanged when the source has no run-time order.
std::string with_comparator_lines(const std::string& log, const std::string& source);

}  // namespace gpusort::rt
