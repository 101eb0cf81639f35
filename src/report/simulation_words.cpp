#include "report/simulation_words.hpp"

namespace pipesim {

std::string_view cause_words(Cause c) {
  switch (c) {
    case Cause::None:
      return "not held up";
    case Cause::Storage:
      return "storage";
    case Cause::Workers:
      return "workers";
    case Cause::Decoder:
      return "hardware decoder";
    case Cause::PinThread:
      return "pin thread";
    case Cause::Link:
      return "link";
    case Cause::WorkerStart:
      return "worker start-up";
    case Cause::Prefetch:
    case Cause::kCount:
      break;
  }
  return "prefetch window";
}

}  // namespace pipesim
