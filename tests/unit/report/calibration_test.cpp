// A calibration that doubts its own figures emits no key: the TOML fragment carries them
// commented out after why and how to measure again, and JSON moves them from "scenario" to
// "untrusted_scenario" with "trusted": false. Trusted ones are emitted as before.
#include "report/calibration.hpp"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

using namespace pipesim;
using nlohmann::json;

namespace {

StorageCalibration storage(bool cold_like_warm) {
  StorageCalibration c;
  c.machine.logical_cpus = 2;
  c.folder = "/data";
  c.files = 10;
  c.mean_file_bytes = 110e3;
  ReadLevel l;
  l.concurrency = 1;
  c.cold = {l};
  c.warm = {l};
  c.read_bandwidth = 1.2e9;
  c.iops = 6000;
  c.latency_s = 176e-9;
  c.cold_like_warm = cold_like_warm;
  return c;
}

DecodeCalibration decode(double sigma) {
  DecodeCalibration c;
  c.machine.logical_cpus = 2;
  c.library = "libjpeg-turbo";
  c.source = "synthetic";
  c.files = 8;
  DecodePoint one;
  one.threads = 1;
  one.images_per_s = 100;
  one.bytes_per_s = 1e7;
  one.bytes_per_s_per_thread = 1e7;
  DecodePoint two = one;
  two.threads = 2;
  c.points = {one, two};
  c.fit.single = 100;
  c.fit.sigma = sigma;
  c.fit.sigma_fitted = true;  // two thread counts
  return c;
}

// The lines of a TOML fragment that set a key (not comments, not tables, not blank).
std::size_t key_lines(const std::string& toml) {
  std::istringstream in(toml);
  std::size_t n = 0;
  for (std::string l; std::getline(in, l);)
    if (!l.empty() && l[0] != '#' && l[0] != '[') ++n;
  return n;
}

}  // namespace

TEST_CASE("calibrate storage: cold reads like warm ones emit no key") {
  CHECK(storage(false).trusted());
  CHECK(key_lines(storage_toml(storage(false))) == 3);
  const StorageCalibration doubtful = storage(true);
  CHECK_FALSE(doubtful.trusted());
  const std::string toml = storage_toml(doubtful);
  CHECK(key_lines(toml) == 0);
  CHECK(toml.find("# NOT TRUSTED: the cold reads may have come from the page cache") != std::string::npos);
  CHECK(toml.find("drop_caches") != std::string::npos);
  CHECK(toml.find("# latency = \"176 ns\"") != std::string::npos);
  const json j = json::parse(storage_json(doubtful));
  CHECK(j["trusted"] == false);
  CHECK_FALSE(j.contains("scenario"));
  CHECK(j["untrusted_scenario"]["storage.latency"] == 176e-9);
  CHECK(json::parse(storage_json(storage(false)))["scenario"]["storage.iops"] == 6000);
}

TEST_CASE("calibrate decode: one thread count sets no scaling key") {
  DecodeCalibration one = decode(0);
  one.points.resize(1);
  one.fit.sigma_fitted = false;
  const std::string toml = decode_toml(one);
  CHECK(key_lines(toml) == 1);  // the rate alone
  CHECK(toml.find("scaling_contention") == std::string::npos);
  CHECK(toml.find("# Scaling law (Universal Scalability Law): not determined") != std::string::npos);
  const json j = json::parse(decode_json(one));
  CHECK_FALSE(j["scenario"].contains("cpu.scaling_contention"));
  CHECK(j["fit"]["sigma_fitted"] == false);
}

TEST_CASE("calibrate decode: more threads no faster than one (a busy machine) emit no key") {
  CHECK_FALSE(decode(0.05).busy());
  CHECK(key_lines(decode_toml(decode(0.05))) == 2);
  const DecodeCalibration busy = decode(1.17);
  CHECK(busy.busy());
  const std::string toml = decode_toml(busy);
  CHECK(key_lines(toml) == 0);
  CHECK(toml.find("# NOT TRUSTED: more threads decoded no faster than one") != std::string::npos);
  CHECK(toml.find("# scaling_contention = 1.1700") != std::string::npos);
  const json j = json::parse(decode_json(busy));
  CHECK(j["trusted"] == false);
  CHECK(j["untrusted_scenario"]["cpu.scaling_contention"] == 1.17);
  // Threads that ran on a CPU for half their time, at a count the CPUs can hold: the machine
  // was busy even where the law looks plausible; past the CPUs (time slicing) it is expected.
  DecodeCalibration starved = decode(0.05);
  starved.points[1].cpu_share = 0.5;
  CHECK(starved.busy());
  CHECK(starved.starved() == &starved.points[1]);
  const std::string starved_toml = decode_toml(starved);
  CHECK(key_lines(starved_toml) == 0);
  CHECK(starved_toml.find("# NOT TRUSTED: at 2 threads the decoding threads ran on a CPU for only 50% of their time") !=
        std::string::npos);
  CHECK(json::parse(decode_json(starved))["points"][1]["cpu_share"] == 0.5);
  DecodeCalibration sliced = decode(0.05);
  sliced.points[1].threads = 4;
  sliced.points[1].cpu_share = 0.5;
  CHECK_FALSE(sliced.busy());
  // Time slicing that cost nothing is not said to have cost more.
  DecodeCalibration none = decode(0.05);
  none.oversubscription = 0.0;
  CHECK(decode_toml(none).find("spent no more CPU per image") != std::string::npos);
}
