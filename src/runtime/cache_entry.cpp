#include "runtime/cache_entry.hpp"

#include <cstring>

namespace gpusort::rt {
namespace {

constexpr unsigned char kMagic[8] = {'G', 'P', 'U', 'S', 'O', 'R', 'T', 'K'};

void put(CacheHeader& h, std::size_t at, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) h[at + i] = static_cast<unsigned char>(v >> (8 * i));
}

std::uint64_t get(const CacheHeader& h, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= std::uint64_t(h[at + i]) << (8 * i);
  return v;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;  // upper case never appears in keys we make, so it marks a foreign name
}

}  // namespace

std::optional<CacheKeyHash> parse_cache_key(const std::string& key) {
  constexpr std::size_t digits = 32;
  if (key.size() < digits + 2 || key[key.size() - digits - 1] != '-') return std::nullopt;
  const std::size_t prefix = key.size() - digits - 1;
  for (std::size_t i = 0; i < prefix; ++i) {
    const char c = key[i];
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return std::nullopt;
  }
  CacheKeyHash h;
  for (std::size_t i = 0; i < digits; ++i) {
    const int d = hex_digit(key[prefix + 1 + i]);
    if (d < 0) return std::nullopt;
    std::uint64_t& word = i < 16 ? h.hi : h.lo;
    word = (word << 4) | std::uint64_t(d);
  }
  return h;
}

std::string cache_entry_file_name(const std::string& key) {
  return key + ".v" + std::to_string(kCacheFormatVersion) + ".bin";
}

std::uint64_t fnv1a64(const unsigned char* data, std::size_t size) {
  std::uint64_t h = 14695981039346656037ull;
  for (std::size_t i = 0; i < size; ++i) {
    h ^= data[i];
    h *= 1099511628211ull;
  }
  return h;
}

CacheHeader make_cache_header(const CacheKeyHash& key, const std::vector<unsigned char>& payload) {
  CacheHeader h{};
  std::memcpy(h.data(), kMagic, sizeof kMagic);
  put(h, 8, kCacheFormatVersion, 4);
  put(h, 12, kCacheHeaderBytes, 4);
  put(h, 16, key.hi, 8);
  put(h, 24, key.lo, 8);
  put(h, 32, payload.size(), 8);
  put(h, 40, fnv1a64(payload.data(), payload.size()), 8);
  return h;
}

std::optional<std::uint64_t> checked_payload_length(const CacheHeader& header, const CacheKeyHash& key) {
  if (std::memcmp(header.data(), kMagic, sizeof kMagic) != 0) return std::nullopt;
  if (get(header, 8, 4) != kCacheFormatVersion || get(header, 12, 4) != kCacheHeaderBytes) return std::nullopt;
  // The key inside the file, not the file's name, says what the payload was compiled for.
  if (get(header, 16, 8) != key.hi || get(header, 24, 8) != key.lo) return std::nullopt;
  const std::uint64_t length = get(header, 32, 8);
  if (length == 0 || length > kCacheMaxPayloadBytes) return std::nullopt;
  return length;
}

bool payload_matches(const CacheHeader& header, const std::vector<unsigned char>& payload) {
  return get(header, 32, 8) == payload.size() && get(header, 40, 8) == fnv1a64(payload.data(), payload.size());
}

}  // namespace gpusort::rt
