#include "segment_cut.hpp"

#include <new>

#include "gpusort/errors.hpp"
#include "input_file.hpp"
#include "option_numbers.hpp"
#include "segment_offsets.hpp"

namespace gpusort::cli {
namespace {

[[noreturn]] void usage(const std::string& message) { throw Error(errc::invalid_argument, message); }

}  // namespace

std::string shape_text(const std::vector<std::size_t>& shape) {
  std::string s;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (k) s += 'x';
    s += std::to_string(shape[k]);
  }
  return s;
}

std::string segment_option(const SortArgs& a) {
  if (!a.row_length.empty()) return "--row-length";
  if (!a.segments.empty()) return "--segments";
  if (!a.axis.empty()) return "--axis";
  return "sorting an n-D .npy along an axis";
}

void check_segmented_arguments(const SortArgs& a) {
  if (!a.row_length.empty() && !a.segments.empty()) usage("--row-length and --segments exclude each other: give one");
  if (!a.axis.empty() && (!a.row_length.empty() || !a.segments.empty()))
    usage("--axis sorts a .npy input along an axis and " + segment_option(a) + " cuts a 1-D input: give one");
  const std::string what = segment_option(a);
  if (a.inputs.size() > 1)
    usage(what + " takes one input (" + std::to_string(a.inputs.size()) + " were given): give each on its own");
  if (a.unique && !a.check) usage("-u is not supported with " + what + " (each row is sorted on its own)");
  if (!a.record_size.empty()) usage("--record-size sorts records of one array: not with " + what);
  if (a.device.find(',') != std::string::npos) usage(what + " sorts on one device: give one --device id");
  if (a.segments == "-" && (a.input == "-" || a.values == "-"))
    usage("standard input ('-') can be read once only: the input or --values and --segments name it");
}

std::size_t SegmentCut::input_position(std::size_t position) const {
  if (split.inner == 1) return position;
  // axis-last [o][i][k] -> input [o][k][i]
  const std::size_t k = position % split.length, oi = position / split.length;
  const std::size_t i = oi % split.inner, o = oi / split.inner;
  return (o * split.length + k) * split.inner + i;
}

SegmentCut cut_input(const SortArgs& args, const KeyFile& keys, FileFormat format) {
  const std::size_t n = keys.file.count;
  const bool many_dims = keys.file.npy && keys.file.shape.size() >= 2;
  if (many_dims && (!args.row_length.empty() || !args.segments.empty()))
    usage("input " + display_name(args.input) + " is a " + shape_text(keys.file.shape) +
          " .npy array: it is cut along --axis (default the last); " + segment_option(args) +
          " cuts raw and 1-D inputs");
  if (!args.axis.empty() && !keys.file.npy)
    usage("--axis cuts a .npy input along an axis, and input " + display_name(args.input) +
          " is raw: cut it into rows with --row-length N or into segments with --segments FILE");
  SegmentCut cut;
  cut.split = {1, n, 1};
  if (!args.row_length.empty()) {
    const std::uint64_t length =
        parse_unsigned_arg(args.row_length, "--row-length", 1, ~std::uint64_t(0), "keys per row");
    if (n % length != 0)
      usage("--row-length " + std::to_string(length) + " does not divide the input's " + std::to_string(n) +
            " keys (" + std::to_string(n / length) + " rows and " + std::to_string(n % length) + " keys over)");
    cut.split = {n / length, static_cast<std::size_t>(length), 1};
  } else if (!args.segments.empty()) {
    cut.offsets = load_segment_offsets(args.segments, n, format);
  } else {
    // A Fortran-ordered array of shape S lies in memory as the C-ordered array of S reversed, and
    // its axis a is that array's axis dims - 1 - a.
    std::vector<std::size_t> shape = keys.file.shape;
    if (keys.file.fortran_order) shape.assign(keys.file.shape.rbegin(), keys.file.shape.rend());
    const std::size_t dims = shape.size();
    std::size_t axis = args.axis.empty() ? dims - 1 : parse_axis_arg(args.axis, dims);
    if (keys.file.fortran_order) axis = dims - 1 - axis;
    cut.split = split_at_axis(shape, axis);
  }
  return cut;
}

core::HostArray host_array(std::size_t bytes, const char* what) {
  try {
    return core::make_host_array(bytes + 1);
  } catch (const std::bad_alloc&) {
    throw Error(errc::out_of_memory, std::string("not enough host memory for ") + what + " (" + std::to_string(bytes) +
                                         " bytes)");
  }
}

AxisLastView::AxisLastView(unsigned char* data, std::size_t n, std::size_t item_size, const AxisSplit& split)
    : data_(data), n_(n), item_size_(item_size), split_(split) {
  if (split_.inner > 1 && n_ > 0) {
    copy_ = host_array(n_ * item_size_, "the copy along --axis");
    move_axis_last(data_, copy_.get(), split_, item_size_);
  }
}

void AxisLastView::restore() {
  if (copy_) move_last_axis_back(copy_.get(), data_, split_, item_size_);
}

}  // namespace gpusort::cli
