// The JSON and CSV text of the benchmarks' output files (core/table_text.hpp): what a JSON parser
// and a CSV reader need, and one line per CSV row.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "core/table_text.hpp"

namespace {

using gpusort::core::csv_field;
using gpusort::core::csv_number;
using gpusort::core::json_number;
using gpusort::core::json_string;
using gpusort::core::JsonObject;

TEST(JsonString, QuotesAndBackslashesAreEscaped) {
  EXPECT_EQ(json_string(""), "\"\"");
  EXPECT_EQ(json_string("plain text"), "\"plain text\"");
  EXPECT_EQ(json_string("say \"hi\""), "\"say \\\"hi\\\"\"");
  EXPECT_EQ(json_string("C:\\dir\\"), "\"C:\\\\dir\\\\\"");
}

TEST(JsonString, NamedControlCharactersUseTheirShortEscapes) {
  EXPECT_EQ(json_string("a\bb\fc\nd\re\tf"), "\"a\\bb\\fc\\nd\\re\\tf\"");
}

TEST(JsonString, OtherControlCharactersAreUnicodeEscapes) {
  EXPECT_EQ(json_string(std::string("\x01", 1)), "\"\\u0001\"");
  EXPECT_EQ(json_string(std::string("\0", 1)), "\"\\u0000\"");
  EXPECT_EQ(json_string("\x1b[31mred"), "\"\\u001b[31mred\"");
  EXPECT_EQ(json_string("\x1f"), "\"\\u001f\"");
  EXPECT_EQ(json_string("\x7f"), "\"\\u007f\"");
}

TEST(JsonString, NoByteLeavesARawControlCharacter) {
  for (int b = 0; b < 256; ++b) {
    const std::string out = json_string(std::string(1, static_cast<char>(b)));
    ASSERT_GE(out.size(), 3u);
    EXPECT_EQ(out.front(), '"');
    EXPECT_EQ(out.back(), '"');
    for (std::size_t i = 1; i + 1 < out.size(); ++i) {
      const auto c = static_cast<unsigned char>(out[i]);
      EXPECT_FALSE(c < 0x20 || c == 0x7f) << "byte " << b << " written raw";
    }
    // A quote inside is always escaped: the string ends at the last character only.
    if (b == '"') EXPECT_EQ(out, "\"\\\"\"");
  }
}

TEST(JsonString, Utf8PassesThrough) {
  EXPECT_EQ(json_string("2^28 · H200 — µs"), "\"2^28 · H200 — µs\"");
}

TEST(JsonNumber, NonFiniteIsNull) {
  EXPECT_EQ(json_number(1.5), "1.5");
  EXPECT_EQ(json_number(268435456.0), "2.68435e+08");
  EXPECT_EQ(json_number(std::nan("")), "null");
  EXPECT_EQ(json_number(std::numeric_limits<double>::infinity()), "null");
  EXPECT_EQ(csv_number(std::nan("")), "");
  EXPECT_EQ(csv_number(0.25), "0.25");
}

TEST(CsvField, PlainTextIsUnquoted) {
  EXPECT_EQ(csv_field("radix"), "radix");
  EXPECT_EQ(csv_field(""), "");
  EXPECT_EQ(csv_field("cuda:0 NVIDIA H200"), "cuda:0 NVIDIA H200");
}

TEST(CsvField, CommasAndQuotesAreQuoted) {
  EXPECT_EQ(csv_field("8:i32:desc,0:bytes4"), "\"8:i32:desc,0:bytes4\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
}

TEST(CsvField, EveryRowStaysOneLine) {
  EXPECT_EQ(csv_field("error: build log\nline 2\r\n"), "error: build log line 2  ");
  EXPECT_EQ(csv_field("a\tb,c\n"), "\"a b,c \"");
  for (int b = 0; b < 256; ++b) {
    const std::string out = csv_field(std::string(1, static_cast<char>(b)));
    EXPECT_EQ(out.find_first_of("\n\r"), std::string::npos) << "byte " << b;
  }
}

TEST(JsonObjectWriter, MembersInOrderWithTheirTypes) {
  JsonObject o;
  o.add("mode", "sweep")
      .add("command", std::string("gpusort-bench sweep --types \"u32\"\n"))
      .add("n", std::uint64_t(1) << 28)
      .add("repeats", 5)
      .add("is_gpu", false)
      .add("copy_gb_per_s", std::nan(""))
      .add_json("nested", "{\"a\": 1}");
  EXPECT_EQ(o.str(),
            "{\"mode\": \"sweep\", \"command\": \"gpusort-bench sweep --types \\\"u32\\\"\\n\", \"n\": 268435456, "
            "\"repeats\": 5, \"is_gpu\": false, \"copy_gb_per_s\": null, \"nested\": {\"a\": 1}}");
  EXPECT_EQ(JsonObject().str(), "{}");
}

}  // namespace
