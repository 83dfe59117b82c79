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
// unknown file.
std::string assemble_kernel_source(const std::string& file);

}  // namespace gpusort::rt
