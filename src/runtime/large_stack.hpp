#pragma once
// Runs a function on a thread of its own with a large stack, and waits for it. For the kernel
// compilers (PoCL's clang, NVRTC), which run in the calling thread and recurse once per level of
// an expression: a run-time order's body nested a few thousand levels deep (`return !!!...!(a < b);`,
// about 4 KB of text) overflowed the 8 MiB stack of a main thread and crashed the process (PoCL,
// 2026-12-06); an application's own threads may have less.
#include <cstddef>
#include <functional>

namespace gpusort::rt {

// Address space reserved for that stack; only the pages the compiler touches are committed.
inline constexpr std::size_t kCompilerStackBytes = std::size_t(512) << 20;

// f() on a thread with a stack of kCompilerStackBytes (or, where no such thread can be made, on
// the calling thread); whatever f throws is rethrown here.
void run_with_large_stack(const std::function<void()>& f);

}  // namespace gpusort::rt
