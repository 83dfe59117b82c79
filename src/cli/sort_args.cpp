#include "sort_args.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "gpusort/errors.hpp"

namespace gpusort::cli {
namespace {

[[noreturn]] void usage(const std::string& message) { throw Error(errc::invalid_argument, message); }

// --check reads keys and writes nothing: options that only a sort uses are refused, not ignored.
void check_check_arguments(const SortArgs& a) {
  const char* flag = a.check_quietly ? "-C" : "--check";
  const auto refuse = [&](const std::string& option, const char* why) {
    usage(std::string(flag) + " " + why + ": drop " + option);
  };
  if (!a.output.empty()) refuse("-o", "writes nothing");
  if (!a.values_files.empty()) refuse("--values", "reads keys only");
  if (!a.values_out.empty()) refuse("--values-out", "writes nothing");
  if (!a.indices_out.empty()) refuse("--indices-out", "writes nothing");
  if (!a.comparator.empty()) refuse("--comparator", "checks the natural order of --type only");
  if (!a.record_size.empty()) refuse("--record-size", "checks arrays of keys only");
}

void check_standard_input_once(const SortArgs& a) {
  int named = 0;
  for (const auto& p : a.inputs) named += p == "-";
  for (const auto& p : a.values_files) named += p == "-";
  if (named > 1) usage("standard input ('-') can be read once only, but " + std::to_string(named) + " inputs name it");
}

}  // namespace

SortArgs resolve_sort_args(const SortArgs& given) {
  SortArgs a = given;
  if (a.inputs.empty() && !a.input.empty()) a.inputs.push_back(a.input);  // callers that set `input` alone
  if (a.values_files.empty() && !a.values.empty()) a.values_files.push_back(a.values);
  if (a.inputs.empty()) usage("no input given");
  a.input = a.inputs.front();
  a.values = a.values_files.empty() ? std::string() : a.values_files.front();
  check_standard_input_once(a);
  if (a.check || a.check_quietly) {
    a.check = true;
    check_check_arguments(a);
    return a;
  }
  if (!a.values_files.empty() && a.values_files.size() != a.inputs.size())
    usage("--values is given " + std::to_string(a.values_files.size()) + " time(s) for " +
          std::to_string(a.inputs.size()) + " input(s): give one values file per input, in the same order");
  const bool several = a.inputs.size() > 1;
  if (!a.record_size.empty() && (several || a.unique || !a.indices_out.empty()))
    usage(std::string("--record-size sorts one file of records: ") +
          (several ? "several inputs are" : a.unique ? "-u is" : "--indices-out is") + " not supported with it");
  if (a.unique && !a.comparator.empty())
    usage("-u finds equal keys in the natural order of --type, not in a --comparator's");
  if (a.output.empty() && a.indices_out.empty()) {
    // Binary keys would garble a terminal; -o - (or a redirection) says they are wanted there.
    if (::isatty(STDOUT_FILENO))
      usage("standard output is a terminal: give -o FILE for the sorted keys, redirect standard output, or give "
            "-o - to write the binary keys there all the same");
    a.output.assign(1, '-');  // standard output (assign: GCC 12 warns falsely of overlap for = "-")
  }
  return a;
}

bool reads_inputs_whole(const SortArgs& a) { return a.inputs.size() > 1 || a.unique || !a.indices_out.empty(); }

void check_whole_inputs_fit(const SortArgs& a, std::uint64_t memory_limit) {
  if (!reads_inputs_whole(a)) return;
  std::uint64_t bytes = 0;
  for (const auto* list : {&a.inputs, &a.values_files})
    for (const auto& p : *list) {
      struct stat st {};
      if (p != "-" && ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode)) bytes += std::uint64_t(st.st_size);
    }
  if (bytes <= memory_limit) return;
  const char* what = a.unique ? "-u" : !a.indices_out.empty() ? "--indices-out" : "several inputs";
  throw Error(errc::unsupported, std::string(what) + " reads the inputs whole into host memory, and they (" +
                                     std::to_string(bytes) + " bytes) exceed --memory-limit (" +
                                     std::to_string(memory_limit) + " bytes): raise the limit, or sort one file "
                                     "without -u and --indices-out (files larger than the limit sort externally)");
}

}  // namespace gpusort::cli
