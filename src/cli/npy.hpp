#pragma once
// The command uses the library's file layer (files/npy.hpp) by its plain names.
#include "files/npy.hpp"

namespace gpusort::cli {
using namespace gpusort::files;
}  // namespace gpusort::cli
