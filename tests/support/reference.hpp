// The reference case (docs/model.md) built field by field (not from the preset file), for tests:
// compute 5.015 ms + B x 0.0262821 ms (fp16 weights, 2 bytes each), transform B x 0.25 ms.
#pragma once

#include "core/base/fields.hpp"

namespace pipesim::test {

inline Scenario reference_case(double batch = 256) {
  Scenario s;
  s.set(Field::BatchSize, batch);
  s.set(Field::Workers, 8);
  s.set(Field::PeakFlops, {312e12, Dim::FlopRate});
  s.set(Field::MemoryBandwidth, {2039e9, Dim::Rate});
  s.set(Field::Efficiency, 0.5);
  s.set(Field::DispatchOverhead, {0.015e-3, Dim::Duration});
  s.set(Field::LayerOverhead, {0.10e-3, Dim::Duration});
  s.set(Field::FlopsPerSample, {4.1e9, Dim::Flop});
  s.set(Field::Parameters, 25.6e6);
  s.set(Field::BytesPerParameter, 2);
  s.set(Field::Layers, 50);
  s.set(Field::SampleSize, {500e3, Dim::Size});
  s.set(Field::WorkerThroughput, {250e6, Dim::Rate});
  return s;
}

}  // namespace pipesim::test
