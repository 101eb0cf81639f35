#include "core/stages/stage.hpp"

namespace pipesim {

std::string_view stage_key(Stage s) {
  switch (s) {
    case Stage::Storage:
      return "storage";
    case Stage::Transform:
      return "transform";
    case Stage::Transfer:
      return "transfer";
    case Stage::Compute:
      return "compute";
  }
  return "";
}

std::string_view stage_name(Stage s) {
  switch (s) {
    case Stage::Storage:
      return "storage fetch";
    case Stage::Transform:
      return "CPU transform";
    case Stage::Transfer:
      return "host-to-device transfer";
    case Stage::Compute:
      return "accelerator compute";
  }
  return "";
}

std::string_view stage_name(Stage s, TransformAt at) {
  if (s != Stage::Transform) return stage_name(s);
  switch (at) {
    case TransformAt::Cpu:
      return "CPU transform";
    case TransformAt::Gpu:
      return "CPU work (GPU decode)";
    case TransformAt::Decoder:
      return "hardware decode";
    case TransformAt::None:
      return "no transform";
  }
  return stage_name(s);
}

std::string_view limit_key(Limit l) {
  switch (l) {
    case Limit::Bandwidth:
      return "bandwidth";
    case Limit::NodeBandwidth:
      return "node_bandwidth";
    case Limit::Network:
      return "network";
    case Limit::Iops:
      return "iops";
    case Limit::Latency:
      return "latency";
    case Limit::Cache:
      return "cache";
    case Limit::Workers:
      return "workers";
    case Limit::Cores:
      return "cores";
    case Limit::SharedCores:
      return "shared_cores";
    case Limit::Variance:
      return "variance";
    case Limit::MainProcess:
      return "main_process";
    case Limit::Decoder:
      return "decoder";
    case Limit::Link:
      return "link";
    case Limit::PageableLink:
      return "pageable_link";
    case Limit::PinThread:
      return "pin_thread";
    case Limit::InterpreterLock:
      return "interpreter_lock";
    case Limit::Flops:
      return "flops";
    case Limit::MemoryBandwidth:
      return "memory_bandwidth";
    case Limit::Measured:
      return "measured";
  }
  return "";
}

}  // namespace pipesim
