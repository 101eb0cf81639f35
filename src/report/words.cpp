#include "report/words.hpp"

#include <cmath>

#include <fmt/compile.h>
#include <fmt/format.h>
#include <vector>

#include "core/base/text.hpp"

namespace pipesim {

std::string shown(std::string_view text, bool md) {
  constexpr std::string_view kMarkup = "\\`*_[]<>&~#";
  std::string s = printable(text);
  if (!md || s.find_first_of(kMarkup) == std::string::npos) return s;
  std::string out;
  for (const char c : s) {
    if (kMarkup.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string dur(double s) { return format_human(s, Dim::Duration); }
std::string rate(double bps) { return format_human(bps, Dim::Rate); }
std::string samples(double sps) { return format_human(sps, Dim::SampleRate); }
std::string count(double n) {
  std::string out;
  append_count(out, n);
  return out;
}
std::string batch_span(double first, double last) {
  return first == last ? "batch " + count(first) : "batches " + count(first) + "-" + count(last);
}
std::string percent(double ratio) {
  std::string out;
  append_percent(out, ratio);
  return out;
}

void append_samples(std::string& out, double per_s) { append_human(out, per_s, Dim::SampleRate); }
void append_count(std::string& out, double n) {
  // Whole counts below 1,000 (workers, batch sizes: most of a sweep's sentences) need neither
  // rounding nor grouping: their digits, as append_fixed writes them.
  if (n >= 0 && n < 1000 && n == std::floor(n) && !std::signbit(n)) {
    const auto k = static_cast<unsigned>(n);
    char text[3];
    char* p = text;
    if (k >= 100) *p++ = static_cast<char>('0' + k / 100);
    if (k >= 10) *p++ = static_cast<char>('0' + k / 10 % 10);
    *p++ = static_cast<char>('0' + k % 10);
    out.append(text, static_cast<std::size_t>(p - text));
    return;
  }
  std::string digits;  // short enough to stay inside the string (no allocation) for most counts
  append_fixed(digits, n, 0);
  append_grouped(out, digits);
}
void append_percent(std::string& out, double ratio) {
  append_fixed(out, ratio * 100, 1);
  out.push_back('%');
}

std::string figure_text(FigureUnit unit, double v) {
  switch (unit) {
    case FigureUnit::Seconds:
      return dur(v);
    case FigureUnit::Fraction:
      return percent(v);
    case FigureUnit::SampleRate:
      return samples(v);
    case FigureUnit::ByteRate:
      return rate(v);
    case FigureUnit::Bytes:
      return format_human(v, Dim::Size);
    case FigureUnit::Count:
      return format_compact(v, Dim::Number);
    case FigureUnit::Factor:
      return ratio_text(v);
    case FigureUnit::Usd:
      return format_human(v, Dim::Money);
    case FigureUnit::UsdPerHour:
      return format_human(v, Dim::MoneyRate);
    case FigureUnit::SamplesPerUsd:
      return format_number(v);
    case FigureUnit::Flag:
      return v != 0 ? "yes" : "no";
    case FigureUnit::Walls:
      return walls_text(static_cast<unsigned>(v));
    case FigureUnit::Limit:
      return std::string(limit_key(static_cast<Limit>(v)));
  }
  return {};
}

std::string plural(double n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", count(n), n == 1 ? one : many);
}

std::string cpus(double n) { return fmt::format("{} {}", format_compact(n, Dim::Number), n == 1 ? "CPU" : "CPUs"); }

std::string walls_text(unsigned binding, std::string_view separator) {
  return stage_list(binding, separator, stage_key);
}

std::string binding_text(const Result& r) { return walls_text(r.binding); }

std::string compare_value_text(CompareMetric m, double v) {
  switch (m) {
    case CompareMetric::Throughput:
    case CompareMetric::ThroughputPerAccelerator:
      return figure_text(FigureUnit::SampleRate, v);
    case CompareMetric::Utilization:
    case CompareMetric::WorstEpochUtilization:
    case CompareMetric::RunUtilization:
      return figure_text(FigureUnit::Fraction, v);
    case CompareMetric::EpochTime:
    case CompareMetric::RunTime:
      return figure_text(FigureUnit::Seconds, v);
    case CompareMetric::PricePerHour:
      return figure_text(FigureUnit::UsdPerHour, v);
    case CompareMetric::CostPerEpoch:
    case CompareMetric::RunCost:
    case CompareMetric::IdleCostPerEpoch:
      return figure_text(FigureUnit::Usd, v);
    case CompareMetric::SamplesPerUsd:
      break;
  }
  return figure_text(FigureUnit::SamplesPerUsd, v);
}

std::string compute_source(const Scenario& s, const Result& r) {
  const StageResult& c = r.stage(Stage::Compute);
  if (!c.modelled) return "-";
  switch (c.limit) {
    case Limit::Measured:
      if (s.has(Field::MeasuredOn)) {
        const std::string on = format_value(spec(Field::MeasuredOn), s.get(Field::MeasuredOn), Dim::Choice);
        return on == "other" ? "measured on another accelerator" : "measured on " + on;
      }
      if (s.has(Field::MeasuredPerSample) && s.get(Field::MeasuredPerSample) == 0) return "fixed step (emulated)";
      return "measured";
    case Limit::MemoryBandwidth:
      return "roofline (weights)";
    default:
      return "roofline (FLOP rate)";
  }
}

std::string ratio_text(double ratio) { return format_number(ratio) + "x"; }

std::string unmodelled_list(const Result& r) {
  return stage_list(r.unmodelled, ", ", [&](Stage s) { return stage_name(s, r.transform_at); });
}

std::string keys_text(const std::vector<Field>& keys) {
  std::string out;
  for (const Field f : keys) out += fmt::format("{}{}", out.empty() ? "" : " with ", spec(f).key);
  return out;
}

std::string upper_bound_sentence(const Result& r) {
  const std::string stages = stage_list(r.unmodelled, ", ", [&](Stage s) {
    return fmt::format("{} ({})", stage_name(s, r.transform_at),
                       keys_text(unmodelled_keys(s, r.transform_at, r.transfer_needs_device_bytes)));
  });
  return fmt::format("Utilization {} is an upper bound: not modelled, and each could bind: {}.", percent(r.utilization),
                     stages);
}

}  // namespace pipesim
