#pragma once
// Text for machine-read output (the benchmarks' JSON and CSV files): JSON strings escaped as RFC 8259
// requires, numbers that JSON and CSV readers accept, CSV fields quoted as RFC 4180 does.
#include <concepts>
#include <string>
#include <string_view>

namespace gpusort::core {

// s as a quoted JSON string: '"' and '\' escaped, \b \f \n \r \t by name, every other control
// character (below 0x20, and 0x7f) as \u00XX. Other bytes pass through unchanged (UTF-8 stays UTF-8).
std::string json_string(std::string_view s);

// A finite number in the shortest of "%.6g" form; NaN and infinities, which JSON lacks, as null.
std::string json_number(double v);

// One CSV field, kept on one line so that every row is one line for line tools (grep, awk): control
// characters become spaces; a field holding ',' or '"' is quoted, its quotes doubled.
std::string csv_field(std::string_view s);

// A finite number as json_number writes it; NaN and infinities as an empty field.
std::string csv_number(double v);

// A JSON object written one member at a time: {"a": 1, "b": "x"}.
class JsonObject {
 public:
  JsonObject& add(std::string_view name, std::string_view text);
  JsonObject& add(std::string_view name, const char* text) { return add(name, std::string_view(text)); }
  JsonObject& add(std::string_view name, const std::string& text) { return add(name, std::string_view(text)); }
  JsonObject& add(std::string_view name, double number);
  template <std::integral T>
  JsonObject& add(std::string_view name, T number) {
    if constexpr (std::same_as<T, bool>) return add_json(name, number ? "true" : "false");
    else return add_json(name, std::to_string(number));
  }
  // A value already written as JSON (a nested object or array).
  JsonObject& add_json(std::string_view name, std::string_view json);
  // The object's text, braces included.
  std::string str() const { return text_ + "}"; }

 private:
  std::string text_ = "{";
};

}  // namespace gpusort::core
