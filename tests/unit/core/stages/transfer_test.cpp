// The host-to-device transfer stage: device bytes, pinned and pageable copies.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "../../../support/scenarios.hpp"
#include "config/loader.hpp"
#include "core/analyses/diagnosis.hpp"
#include "core/stages/model.hpp"

using namespace pipesim;
using namespace pipesim::test;

TEST_CASE("device bytes from shape and dtype: uint8 vs fp32 is 4x") {
  Scenario s = reference();
  s.set(Field::LinkBandwidth, {25e9, Dim::Rate});
  s.set(Field::DeviceShape, 3 * 224 * 224);
  CHECK_THROWS_AS(resolve(s), FieldError);  // no dtype
  s.set(Field::DeviceDtype, {static_cast<double>(Dtype::Uint8), Dim::Choice});
  CHECK(resolve(s).transfer.device_bytes == 150528);
  s.set(Field::DeviceDtype, {static_cast<double>(Dtype::Fp32), Dim::Choice});
  CHECK(resolve(s).transfer.device_bytes == 602112);
  CHECK(parse_field_value(spec(Field::DeviceShape), "3x224x224").value == 150528);
  CHECK(load_error("[workload]\ndevice_shape = [3, 224, 0]\n").find("at least 1") != std::string::npos);
  CHECK(load_error("[workload]\ndevice_dtype = \"fp33\"\n") ==
        "s.toml:2:16: error: workload.device_dtype: expected one of uint8, int8, fp8, fp16, bf16, fp32, int32, "
        "int64, got \"fp33\"; did you mean 'fp32'?");
}

TEST_CASE("transfer: pinned overlaps, pageable serialises with compute") {
  Scenario s = reference(256);
  s.set(Field::WorkerThroughput, {2500e6, Dim::Rate});  // transform 6.4 ms, out of the way
  s.set(Field::LinkBandwidth, {25e9, Dim::Rate});
  s.set(Field::DeviceSampleSize, {602112, Dim::Size});  // 224 x 224 x 3 fp32
  Result r = evaluate(resolve(s));
  const double copy = 256 * 602112 / 25e9;  // 6.17 ms
  const double compute = r.stage(Stage::Compute).time_s;
  CHECK(r.stage(Stage::Transfer).time_s == doctest::Approx(copy).epsilon(1e-14));
  CHECK(r.step_s == compute);
  CHECK(r.utilization == 1);

  // Pageable: 0.4 x 25 GB/s = 10 GB/s by default -> 15.41 ms, added to compute.
  s.set(Field::LinkPinned, {0, Dim::Bool});
  r = evaluate(resolve(s));
  CHECK(r.transfer_serialised);
  const double pageable_copy = 256 * 602112 / 10e9;
  CHECK(r.stage(Stage::Transfer).time_s == doctest::Approx(pageable_copy).epsilon(1e-14));
  CHECK(r.step_s == doctest::Approx(compute + pageable_copy).epsilon(1e-14));
  s.set(Field::PageableBandwidth, {12.5e9, Dim::Rate});  // measured: 12.5 GB/s -> 12.33 ms
  r = evaluate(resolve(s));
  CHECK(r.step_s == doctest::Approx(compute + 256 * 602112 / 12.5e9).epsilon(1e-14));
  s.unset(Field::PageableBandwidth);
  CHECK(r.binds(Stage::Transfer));
  CHECK_FALSE(r.binds(Stage::Compute));

  Scenario missing = reference(256);
  missing.set(Field::LinkBandwidth, {25e9, Dim::Rate});
  CHECK_THROWS_AS(resolve(missing), FieldError);
}
