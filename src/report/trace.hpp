// Chrome trace-event JSON of a simulation's spans (`simulate --trace FILE`): one process per
// accelerator, one thread per worker, the pin thread, the link, the storage server, the loop
// and the accelerator. Opens in Perfetto (ui.perfetto.dev) and chrome://tracing.
#pragma once

#include <string>
#include <string_view>

#include "core/sim/simulate.hpp"

namespace pipesim {

std::string chrome_trace(const Simulation& s, std::string_view scenario_name);

}  // namespace pipesim
