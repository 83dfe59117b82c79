#pragma once
// Random `gpusort sort` command lines: a valid sort from sort_profiles.hpp, its files written to
// a directory, then zero to three kinds of damage: invalid values (negative, huge, 2^64,
// non-numeric, empty, unknown names), options dropped, repeated or unknown, outputs pointed at
// awkward places. The whole case follows from one seed.
#include <string>
#include <vector>

#include "../cli_test_util.hpp"
#include "key_data.hpp"
#include "npy_mutations.hpp"
#include "sort_profiles.hpp"
#include "splitmix64.hpp"

namespace cli_fuzz {

// What the command says about itself, asked once per test run.
struct CliFacts {
  std::vector<std::string> algorithms;  // names from `gpusort algorithms`
  std::vector<std::string> devices;     // ids from `gpusort devices`
};

// A command line as option groups ({"--wg", "64"}, {"-d"}, {path}), so damage can drop, replace
// or repeat whole options; flattened in a shuffled order (the parser takes options in any order).
class OptionLine {
 public:
  void add(std::vector<std::string> group) { groups_.push_back(std::move(group)); }
  bool has(const std::string& flag) const { return find(flag) != nullptr; }
  void set(const std::string& flag, const std::string& value) {
    if (auto* g = find(flag))
      g->back() = value;
    else
      add({flag, value});
  }
  void drop(const std::string& flag) {
    for (std::size_t i = 0; i < groups_.size(); ++i)
      if (groups_[i].front() == flag) groups_.erase(groups_.begin() + static_cast<std::ptrdiff_t>(i--));
  }
  void repeat_random(SplitMix64& rng) {
    if (groups_.empty()) return;
    const auto g = rng.pick(groups_);
    if (g.front() != "-t" && g.front() != "--values-type") groups_.push_back(g);  // the checker reads one type
  }
  std::vector<std::string> flatten(SplitMix64& rng) const {
    auto groups = groups_;
    for (std::size_t i = groups.size(); i > 1; --i) std::swap(groups[i - 1], groups[rng.below(i)]);
    std::vector<std::string> args = {"sort"};
    for (const auto& g : groups) args.insert(args.end(), g.begin(), g.end());
    return args;
  }

 private:
  std::vector<std::string>* find(const std::string& flag) {
    for (auto& g : groups_)
      if (g.front() == flag) return &g;
    return nullptr;
  }
  const std::vector<std::string>* find(const std::string& flag) const {
    return const_cast<OptionLine*>(this)->find(flag);
  }
  std::vector<std::vector<std::string>> groups_;
};

// Values a number option must refuse, or that test its limits.
inline const std::vector<std::string>& bad_numbers() {
  static const std::vector<std::string> v = {"-1", "-64", "18446744073709551616", "18446744073709551615",
                                             "99999999999999999999999", "4294967296", "2147483648", "abc", "",
                                             "0x40", "1e2", "12abc", " 7", "3", "1.5", "NaN"};
  return v;
}
inline const std::vector<std::string>& memory_limits() {
  static const std::vector<std::string> v = {"0", "1", "4096", "80000", "100000", "200000", "1048576", "1K", "64k",
                                             "1M", "2^20", "-1", "18446744073709551615", "18446744073709551616",
                                             "x", "", "1.5"};
  return v;
}
inline const std::vector<std::string>& bad_names() {
  static const std::vector<std::string> v = {"", "x", "quick", "RADIX", "radix ", "auto,radix", "merge\n", "fused3",
                                             "path,rank", "bytes3", "u33", "U32", "float", "i128", "bytes0",
                                             "bytes016", "bytes99999999999999999999"};
  return v;
}

class OptionLineMaker {
 public:
  OptionLineMaker(std::uint64_t seed, const CliFacts& facts, const cli_test::TempDir& dir)
      : rng_(seed), facts_(facts), dir_(dir) {}

  std::vector<std::string> make() {
    const auto profiles = sort_profiles(facts_.algorithms);
    const SortProfile p = rng_.pick(profiles);
    const std::string type = p.type == "*" ? rng_.pick(key_type_names()) : p.type;
    const std::size_t n = key_count(rng_, 2000);
    write_input(type, n);
    line_.add({rng_.percent(50) ? "-o" : "--output", path(rng_.percent(50) ? "out.npy" : "out.bin")});
    if (!input_is_npy_ || rng_.percent(50)) line_.add({rng_.percent(70) ? "-t" : "--type", type});
    line_.add({rng_.percent(50) ? "-a" : "--algorithm", p.algorithm});
    if (!p.values_type.empty()) {
      write_bytes("vals.bin", index_values(n, value_width(p.values_type)));
      line_.add({"--values", path("vals.bin")});
      line_.add({"--values-type", p.values_type});
      line_.add({"--values-out", path(rng_.percent(70) ? "vals.out" : "vals.out.npy")});
    }
    if (p.descending != rng_.percent(15)) line_.add({rng_.percent(50) ? "-d" : "--descending"});
    if (p.stable != rng_.percent(15)) line_.add({rng_.percent(50) ? "-s" : "--stable"});
    if (rng_.percent(15)) line_.add({rng_.percent(50) ? "-v" : "--verbose"});
    if (!p.wg.empty()) line_.add({"--wg", p.wg});
    if (!p.items.empty()) line_.add({"--items-per-thread", p.items});
    if (!p.local.empty()) line_.add({"--local", p.local});
    if (!p.merge.empty()) line_.add({"--merge", p.merge});
    if (!p.host_levels.empty()) line_.add({"--host-levels", p.host_levels});
    if (!facts_.devices.empty() && rng_.percent(20)) line_.add({"--device", rng_.pick(facts_.devices)});
    const std::size_t damages = rng_.percent(40) ? 0 : 1 + rng_.below(3);
    for (std::size_t i = 0; i < damages; ++i) damage();
    if (rng_.percent(30)) write_bytes("out.bin", std::vector<unsigned char>{'k', 'e', 'e', 'p'});
    if (rng_.percent(30)) write_bytes("out.npy", std::vector<unsigned char>{'k', 'e', 'e', 'p'});
    if (rng_.percent(20)) write_bytes("vals.out", std::vector<unsigned char>{'k', 'e', 'e', 'p'});
    return line_.flatten(rng_);
  }

 private:
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  void write_bytes(const std::string& name, const std::vector<unsigned char>& b) {
    cli_test::write_bytes(dir_ / name, b.data(), b.size());
  }

  void write_input(const std::string& type, std::size_t n) {
    const std::string descr = *descr_of_type_name(type);
    const std::size_t size = static_cast<std::size_t>(descr[2] - '0');
    NpyParts parts;
    parts.payload = key_bytes(rng_, n, size);
    input_is_npy_ = rng_.percent(50);
    if (input_is_npy_) {
      parts.descr = descr;
      parts.shape = "(" + std::to_string(n) + ",)";
      parts.version = rng_.percent(80) ? 1 : 2;
      write_bytes("keys.npy", npy_bytes(parts, npy_dict_text(parts, rng_)));
      input_ = path("keys.npy");
    } else {
      write_bytes("keys.bin", parts.payload);
      input_ = path("keys.bin");
    }
    line_.add({input_});
  }

  // One kind of damage to the command line.
  void damage() {
    switch (rng_.below(16)) {
      case 0:
        line_.drop("-t");
        line_.drop("--type");
        line_.add({rng_.percent(50) ? "-t" : "--type", rng_.pick(bad_names())});
        break;
      case 1: line_.drop("-t"); line_.drop("--type"); break;
      case 2: line_.drop(line_.has("-a") ? "-a" : "--algorithm"); line_.add({"-a", rng_.pick(bad_names())}); break;
      case 3: line_.set("--wg", rng_.pick(bad_numbers())); break;
      case 4: line_.set("--items-per-thread", rng_.pick(bad_numbers())); break;
      case 5: line_.set(rng_.percent(50) ? "--local" : "--merge", rng_.pick(bad_names())); break;
      case 6: line_.set("--host-levels", rng_.pick(std::vector<std::string>{"-2", "-1", "0", "1", "3", "64", "65",
                                                                           "2147483648", "x", ""}));
        break;
      case 7: line_.set("--device-memory-limit", rng_.pick(memory_limits())); break;
      case 8: {
        std::vector<std::string> ids = {"", "opencl:9:9", "cuda:0", "cuda:7", "cpu", ",", "0", "opencl:0:0:0", "opencl:"};
        for (const auto& d : facts_.devices) ids.insert(ids.end(), {d + "," + d, d + ","});
        line_.set("--device", rng_.pick(ids));
        break;
      }
      case 9: damage_values(); break;
      case 10: line_.add({rng_.pick(std::vector<std::string>{"--frobnicate", "--format", "-x", "--", "--wg="})}); break;
      case 11: line_.add({"--format", rng_.pick(std::vector<std::string>{"raw", "npy", "csv", ""})}); break;
      case 12: line_.repeat_random(rng_); break;
      case 13: line_.add({path(rng_.percent(50) ? "keys.bin" : "stray")}); break;
      case 14:
        if (rng_.percent(50)) {
          line_.drop("-o");
          line_.drop("--output");
        } else {
          line_.drop(input_);
        }
        break;
      default: damage_output(); break;
    }
  }

  void damage_values() {
    switch (rng_.below(6)) {
      case 0: line_.drop("--values-out"); break;
      case 1: line_.drop("--values"); break;
      case 2: line_.set("--values-type", rng_.pick(bad_names())); break;
      case 3:  // one value short
        write_bytes("short.bin", index_values(1, 3));
        line_.set("--values", path("short.bin"));
        line_.set("--values-type", "u8");
        line_.set("--values-out", path("vals.out"));
        break;
      case 4: line_.set("--values-out", line_.has("-o") ? path("out.bin") : path("out.npy")); break;
      default: line_.set("--values-out", path("vals.bin")); break;  // in place over the values input
    }
  }

  void damage_output() {
    const std::string flag = line_.has("-o") ? "-o" : "--output";
    switch (rng_.below(4)) {
      case 0: line_.set(flag, path("no-such-dir/out.bin")); break;
      case 1:
        std::filesystem::create_directory(dir_ / "sub");
        line_.set(flag, path("sub"));
        break;
      case 2: line_.set(flag, input_); break;  // sort in place
      default: line_.set(flag, ""); break;
    }
  }

  SplitMix64 rng_;
  const CliFacts& facts_;
  const cli_test::TempDir& dir_;
  OptionLine line_;
  std::string input_;
  bool input_is_npy_ = false;
};

}  // namespace cli_fuzz
