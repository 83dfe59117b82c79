#pragma once
// gpusort sort's inputs read whole into host memory: one file, or several concatenated in the order
// given (keys of one type; each values file paired with the input in its place).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "array_file.hpp"
#include "commands.hpp"
#include "core/host_array.hpp"

namespace gpusort::cli {

class SortInputs {
 public:
  key_type type = key_type::u32;
  std::size_t n = 0;
  bool keys_npy = false;     // every input is a .npy file (the keys output is .npy too)
  std::string keys_descr;    // the keys' dtype for a .npy output
  std::size_t value_bytes = 0;  // 0: no values
  bool values_npy = false;   // every values file is a .npy file
  std::string values_descr;

  unsigned char* keys() noexcept { return keys_; }
  unsigned char* values() noexcept { return values_; }
  std::size_t data_bytes() const noexcept { return n * (key_size(type) + value_bytes); }

 private:
  friend SortInputs load_sort_inputs(const SortArgs&, std::optional<key_type>, const std::optional<ValueType>&,
                                     FileFormat);
  std::optional<KeyFile> key_file_;       // one input: its bytes are sorted in place
  std::optional<ArrayFile> values_file_;
  core::HostArray joined_keys_, joined_values_;  // several inputs: their elements one after another
  unsigned char* keys_ = nullptr;
  unsigned char* values_ = nullptr;
};

// args.inputs and args.values_files (resolve_sort_args). The checks and errors of load_keys and
// load_values per file; besides, Error(invalid_argument) where the inputs hold different key types
// or the values files different dtypes, or a values file's count differs from its input's.
SortInputs load_sort_inputs(const SortArgs& args, std::optional<key_type> type,
                            const std::optional<ValueType>& value_type, FileFormat format);

}  // namespace gpusort::cli
