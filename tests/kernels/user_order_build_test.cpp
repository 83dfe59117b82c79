// Programs with a run-time order (SortOptions::comparator, runtime/kernel_sources.hpp) build with
// NVRTC for sm_90, here without a GPU: the merge algorithm's default local sort and merge pass, the
// programs whose clamps exist only with such an order, and its check, for every key type (the
// typed key of kernels/user_key.h: CUDA's bit casts for float and double), both orders, and a
// comparator error names its own line. PoCL builds and runs them in the API tests.
#include <gtest/gtest.h>

#include "algorithms/algorithm.hpp"
#include "runtime/cuda/nvrtc_check.hpp"
#include "runtime/kernel_sources.hpp"

namespace gpusort {
namespace {

TEST(UserOrderBuild, MergeProgramsCompileForSm90) {
  std::string why;
  if (!rt::nvrtc_available(&why)) GTEST_SKIP() << why;
  for (bool descending : {false, true}) {
    const std::string order = rt::register_user_order("return a * a < b * b;", descending);
    for (const char* file : {"merge_local_blocked.cl", "merge_global_blocked.cl", "merge_local_merge.cl",
                             "merge_global_path.cl", "merge_global_cached.cl", "merge_global_hashed.cl",
                             "merge_local_rank.cl", "rank_sort.cl", "order_check.cl"}) {
      const std::string source = rt::assemble_kernel_source(std::string(file) + "#" + order);
      for (key_type type : all_key_types) {
        if (is_complex(type)) continue;  // no comparator over complex keys: the host refuses it
        auto defines = algo::key_defines_for(type, 4);
        defines.insert(defines.end(), {"GROUP_SIZE=256", "ITEMS=4", "CACHE=1024"});
        EXPECT_EQ(rt::nvrtc_compile_check(source, rt::nvrtc_options(defines, "sm_90")), "")
            << file << " " << key_type_name(type) << (descending ? " descending" : "");
      }
    }
  }
  const std::string broken = rt::register_user_order("int x = a;\nreturn a <;", false);
  auto defines = algo::key_defines_for(key_type::u32, 0);
  defines.insert(defines.end(), {"GROUP_SIZE=256", "ITEMS=4"});
  const std::string log = rt::nvrtc_compile_check(rt::assemble_kernel_source("merge_local_merge.cl#" + broken),
                                                  rt::nvrtc_options(defines, "sm_90"));
  EXPECT_NE(log.find("comparator(2)"), std::string::npos) << log;  // NVRTC's "file(line): error"
  // what the error message says, whatever the compiler's form
  const std::string source = rt::assemble_kernel_source("merge_local_merge.cl#" + broken);
  EXPECT_NE(rt::with_comparator_lines(log, source).find("comparator:2"), std::string::npos) << log;
  EXPECT_EQ(rt::with_comparator_lines("\"comparator\", line 7: error", source), "comparator:7: error");
  // a compiler that counts the whole source's lines: the body's second line, and one outside it
  std::size_t marker = 1;
  for (std::size_t i = 0; i < source.find("#line 1 \"comparator\""); ++i) marker += source[i] == '\n';
  EXPECT_EQ(rt::with_comparator_lines("<kernel>:" + std::to_string(marker + 2) + ":12: error", source),
            "comparator:2:12: error");
  EXPECT_EQ(rt::with_comparator_lines("<kernel>:3:1: error", source), "<kernel>:3:1: error");
  EXPECT_EQ(rt::with_comparator_lines("<kernel>:3:1: error", "no order here"), "<kernel>:3:1: error");
}

// The seeds' other comparison sorts take the same order (SortJob::program): their kernel files
// with a run-time order, for the key types whose typed key differs in kind and width.
TEST(UserOrderBuild, SeedSortProgramsCompileForSm90) {
  std::string why;
  if (!rt::nvrtc_available(&why)) GTEST_SKIP() << why;
  const std::string order = rt::register_user_order("return a * a < b * b;", true);
  for (const char* file : {"bitonic.cl", "odd_even.cl", "rank_sort.cl", "section_merge.cl", "naive_merge.cl"}) {
    const std::string source = rt::assemble_kernel_source(std::string(file) + "#" + order);
    for (key_type type : {key_type::u8, key_type::i16, key_type::f32, key_type::f64, key_type::u64}) {
      auto defines = algo::key_defines_for(type, 4);
      defines.insert(defines.end(), {"GROUP_SIZE=256", "RANK_ITEMS=4"});
      EXPECT_EQ(rt::nvrtc_compile_check(source, rt::nvrtc_options(defines, "sm_90")), "")
          << file << " " << key_type_name(type);
    }
  }
}

// A record order (rt::register_record_order): the merge programs over 64-bit record addresses,
// with every field reader of kernels/record_fields.h (CUDA's bit casts for gs_f32 and gs_f64).
TEST(UserOrderBuild, RecordOrderProgramsCompileForSm90) {
  std::string why;
  if (!rt::nvrtc_available(&why)) GTEST_SKIP() << why;
  const std::string body =
      "if (gs_f64(a, 3) != gs_f64(b, 3)) return gs_f64(a, 3) < gs_f64(b, 3);\n"
      "if (gs_f32(a, 1) != gs_f32(b, 1)) return gs_f32(a, 1) > gs_f32(b, 1);\n"
      "return gs_u8(a, 0) + gs_u16(a, 1) + gs_u32(a, 2) + gs_u64(a, 3) + gs_i8(a, 4) + gs_i16(a, 5) + gs_i32(a, 6) +\n"
      "       gs_i64(a, 7) < gs_i64(b, 7) || gs_bytes_cmp(a, b, 0, 10) < 0;";
  for (bool descending : {false, true}) {
    const std::string order = rt::register_record_order(body, descending);
    for (const char* file : {"merge_local_blocked.cl", "merge_global_blocked.cl"}) {
      auto defines = algo::key_defines_for(key_type::u64, 0);
      defines.insert(defines.end(), {"GROUP_SIZE=256", "ITEMS=8"});
      EXPECT_EQ(rt::nvrtc_compile_check(rt::assemble_kernel_source(std::string(file) + "#" + order),
                                        rt::nvrtc_options(defines, "sm_90")),
                "")
          << file << (descending ? " descending" : "");
    }
  }
  // only for 64-bit keys (the addresses)
  auto defines = algo::key_defines_for(key_type::u32, 0);
  defines.insert(defines.end(), {"GROUP_SIZE=256", "ITEMS=8"});
  EXPECT_NE(rt::nvrtc_compile_check(
                rt::assemble_kernel_source("merge_local_blocked.cl#" + rt::register_record_order(body, false)),
                rt::nvrtc_options(defines, "sm_90")),
            "");
}

TEST(UserOrderBuild, UnknownOrderIsAnError) {
  EXPECT_THROW(rt::assemble_kernel_source("merge_local_merge.cl#order-none"), Error);
}

}  // namespace
}  // namespace gpusort
