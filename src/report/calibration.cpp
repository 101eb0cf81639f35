#include "report/calibration.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/base/text.hpp"
#include "core/base/units.hpp"
#include "report/json_writer.hpp"
#include "report/out.hpp"
#include "report/words.hpp"

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

// A calibration's keys, or, when its figures are not to be trusted, the same keys commented
// out after the reason and how to measure again: a pasted fragment then sets nothing.
std::string keys(std::string table, const std::string& lines, std::string_view doubt) {
  if (doubt.empty()) return table + lines;
  return commented(wrap(fmt::format("NOT TRUSTED: {}", doubt), 96)) + "# The keys below are left commented out.\n" +
         table + commented(lines);
}

// JSON's scenario keys are "scenario" when trusted, "untrusted_scenario" (after "trusted":
// false) when not, so that a program reading "scenario" takes nothing doubtful.
std::string_view scenario_member(JsonWriter& j, bool trusted) {
  j.kv_bool("trusted", trusted);
  return trusted ? "scenario" : "untrusted_scenario";
}

std::string header(const Machine& m, std::string_view what) {
  return fmt::format(
      "# pipesim calibrate {}: measured {} by pipesim {}\n"
      "# on {} ({} this process may use), {}.\n",
      what, m.when, PIPESIM_VERSION, m.cpu_model, plural(m.logical_cpus, "logical CPU", "logical CPUs"), m.kernel);
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

// A calibration's JSON: {"calibrate": what, "machine": {...}, then what `body` writes}.
template <class Body>
std::string calibration_json(std::string_view what, const Machine& m, Body body) {
  std::string text;
  {
    Out o(text);
    JsonWriter j(o);
    j.object().stamp().kv_str("calibrate", what);
    machine_json(j, m);
    body(j);
    j.end().finish();
  }
  return text;
}

// What the loop calibration's doubt is, when its busy threads left a CPU free.
std::string loop_doubt(const LoopCalibration& c) {
  if (c.crowded) return {};
  return fmt::format(
      "{} and the waiting thread did not outnumber the {}: nothing crowded the waiting "
      "thread, so its share says how it waits alone. Measure with --threads {} or more.",
      plural(c.busy, "busy thread", "busy threads"), plural(c.machine.logical_cpus, "logical CPU", "logical CPUs"),
      c.machine.logical_cpus);
}

}  // namespace

std::string loop_toml(const LoopCalibration& c) {
  std::string t = header(c.machine, "loop");
  t += fmt::format(
      "# Method: {} doing arithmetic for {} s alone, then for {} s beside\n"
      "# a thread that waits as a training loop waits for its accelerator: spinning on a\n"
      "# clock, spinning with sched_yield (CUDA's yield schedule), polling (a {} sleep\n"
      "# between checks), sleeping; {}, the threads started afresh each time. CPUs: the\n"
      "# waiting thread's CPU time over the wall time, the mean of the rounds (the key: what it\n"
      "# takes from busy workers; the scheduler may place it differently from round to round,\n"
      "# and a training run goes through those placements in turn). Share: the median round's\n"
      "# CPUs over a runnable thread's fair share of the CPUs ({:.3f} of a CPU here), and the\n"
      "# range of the rounds; 1 takes as much as a busy worker, 0 none. Then the busy threads'\n"
      "# rate beside it.\n",
      plural(c.busy, "busy thread", "busy threads"), c.options.seconds, c.options.seconds,
      format_human(c.options.poll_interval, Dim::Duration), plural(c.options.rounds, "round", "rounds"),
      c.fair_share_cpus);
  for (std::size_t i = 0; i < kWaitStyles.size(); ++i) {
    const WaitFigure& w = c.waits[i];
    t += fmt::format("#   {:<6} {:.3f} CPUs (share {:.2f}, {:.2f} to {:.2f}; busy threads at {:.1f}%){}\n",
                     wait_style_name(kWaitStyles[i]), w.mean_cpus, w.share, w.share_low, w.share_high,
                     100 * w.busy_fraction, kWaitStyles[i] == c.options.wait ? "  -> pipeline.loop_cpu_share" : "");
  }
  const std::string lines =
      fmt::format("loop_cpu_share = {:.3f}   # {}\n", c.loop_cpu_share, wait_style_name(c.options.wait));
  return t + "\n" + keys("[pipeline]\n", lines, loop_doubt(c));
}

std::string loop_json(const LoopCalibration& c) {
  return calibration_json("loop", c.machine, [&](JsonWriter& j) {
    j.key("method")
        .object()
        .kv("busy_threads", c.busy)
        .kv("seconds_per_round", c.options.seconds)
        .kv("rounds", c.options.rounds)
        .kv("poll_interval_s", c.options.poll_interval)
        .kv("fair_share_cpus", c.fair_share_cpus)
        .kv_str("wait", wait_style_name(c.options.wait))
        .end();
    j.kv("busy_rate_alone", c.alone_rate);
    j.key("waits").object();
    for (std::size_t i = 0; i < kWaitStyles.size(); ++i) {
      const WaitFigure& w = c.waits[i];
      j.key(wait_style_name(kWaitStyles[i]))
          .object()
          .kv("share", w.share)
          .kv("share_low", w.share_low)
          .kv("share_high", w.share_high)
          .kv("loop_cpus", w.loop_cpus)
          .kv("loop_cpus_mean", w.mean_cpus)
          .kv("busy_rate", w.busy_rate)
          .end();
    }
    j.end();
    j.key(scenario_member(j, c.crowded)).object().kv("pipeline.loop_cpu_share", c.loop_cpu_share).end();
  });
}

std::string memory_toml(const MemoryCalibration& c) {
  const auto rate = [](double v) { return format_human(v, Dim::Rate); };
  std::string t = header(c.machine, "memory");
  const std::string threads = plural(c.threads, "thread", "threads");
  t += fmt::format(
      "# Method: copies of {} MiB from a warm buffer, for {} s per figure (at least 3 copies)\n"
      "# after a warm-up. One thread: its median copy; {} at once: the sum of each\n"
      "# thread's bytes over its time. Into fresh memory, each copy goes to a new shared-memory\n"
      "# segment mapped for it and returned after it (page faults included), as a DataLoader\n"
      "# worker's collate does; pipesim charges the pin thread's copy the same rate.\n",
      c.options.copy_bytes >> 20, c.options.seconds, threads);
  t += fmt::format("#   {:<30} {} ({} copies)  -> cpu.memcpy_bandwidth\n",
                   "one thread, into fresh memory:", rate(c.one_fresh.bytes_per_s), c.one_fresh.copies);
  t += fmt::format("#   {:<30} {} ({} copies)\n", "one thread, warm buffers:", rate(c.one_warm.bytes_per_s),
                   c.one_warm.copies);
  t += fmt::format("#   {:<30} {} in all ({} copies)\n", fmt::format("{}, into fresh memory:", threads),
                   rate(c.all_fresh.bytes_per_s), c.all_fresh.copies);
  t += fmt::format("#   {:<30} {} in all ({} copies)\n", fmt::format("{}, warm buffers:", threads),
                   rate(c.all_warm.bytes_per_s), c.all_warm.copies);
  t += "\n[cpu]\n";
  t += fmt::format("memcpy_bandwidth = \"{}\"\n", measured_value(c.one_fresh.bytes_per_s, Dim::Rate));
  return t;
}

std::string memory_json(const MemoryCalibration& c) {
  return calibration_json("memory", c.machine, [&](JsonWriter& j) {
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
  });
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
  return {own, own ? c.fit.single : one.bytes_per_s_per_thread};
}

}  // namespace

std::string decode_toml(const DecodeCalibration& c) {
  std::string t = header(c.machine, "decode");
  const std::string files =
      c.source == "synthetic"
          ? fmt::format("{} JPEG files pipesim made (375 to 640 pixels wide, 4:2:0, quality 85 to 95)", c.files)
          : fmt::format("the first {} JPEG files below {}{}", c.files, printable(c.source),
                        c.skipped ? fmt::format(" ({} that did not decode left out)", c.skipped) : "");
  const std::string counts = spoken_list(c.points, [](const DecodePoint& p) { return p.threads; });
  t += fmt::format(
      "# Method: {},\n"
      "# mean {} and {:.2f} megapixels, held in memory and decoded to RGB by\n"
      "# {} (TurboJPEG API, accurate DCT) on {} threads at once,\n"
      "# {} s each after a warm-up.\n",
      files, format_human(c.mean_bytes, Dim::Size), c.mean_pixels / 1e6, c.library, counts, c.options.seconds);
  t += "#   threads    images/s in all    per thread    JPEG bytes/s per thread    CPU per image    the fitted law\n";
  for (const DecodePoint& p : c.points) {
    t += fmt::format("#   {:>7}    {:>15.1f}    {:>10.1f}    {:>23}    {:>13}    {:.1f} ({:+.1f}%){}\n", p.threads,
                     p.images_per_s, p.images_per_s_per_thread, format_human(p.bytes_per_s_per_thread, Dim::Rate),
                     format_human(p.cpu_per_image, Dim::Duration), p.fitted, 100 * p.residual,
                     p.oversubscribed ? "  past the CPUs" : "");
  }
  if (c.fit.sigma_fitted)
    t +=
        fmt::format("# Scaling law (Universal Scalability Law): sigma {:.4f}, largest residual {:.1f}%;\n# kappa {}.\n",
                    c.fit.sigma, 100 * c.fit.max_abs_residual,
                    c.fit.kappa_fitted ? fmt::format("{:.5f}", c.fit.kappa)
                                       : std::string("not determined (it needs three or more thread counts)"));
  else
    t += "# Scaling law (Universal Scalability Law): not determined (it needs two or more thread counts,\n"
         "# --threads 1,N); the scenario's own scaling keys, or linear scaling, stand.\n";
  if (c.oversubscription)
    t += fmt::format(
        "# Time slicing: past the {} logical CPUs each thread spent {} CPU per image than at them:\n"
        "# oversubscription_cost {:.4f} (1 + o (N - C) / C times the CPU). Threads of one process\n"
        "# switch more cheaply than a loader's worker processes: a lower bound for those.\n",
        c.machine.logical_cpus, *c.oversubscription > 0 ? "more" : "no more", *c.oversubscription);
  const DecodeKeys k = decode_keys(c);
  t += "# Decode alone is a lower bound on a worker's cost per sample: reading the file, cropping,\n"
       "# flipping, converting to a tensor and normalizing add to it, so the rate below is an upper\n"
       "# bound on one worker's. Measure the whole transform where you can (one worker's samples/s).\n";
  if (!k.per_image)
    t += "# The files are not yours: the rate is per JPEG byte (cpu.worker_throughput), so that the\n"
         "# scenario's workload.sample_size turns it into samples/s.\n";
  std::string lines;
  if (k.per_image)
    lines += fmt::format("worker_sample_rate = \"{}\"\n", measured_value(k.single, Dim::SampleRate));
  else
    lines += fmt::format("worker_throughput = \"{}\"\n", measured_value(k.single, Dim::Rate));
  if (c.fit.sigma_fitted) lines += fmt::format("scaling_contention = {:.4f}\n", c.fit.sigma);
  if (c.fit.kappa_fitted) lines += fmt::format("scaling_coherency = {:.5f}\n", c.fit.kappa);
  if (c.oversubscription) lines += fmt::format("oversubscription_cost = {:.4f}\n", *c.oversubscription);
  const auto again = "Measure again on an idle machine, or with --threads no higher than the CPUs that are free.";
  std::string doubt;
  if (const DecodePoint* p = c.starved())
    doubt = fmt::format(
        "at {} thread{} the decoding threads ran on a CPU for only {:.0f}% of their time (thread CPU time "
        "against wall time; alone they run for nearly all of it): other work was using the CPUs. {}",
        p->threads, p->threads == 1 ? "" : "s", 100 * p->cpu_share, again);
  else if (c.busy())
    doubt = fmt::format(
        "more threads decoded no faster than one (scaling_contention {:.4f} >= 1 on {} logical CPUs): other "
        "work was using the CPUs. {}",
        c.fit.sigma, c.machine.logical_cpus, again);
  return t + keys("\n[cpu]\n", lines, doubt);
}

std::string decode_json(const DecodeCalibration& c) {
  return calibration_json("decode", c.machine, [&](JsonWriter& j) {
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
    for (const DecodePoint& p : c.points) {
      j.object()
          .kv("threads", p.threads)
          .kv("images", static_cast<double>(p.images))
          .kv("images_per_s", p.images_per_s)
          .kv("bytes_per_s", p.bytes_per_s)
          .kv("cpu_s_per_image", p.cpu_per_image)
          .kv("cpu_share", p.cpu_share)
          .kv_bool("past_the_cpus", p.oversubscribed)
          .kv("fitted_images_per_s", p.fitted)
          .kv("residual", p.residual)
          .end();
    }
    j.end();
    j.key("fit").object().kv("single_thread_images_per_s", c.fit.single).kv("sigma", c.fit.sigma);
    if (c.fit.kappa_fitted) j.kv("kappa", c.fit.kappa);
    if (c.oversubscription) j.kv("oversubscription_cost", *c.oversubscription);
    j.kv_bool("sigma_fitted", c.fit.sigma_fitted)
        .kv_bool("kappa_fitted", c.fit.kappa_fitted)
        .kv("max_abs_residual", c.fit.max_abs_residual)
        .end();
    const DecodeKeys k = decode_keys(c);
    j.key(scenario_member(j, !c.busy())).object();
    j.kv(k.per_image ? "cpu.worker_sample_rate" : "cpu.worker_throughput", k.single);
    if (c.fit.sigma_fitted) j.kv("cpu.scaling_contention", c.fit.sigma);
    if (c.fit.kappa_fitted) j.kv("cpu.scaling_coherency", c.fit.kappa);
    if (c.oversubscription) j.kv("cpu.oversubscription_cost", *c.oversubscription);
    j.end();
    j.kv_bool("lower_bound_on_transform_cost", true);
  });
}

std::string storage_toml(const StorageCalibration& c) {
  std::string t = header(c.machine, "storage");
  const std::string levels = spoken_list(c.cold, [](const ReadLevel& l) { return l.concurrency; });
  t += fmt::format(
      "# Method: {} files (mean {}) below\n"
      "#   {}\n"
      "# read whole (open, read, close) in a shuffled order by {} readers at once,\n"
      "# each taking the next file, for at most {} s per level. Cold: each level starts after\n"
      "# asking the kernel to drop the files' cached pages (posix_fadvise DONTNEED) and reads\n"
      "# each file once at most; warm: after a pass that brings the files in.\n",
      c.files, format_human(c.mean_file_bytes, Dim::Size), printable(c.folder), levels, c.options.seconds);
  if (!c.cold_dropped) t += "# The kernel refused to drop some files' pages: the cold figures may be partly warm.\n";
  if (c.cold_like_warm)
    t += "# Cold reads were within 20% of warm ones at one reader: the files may still have been\n"
         "# cached (a file system that ignores the request, or storage as fast as memory).\n";
  t += "#   readers  pass   requests/s      bandwidth    latency mean     p50      p99\n";
  const auto row = [&](const ReadLevel& l, const char* pass) {
    t += fmt::format("#   {:>7}  {:<4}  {:>11.1f}  {:>13}  {:>12}  {:>8}  {:>8}\n", l.concurrency, pass,
                     l.requests_per_s, format_human(l.bytes_per_s, Dim::Rate),
                     format_human(l.latency_mean_s, Dim::Duration), format_human(l.latency_p50_s, Dim::Duration),
                     format_human(l.latency_p99_s, Dim::Duration));
  };
  for (const auto& l : c.cold) row(l, "cold");
  for (const auto& l : c.warm) row(l, "warm");
  t += fmt::format(
      "# Fit (cold): the most bandwidth and requests/s any level reached; the latency is one\n"
      "# reader's mean time per file less the file's bytes at that bandwidth. 90% of the\n"
      "# bandwidth is reached at {} readers (storage.queue_depth is the readers a loader keeps\n"
      "# busy: a DataLoader worker reads one file at a time).\n",
      c.saturates_at);
  std::string lines = fmt::format("read_bandwidth = \"{}\"\n", measured_value(c.read_bandwidth, Dim::Rate));
  lines += fmt::format("iops = {}\n", format_compact(std::round(c.iops), Dim::Number));
  lines += fmt::format("latency = \"{}\"\n", measured_value(c.latency_s, Dim::Duration));
  const std::string doubt =
      c.trusted() ? std::string()
                  : fmt::format(
                        "the cold reads may have come from the page cache ({}), so these are not the "
                        "storage's figures. Measure again with the files out of memory: as root after "
                        "`sync; echo 3 > /proc/sys/vm/drop_caches`, after a reboot, or on more data than "
                        "the machine's memory.",
                        c.cold_dropped ? "cold within 20% of warm at one reader" : "the kernel kept some files' pages");
  return t + keys("\n[storage]\n", lines, doubt);
}

std::string storage_json(const StorageCalibration& c) {
  return calibration_json("storage", c.machine, [&](JsonWriter& j) {
    j.key("method")
        .object()
        .kv_str("folder", c.folder)
        .kv("files", static_cast<double>(c.files))
        .kv("mean_file_bytes", c.mean_file_bytes)
        .kv("seconds_per_level", c.options.seconds)
        .kv_bool("cold_pages_dropped", c.cold_dropped)
        .kv_bool("cold_like_warm", c.cold_like_warm)
        .end();
    const auto levels = [&](std::string_view k, const std::vector<ReadLevel>& ls) {
      j.key(k).array();
      for (const auto& l : ls)
        j.object()
            .kv("concurrency", l.concurrency)
            .kv("requests", static_cast<double>(l.requests))
            .kv("bytes", l.bytes)
            .kv("seconds", l.seconds)
            .kv("requests_per_s", l.requests_per_s)
            .kv("bytes_per_s", l.bytes_per_s)
            .kv("latency_mean_s", l.latency_mean_s)
            .kv("latency_p50_s", l.latency_p50_s)
            .kv("latency_p99_s", l.latency_p99_s)
            .end();
      j.end();
    };
    levels("cold", c.cold);
    levels("warm", c.warm);
    j.key("fit").object().kv("saturates_at_concurrency", c.saturates_at).end();
    j.key(scenario_member(j, c.trusted()))
        .object()
        .kv("storage.read_bandwidth", c.read_bandwidth)
        .kv("storage.iops", c.iops)
        .kv("storage.latency", c.latency_s)
        .end();
  });
}

}  // namespace pipesim
