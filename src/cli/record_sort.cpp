#include "record_sort.hpp"

#include <cstdio>

#include "array_file.hpp"
#include "core/host_clock.hpp"
#include "gpusort/context.hpp"
#include "gpusort/errors.hpp"
#include "input_file.hpp"
#include "option_numbers.hpp"
#include "output_file.hpp"

namespace gpusort::cli {
namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = s.find(sep, start);
    out.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return out;
    start = at + 1;
  }
}

[[noreturn]] void bad_key(const std::string& part, const std::string& why) {
  throw Error(errc::invalid_argument, "--key field '" + part + "': " + why +
                                          " (expected OFFSET:TYPE[:desc], TYPE one of u8 u16 u32 u64 i8 i16 i32 i64 "
                                          "f32 f64 or bytesK; fields separated by commas, the first decides)");
}

}  // namespace

std::vector<RecordField> parse_key_fields(const std::string& text, std::size_t record_bytes) {
  if (text.empty()) throw Error(errc::invalid_argument, "--record-size needs --key OFFSET:TYPE[:desc][,...] or --comparator BODY");
  std::vector<RecordField> fields;
  for (const std::string& part : split(text, ',')) {
    const std::vector<std::string> bits = split(part, ':');
    if (bits.size() < 2 || bits.size() > 3) bad_key(part, "wrong number of parts");
    RecordField f;
    f.offset = static_cast<std::size_t>(parse_unsigned_arg(bits[0], "--key offset", 0, kMaxRecordBytes - 1,
                                                            "a byte offset inside the record"));
    if (bits[1].rfind("bytes", 0) == 0 && bits[1].size() > 5) {
      const std::string digits = bits[1].substr(5);
      if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 4) bad_key(part, "bad bytesK");
      f.bytes = std::stoul(digits);
      if (f.bytes == 0 || f.bytes > kMaxRecordBytes) bad_key(part, "bytesK needs K from 1 to 1024");
    } else if (auto t = parse_key_type(bits[1])) {
      f.type = *t;
    } else {
      bad_key(part, "unknown type '" + bits[1] + "'");
    }
    if (bits.size() == 3) {
      if (bits[2] != "desc" && bits[2] != "asc") bad_key(part, "the third part must be desc or asc");
      f.descending = bits[2] == "desc";
    }
    const std::size_t size = f.bytes ? f.bytes : key_size(f.type);
    if (f.offset + size > record_bytes)
      bad_key(part, "its " + std::to_string(size) + " bytes at offset " + std::to_string(f.offset) +
                        " do not fit a record of " + std::to_string(record_bytes) + " bytes");
    fields.push_back(f);
  }
  return fields;
}

int run_record_sort(const SortArgs& a, const SortOptions& options) {
  const std::size_t rb = static_cast<std::size_t>(
      parse_unsigned_arg(a.record_size, "--record-size", 1, kMaxRecordBytes, "bytes per record"));
  // The order: --key fields, or a --comparator over two records (which --descending reverses).
  const bool by_comparator = !a.comparator.empty();
  if (by_comparator && !a.key.empty())
    throw Error(errc::invalid_argument, "--record-size takes --key or --comparator, not both");
  const std::vector<RecordField> fields = by_comparator ? std::vector<RecordField>{} : parse_key_fields(a.key, rb);
  const char* unused = !a.values.empty()             ? "--values"
                       : !a.type.empty()             ? "--type"
                       : a.descending && !by_comparator ? "--descending (give :desc per --key field)"
                       : !a.memory_limit.empty()     ? "--memory-limit"
                       : a.device.find(',') != std::string::npos ? "several --device ids"
                                                     : nullptr;
  if (unused) throw Error(errc::invalid_argument, std::string(unused) + " cannot be used with --record-size");
  if (a.format == "npy") throw Error(errc::invalid_argument, "--record-size reads raw records; --format npy does not apply");

  const auto t0 = core::host_clock::now();
  InputBytes in = read_input(a.input, "input");
  if (in.size() % rb != 0)
    throw Error(errc::invalid_argument, "input " + display_name(a.input) + " is " + std::to_string(in.size()) +
                                            " bytes, not a multiple of --record-size " + std::to_string(rb));
  const std::size_t n = in.size() / rb;
  OutputFile out(a.output, "output");
  Context ctx(a.device);
  SortOptions o = options;
  o.verbose = false;
  const SortReport report = sort_records(ctx, in.data(), n, rb, fields, o);
  out.write(in.data(), in.size());
  OutputFile* outputs[] = {&out};
  commit_together(outputs);
  if (a.verbose)
    std::fprintf(stderr,
                 "gpusort: %zu records of %zu bytes by %s: %zu sort pass(es) by %s on %s, upload %.3f ms, "
                 "sort %.3f ms, download %.3f ms, %.3f ms in all\n",
                 n, rb, by_comparator ? "a comparator" : (std::to_string(fields.size()) + " field(s)").c_str(), report.chunks, report.algorithm.c_str(), ctx.device().id.c_str(),
                 report.upload_ms, report.sort_ms, report.download_ms,
                 core::ms_since(t0));
  return 0;
}

}  // namespace gpusort::cli
