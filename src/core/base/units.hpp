// Physical quantities with units: parsing "2 GB/s" and printing for people.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pipesim {

// The kind of a quantity. Values are held in SI base units (bytes, seconds, FLOP, ...).
enum class Dim : std::uint8_t {
  Number,      // plain number (counts, ratios)
  Size,        // bytes
  Rate,        // bytes per second
  Duration,    // seconds
  Flop,        // floating-point operations
  FlopRate,    // FLOP per second
  SampleRate,  // samples per second
  Bool,        // true / false, stored as 1 / 0
  Money,       // US dollars: "$250000", "250000 USD"
  MoneyRate,   // US dollars per hour: "$32.77/h", "32.77 USD/h"
  Choice,      // one of a field's named choices ("bf16"), stored as its index
  // Steps (batches) per second, as tqdm and training logs print them ("3.45 it/s"): a sample
  // rate once multiplied by the batch size (the loader does so when the scenario is read).
  StepRate,
  FrameRate,  // video frames per second ("1000 frames/s", "1000 fps"), of a decoder or a clip
};
constexpr unsigned kDimCount = 13;

// A set of Dims (bit i = Dim i).
using DimSet = std::uint16_t;
constexpr DimSet dims(Dim d) { return static_cast<DimSet>(1u << static_cast<unsigned>(d)); }
constexpr DimSet operator|(Dim a, Dim b) { return static_cast<DimSet>(dims(a) | dims(b)); }
constexpr bool has(DimSet set, Dim d) { return (set & dims(d)) != 0; }

// "a rate", "a size", ...
std::string_view dim_name(Dim d);
// "a rate (e.g. \"2 GB/s\")" or "a rate or a sample rate (...)"
std::string describe_dims(DimSet set);

struct Quantity {
  double value = 0;  // SI base units
  Dim dim = Dim::Number;
};

// Largest magnitude accepted for any input, in SI base units. Keeping inputs inside
// [1e-21, 1e21] keeps every product and quotient the model forms finite.
constexpr double kMaxMagnitude = 1e21;
// Bytes in a TiB (per-TiB storage throughput tiers).
constexpr double kTiB = 1099511627776.0;
constexpr double kMinMagnitude = 1e-21;

// Parses "500 KB", "2GB/s", "11.74 ms", "4.1 GFLOP", "312 TFLOPS", "1200 samples/s", "25.6e6".
// A bare number is Dim::Number. Throws Error (without origin) on malformed text,
// unknown units, non-finite numbers or magnitudes outside the accepted range.
Quantity parse_quantity(std::string_view text);

// The unit names parse_quantity accepts for a kind ("GB/s", "Gbps", ...), in table order.
std::vector<std::string_view> unit_names(Dim d);
// Whether a word is a unit parse_quantity knows, of a kind other than a plain number ("GB",
// "samples/s"; not "%" or "workers"). Never throws.
bool is_unit_name(std::string_view word);

// Parses text and checks its kind against `accepted`; the error names both kinds.
Quantity parse_quantity_as(std::string_view text, DimSet accepted);

// Formats for reading: the unit chosen for reading and four significant digits ("11.74 ms",
// "146.6 MB", "166.7 us", "21,800 samples/s"); thousands separated by commas; scientific
// notation for ten million and more, or under 1e-4, in the unit chosen ("1.234e+07 samples/s"). Money keeps its cents:
// "$1,234.50", "$21.96/h". Zero is "0 s": a caller that means "cached" says so itself.
std::string format_human(double value, Dim dim);
// format_human's text appended to out (no string of its own: sentences written in sweeps).
void append_human(std::string& out, double value, Dim dim);
// A plain number in the same style: "21,800", "4,000", "1.132", "1.235e+21".
std::string format_number(double value);
void append_number(std::string& out, double value);
// "1281167" -> "1,281,167"; "-12345.5" -> "-12,345.5". Digits only, as fmt prints them.
std::string group_thousands(std::string_view digits);
void append_grouped(std::string& out, std::string_view digits);
// Whether v is a whole number below 1e15 in magnitude, and not -0: then it prints as its
// integer (as a long long), with none of the search or rounding a fraction needs.
inline bool plain_integer(double v) {
  // The range is checked first: converting a double past 2^63 to long long is undefined.
  return v < 1e15 && v > -1e15 && v == static_cast<double>(static_cast<long long>(v)) && (v != 0 || !std::signbit(v));
}
// fmt's "{:.Nf}" (N = decimals).
std::string format_fixed(double value, int decimals);
void append_fixed(std::string& out, double value, int decimals);
// As format_human but trims trailing zeros: "500 KB", "2 GB/s", "0.015 ms".
std::string format_compact(double value, Dim dim);
// As format_compact when that reads back as the same value, else with every digit needed:
// for messages about a value's limits ("got 1.0000000001", never "got 1").
std::string format_exact(double value, Dim dim);
// With `digits` significant digits in the unit chosen for reading: "1.132246 ms" at 7. For
// values written to be read back (a fragment whose figures must reproduce a measurement).
std::string format_significant(double value, Dim dim, int digits);

}  // namespace pipesim
