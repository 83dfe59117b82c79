#pragma once
// The format of one on-disk program cache entry: a fixed header, then the compiled binary.
// The header lets a reader reject anything it did not write for this very key (a damaged file, a
// file copied from another key's slot, a foreign file) before a driver ever sees the bytes: a
// driver handed a wrong binary may crash, or worse, run the wrong kernel and return wrong results.
//
// Header (48 bytes, integers little-endian):
//   0  magic "GPUSORTK"      16 key hash, high 64 bits    32 payload length in bytes
//   8  format version (u32)  24 key hash, low 64 bits     40 FNV-1a-64 of the payload
//  12  header length (u32)
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpusort::rt {

inline constexpr std::size_t kCacheHeaderBytes = 48;
inline constexpr std::uint32_t kCacheFormatVersion = 1;
// No real program comes near this; a larger file is not ours and is not read.
inline constexpr std::uint64_t kCacheMaxPayloadBytes = std::uint64_t(256) << 20;

// The 128-bit hash a key names (program_cache_key makes keys "<backend>-<32 hex digits>").
struct CacheKeyHash {
  std::uint64_t hi = 0, lo = 0;
  bool operator==(const CacheKeyHash&) const = default;
};
std::optional<CacheKeyHash> parse_cache_key(const std::string& key);

// "<key>.v1.bin". The format version is in the name too, so that gpusort versions from before the
// header (which read "<key>.bin" as a raw binary and crash on anything else) never meet these files.
std::string cache_entry_file_name(const std::string& key);

std::uint64_t fnv1a64(const unsigned char* data, std::size_t size);

using CacheHeader = std::array<unsigned char, kCacheHeaderBytes>;
CacheHeader make_cache_header(const CacheKeyHash& key, const std::vector<unsigned char>& payload);

// The payload length the header announces, or nothing if the header is not one written for `key`.
std::optional<std::uint64_t> checked_payload_length(const CacheHeader& header, const CacheKeyHash& key);
// Whether the payload matches the checksum in (an already checked) header.
bool payload_matches(const CacheHeader& header, const std::vector<unsigned char>& payload);

}  // namespace gpusort::rt
