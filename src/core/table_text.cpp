#include "core/table_text.hpp"

#include <cmath>
#include <cstdio>

namespace gpusort::core {

namespace {

bool is_control(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x20 || u == 0x7f;
}

}  // namespace

std::string json_string(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (is_control(c)) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

std::string json_number(double v) {
  const std::string s = csv_number(v);
  return s.empty() ? "null" : s;
}

std::string csv_field(std::string_view s) {
  std::string text(s);
  for (char& c : text)
    if (is_control(c)) c = ' ';
  if (text.find_first_of(",\"") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csv_number(double v) {
  if (!std::isfinite(v)) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

JsonObject& JsonObject::add_json(std::string_view name, std::string_view json) {
  if (text_.size() > 1) text_ += ", ";
  text_ += json_string(name);
  text_ += ": ";
  text_ += json;
  return *this;
}

JsonObject& JsonObject::add(std::string_view name, std::string_view text) { return add_json(name, json_string(text)); }
JsonObject& JsonObject::add(std::string_view name, double number) { return add_json(name, json_number(number)); }

}  // namespace gpusort::core
