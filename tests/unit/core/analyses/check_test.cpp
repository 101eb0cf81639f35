#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "config/loader.hpp"
#include "core/analyses/check.hpp"

using namespace pipesim;

namespace {
LoadedScenario nvme() { return load_scenario("p4d-resnet50-nvme"); }
}  // namespace

TEST_CASE("money and long durations parse") {
  CHECK(parse_quantity("$32.77/h").value == 32.77);
  CHECK(parse_quantity("$32.77/h").dim == Dim::MoneyRate);
  CHECK(parse_quantity("32.77 USD/h").value == 32.77);
  CHECK(parse_quantity("$24/day").value == 1);
  CHECK(parse_quantity("$250000").value == 250000);
  CHECK(parse_quantity("$250000").dim == Dim::Money);
  CHECK(parse_quantity("3 years").value == 3 * 365 * 86400.0);
  CHECK_THROWS_AS(parse_quantity("$"), Error);
  CHECK_THROWS_AS(parse_quantity("$$5"), Error);
  CHECK_THROWS_AS(parse_quantity("$5/fortnight"), Error);
  CHECK(format_human(21.96, Dim::MoneyRate) == "$21.96/h");
  CHECK(format_human(0.4234, Dim::Money) == "$0.42");
}

TEST_CASE("cost arithmetic: price per hour, epoch cost, idle cost, samples per USD") {
  // p4d.24xlarge at $21.96/h; 8 GPUs on 96 vCPUs (two hardware threads per core), one
  // reserved per training process: (96 - 8) / 8 = 11 vCPUs per GPU, 5.5 cores. 12 workers get
  // 5.5 cores and 5.5 second threads at smt_yield 0.3: 5.5 + 1.65 = 7.15 worker rates of
  // 192.3 samples/s -> 1374.945 samples/s per GPU (below 2470 measured compute), 10999.56 for
  // the node.
  const LoadedScenario s = nvme();
  const Result r = evaluate(resolve(s.scenario));
  const double throughput = 8 * 7.15 * 192.3;
  CHECK(r.throughput == doctest::Approx(throughput).epsilon(1e-12));
  REQUIRE(r.price_per_hour);
  CHECK(*r.price_per_hour == doctest::Approx(21.96).epsilon(1e-12));
  CHECK(*r.samples_per_usd == doctest::Approx(throughput * 3600 / 21.96).epsilon(1e-12));
  const double epoch = 1281167 / throughput;  // 116.47 s
  CHECK(*r.epoch_s == doctest::Approx(epoch).epsilon(1e-12));
  CHECK(*r.cost_per_epoch == doctest::Approx(epoch / 3600 * 21.96).epsilon(1e-12));  // $0.7105
  const double u = 7.15 * 192.3 / 2470;                                              // 55.7%
  CHECK(r.utilization == doctest::Approx(u).epsilon(1e-6));
  CHECK(*r.idle_cost_per_epoch == doctest::Approx(epoch / 3600 * 21.96 * (1 - r.utilization)).epsilon(1e-12));
}

TEST_CASE("an amortised purchase price is a price per hour") {
  LoadedScenario s = load_scenario("");
  apply_assignment(s, "cost.purchase_price=$262800");
  apply_assignment(s, "cost.amortization=3 years");
  const Result r = evaluate(resolve(s.scenario));
  CHECK(*r.price_per_hour == doctest::Approx(262800 / (3 * 365 * 24.0)).epsilon(1e-12));  // $10/h
  CHECK_FALSE(r.cost_per_epoch);                                                          // no dataset size
  LoadedScenario t = load_scenario("");
  apply_assignment(t, "cost.purchase_price=$262800");
  CHECK_THROWS_AS(resolve(t.scenario), FieldError);
}

TEST_CASE("a plan passes at one batch size and fails at another") {
  // Reference: compute-bound up to batch 22, transform-bound above.
  LoadedScenario s = load_scenario("");
  apply_requirement(s, "min_utilization=99%");
  apply_requirement(s, "allowed_walls=compute");
  apply_assignment(s, "pipeline.batch_size=16");
  apply_assignment(s, "model.activation_bytes=5 MB");  // counted, so the memory line can pass
  // Storage and transfer are not modelled in the reference: either could break both
  // requirements, so nothing passes until the plan accepts them (docs/manual/commands.md, "diagnose").
  PlanOutcome at16 = check_plan(s.scenario, s.plan);
  CHECK_FALSE(at16.pass);
  CHECK(at16.outcomes[0].unmodelled == (stage_bit(Stage::Storage) | stage_bit(Stage::Transfer)));
  // Compute-bound at 16: the model's 100% meets 99% but is only an upper bound while storage
  // and the transfer are not modelled: neither pass nor failure, not verified.
  CHECK(at16.outcomes[0].verdict == Verdict::Unverified);
  CHECK(at16.outcomes[1].verdict == Verdict::Unverified);
  CHECK(at16.failures == 0);
  CHECK(at16.unverified == 2);
  CHECK(at16.verdict == Verdict::Unverified);
  apply_requirement(s, "unmodelled=storage,transfer");
  at16 = check_plan(s.scenario, s.plan);
  CHECK(at16.pass);
  CHECK(at16.outcomes[0].unmodelled == 0);
  CHECK(at16.outcomes[0].accepted == (stage_bit(Stage::Storage) | stage_bit(Stage::Transfer)));
  apply_assignment(s, "pipeline.batch_size=32");
  PlanOutcome at32 = check_plan(s.scenario, s.plan);
  CHECK_FALSE(at32.pass);
  CHECK(at32.failures == 2);
  CHECK(at32.verdict == Verdict::Fail);
  CHECK(at32.outcomes[0].value == doctest::Approx(0.7320032051282052).epsilon(1e-12));

  apply_requirement(s, "batch_sizes=8..64");  // 8, 16, 32, 64: fails from 32 on
  const PlanOutcome ranged = check_plan(s.scenario, s.plan);
  CHECK_FALSE(ranged.pass);
  CHECK(ranged.outcomes[0].at_batch == 64);  // the worst utilization
  CHECK(ranged.outcomes[1].at_batch == 32);  // the first batch outside the allowed walls
  CHECK(ranged.outcomes[1].walls == ((1u << 1) | (1u << 3)));
}

TEST_CASE("a bound that already misses fails, unmodelled stage or not") {
  // Reference at batch 32: 73.2% with storage and the transfer unmodelled. Unmodelled stages can
  // only lower it, so 90% fails outright; 70% is met on the bound alone: not verified.
  LoadedScenario s = load_scenario("");
  apply_assignment(s, "pipeline.batch_size=32");
  apply_assignment(s, "model.activation_bytes=5 MB");  // counted, so the memory line can pass
  apply_requirement(s, "min_utilization=90%");
  PlanOutcome o = check_plan(s.scenario, s.plan);
  CHECK(o.outcomes[0].verdict == Verdict::Fail);
  CHECK(o.verdict == Verdict::Fail);
  apply_requirement(s, "min_utilization=70%");
  o = check_plan(s.scenario, s.plan);
  CHECK(o.outcomes[0].verdict == Verdict::Unverified);
  CHECK(o.outcomes[0].value == doctest::Approx(0.7320032051282052).epsilon(1e-12));
  CHECK_FALSE(o.outcomes[0].pass);
  // The memory line never rests on an unmodelled stage.
  CHECK(o.outcomes.back().requirement->metric == Metric::Memory);
  CHECK(o.outcomes.back().verdict == Verdict::Pass);
  CHECK(o.verdict == Verdict::Unverified);
  CHECK(o.failures == 0);
  CHECK(o.unverified == 1);
  CHECK(o.outcomes[0].requirement->typed == "70%");
}

TEST_CASE("a step measured on another accelerator leaves every requirement but memory unverified") {
  // The p4d plan (A100 40GB) judges ResNet-50 on the step measured on an A100 80GB, and says it
  // accepts that; without the acceptance nothing it requires can pass or fail.
  LoadedScenario s = nvme();
  CHECK(s.plan.accept_elsewhere);
  PlanOutcome o = check_plan(s.scenario, s.plan);
  REQUIRE(o.outcomes.size() == 4);
  REQUIRE(o.outcomes[0].elsewhere);
  CHECK(accelerator_names()[static_cast<std::size_t>(o.outcomes[0].elsewhere->measured_on)] == "a100-80gb-sxm");
  CHECK(accelerator_names()[static_cast<std::size_t>(o.outcomes[0].elsewhere->accelerator)] == "a100-40gb-sxm");
  CHECK(o.outcomes[0].elsewhere_accepted);
  apply_requirement(s, "measured_elsewhere=false");
  o = check_plan(s.scenario, s.plan);
  for (std::size_t i = 0; i < 3; ++i) {
    CAPTURE(i);
    CHECK(o.outcomes[i].verdict == Verdict::Unverified);
    CHECK_FALSE(o.outcomes[i].elsewhere_accepted);
  }
  CHECK(o.outcomes[3].requirement->metric == Metric::Memory);
  CHECK_FALSE(o.outcomes[3].elsewhere);
  CHECK(o.outcomes[3].verdict == Verdict::Pass);
  CHECK(o.verdict == Verdict::Unverified);
  CHECK(o.unverified == 3);
  // Missed or met, another accelerator's figure decides nothing: a threshold no plan meets is
  // unverified too, where accepted it fails.
  apply_requirement(s, "min_utilization=100%");
  apply_assignment(s, "storage.read_bandwidth=100 MB/s");
  CHECK(check_plan(s.scenario, s.plan).outcomes[0].verdict == Verdict::Unverified);
  apply_requirement(s, "measured_elsewhere=true");
  CHECK(check_plan(s.scenario, s.plan).outcomes[0].verdict == Verdict::Fail);
  // The step measured where the plan runs: nothing to accept.
  apply_assignment(s, "model.measured_on=a100-40gb-sxm");
  CHECK_FALSE(check_plan(s.scenario, s.plan).outcomes[0].elsewhere);
  // "other" on either side names no accelerator to compare: the assumption says so instead.
  apply_assignment(s, "model.measured_on=other");
  CHECK_FALSE(check_plan(s.scenario, s.plan).outcomes[0].elsewhere);
  CHECK_THROWS_AS(apply_requirement(s, "measured_elsewhere=yes"), Error);
}

TEST_CASE("requirements: thresholds, overrides and bad values") {
  LoadedScenario s = nvme();
  REQUIRE(s.plan.requirements.size() == 3);
  CHECK(s.plan.requirements[0].metric == Metric::Utilization);  // in file order
  CHECK(s.plan.requirements[0].threshold == 0.9);
  apply_requirement(s, "min_utilization=0.95");
  CHECK(s.plan.requirements.size() == 3);
  CHECK(s.plan.requirements[0].threshold == 0.95);
  CHECK_FALSE(check_plan(s.scenario, s.plan).pass);
  for (const char* bad : {"min_utilisation=90%", "min_utilization=120%", "min_utilization=0", "min_throughput=5 GB/s",
                          "allowed_walls=gpu", "batch_sizes=64..32", "max_epoch_time=3"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(apply_requirement(s, bad), Error);
  }
  LoadedScenario ref = load_scenario("");
  apply_requirement(ref, "max_epoch_time=1 h");
  CHECK_THROWS_AS(check_plan(ref.scenario, ref.plan), Error);  // no dataset size
}

TEST_CASE("min_throughput per step holds steps per second at every batch size") {
  // Reference: transform-bound above batch 22 at the workers' 4000 samples/s, so batch 32
  // steps every 32 / 4000 = 8 ms (125 it/s) and batch 64 every 16 ms (62.5 it/s); batch 16 is
  // compute-bound at 2943.6 samples/s, the least samples/s of the range.
  LoadedScenario s = load_scenario("");
  apply_assignment(s, "model.activation_bytes=5 MB");  // counted, so the memory line can pass
  apply_requirement(s, "unmodelled=storage,transfer");
  apply_requirement(s, "batch_sizes=16..64");  // 16, 32, 64
  apply_requirement(s, "min_throughput=100 it/s");
  REQUIRE(s.plan.requirements.size() == 1);
  CHECK(s.plan.requirements[0].per_step);
  CHECK(s.plan.requirements[0].threshold == 100);
  CHECK(requirement_unit(s.plan.requirements[0]) == "it/s");
  PlanOutcome o = check_plan(s.scenario, s.plan);
  CHECK_FALSE(o.pass);
  CHECK(o.outcomes[0].value == doctest::Approx(62.5).epsilon(1e-12));
  CHECK(o.outcomes[0].at_batch == 64);

  // The same key in samples/s replaces it: the worst is now the compute-bound batch 16.
  apply_requirement(s, "min_throughput=2900 samples/s");
  REQUIRE(s.plan.requirements.size() == 1);
  CHECK_FALSE(s.plan.requirements[0].per_step);
  CHECK(requirement_unit(s.plan.requirements[0]) == "samples/s");
  o = check_plan(s.scenario, s.plan);
  CHECK(o.pass);
  CHECK(o.outcomes[0].at_batch == 16);
  CHECK(o.outcomes[0].value == doctest::Approx(2943.6045003184186).epsilon(1e-12));

  for (const char* also : {"min_throughput=3 steps/s", "min_throughput=3 batches/s", "min_throughput=3 it/s"}) {
    CAPTURE(also);
    apply_requirement(s, also);
    CHECK(s.plan.requirements[0].per_step);
    CHECK(s.plan.requirements[0].threshold == 3);
  }
  CHECK_THROWS_AS(apply_requirement(s, "min_throughput=0 it/s"), Error);
  CHECK_THROWS_AS(apply_requirement(s, "min_utilization=3 it/s"), Error);
}

TEST_CASE("each requirement's bound: min_ at least, max_ and memory at most, walls among the allowed") {
  CHECK(requirement_bound(Metric::Utilization) == Bound::AtLeast);
  CHECK(requirement_bound(Metric::Throughput) == Bound::AtLeast);
  CHECK(requirement_bound(Metric::SamplesPerUsd) == Bound::AtLeast);
  CHECK(requirement_bound(Metric::EpochTime) == Bound::AtMost);
  CHECK(requirement_bound(Metric::CostPerEpoch) == Bound::AtMost);
  CHECK(requirement_bound(Metric::Memory) == Bound::AtMost);
  CHECK(requirement_bound(Metric::Walls) == Bound::Among);
  // The key says the bound it holds.
  for (Metric m :
       {Metric::Utilization, Metric::Throughput, Metric::SamplesPerUsd, Metric::EpochTime, Metric::CostPerEpoch}) {
    CAPTURE(requirement_key(m));
    CHECK(requirement_key(m).starts_with(requirement_bound(m) == Bound::AtLeast ? "min_" : "max_"));
  }
}

TEST_CASE(
    "every epoch judged: the worst (the first, with its start) and the steady state, unless the plan says steady") {
  // The p4d node reading ImageNet from one 100 MB/s disk: later epochs come from the page cache
  // (55.7%, 116.5 s, transform-bound); the first reads every sample at 100 MB/s.
  LoadedScenario s = load_scenario("p4d-24xlarge+resnet50-imagenet-amp");
  apply_assignment(s, "storage.read_bandwidth=100MB/s");
  apply_requirement(s, "min_utilization=50%");
  apply_requirement(s, "max_epoch_time=2min");
  apply_requirement(s, "allowed_walls=transform,compute");
  apply_requirement(s, "max_cost_per_epoch=$1");
  apply_requirement(s, "min_samples_per_dollar=1");
  apply_requirement(s, "min_throughput=1it/s");
  apply_requirement(s, "measured_elsewhere=true");  // the A100 80GB's step on the p4d's 40GB
  const Result r = evaluate(resolve(s.scenario));
  REQUIRE(r.cold.has_value());
  REQUIRE(r.epoch_s.has_value());
  REQUIRE(r.cold->epoch_s.has_value());
  // Each requirement is judged against the model's own figures of each epoch (Result and its
  // cold first epoch): storage binds the first, the transform the others.
  CHECK(r.cold->binding == stage_bit(Stage::Storage));
  CHECK(r.binding == stage_bit(Stage::Transform));
  PlanOutcome o = check_plan(s.scenario, s.plan);
  const auto of = [&](Metric m) {
    for (const Outcome& oc : o.outcomes)
      if (oc.requirement->metric == m) return oc;
    FAIL("no such requirement");
    return Outcome{};
  };
  // The worst epoch is the first, its start (workers started, one worker's batch) included:
  // the model's compute of an epoch over the cold epoch's time and the start.
  REQUIRE(r.worst_epoch.has_value());
  REQUIRE(r.epoch_start_s.has_value());
  const WorstEpoch& w = *r.worst_epoch;
  CHECK(w.epoch_s == *r.cold->epoch_s + *r.epoch_start_s);
  CHECK(w.utilization ==
        doctest::Approx(*r.epoch_utilization * (*r.epoch_s + *r.epoch_start_s) / w.epoch_s).epsilon(1e-12));
  CHECK(w.utilization < r.cold->utilization);  // the start costs the first epoch too
  Outcome u = of(Metric::Utilization);
  CHECK(u.value == w.utilization);
  CHECK(u.steady == r.utilization);
  CHECK(u.first_epoch == w.utilization);
  CHECK(u.first_epoch_cold);
  CHECK(u.steady_from == 2);
  CHECK(u.verdict == Verdict::Fail);
  Outcome t = of(Metric::EpochTime);
  CHECK(t.value == w.epoch_s);
  CHECK(t.steady == *r.epoch_s);
  CHECK(t.verdict == Verdict::Fail);
  // The same price per second over the worst epoch's time; samples per dollar by throughput.
  const Outcome cost = of(Metric::CostPerEpoch);
  CHECK(cost.value == doctest::Approx(*r.cost_per_epoch * w.epoch_s / *r.epoch_s).epsilon(1e-12));
  CHECK(cost.verdict == Verdict::Fail);
  const Outcome spd = of(Metric::SamplesPerUsd);
  CHECK(spd.value == doctest::Approx(*r.samples_per_usd * w.throughput / r.throughput).epsilon(1e-12));
  const Outcome steps = of(Metric::Throughput);
  CHECK(steps.value == doctest::Approx(w.throughput / r.throughput / r.step_s).epsilon(1e-12));
  CHECK(steps.verdict == Verdict::Fail);  // under one step a second in the first epoch
  const Outcome walls = of(Metric::Walls);
  CHECK(walls.first_epoch_walls == stage_bit(Stage::Storage));
  CHECK(walls.verdict == Verdict::Fail);
  CHECK(o.failures == 5);  // all but samples per dollar (and memory)
  // The plan judges the steady state alone: every one passes, each still giving the first epoch.
  apply_requirement(s, "epochs=steady");
  o = check_plan(s.scenario, s.plan);
  u = of(Metric::Utilization);
  CHECK(u.value == r.utilization);
  CHECK(u.first_epoch == w.utilization);
  CHECK(u.steady_only);
  CHECK(of(Metric::Walls).verdict == Verdict::Pass);
  CHECK(of(Metric::Walls).first_epoch_walls == stage_bit(Stage::Storage));
  CHECK(o.verdict == Verdict::Pass);
  CHECK_THROWS_WITH_AS(apply_requirement(s, "epochs=first"), doctest::Contains("require.epochs"), Error);
}

TEST_CASE("min_first_epoch_utilization judges the first epoch; min_utilization says the first epoch beside it") {
  // Four DGX H100 nodes reading ImageNet over NFS: later epochs come from the page cache. 24
  // workers decoding at Pillow-SIMD's 250 img/s keep up with the H100's step.
  LoadedScenario s = load_scenario("dgx-h100+nfs-10gbe+resnet50-imagenet-h100");
  apply_assignment(s, "cluster.nodes=4");
  apply_assignment(s, "pipeline.workers=24");
  apply_assignment(s, "cpu.worker_sample_rate=250img/s");
  apply_requirement(s, "min_utilization=90%");
  apply_requirement(s, "min_first_epoch_utilization=90%");
  apply_requirement(s, "epochs=steady");  // min_utilization on the steady state alone
  const Result r = evaluate(resolve(s.scenario));
  REQUIRE(r.cold.has_value());
  const PlanOutcome o = check_plan(s.scenario, s.plan);
  const auto of = [&](Metric m) {
    for (const Outcome& oc : o.outcomes)
      if (oc.requirement->metric == m) return oc;
    FAIL("no such requirement");
    return Outcome{};
  };
  const Outcome steady = of(Metric::Utilization);
  const Outcome first = of(Metric::FirstEpochUtilization);
  CHECK(steady.pass);
  CHECK(steady.value == r.utilization);
  REQUIRE(r.worst_epoch.has_value());
  CHECK(steady.first_epoch == r.worst_epoch->utilization);  // the first epoch with its start
  CHECK_FALSE(first.pass);
  CHECK(first.value == r.cold->utilization);
  CHECK_FALSE(o.pass);
  CHECK(requirement_unit(*first.requirement) == "ratio");
  // Where the page cache makes no difference the first epoch is the steady state.
  LoadedScenario local = load_scenario("reference");
  apply_requirement(local, "min_first_epoch_utilization=10%");
  const PlanOutcome lo = check_plan(local.scenario, local.plan);
  CHECK(lo.outcomes.at(0).value == evaluate(resolve(local.scenario)).utilization);
}

TEST_CASE("min_run_utilization judges the whole run: the first epoch from storage, the others steady, every start") {
  LoadedScenario s = load_scenario("dgx-h100+nfs-10gbe+resnet50-imagenet-h100");
  apply_assignment(s, "cluster.nodes=4");
  apply_assignment(s, "pipeline.workers=24");
  apply_assignment(s, "cpu.worker_sample_rate=250img/s");
  apply_requirement(s, "min_run_utilization=90%");
  // Without the run's length the requirement cannot be judged: an input error, not a pass.
  CHECK_THROWS_WITH_AS(check_plan(s.scenario, s.plan), doctest::Contains("needs workload.epochs"), Error);
  apply_assignment(s, "workload.epochs=3");
  apply_assignment(s, "cluster.reshuffle=false");  // each node its own shard: warm from epoch 2
  const Result r = evaluate(resolve(s.scenario));
  REQUIRE(r.cold.has_value());
  REQUIRE(r.run_s.has_value());
  CHECK_FALSE(r.warmup);
  // 3 epochs: the cold one, two steady ones, three starts.
  const double run = *r.cold->epoch_s + 2 * *r.epoch_s + 3 * *r.epoch_start_s;
  CHECK(*r.run_s == doctest::Approx(run).epsilon(1e-12));
  CHECK(*r.run_utilization == doctest::Approx(3 * *r.epoch_utilization * (*r.epoch_s + *r.epoch_start_s) / run));
  CHECK(*r.run_utilization < *r.epoch_utilization);
  CHECK(*r.run_utilization > r.cold->utilization);
  const PlanOutcome o = check_plan(s.scenario, s.plan);
  CHECK(o.outcomes.at(0).value == *r.run_utilization);
  CHECK_FALSE(o.outcomes.at(0).pass);
  // Where the page cache makes no difference, the run is its epochs: the epoch's utilization.
  LoadedScenario local = load_scenario("reference");
  apply_assignment(local, "workload.dataset_samples=6400");
  apply_assignment(local, "workload.epochs=5");
  const Result lr = evaluate(resolve(local.scenario));
  CHECK(*lr.run_s == doctest::Approx(5 * (*lr.epoch_s + *lr.epoch_start_s)));
  CHECK(*lr.run_utilization == doctest::Approx(*lr.epoch_utilization));
}

TEST_CASE("reshuffled shards warm each node's page cache over epochs, and the run pays for it") {
  // Four nodes, each reading a fresh random quarter every epoch: after k - 1 epochs a node has
  // read 1 - 0.75^(k-1) of the dataset, all of which its 2 TB cache keeps.
  LoadedScenario s = load_scenario("dgx-h100+nfs-10gbe+resnet50-imagenet-h100");
  apply_assignment(s, "cluster.nodes=4");
  apply_assignment(s, "workload.epochs=3");
  const Result r = evaluate(resolve(s.scenario));
  REQUIRE(r.warmup);
  CHECK(r.cache_hit == 1);
  CHECK(r.warmup->hits[0] == doctest::Approx(0.25));
  CHECK(r.warmup->hits[1] == doctest::Approx(0.4375));
  CHECK(r.warmup->hits[2] == doctest::Approx(1 - std::pow(0.75, 4)));
  CHECK(r.warmup->hits[3] == doctest::Approx(1 - std::pow(0.75, 9)));
  CHECK(r.warmup->near_epoch == 18);  // 0.75^17 = 0.0075 <= 1%, 0.75^16 = 0.0100 is not
  // The run: epochs 2 and 3 take what a given hit ratio of 25% and 43.75% gives every epoch.
  const auto epoch_at = [&](const char* hit) {
    LoadedScenario h = s;
    apply_assignment(h, std::string("storage.cache_hit=") + hit);
    return *evaluate(resolve(h.scenario)).epoch_s;
  };
  const double run = *r.cold->epoch_s + epoch_at("0.25") + epoch_at("0.4375") + 3 * *r.epoch_start_s;
  CHECK(*r.run_s == doctest::Approx(run).epsilon(1e-12));
  // One node reads the whole dataset every epoch: warm from the second.
  apply_assignment(s, "cluster.nodes=1");
  CHECK_FALSE(evaluate(resolve(s.scenario)).warmup);
}

TEST_CASE("a long run's warm-up, counted in blocks of epochs, is within 0.1% of every epoch counted") {
  LoadedScenario s = load_scenario("dgx-h100+nfs-10gbe+resnet50-imagenet-h100");
  apply_assignment(s, "cluster.nodes=64");
  apply_assignment(s, "workload.epochs=1000");
  const Inputs in = resolve(s.scenario);
  const Result r = evaluate(in);
  double run = *r.cold->epoch_s + 1000 * *r.epoch_start_s;
  for (int k = 2; k <= 1000; ++k) {
    Inputs e = in;
    e.storage.cache_hit = epoch_cache_hit(in.storage, k);
    e.storage.cold_cache_hit.reset();
    e.epochs.reset();
    run += *evaluate(e).epoch_s;
  }
  CHECK(*r.run_s == doctest::Approx(run).epsilon(1e-3));
}

TEST_CASE("a sweep's passing points rank by the run's cost where there is a price, else by time") {
  Result r;
  r.throughput = 4000;
  CHECK(rank(r).by == RankBy::Throughput);
  r.epoch_s = 320;
  CHECK(rank(r).by == RankBy::EpochTime);
  r.run_s = 1000;
  CHECK(rank(r).by == RankBy::RunTime);
  CHECK(rank(r).value == 1000);
  r.price_per_hour = 36;
  r.samples_per_usd = 4e5;
  CHECK(rank(r).by == RankBy::SamplesPerUsd);
  r.cost_per_epoch = 3.2;
  CHECK(rank(r).by == RankBy::EpochCost);
  r.run_cost = 10;
  CHECK(rank(r).by == RankBy::RunCost);
  // Less cost or time ranks first; more samples per USD or throughput.
  CHECK(ranks_before({RankBy::RunCost, 9}, {RankBy::RunCost, 10}));
  CHECK_FALSE(ranks_before({RankBy::RunCost, 10}, {RankBy::RunCost, 10}));
  CHECK(ranks_before({RankBy::Throughput, 5000}, {RankBy::Throughput, 4000}));
  CHECK(ranks_before({RankBy::SamplesPerUsd, 5e5}, {RankBy::SamplesPerUsd, 4e5}));
}

TEST_CASE("a requirement not verified names the keys that model each stage, and they do") {
  // A generous value for each key a note can name: set, the stage it names is modelled.
  const auto generous = [](Field f) -> Quantity {
    switch (f) {
      case Field::HostCost:
        return {1e-9, Dim::Duration};
      case Field::DeviceSampleSize:
        return {1e5, Dim::Size};
      default:
        return {1e12, Dim::Rate};
    }
  };
  struct Case {
    const char* what;
    std::vector<const char*> sets;
  };
  const std::vector<Case> cases = {
      {"storage and the transfer after a CPU transform of unknown output", {}},
      {"a transform decoded on the GPU", {"transform.device=gpu", "transform.gpu_time=0.1ms"}},
      {"a transform on the hardware decoder", {"transform.device=decoder", "accelerator.decoder_rate=5000 samples/s"}},
  };
  int checked = 0;
  for (const Case& c : cases) {
    CAPTURE(std::string(c.what));
    LoadedScenario s = load_scenario("");
    apply_assignment(s, "pipeline.batch_size=32");
    for (const char* a : c.sets) apply_assignment(s, a);
    apply_requirement(s, "min_utilization=1%");
    const Outcome o = check_plan(s.scenario, s.plan).outcomes[0];
    REQUIRE(o.verdict == Verdict::Unverified);
    for (const Stage st : kStages) {
      if ((o.unmodelled & stage_bit(st)) == 0) continue;
      CAPTURE(stage_key(st));
      Scenario t = s.scenario;
      for (Field f : unmodelled_keys(st, o.transform_at, o.transfer_needs_device_bytes)) t.set(f, generous(f));
      const Outcome after = check_plan(t, s.plan).outcomes[0];
      CHECK((after.unmodelled & stage_bit(st)) == 0);
      ++checked;
    }
  }
  CHECK(checked >= 5);
}

TEST_CASE("a step used outside the batch sizes it was measured at leaves the requirements unverified") {
  // The H100's ResNet-50 step was measured at batches 64, 128 and 256.
  LoadedScenario s = load_scenario("dgx-h100+resnet50-imagenet-h100");
  apply_assignment(s, "storage.read_bandwidth=100 GB/s");
  apply_assignment(s, "pipeline.batch_size=64");
  apply_requirement(s, "min_throughput=40 it/s");
  // At batch 64, measured: 32.9 ms a step, so at most 30.4 it/s: a failure.
  PlanOutcome o = check_plan(s.scenario, s.plan);
  CHECK_FALSE(o.outcomes[0].extrapolated);
  CHECK(o.outcomes[0].verdict == Verdict::Fail);
  // At batch 32, outside: extrapolated, unverified met or missed; with the range named.
  apply_assignment(s, "pipeline.batch_size=32");
  o = check_plan(s.scenario, s.plan);
  REQUIRE(o.outcomes[0].extrapolated);
  CHECK(o.outcomes[0].extrapolated->first == 64);
  CHECK(o.outcomes[0].extrapolated->last == 256);
  CHECK(o.outcomes[0].extrapolated->batch == 32);
  CHECK(o.outcomes[0].verdict == Verdict::Unverified);
  CHECK_FALSE(o.outcomes.back().extrapolated);  // memory does not rest on the step
  // A plan over batch sizes: the first one outside is named.
  apply_requirement(s, "batch_sizes=64..512");
  o = check_plan(s.scenario, s.plan);
  REQUIRE(o.outcomes[0].extrapolated);
  CHECK(o.outcomes[0].extrapolated->batch == 512);
  // Accepted by the plan: judged on the extrapolation.
  apply_requirement(s, "extrapolated=true");
  o = check_plan(s.scenario, s.plan);
  CHECK(o.outcomes[0].extrapolated_accepted);
  CHECK(o.outcomes[0].verdict == Verdict::Fail);
  CHECK_THROWS_AS(apply_requirement(s, "extrapolated=maybe"), Error);
}

TEST_CASE("every reason a requirement is unverified names a key, and setting that key resolves it") {
  // A step extrapolated: the step measured at the plan's batch size resolves it.
  LoadedScenario s = load_scenario("dgx-h100+nvme-gen4+resnet50-imagenet-h100");
  apply_assignment(s, "pipeline.batch_size=32");
  apply_requirement(s, "min_utilization=10%");
  CHECK(check_plan(s.scenario, s.plan).outcomes[0].extrapolated);
  StepPoints p = s.scenario.step_points();
  p.at[p.count++] = {512, 0.13};
  std::sort(p.at.begin(), p.at.begin() + static_cast<std::ptrdiff_t>(p.count),
            [](const StepPoint& a, const StepPoint& b) { return a.batch < b.batch; });
  p.at[0] = {32, 0.03};
  std::sort(p.at.begin(), p.at.begin() + static_cast<std::ptrdiff_t>(p.count),
            [](const StepPoint& a, const StepPoint& b) { return a.batch < b.batch; });
  set_step_points(s, p, Origin::argument("test"));
  CHECK_FALSE(check_plan(s.scenario, s.plan).outcomes[0].extrapolated);

  // A preset's figure measured for another model: the figure named, set, resolves it.
  LoadedScenario vit = load_scenario("dgx-h100+nvme-gen4+vit-b16-imagenet");
  apply_assignment(vit, "accelerator.efficiency=0.4");
  apply_assignment(vit, "model.parameters=304e6");
  apply_requirement(vit, "min_utilization=10%");
  PlanOutcome o = check_plan(vit.scenario, vit.plan);
  REQUIRE(o.outcomes.back().foreign.size() == 1);
  CHECK(o.outcomes.back().foreign[0].entry->figure == Field::ActivationBytes);
  CHECK(o.outcomes.back().verdict == Verdict::Unverified);
  CHECK(o.outcomes[0].foreign.empty());  // the activations bear on memory alone
  apply_assignment(vit, "model.activation_bytes=200 MB");
  o = check_plan(vit.scenario, vit.plan);
  CHECK(o.outcomes.back().foreign.empty());
  CHECK(o.outcomes.back().verdict == Verdict::Pass);

  // The GPU decode time measured on an A100, used on an H100 where the GPU decodes: the step's
  // requirements rest on it; transform.gpu_time set resolves it.
  LoadedScenario gpu = load_scenario("dgx-h100+nvme-gen4+resnet50-imagenet-amp");
  apply_assignment(gpu, "transform.device=gpu");
  apply_assignment(gpu, "transform.host_cost=1 ms");
  apply_requirement(gpu, "min_utilization=10%");
  o = check_plan(gpu.scenario, gpu.plan);
  REQUIRE(o.outcomes[0].foreign.size() == 1);
  CHECK(o.outcomes[0].foreign[0].entry->figure == Field::GpuTime);
  CHECK(o.outcomes[0].foreign[0].entry->preset == "resnet50-imagenet-amp");
  CHECK(o.outcomes[0].verdict == Verdict::Unverified);
  apply_assignment(gpu, "transform.gpu_time=0.1 ms");
  CHECK(check_plan(gpu.scenario, gpu.plan).outcomes[0].foreign.empty());
  // On the CPU the figure acts on nothing: nothing to say.
  apply_assignment(gpu, "transform.device=cpu");
  CHECK(check_plan(gpu.scenario, gpu.plan).outcomes[0].foreign.empty());

  // A decoder rate for ImageNet JPEGs applied to 2 MB clips.
  LoadedScenario dec = load_scenario("dgx-a100+nvme-gen4+resnet50-imagenet-amp");
  apply_assignment(dec, "transform.device=decoder");
  apply_assignment(dec, "workload.sample_size=2 MB");
  apply_requirement(dec, "min_utilization=10%");
  o = check_plan(dec.scenario, dec.plan);
  // The decoder's rate is for ImageNet JPEGs; the preset's GPU time was GPU decoding, and with the
  // hardware decoder it would be charged as the GPU's work after it.
  REQUIRE(o.outcomes[0].foreign.size() == 2);
  CHECK(o.outcomes[0].foreign[0].entry->figure == Field::DecoderRate);
  CHECK(o.outcomes[0].foreign[0].changed[0].first == Field::SampleSize);
  CHECK(o.outcomes[0].foreign[1].entry->figure == Field::GpuTime);
  const auto& changed = o.outcomes[0].foreign[1].changed;
  CHECK(std::any_of(changed.begin(), changed.end(), [](const auto& c) { return c.first == Field::TransformDevice; }));
  CHECK(foreign_text(o.outcomes[0].foreign[1]).find("transform.device gpu") != std::string::npos);
  apply_assignment(dec, "accelerator.decoder_rate=400 samples/s");
  apply_assignment(dec, "transform.gpu_time=0.2 ms");
  CHECK(check_plan(dec.scenario, dec.plan).outcomes[0].foreign.empty());
}
