#pragma once
// gpusort sort --record-size N --key OFFSET:TYPE[:desc][,...]: fixed-size binary records sorted by
// a key made of fields (gpusort/records.hpp).
#include <string>
#include <vector>

#include "commands.hpp"
#include "gpusort/options.hpp"
#include "gpusort/records.hpp"

namespace gpusort::cli {

// "8:i32:desc,0:bytes4" -> fields; Error(invalid_argument) naming --key and the bad part.
std::vector<RecordField> parse_key_fields(const std::string& text, std::size_t record_bytes);

int run_record_sort(const SortArgs& args, const SortOptions& options);

}  // namespace gpusort::cli
