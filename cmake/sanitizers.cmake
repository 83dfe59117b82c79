# GPUSORT_SANITIZE=ON builds every target of the project (library, command, tests, bench) with
# AddressSanitizer and UndefinedBehaviorSanitizer. Any undefined behaviour aborts the process
# (-fno-sanitize-recover) so a test cannot pass over it. Kernels are compiled at run time by the
# OpenCL or CUDA driver and are not instrumented; scripts/run-tests runs this build on CI and
# tests/sanitizers/ holds the runtime options it needs.
option(GPUSORT_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
if(GPUSORT_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
