#pragma once
// Builds a .npy file from its parts and damages it in the ways real files are damaged or forged:
// fields of the header dict replaced (descr, shape, fortran_order), header bytes flipped,
// inserted or deleted, the version and header-length fields changed, the payload cut short or
// padded. Every choice comes from the SplitMix64 generator, so a seed gives the same file back.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "splitmix64.hpp"

namespace cli_fuzz {

struct NpyParts {
  int version = 1;  // the major version byte: 1 has a 2-byte header length, 2 and 3 a 4-byte one
  std::string descr = "<u4";
  std::string fortran_order = "False";
  std::string shape = "(0,)";
  std::vector<std::string> extra_entries;  // dict entries beyond the three numpy writes
  bool shuffle_keys = false;
  std::vector<unsigned char> payload;
};

inline std::size_t npy_prefix_size(int version) { return version == 1 ? 10 : 12; }

// The dict text as numpy writes it, padded with spaces so the data starts at a multiple of 64.
inline std::string npy_dict_text(const NpyParts& p, SplitMix64& rng) {
  std::vector<std::string> entries = {"'descr': '" + p.descr + "'", "'fortran_order': " + p.fortran_order,
                                      "'shape': " + p.shape};
  entries.insert(entries.end(), p.extra_entries.begin(), p.extra_entries.end());
  if (p.shuffle_keys)
    for (std::size_t i = entries.size(); i > 1; --i) std::swap(entries[i - 1], entries[rng.below(i)]);
  std::string dict = "{";
  for (const auto& e : entries) dict += e + ", ";
  dict += "}";
  const std::size_t prefix = npy_prefix_size(p.version);
  const std::size_t total = (prefix + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - prefix - dict.size() - 1, ' ');
  return dict + "\n";
}

inline std::vector<unsigned char> npy_bytes(const NpyParts& p, const std::string& dict) {
  std::vector<unsigned char> out = {0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<unsigned char>(p.version), 0};
  const std::size_t len = dict.size();
  for (std::size_t i = 0; i < (p.version == 1 ? 2u : 4u); ++i) out.push_back(static_cast<unsigned char>(len >> (8 * i)));
  out.insert(out.end(), dict.begin(), dict.end());
  out.insert(out.end(), p.payload.begin(), p.payload.end());
  return out;
}

// Replacement values: the ones gpusort accepts, near misses, and nonsense.
inline const std::vector<std::string>& descr_candidates() {
  static const std::vector<std::string> v = {
      "<u4", "<i4", "<f4", "<u8", "<i8", "<f8", "<u2", "<i2", "|u1", "|i1", "<u1", "=u4", ">u4", ">f8", "|u4",
      "<f2", "<c8", "<U4", "|S4", "|V16", "|V4", "|b1", "?", "O", "<u", "<u16", "<u0", "<u-4", "u4", "<<u4", "",
      "<u4 ", "<i99999999999999999999", "<f4', 'x': '1", "\\'<u4"};
  return v;
}

inline std::string shape_candidate(SplitMix64& rng, std::size_t count) {
  const std::string n = std::to_string(count);
  const std::vector<std::string> v = {
      "(" + n + ",)", "(" + std::to_string(count + 1) + ",)", "(" + std::to_string(count ? count - 1 : 0) + ",)",
      "(" + n + ", 1)", "(1, " + n + ")", "(" + n + ")", n, "()", "(0,)", "(-1,)", "(-" + n + ",)",
      "(18446744073709551616,)", "(18446744073709551615,)", "(4611686018427387904,)", "(99999999999999999999999999,)",
      "(" + n + ",,)", "(,)", "(" + n + ", 0)", "(0, " + n + ")", "[" + n + "]", "(" + n + "L,)", "(0x10,)", "( " + n +
      " , )", "(1e3,)", "(" + n + ".0,)", "(", ")", "", "None", "(" + n + ", 1, 1)"};
  return rng.pick(v);
}

inline std::string fortran_candidate(SplitMix64& rng) {
  static const std::vector<std::string> v = {"False", "True", "0", "1", "false", "'False'", "", "None", "Fals"};
  return rng.pick(v);
}

// Damage at the level of the dict's fields, before the header is laid out.
inline void mutate_fields(NpyParts& p, SplitMix64& rng, std::size_t count) {
  switch (rng.below(6)) {
    case 0: p.descr = rng.pick(descr_candidates()); break;
    case 1: p.shape = shape_candidate(rng, count); break;
    case 2: p.fortran_order = fortran_candidate(rng); break;
    case 3: p.extra_entries.push_back(rng.percent(50) ? "'descr': '" + rng.pick(descr_candidates()) + "'"
                                                      : "'shape': " + shape_candidate(rng, count));
      break;
    case 4: p.extra_entries.push_back(rng.percent(50) ? "'extra': 1" : "'x': (1, 2)"); break;
    default: p.version = static_cast<int>(rng.pick(std::vector<int>{0, 1, 2, 3, 4, 255})); break;
  }
}

// Bytes that mean something to a header parser.
inline unsigned char interesting_byte(SplitMix64& rng) {
  static const std::vector<unsigned char> v = {'{', '}', '(', ')', ',', ':', '\'', '"', ' ', '\n', '\0', '\\',
                                               '0', '9', '-', 'L', 'e', 0x7F, 0x80, 0xFF};
  return rng.percent(50) ? rng.pick(v) : static_cast<unsigned char>(rng.next());
}

// Damage at the byte level, after the header is laid out. `header_end` is where the payload starts.
inline void mutate_bytes(std::vector<unsigned char>& b, std::size_t header_end, SplitMix64& rng) {
  if (b.empty()) return;
  const std::size_t prefix = b.size() > 6 && b[6] == 1 ? 10 : 12;
  auto header_pos = [&] { return static_cast<std::size_t>(rng.below(std::min(header_end, b.size()) + 1)); };
  switch (rng.below(10)) {
    case 0: {  // flip one bit of the header
      const std::size_t i = std::min(header_pos(), b.size() - 1);
      b[i] ^= static_cast<unsigned char>(1u << rng.below(8));
      break;
    }
    case 1: {  // overwrite a header byte
      const std::size_t i = std::min(header_pos(), b.size() - 1);
      b[i] = interesting_byte(rng);
      break;
    }
    case 2: {  // insert a few bytes into the header (the length field is now wrong)
      const std::size_t i = header_pos(), k = 1 + rng.below(4);
      for (std::size_t j = 0; j < k; ++j) b.insert(b.begin() + static_cast<std::ptrdiff_t>(i), interesting_byte(rng));
      break;
    }
    case 3: {  // delete a few header bytes
      const std::size_t i = std::min(header_pos(), b.size() - 1);
      const std::size_t k = std::min<std::size_t>(1 + rng.below(4), b.size() - i);
      b.erase(b.begin() + static_cast<std::ptrdiff_t>(i), b.begin() + static_cast<std::ptrdiff_t>(i + k));
      break;
    }
    case 4: {  // a different header length: off by a little, zero, huge, past the end
      if (b.size() < prefix) break;
      const std::uint64_t old = b[8] | (std::uint64_t(b[9]) << 8);
      const std::vector<std::uint64_t> lens = {0, 1, old - 1, old + 1, old + 16, old - 16, 0xFFFF, 0xFFFFFFFF,
                                               b.size(), b.size() - prefix, rng.next()};
      const std::uint64_t len = rng.pick(lens);
      for (std::size_t i = 8; i < prefix; ++i) b[i] = static_cast<unsigned char>(len >> (8 * (i - 8)));
      break;
    }
    case 5:  // a different version byte
      if (b.size() > 6) b[6] = rng.pick(std::vector<unsigned char>{0, 1, 2, 3, 4, 0xFF});
      break;
    case 6:  // cut the file anywhere: inside the magic, the header or the payload
      b.resize(rng.below(b.size()));
      break;
    case 9: {  // cut inside the header and make the length field agree: the parser meets the end of the file
      if (b.size() <= prefix) break;
      b.resize(prefix + rng.below(std::min(header_end, b.size()) - prefix + 1));
      const std::uint64_t len = b.size() - prefix;
      for (std::size_t i = 8; i < prefix; ++i) b[i] = static_cast<unsigned char>(len >> (8 * (i - 8)));
      break;
    }
    case 7:  // cut the payload short by a little
      if (b.size() > header_end) b.resize(b.size() - 1 - rng.below(std::min<std::size_t>(b.size() - header_end, 16)));
      break;
    default:  // extra bytes after the payload
      for (std::size_t k = 1 + rng.below(9); k > 0; --k) b.push_back(static_cast<unsigned char>(rng.next()));
      break;
  }
}

}  // namespace cli_fuzz
