#include "core/base/fields.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <set>

#include <fmt/format.h>

#include "config/loader.hpp"
#include "core/stages/model.hpp"

using namespace pipesim;

TEST_CASE("a fixed default is its documented text parsed, and the model uses that value") {
  CHECK(fixed_default(Field::PrefetchFactor) == 2);
  CHECK(fixed_default(Field::TargetUtilization) == doctest::Approx(0.9));
  CHECK(fixed_default(Field::SmtYield) == doctest::Approx(0.3));
  CHECK(fixed_default(Field::InOrder) == 1);
  CHECK(fixed_default(Field::PersistentWorkers) == 0);
  CHECK(fixed_default(Field::LinkPinned) == 1);
  CHECK(fixed_default(Field::TransformDevice) == static_cast<double>(TransformAt::Cpu));
  CHECK(fixed_default(Field::StorageScope) == static_cast<double>(StorageScope::Node));
  CHECK(fixed_default(Field::LoopOverhead) == 0);
  CHECK_FALSE(fixed_default(Field::BatchSize));          // required: no default
  CHECK_FALSE(fixed_default(Field::PageableBandwidth));  // 0.4 x link.bandwidth
  Scenario s;
  CHECK(s.value(Field::PrefetchFactor) == 2);
  s.set(Field::PrefetchFactor, 4);
  CHECK(s.value(Field::PrefetchFactor) == 4);
  CHECK_THROWS_AS((void)s.value(Field::QueueDepth), Error);  // follows from the workers
}

TEST_CASE("the defaults taken at build time are the documented texts parsed, bit for bit") {
  // The binary reads default_values_snapshot() instead of parsing at start-up: it must be the
  // parse of this build's texts, NaN exactly where a field has no fixed default.
  const auto parsed = parse_default_values();
  REQUIRE(default_values_snapshot().size() == kFieldCount);
  for (std::size_t i = 0; i < kFieldCount; ++i) {
    CAPTURE(spec(static_cast<Field>(i)).key);
    const double snap = default_values_snapshot()[i];
    CHECK(std::isnan(snap) == std::isnan(parsed[i]));
    if (!std::isnan(parsed[i])) CHECK(std::bit_cast<std::uint64_t>(snap) == std::bit_cast<std::uint64_t>(parsed[i]));
  }
  CHECK(fixed_default_values() == default_values_snapshot().data());
}

TEST_CASE("every other default is prose about other fields, never a value that failed to parse") {
  // The fields whose default follows from other fields. A fixed default mistyped in the
  // registry ("O s") would land here and fail this list.
  const std::set<std::string_view> prose = {
      "model.passes",           "model.bytes_per_parameter", "model.state_bytes_per_parameter",
      "accelerator.peak_flops", "workload.dataset_size",     "workload.device_sample_size",
      "predecoded.sample_size", "cpu.reserved_cores",        "cpu.collate_bandwidth",
      "cpu.pin_bandwidth",      "node.page_cache",           "storage.request_size",
      "storage.queue_depth",    "storage.shared_by",         "link.pageable_bandwidth",
      "storage.cache_hit"};
  std::set<std::string_view> found;
  for (const FieldSpec& f : all_fields())
    if (!f.default_text.empty() && !fixed_default(f.field)) found.insert(f.key);
  CHECK(found == prose);
}

TEST_CASE("leaving a field at its fixed default and setting it to that default give one answer") {
  std::set<std::string_view> compared;
  const auto scenario = [](const char* name) {
    LoadedScenario l = load_scenario(name);
    // A step measured as a line (model.measured_overhead's default), not at batch sizes.
    if (std::string_view(name) == "dgx-h100-imagenet-nfs10") apply_assignment(l, "model.measured_per_sample=0.25 ms");
    return l.scenario;
  };
  for (const char* name : {"reference", "p4d-resnet50-nvme", "dgx-h100-imagenet-nfs10"}) {
    const Scenario base = scenario(name);
    const Result plain = evaluate(resolve(base));
    for (const FieldSpec& f : all_fields()) {
      const auto d = fixed_default(f.field);
      if (!d || base.has(f.field)) continue;
      Scenario s = base;
      s.set(f.field, parse_field_value(f, f.default_text));  // as a file that writes the default
      Result r;
      try {
        r = evaluate(resolve(s));
      } catch (const Error&) {
        continue;  // set, it needs a stage this scenario leaves out (storage.scope without storage)
      }
      compared.insert(f.key);
      INFO(name, ": ", f.key);
      CHECK(r.step_s == plain.step_s);
      CHECK(r.utilization == plain.utilization);
      CHECK(r.throughput == plain.throughput);
      CHECK(r.binding == plain.binding);
    }
  }
  // Each fixed default was compared in some scenario (or every one sets it).
  for (const FieldSpec& f : all_fields())
    if (fixed_default(f.field) && !compared.count(f.key)) {
      bool set_everywhere = true;
      for (const char* name : {"reference", "p4d-resnet50-nvme", "dgx-h100-imagenet-nfs10"})
        set_everywhere = set_everywhere && scenario(name).has(f.field);
      CHECK_MESSAGE(set_everywhere, f.key, " is never compared");
    }
}

TEST_CASE("the required fields, in one place") {
  CHECK(required_fields().size() == 3);
  CHECK(required(Field::BatchSize));
  CHECK(required(Field::Workers));
  CHECK(required(Field::SampleSize));
  CHECK_FALSE(required(Field::PrefetchFactor));
  for (Field f : required_fields()) CHECK(spec(f).default_text.empty());
}

TEST_CASE("every field without a default has a typical value that loads as it is (what init offers)") {
  for (const FieldSpec& f : all_fields()) {
    if (!f.default_text.empty()) continue;
    CAPTURE(f.key);
    REQUIRE_FALSE(f.example.empty());
    const std::size_t dot = f.key.find('.');
    const std::string toml = fmt::format("[{}]\n{} = {}\n", f.key.substr(0, dot), f.key.substr(dot + 1), f.example);
    LoadedScenario loaded;
    CHECK_NOTHROW(loaded = load_scenario_text(toml, Origin::file("example.toml"), "."));
    CHECK(loaded.scenario.has(f.field));
  }
}
