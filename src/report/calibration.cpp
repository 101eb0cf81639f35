#include "report/calibration.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/units.hpp"
#include "report/json_writer.hpp"
#include "report/out.hpp"

#ifndef PIPESIM_VERSION
#define PIPESIM_VERSION "dev"
#endif

namespace pipesim {

namespace {

// A measured figure for a TOML value: three significant digits (the measurement's noise is
// larger than that), with its unit.
std::string measured_value(double v, Dim dim) {
  if (!(v > 0) || !std::isfinite(v)) return format_compact(v, dim);
  const double scale = std::pow(10.0, std::floor(std::log10(v)) - 2);
  return format_compact(std::round(v / scale) * scale, dim);
}

std::string header(const Machine& m, std::string_view what) {
  return fmt::format(
      "# pipesim calibrate {}: measured {} by pipesim {}\n"
      "# on {} ({} logical CPUs this process may use), {}.\n",
      what, m.when, PIPESIM_VERSION, m.cpu_model, m.logical_cpus, m.kernel);
}

void machine_json(JsonWriter& j, const Machine& m) {
  j.key("machine")
      .object()
      .kv_str("cpu_model", m.cpu_model)
      .kv("logical_cpus", m.logical_cpus)
      .kv_str("kernel", m.kernel)
      .kv_str("measured_at", m.when)
      .kv_str("pipesim_version", PIPESIM_VERSION)
      .end();
}

}  // namespace

std::string memory_toml(const MemoryCalibration& c) {
  const auto rate = [](double v) { return format_human(v, Dim::Rate); };
  std::string t = header(c.machine, "memory");
  t += fmt::format(
      "# Method: copies of {} MiB from a warm buffer, for {} s per figure (at least 3 copies)\n"
      "# after a warm-up. One thread: its median copy; {} threads at once: the sum of each\n"
      "# thread's bytes over its time. Into fresh memory, each copy goes to memory mapped for it\n"
      "# and returned after it (page faults included), as a worker's collate into new shared\n"
      "# memory and the pin thread do.\n",
      c.options.copy_bytes >> 20, c.options.seconds, c.threads);
  t += fmt::format("#   {:<30} {} ({} copies)  -> cpu.memcpy_bandwidth\n",
                   "one thread, into fresh memory:", rate(c.one_fresh.bytes_per_s), c.one_fresh.copies);
  t += fmt::format("#   {:<30} {} ({} copies)\n", "one thread, warm buffers:", rate(c.one_warm.bytes_per_s),
                   c.one_warm.copies);
  t += fmt::format("#   {:<30} {} in all ({} copies)\n", fmt::format("{} threads, into fresh memory:", c.threads),
                   rate(c.all_fresh.bytes_per_s), c.all_fresh.copies);
  t += fmt::format("#   {:<30} {} in all ({} copies)\n", fmt::format("{} threads, warm buffers:", c.threads),
                   rate(c.all_warm.bytes_per_s), c.all_warm.copies);
  t += "\n[cpu]\n";
  t += fmt::format("memcpy_bandwidth = \"{}\"\n", measured_value(c.one_fresh.bytes_per_s, Dim::Rate));
  return t;
}

std::string memory_json(const MemoryCalibration& c) {
  std::string text;
  {
    Out o(text);
    JsonWriter j(o);
    j.object().kv_str("calibrate", "memory");
    machine_json(j, c.machine);
    j.key("method")
        .object()
        .kv("copy_bytes", static_cast<double>(c.options.copy_bytes))
        .kv("seconds_per_figure", c.options.seconds)
        .kv("threads", c.threads)
        .end();
    const auto fig = [&](std::string_view k, const CopyRate& r) {
      j.key(k).object().kv("bytes_per_s", r.bytes_per_s).kv("copies", static_cast<double>(r.copies)).end();
    };
    fig("one_thread_fresh", c.one_fresh);
    fig("one_thread_warm", c.one_warm);
    fig("all_threads_fresh", c.all_fresh);
    fig("all_threads_warm", c.all_warm);
    j.key("scenario").object().kv("cpu.memcpy_bandwidth", c.one_fresh.bytes_per_s).end();
    j.end().finish();
  }
  return text;
}

namespace {

// What the scenario gets from a decode calibration: the rate of one thread (per image for
// the user's own files; per JPEG byte for the synthetic set, so that it carries over to the
// scenario's sample size) and the scaling law.
struct DecodeKeys {
  bool per_image;
  double single;  // images/s or bytes/s of one thread
};

DecodeKeys decode_keys(const DecodeCalibration& c) {
  const bool own = c.source != "synthetic";
  const DecodePoint& one = c.points.front();
  const double per_thread = own ? c.fit.single : one.bytes_per_s / static_cast<double>(one.threads);
  return {own, per_thread};
}

}  // namespace

std::string decode_toml(const DecodeCalibration& c) {
  std::string t = header(c.machine, "decode");
  const std::string files =
      c.source == "synthetic"
          ? fmt::format("{} JPEG files pipesim made (375 to 640 pixels wide, 4:2:0, quality 85 to 95)", c.files)
          : fmt::format("the first {} JPEG files below {}{}", c.files, c.source,
                        c.skipped ? fmt::format(" ({} that did not decode left out)", c.skipped) : "");
  std::string counts;
  for (std::size_t i = 0; i < c.points.size(); ++i)
    counts += fmt::format("{}{}", i == 0 ? "" : (i + 1 == c.points.size() ? " and " : ", "), c.points[i].threads);
  t += fmt::format(
      "# Method: {},\n"
      "# mean {} and {:.2f} megapixels, held in memory and decoded to RGB by\n"
      "# {} (TurboJPEG API, accurate DCT) on {} threads at once,\n"
      "# {} s each after a warm-up.\n",
      files, format_human(c.mean_bytes, Dim::Size), c.mean_pixels / 1e6, c.library, counts, c.options.seconds);
  t += "#   threads    images/s in all    per thread    JPEG bytes/s per thread    the fitted law\n";
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    const DecodePoint& p = c.points[i];
    const double n = static_cast<double>(p.threads);
    t += fmt::format("#   {:>7}    {:>15.1f}    {:>10.1f}    {:>23}    {:.1f} ({:+.1f}%)\n", p.threads, p.images_per_s,
                     p.images_per_s / n, format_human(p.bytes_per_s / n, Dim::Rate), usl_rate(c.fit, n),
                     100 * c.fit.residuals[i]);
  }
  t += fmt::format("# Scaling law (DESIGN.md section 6): sigma {:.4f}, largest residual {:.1f}%;\n# kappa {}.\n",
                   c.fit.sigma, 100 * c.fit.max_abs_residual,
                   c.fit.kappa_fitted ? fmt::format("{:.5f}", c.fit.kappa)
                                      : std::string("not determined (it needs three or more thread counts)"));
  const DecodeKeys k = decode_keys(c);
  t += "# Decode alone is a lower bound on a worker's cost per sample: reading the file, cropping,\n"
       "# flipping, converting to a tensor and normalizing add to it, so the rate below is an upper\n"
       "# bound on one worker's. Measure the whole transform where you can (one worker's samples/s).\n";
  if (!k.per_image)
    t += "# The files are not yours: the rate is per JPEG byte (cpu.worker_throughput), so that the\n"
         "# scenario's workload.sample_size turns it into samples/s.\n";
  t += "\n[cpu]\n";
  if (k.per_image)
    t += fmt::format("worker_sample_rate = \"{}\"\n", measured_value(k.single, Dim::SampleRate));
  else
    t += fmt::format("worker_throughput = \"{}\"\n", measured_value(k.single, Dim::Rate));
  t += fmt::format("scaling_contention = {:.4f}\n", c.fit.sigma);
  if (c.fit.kappa_fitted) t += fmt::format("scaling_coherency = {:.5f}\n", c.fit.kappa);
  return t;
}

std::string decode_json(const DecodeCalibration& c) {
  std::string text;
  {
    Out o(text);
    JsonWriter j(o);
    j.object().kv_str("calibrate", "decode");
    machine_json(j, c.machine);
    j.key("method")
        .object()
        .kv_str("library", c.library)
        .kv_str("files_from", c.source)
        .kv("files", static_cast<double>(c.files))
        .kv("skipped", static_cast<double>(c.skipped))
        .kv("mean_file_bytes", c.mean_bytes)
        .kv("mean_pixels", c.mean_pixels)
        .kv("seconds_per_thread_count", c.options.seconds)
        .end();
    j.key("points").array();
    for (std::size_t i = 0; i < c.points.size(); ++i) {
      const DecodePoint& p = c.points[i];
      j.object()
          .kv("threads", p.threads)
          .kv("images", static_cast<double>(p.images))
          .kv("images_per_s", p.images_per_s)
          .kv("bytes_per_s", p.bytes_per_s)
          .kv("fitted_images_per_s", usl_rate(c.fit, p.threads))
          .kv("residual", c.fit.residuals[i])
          .end();
    }
    j.end();
    j.key("fit").object().kv("single_thread_images_per_s", c.fit.single).kv("sigma", c.fit.sigma);
    if (c.fit.kappa_fitted) j.kv("kappa", c.fit.kappa);
    j.kv_bool("kappa_fitted", c.fit.kappa_fitted).kv("max_abs_residual", c.fit.max_abs_residual).end();
    const DecodeKeys k = decode_keys(c);
    j.key("scenario").object();
    j.kv(k.per_image ? "cpu.worker_sample_rate" : "cpu.worker_throughput", k.single);
    j.kv("cpu.scaling_contention", c.fit.sigma);
    if (c.fit.kappa_fitted) j.kv("cpu.scaling_coherency", c.fit.kappa);
    j.end();
    j.kv_bool("lower_bound_on_transform_cost", true);
    j.end().finish();
  }
  return text;
}

}  // namespace pipesim
