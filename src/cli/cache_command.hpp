#pragma once
// gpusort cache info | clear: show or empty the on-disk cache of compiled kernel programs.
#include <CLI/CLI.hpp>

namespace gpusort::cli {

// Registers `cache` with its `info` and `clear` subcommands; returns it for run_cache.
CLI::App* add_cache_command(CLI::App& app);

// Runs whichever of info / clear was given; returns the exit status.
int run_cache(const CLI::App& cache_command);

}  // namespace gpusort::cli
