#pragma once
// The command uses the library's file layer (files/file_io.hpp) by its plain names.
#include "files/file_io.hpp"

namespace gpusort::cli {
using namespace gpusort::files;
}  // namespace gpusort::cli
