#pragma once
// The benchmarks' command lines, read by CLI11 as the gpusort command reads its own: --help prints
// the options; a usage error (an unknown option, a bad number, a value out of range) is one line
// "<program>: error: ..." on stderr and exit status 2.
#include <CLI/CLI.hpp>

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

namespace bench {

// Options given twice keep the last value, as the benchmarks' scripts expect when they append an
// option to a default command line. Call before adding options.
inline void keep_last_values(CLI::App& app) {
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

// A whole decimal number from lo to hi, checked before CLI11 converts it ("abc", "1.5", "-1" for an
// unsigned option, "99" for 0..40: each one line that names the option and the range).
inline CLI::Validator whole_number(std::uint64_t lo, std::uint64_t hi) {
  const std::string range = std::to_string(lo) + " to " + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        std::uint64_t v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
          return "'" + text + "' is not a whole number from " + range;
        return {};
      },
      "INT in " + range);
}

// Parses argv into app's options. Returns nothing when the program goes on, or its exit status:
// 0 after --help, 2 after a usage error. `print` false keeps this process silent (MPI ranks but one).
inline std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv, bool print = true) {
  try {
    app.parse(argc, argv);
    return std::nullopt;
  } catch (const CLI::CallForHelp& e) {
    return print ? app.exit(e) : 0;
  } catch (const CLI::ParseError& e) {
    if (print) {
      std::string msg = e.what();
      for (char& c : msg)
        if (c == '\n') c = ' ';
      std::fprintf(stderr, "%s: error: %s (see %s --help)\n", app.get_name().c_str(), msg.c_str(),
                   app.get_name().c_str());
    }
    return 2;
  }
}

}  // namespace bench
