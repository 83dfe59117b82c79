#include "sort_inputs.hpp"

#include <cstring>
#include <new>
#include <type_traits>

#include "gpusort/errors.hpp"
#include "npy.hpp"

namespace gpusort::cli {
namespace {

void check_counts_match(const ArrayFile& values, const KeyFile& keys) {
  if (values.count != keys.file.count)
    throw Error(errc::invalid_argument, "values file '" + values.path + "' holds " + std::to_string(values.count) +
                                            " elements but input '" + keys.file.path + "' holds " +
                                            std::to_string(keys.file.count) + " keys");
}

// The files' elements one after another in a new array; each file is released once copied.
template <class File>
core::HostArray join(std::vector<std::optional<File>>& files, std::size_t count, std::size_t item_size) {
  core::HostArray joined;
  try {
    joined = core::make_host_array(count * item_size + 1);
  } catch (const std::bad_alloc&) {
    throw Error(errc::out_of_memory, "not enough host memory to join the inputs (" +
                                         std::to_string(count * item_size) + " bytes)");
  }
  std::size_t at = 0;
  for (auto& f : files) {
    const ArrayFile& a = [&]() -> const ArrayFile& {
      if constexpr (std::is_same_v<File, KeyFile>) return f->file; else return *f;
    }();
    if (a.data_bytes()) std::memcpy(joined.get() + at, a.data(), a.data_bytes());
    at += a.data_bytes();
    f.reset();
  }
  return joined;
}

}  // namespace

SortInputs load_sort_inputs(const SortArgs& args, std::optional<key_type> type,
                            const std::optional<ValueType>& value_type, FileFormat format) {
  SortInputs in;
  const bool with_values = !args.values_files.empty();
  std::vector<std::optional<KeyFile>> keys;
  std::vector<std::optional<ArrayFile>> values;
  in.keys_npy = in.values_npy = true;
  for (std::size_t i = 0; i < args.inputs.size(); ++i) {
    KeyFile k = load_keys(args.inputs[i], type, format);
    if (i == 0) {
      in.type = k.type;
      in.keys_descr = k.file.npy ? k.file.descr : descr_of(k.type);
    } else if (k.type != in.type) {
      throw Error(errc::invalid_argument, "input '" + k.file.path + "' holds " + std::string(key_type_name(k.type)) +
                                              " keys but input '" + args.inputs[0] + "' holds " +
                                              std::string(key_type_name(in.type)) +
                                              ": several inputs must hold keys of one type");
    }
    in.keys_npy = in.keys_npy && k.file.npy;
    in.n += k.file.count;
    if (with_values) {
      ArrayFile v = load_values(args.values_files[i], value_type, format);
      check_counts_match(v, k);
      if (i == 0) {
        in.value_bytes = v.item_size;
        in.values_descr = v.descr;
      } else if (v.item_size != in.value_bytes || (v.npy && values.front()->npy && v.descr != in.values_descr)) {
        throw Error(errc::invalid_argument, "values '" + v.path + "' have dtype '" + v.descr + "' but values '" +
                                                args.values_files[0] + "' have '" + in.values_descr +
                                                "': the values files must hold one type");
      }
      in.values_npy = in.values_npy && v.npy;
      values.emplace_back(std::move(v));
    }
    keys.emplace_back(std::move(k));
  }
  in.values_npy = in.values_npy && with_values;
  if (keys.size() == 1) {
    in.key_file_ = std::move(keys.front());
    in.keys_ = in.key_file_->file.data();
    if (with_values) {
      in.values_file_ = std::move(values.front());
      in.values_ = in.values_file_->data();
    }
    return in;
  }
  in.joined_keys_ = join(keys, in.n, key_size(in.type));
  in.keys_ = in.joined_keys_.get();
  if (with_values) {
    in.joined_values_ = join(values, in.n, in.value_bytes);
    in.values_ = in.joined_values_.get();
  }
  return in;
}

}  // namespace gpusort::cli
