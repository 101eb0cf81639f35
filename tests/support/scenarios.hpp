// Scenarios and helpers the unit tests share.
#pragma once

#include <cmath>
#include <string>

#include "config/loader.hpp"
#include "core/stages/model.hpp"
#include "reference.hpp"

namespace pipesim::test {

// The reference case (docs/model.md) built field by field: compute 5.015 ms + B x 0.0262821 ms,
// transform B x 0.25 ms.
inline Scenario reference(double batch = 256) { return reference_case(batch); }

// A measured-compute scenario: 1 ms per sample, no overhead, no transform.
inline Scenario measured(double batch, double sample_bytes) {
  Scenario s;
  s.set(Field::BatchSize, batch);
  s.set(Field::Workers, 8);
  s.set(Field::SampleSize, {sample_bytes, Dim::Size});
  s.set(Field::MeasuredPerSample, {1e-3, Dim::Duration});
  return s;
}

// Batch 10, W workers, compute 1 ms per sample (10 ms per step), the transform `transform_ms`
// per sample on one worker.
inline Scenario loader(double workers, double transform_ms) {
  Scenario s;
  s.set(Field::BatchSize, 10);
  s.set(Field::Workers, workers);
  s.set(Field::SampleSize, {100e3, Dim::Size});
  s.set(Field::MeasuredPerSample, {1e-3, Dim::Duration});
  s.set(Field::TransformCost, {transform_ms * 1e-3, Dim::Duration});
  return s;
}

inline void unset(Scenario& s, Field f) { s.unset(f); }

inline Result run(const Scenario& s) { return evaluate(resolve(s)); }

// The one line a TOML text's error shows, or "(no error)".
inline std::string load_error(const std::string& text) {
  try {
    load_scenario_text(text, Origin::file("s.toml"), "");
  } catch (const Error& e) {
    return e.line();
  }
  return "(no error)";
}

// The storage stage's time for a batch of B, as the model computes it.
inline double storage_at(const Inputs& in, double batch, Limit* limit = nullptr) {
  return storage_time(in.storage, storage_bytes_per_batch(in.storage, in, batch), limit);
}

inline double ms(double s) { return s * 1e3; }
// Rounds to the printed digits of the published table.
inline double round2(double v) { return std::round(v * 100) / 100; }
inline double round1(double v) { return std::round(v * 10) / 10; }

}  // namespace pipesim::test
