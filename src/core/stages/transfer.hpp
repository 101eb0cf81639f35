// The host-to-device transfer stage: the bytes per sample on the device over the host link,
// pinned (overlapping compute) or pageable (serialised with it), shared by accelerators.
#pragma once

#include <optional>

#include "core/stages/stage.hpp"
#include "core/stages/transform.hpp"

namespace pipesim {

struct TransferInputs {
  bool modelled = false;
  double device_bytes = 0;    // per sample on the accelerator
  double bandwidth = 0;       // bytes/s available to one accelerator, as copied
  double link_bandwidth = 0;  // link.bandwidth (the whole link, pinned)
  double copy_bandwidth = 0;  // the whole link as copied (pinned or pageable)
  bool pinned = true;
  double shared_by = 1;
  // Not modelled, and link.bandwidth alone would not model it: the CPU transform's output per
  // sample is not given either (workload.device_sample_size).
  bool needs_device_bytes = false;
};

// Bytes per sample on the device after a CPU transform, when the scenario says.
std::optional<double> device_sample_bytes(const Scenario& s);
TransferInputs resolve_transfer(const Scenario& s, const Workload& w, const TransformInputs& t);
double transfer_time(const TransferInputs& in, double batch);

}  // namespace pipesim
