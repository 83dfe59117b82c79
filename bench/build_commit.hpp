#pragma once
// The commit of the source tree the benchmark was built from (`git describe --always --dirty`, or
// "unknown" outside a git checkout), recorded in its output beside gpusort::version().
namespace bench {

const char* build_commit();

}  // namespace bench
