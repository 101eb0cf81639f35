// What `pipesim calibrate` prints: a TOML fragment a scenario can `use` (its comments say
// what was measured, how, when and on which machine), or JSON for scripts. Computes nothing.
#pragma once

#include <string>

#include "measure/decode.hpp"
#include "measure/loop.hpp"
#include "measure/memory.hpp"
#include "measure/storage.hpp"

namespace pipesim {

std::string loop_toml(const LoopCalibration& c);
std::string loop_json(const LoopCalibration& c);
std::string memory_toml(const MemoryCalibration& c);
std::string memory_json(const MemoryCalibration& c);
std::string decode_toml(const DecodeCalibration& c);
std::string decode_json(const DecodeCalibration& c);
std::string storage_toml(const StorageCalibration& c);
std::string storage_json(const StorageCalibration& c);

}  // namespace pipesim
