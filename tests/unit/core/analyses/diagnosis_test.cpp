#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "../../../support/scenarios.hpp"
#include "config/loader.hpp"
#include "core/analyses/diagnosis.hpp"

using namespace pipesim;
using namespace pipesim::test;

namespace {
Scenario reference_preset() { return load_scenario("reference").scenario; }
const Fix* find(const Diagnosis& d, FixKind k) {
  for (const auto& f : d.fixes)
    if (f.kind == k) return &f;
  return nullptr;
}
}  // namespace

TEST_CASE("reference: 44 workers make it compute-bound") {
  const Diagnosis d = diagnose(reference_preset());
  // 256 x 500 KB / (11.7432 ms x 250 MB/s) = 43.6 -> 44
  REQUIRE(d.workers_needed);
  CHECK(*d.workers_needed == 44);
  const Fix* f = find(d, FixKind::Workers);
  REQUIRE(f);
  CHECK(f->changes.at(0).value.value == 44);
  CHECK(f->result.utilization == 1);
  // 43 workers would not be enough.
  Scenario s = reference_preset();
  s.set(Field::Workers, 43);
  CHECK(evaluate(resolve(s)).utilization < 1);
}

TEST_CASE("each proposed fix, applied, gives the utilization it promised") {
  Scenario s = reference_preset();
  s.set(Field::AcceleratorCount, 8);
  s.set(Field::Cores, 96);
  s.set(Field::ReadBandwidth, {3.5e9, Dim::Rate});
  s.set(Field::Iops, 20000);
  s.set(Field::LinkBandwidth, {10e9, Dim::Rate});
  s.set(Field::LinkSharedBy, 2);
  s.set(Field::DeviceSampleSize, {602112, Dim::Size});
  s.set(Field::LinkPinned, {0, Dim::Bool});
  const Diagnosis d = diagnose(s);
  CHECK(d.fixes.size() >= 3);
  for (const auto& f : d.fixes) {
    Scenario applied = s;
    for (const auto& c : f.changes) applied.set(c.field, c.value);
    const Result r = evaluate(resolve(applied));
    CHECK(r.utilization == f.result.utilization);
    CHECK(r.throughput == f.result.throughput);
  }
  // (96 - 8 reserved) / 8 = 11 cores per accelerator: no count of workers keeps up. The CPUs
  // alone move nothing while storage and the link bind as well: not offered alone, but among
  // the fixes all together.
  CHECK_FALSE(find(d, FixKind::WorkersAndCores));
  const Fix* all = find(d, FixKind::AllTogether);
  REQUIRE(all);
  const auto cores =
      std::find_if(all->changes.begin(), all->changes.end(), [](const Change& c) { return c.field == Field::Cores; });
  REQUIRE(cores != all->changes.end());
  // The fewest CPUs that keep up, by the model: 43.6 worker rates per accelerator are needed
  // (64 ms of transform against 11.74 ms of compute), so (357 - 8) / 8 = 43.625 CPUs for the 44
  // workers of each accelerator, and the 8 reserved; one CPU fewer does not keep up.
  CHECK(cores->value.value == 357);
  REQUIRE(d.cores);
  CHECK(d.cores->node_full == 357);
  CHECK(d.cores->workers_at_node_full == 44);
  Scenario fewer = s;
  fewer.set(Field::Cores, 356);
  fewer.set(Field::Workers, 44);
  const Result r = evaluate(resolve(fewer));
  CHECK(r.stage(Stage::Transform).time_s > r.stage(Stage::Compute).time_s);
}

TEST_CASE("crossover: compute binds up to batch 22, the transform above") {
  // 0.25 ms x B = 5.015 ms + 0.0262821 ms x B  ->  B = 5.015 / 0.2237179 = 22.4166
  const Diagnosis d = diagnose(reference_preset());
  REQUIRE(d.crossovers.size() == 1);
  CHECK(d.crossovers[0].batch == doctest::Approx(5.015e-3 / (0.25e-3 - 4.1e9 / 156e12)).epsilon(1e-12));
  CHECK(d.crossovers[0].input_stage == Stage::Transform);
  CHECK(d.crossovers[0].input_binds_above);
  Scenario s = reference_preset();
  s.set(Field::BatchSize, 22);
  CHECK(evaluate(resolve(s)).binds(Stage::Compute));
  s.set(Field::BatchSize, 23);
  CHECK(evaluate(resolve(s)).binds(Stage::Transform));
}

TEST_CASE("crossover: a crossing below batch 1 is none, the same wall at every batch size") {
  // A measured step of 10 us + 45 us x B against 8 workers at 250 MB/s of 500 KB samples
  // (0.25 ms per sample): the transform is slower from B = 10 us / (250 - 45) us = 0.049 up.
  Scenario s = reference_preset();
  s.set(Field::MeasuredPerSample, Quantity{45e-6, Dim::Duration});
  s.set(Field::MeasuredOverhead, Quantity{10e-6, Dim::Duration});
  const Diagnosis d = diagnose(s);
  CHECK(d.crossovers.empty());
  for (double b : {1.0, 2.0, 1024.0}) {
    s.set(Field::BatchSize, b);
    CHECK(evaluate(resolve(s)).binds(Stage::Transform));
  }
}

TEST_CASE("compute-bound: nothing to fix") {
  Scenario s = reference_preset();
  s.set(Field::Workers, 64);
  const Diagnosis d = diagnose(s);
  CHECK(d.result.utilization == 1);
  CHECK(d.fixes.empty());
}

TEST_CASE("capacity: accelerators the storage feeds at the target, cores per accelerator") {
  // MLPerf Storage unet3d on H100 from one Gen4 NVMe: 7 x 146,600,628 B per 0.323 s step.
  Scenario s;
  s.set(Field::BatchSize, 7);
  s.set(Field::Workers, 4);
  s.set(Field::AcceleratorCount, 8);
  s.set(Field::SampleSize, {146600628, Dim::Size});
  s.set(Field::MeasuredOverhead, {0.323, Dim::Duration});
  s.set(Field::MeasuredPerSample, {0, Dim::Duration});
  s.set(Field::ReadBandwidth, {7.45e9, Dim::Rate});
  s.set(Field::Iops, 1400000);
  const Diagnosis d = diagnose(s);
  REQUIRE(d.storage_capacity);
  // At 90%: 0.9 x 7 x 146.6 MB / 0.323 s = 2.8595 GB/s per accelerator; 7.45 / 2.8595 = 2.6 -> 2.
  CHECK(d.storage_capacity->demand == doctest::Approx(0.9 * 7 * 146600628 / 0.323).epsilon(1e-14));
  CHECK(*d.storage_capacity->by_bandwidth == 2);
  CHECK(*d.storage_capacity->accelerators == 2);
  // The reference case: 256 x 2 ms of worker time per 11.743 ms step -> 43.6 -> 44 workers;
  // at 90%, 39.2 -> 40; plus one core per training process.
  const Diagnosis r = diagnose(reference());
  REQUIRE(r.cores);
  CHECK(r.cores->workers_full == 44);
  CHECK(r.cores->workers_target == 40);
  CHECK(r.cores->node_full == 45);
}

TEST_CASE("every fix, applied, gives the utilization it promised (decoder, pre-decoded, node network)") {
  LoadedScenario p = load_scenario("p4d-resnet50-nvme");
  apply_assignment(p, "storage.scope=cluster");
  apply_assignment(p, "node.network_bandwidth=1 Gbps");
  apply_assignment(p, "node.page_cache=10 GB");
  const Diagnosis d = diagnose(p.scenario);
  std::vector<FixKind> kinds;
  for (const auto& f : d.fixes) {
    kinds.push_back(f.kind);
    Scenario applied = p.scenario;
    for (const auto& c : f.changes) applied.set(c.field, c.value);
    const Result r = run(applied);
    CAPTURE(static_cast<int>(f.kind));
    CHECK(r.utilization == f.result.utilization);
    CHECK(r.throughput == f.result.throughput);
  }
  const auto has = [&](FixKind k) { return std::find(kinds.begin(), kinds.end(), k) != kinds.end(); };
  CHECK(has(FixKind::StorageBandwidth));  // the node's 1 Gbps network binds
  CHECK(has(FixKind::AllTogether));
}

TEST_CASE("assumptions: the defaults that decide the answer, each gone once its key is set") {
  Scenario s = test::reference(256);
  const auto keys = [](const Scenario& sc) {
    std::vector<std::string_view> out;
    for (const Assumption& a : diagnose_with_assumptions(sc).assumptions) out.push_back(spec(a.field).key);
    return out;
  };
  CHECK(keys(s) == std::vector<std::string_view>{"cpu.scaling_contention", "cpu.memcpy_bandwidth",
                                                 "pipeline.loop_overhead", "transform.cv"});
  s.set(Field::Cores, 16);
  s.set(Field::ReadBandwidth, {2e9, Dim::Rate});
  s.set(Field::NodeMemory, {1e12, Dim::Size});
  s.set(Field::DatasetSize, {2e12, Dim::Size});
  CHECK(keys(s).size() == 7);
  for (Field f :
       {Field::ScalingContention, Field::ThreadsPerCore, Field::MemcpyBandwidth, Field::PageCache, Field::TransformCv})
    s.set(f, f == Field::MemcpyBandwidth ? Quantity{1e9, Dim::Rate}
             : f == Field::PageCache     ? Quantity{5e11, Dim::Size}
                                         : Quantity{f == Field::ThreadsPerCore ? 1.0 : 0.0, Dim::Number});
  s.set(Field::LoopOverhead, {1e-4, Dim::Duration});
  s.set(Field::Iops, 1e6);
  CHECK(keys(s).empty());
  // No workers: nothing about workers is assumed.
  s = test::reference(256);
  s.set(Field::Workers, 0);
  CHECK(keys(s).empty());
}

TEST_CASE("assumptions: a CPU kept for the training process where the workers want it") {
  const auto said = [](const Scenario& sc) {
    for (const Assumption& a : diagnose_with_assumptions(sc).assumptions)
      if (a.field == Field::LoopWait) return a.text;
    return std::string();
  };
  // 8 workers on 8 CPUs, one of them kept for the training process: said, with the counts.
  Scenario s = test::reference(256);
  s.set(Field::Cores, 8);
  CHECK(said(s).find("the 8 workers share the 7 left") != std::string::npos);
  // 9 CPUs leave the workers one each: nothing to say.
  s.set(Field::Cores, 9);
  CHECK(said(s).empty());
  // Said how the loop waits, its share, or the reservation itself: nothing assumed.
  s.set(Field::Cores, 8);
  for (Field f : {Field::LoopWait, Field::LoopCpuShare, Field::ReservedCores}) {
    Scenario t = s;
    t.set(f, 1);
    CHECK(said(t).empty());
  }
}

TEST_CASE("assumptions: the page cache, shared storage and accelerator memory a verdict rests on") {
  const auto keys = [](const Scenario& sc) {
    std::vector<std::string_view> out;
    for (const Assumption& a : diagnose_with_assumptions(sc).assumptions)
      for (Field f : {Field::NodeMemory, Field::StorageScope, Field::Parameters, Field::ActivationBytes})
        if (a.field == f) out.push_back(spec(a.field).key);
    return out;
  };
  Scenario s = test::reference(256);
  CHECK(keys(s).empty());  // no storage, no accelerator memory: nothing of these decides the answer
  // Storage modelled without node.memory: no page cache, every epoch from storage.
  s.set(Field::ReadBandwidth, {2e9, Dim::Rate});
  CHECK(keys(s) == std::vector<std::string_view>{"node.memory"});
  s.set(Field::NodeMemory, {1e12, Dim::Size});
  CHECK(keys(s).empty());
  // Two nodes: each on its own storage unless storage.scope says they share one.
  s.set(Field::Nodes, 2);
  CHECK(keys(s) == std::vector<std::string_view>{"storage.scope"});
  s.set(Field::StorageScope, parse_field_value(spec(Field::StorageScope), "node"));
  CHECK(keys(s).empty());
  // Accelerator memory: not checked without the model's size; weights only without activations.
  s.unset(Field::Parameters);
  s.set(Field::AcceleratorMemory, {16e9, Dim::Size});
  CHECK(keys(s) == std::vector<std::string_view>{"model.parameters"});
  s.set(Field::Parameters, 25e6);
  CHECK(keys(s) == std::vector<std::string_view>{"model.activation_bytes"});
  s.set(Field::ActivationBytes, {1e8, Dim::Size});
  CHECK(keys(s).empty());
}

TEST_CASE("assumptions: batch assembly is free only where neither copy has a rate") {
  const auto assembly = [](const Scenario& sc) {
    std::vector<std::string_view> out;
    for (const Assumption& a : diagnose_with_assumptions(sc).assumptions)
      for (Field f : {Field::MemcpyBandwidth, Field::CollateBandwidth, Field::PinBandwidth})
        if (a.field == f) out.push_back(spec(a.field).key);
    return out;
  };
  // A pinned transfer, modelled: 3x224x224 fp32 on the device over a 25 GB/s link.
  Scenario s = test::reference(256);
  s.set(Field::DeviceSampleSize, {602112, Dim::Size});
  s.set(Field::LinkBandwidth, {25e9, Dim::Rate});
  CHECK(assembly(s) == std::vector<std::string_view>{"cpu.memcpy_bandwidth"});
  // The collate's rate alone: the pin thread's work is still free.
  s.set(Field::CollateBandwidth, {1e9, Dim::Rate});
  CHECK(assembly(s) == std::vector<std::string_view>{"cpu.pin_bandwidth"});
  // Both rates (as the GPU-node preset has them): nothing is free, whatever the copy rate.
  s.set(Field::PinBandwidth, {2e9, Dim::Rate});
  CHECK(assembly(s).empty());
  // The pin thread's rate alone: the collate is free.
  s.unset(Field::CollateBandwidth);
  CHECK(assembly(s) == std::vector<std::string_view>{"cpu.collate_bandwidth"});
  // Unpinned (or no transfer modelled), there is no pin thread to be free.
  s.unset(Field::PinBandwidth);
  s.set(Field::CollateBandwidth, {1e9, Dim::Rate});
  s.set(Field::LinkPinned, 0);
  CHECK(assembly(s).empty());
}

TEST_CASE("a measured compute time carries the accelerator it was measured on") {
  const auto texts = [](const Scenario& sc) {
    std::vector<std::string> out;
    for (const Assumption& a : diagnose_with_assumptions(sc).assumptions)
      if (a.field == Field::MeasuredOn) out.push_back(a.text);
    return out;
  };
  const auto name = [](std::string_view n) { return parse_field_value(spec(Field::AcceleratorType), n); };
  Scenario s = test::measured(256, 1e5);
  CHECK(texts(s).empty());  // neither named: nothing to say
  s.set(Field::MeasuredOn, name("a100-80gb-sxm"));
  CHECK(texts(s) == std::vector<std::string>{"the compute time measured on a100-80gb-sxm is taken as this "
                                             "scenario's accelerator's (accelerator.type names it)"});
  s.set(Field::AcceleratorType, name("a100-80gb-sxm"));
  CHECK(texts(s).empty());  // the same accelerator
  s.set(Field::AcceleratorType, name("h100-sxm"));
  CHECK(texts(s) == std::vector<std::string>{"the compute time was measured on a100-80gb-sxm, not on this "
                                             "scenario's h100-sxm: it is used as measured, not scaled "
                                             "(model.measured_on)"});
  s.set(Field::MeasuredOn, name("other"));
  CHECK(texts(s).empty());  // "other" is not checked
  s.unset(Field::MeasuredOn);
  CHECK(texts(s) == std::vector<std::string>{"the compute time is taken as measured on this scenario's h100-sxm "
                                             "(model.measured_on names where it was)"});
  // A compute time from the roofline (FLOPs at a peak) was not measured anywhere.
  s = test::reference(256);
  s.set(Field::AcceleratorType, name("h100-sxm"));
  CHECK(texts(s).empty());
}

TEST_CASE("the workers that beat variance: the fewest found by the model, however many") {
  // With transform.cv the closed forms give no count: the diagnosis searches the model for the
  // fewest workers that keep the transform, its variance included, at or under compute. A
  // transform of 1e12 s a sample needs about 2e16 workers; the search gallops and bisects (it
  // once counted up one by one, and past 2^53, where one more is the same double, never ended),
  // and its answer is the fewest (checked where one fewer is another number).
  for (const double cost : {0.5, 1e9, 1e12}) {
    Scenario s = reference_preset();
    s.set(Field::TransformCost, {cost, Dim::Duration});
    s.set(Field::TransformCv, 0.5);
    const Diagnosis d = diagnose(s);
    const Fix* f = find(d, FixKind::Workers);
    REQUIRE(f);
    const double w = f->changes.at(0).value.value;
    CAPTURE(w);
    const auto keeps_up = [](const Result& r) {
      return r.stage(Stage::Transform).time_s <= r.stage(Stage::Compute).time_s * (1 + 1e-9);
    };
    CHECK(keeps_up(f->result));
    if (w - 1 == w) continue;
    s.set(Field::Workers, w - 1);
    CHECK(!keeps_up(evaluate(resolve(s))));
  }
}

TEST_CASE("no workers on a node whose cores are all reserved: the overlap fix adds the cores its workers need") {
  Scenario s = reference_preset();
  s.set(Field::Workers, 0);
  s.set(Field::Cores, 1);  // the one reserved for the training process
  const Diagnosis d = diagnose(s);
  const Fix* overlap = find(d, FixKind::Overlap);
  REQUIRE(overlap);
  REQUIRE(overlap->changes.size() == 2);
  CHECK(overlap->changes[0].field == Field::Workers);
  CHECK(overlap->changes[0].value.value == 44);
  CHECK(overlap->changes[1].field == Field::Cores);
  CHECK(overlap->changes[1].value.value == 44 + 1);  // a core per worker, and the reserved one
  CHECK(overlap->result.utilization == 1);
  // With a free core, workers alone.
  s.set(Field::Cores, 96);
  const Diagnosis free_core = diagnose(s);
  const Fix* plain = find(free_core, FixKind::Overlap);
  REQUIRE(plain);
  CHECK(plain->changes.size() == 1);
}

TEST_CASE("the fix in hand first: as many workers as the node's cores run, then the cores keeping up needs") {
  // The reference needs 44 workers; 16 cores leave 15 for workers (1 reserved) against 8 now.
  Scenario s = reference_preset();
  s.set(Field::Cores, 16);
  const Diagnosis d = diagnose(s);
  const Fix* within = find(d, FixKind::WorkersWithinCores);
  const Fix* more = find(d, FixKind::WorkersAndCores);
  REQUIRE(within);
  REQUIRE(more);
  CHECK(within < more);  // offered first
  CHECK(within->changes.at(0).value.value == 15);
  CHECK(within->result.throughput == 15 * 500.0);  // 15 workers x 500 samples/s each
  CHECK(within->result.throughput > d.result.throughput);
  CHECK(find(d, FixKind::AllTogether) == nullptr);  // one wall: the transform
  // With the workers already filling the cores, nothing within them to offer.
  s.set(Field::Workers, 15);
  const Diagnosis full = diagnose(s);
  CHECK(find(full, FixKind::WorkersWithinCores) == nullptr);
  CHECK(find(full, FixKind::WorkersAndCores) != nullptr);
}

TEST_CASE("the fix in hand stops at the workers that keep up with a wall above compute") {
  // Batch 10, compute 10 ms, a worker's batch 80 ms (8 ms a sample): 8 workers keep up with
  // compute, and 8 cores leave 7 for workers. The pin thread copies 1 MB a batch at 62.5 MB/s:
  // 16 ms, so the transfer binds past 80 / 16 = 5 workers, and 5 do what 7 do.
  Scenario s = test::loader(2, 8);
  s.set(Field::Cores, 8);
  s.set(Field::DeviceSampleSize, {100e3, Dim::Size});
  s.set(Field::LinkBandwidth, {10e9, Dim::Rate});
  s.set(Field::PinBandwidth, {62.5e6, Dim::Rate});
  const Diagnosis d = diagnose(s);
  const Fix* within = find(d, FixKind::WorkersWithinCores);
  REQUIRE(within);
  CHECK(within->changes.at(0).value.value == 5);
  CHECK(within->result.utilization == doctest::Approx(10.0 / 16).epsilon(1e-12));
  CHECK(within->result.binds(Stage::Transfer));
  // Keeping up with compute still takes 8, with a core each (what a faster pin thread needs).
  const Fix* more = find(d, FixKind::WorkersAndCores);
  REQUIRE(more);
  CHECK(more->changes.at(0).value.value == 8);
  // Without the wall, the cores full.
  s.unset(Field::PinBandwidth);
  const Diagnosis without = diagnose(s);
  const Fix* full = find(without, FixKind::WorkersWithinCores);
  REQUIRE(full);
  CHECK(full->changes.at(0).value.value == 7);
}

TEST_CASE("a memo of fixes gives every diagnosis of a grid exactly the fixes it gives alone") {
  // Points that differ in the batch size, the workers and the transform's rate (one of three
  // alternative fields, so a point and a fix may set or unset each other's): every fix a memo
  // looks up must be the fix run again, figure for figure.
  Scenario base = reference_preset();
  base.set(Field::AcceleratorCount, 8);
  base.set(Field::Cores, 96);
  base.set(Field::ReadBandwidth, {3.5e9, Dim::Rate});
  base.set(Field::DatasetSamples, 1.2e6);
  const std::array varying = {Field::BatchSize, Field::Workers, Field::TransformCost};
  FixMemo memo(varying);
  std::size_t fixes = 0;
  std::size_t collapsing = 0;  // fixes that set a varying field
  for (double rate : {0.0, 2e-3, 4e-3})
    for (double batch : {32.0, 256.0, 64.0})
      for (double workers = 0; workers <= 48; workers += 6) {
        Scenario s = base;
        if (rate > 0) s.set(Field::TransformCost, {rate, Dim::Duration});
        s.set(Field::BatchSize, batch);
        s.set(Field::Workers, workers);
        const Diagnosis alone = diagnose(s);
        const Diagnosis looked_up = diagnose(s, &memo);
        REQUIRE(looked_up.fixes.size() == alone.fixes.size());
        for (std::size_t i = 0; i < alone.fixes.size(); ++i) {
          const Fix& a = alone.fixes[i];
          const Fix& b = looked_up.fixes[i];
          CHECK(a.kind == b.kind);
          REQUIRE(a.changes.size() == b.changes.size());
          for (std::size_t c = 0; c < a.changes.size(); ++c) {
            CHECK(a.changes[c].field == b.changes[c].field);
            CHECK(a.changes[c].value.value == b.changes[c].value.value);
          }
          CHECK(a.result.utilization == b.result.utilization);
          CHECK(a.result.throughput == b.result.throughput);
          CHECK(a.result.step_s == b.result.step_s);
          CHECK(a.result.binding == b.result.binding);
          CHECK(a.result.epoch_s == b.result.epoch_s);
          CHECK(a.dataset_bytes == b.dataset_bytes);
        }
        fixes += alone.fixes.size();
        // A fix that sets none of the varying fields (or their alternatives) lands on a scenario
        // no other point can reach: the memo is not asked.
        for (const Fix& f : alone.fixes)
          collapsing += std::any_of(f.changes.begin(), f.changes.end(), [](const Change& c) {
            return c.field == Field::BatchSize || c.field == Field::Workers || c.field == Field::TransformCost ||
                   c.field == Field::WorkerThroughput || c.field == Field::WorkerSampleRate;
          });
      }
  CHECK(fixes > 100);
  CHECK(collapsing > 50);
  CHECK(collapsing < fixes);
  // The workers fix of one batch size and rate lands on the same scenario from every worker count.
  CHECK(memo.hits() > collapsing / 3);
  CHECK(memo.hits() + memo.misses() >= collapsing);
}
