#include "core/stages/transfer.hpp"

#include "core/base/error.hpp"
#include "core/stages/resolve_util.hpp"

namespace pipesim {

std::optional<double> device_sample_bytes(const Scenario& s) {
  if (s.has(Field::DeviceShape) && !s.has(Field::DeviceDtype))
    throw FieldError(Field::DeviceShape,
                     "workload.device_shape needs workload.device_dtype (uint8, fp16, "
                     "fp32, ...): the element type sets the bytes per sample");
  // Scenario::set keeps at most one of the size and the shape.
  if (s.has(Field::DeviceSampleSize)) return s.get(Field::DeviceSampleSize);
  if (s.has(Field::DeviceShape))
    return s.get(Field::DeviceShape) * dtype_bytes(static_cast<Dtype>(s.get(Field::DeviceDtype)));
  return std::nullopt;
}

TransferInputs resolve_transfer(const Scenario& s, const Workload& w, const TransformInputs& t) {
  TransferInputs in;
  const std::optional<double> device_bytes = device_sample_bytes(s);
  if (!s.has(Field::LinkBandwidth)) {
    forbid_without(s, {Field::LinkPinned, Field::LinkSharedBy, Field::PageableBandwidth}, "link.bandwidth",
                   "the transfer");
    in.needs_device_bytes = t.at == TransformAt::Cpu && t.cpu_work && !device_bytes;
    return in;
  }
  if (t.at == TransformAt::None) {
    in.device_bytes = device_bytes.value_or(w.sample_bytes);  // as stored, or widened (int32 to int64)
  } else if (t.at != TransformAt::Cpu) {
    in.device_bytes = w.sample_bytes;  // encoded samples cross the link; the accelerator decodes
  } else if (device_bytes) {
    in.device_bytes = *device_bytes;
  } else if (!t.cpu_work) {
    in.device_bytes = w.sample_bytes;  // nothing transforms the samples: what is read is copied
  } else {
    throw FieldError(Field::LinkBandwidth,
                     "link.bandwidth is set but the bytes per sample on the device are not: set "
                     "workload.device_sample_size, or workload.device_shape and workload.device_dtype "
                     "(e.g. \"3x224x224\" and \"uint8\")");
  }
  in.modelled = true;
  in.shared_by = s.value(Field::LinkSharedBy);
  in.link_bandwidth = s.get(Field::LinkBandwidth);
  in.pinned = s.value(Field::LinkPinned) != 0;
  // Pageable copies stage through a bounce buffer: about 0.4x pinned (DGX A100: 10.0 vs 25.7 GB/s).
  const double pageable = s.opt(Field::PageableBandwidth).value_or(0.4 * in.link_bandwidth);
  in.copy_bandwidth = in.pinned ? in.link_bandwidth : pageable;
  in.bandwidth = in.copy_bandwidth / in.shared_by;
  return in;
}

double transfer_time(const TransferInputs& in, double batch) { return batch * in.device_bytes / in.bandwidth; }

}  // namespace pipesim
