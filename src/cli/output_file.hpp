#pragma once
// The command uses the library's file layer (files/output_file.hpp) by its plain names.
#include "files/output_file.hpp"

namespace gpusort::cli {
using namespace gpusort::files;
}  // namespace gpusort::cli
