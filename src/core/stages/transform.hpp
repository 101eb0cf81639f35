// The transform stage: CPU workers (capped by the cores each accelerator has), the main process
// when there are no workers, or decoding on the accelerator (hardware decoder or GPU kernels).
#pragma once

#include <optional>

#include "core/stages/stage.hpp"
#include "core/stages/workload.hpp"

namespace pipesim {

struct TransformInputs {
  bool modelled = false;
  TransformAt at = TransformAt::Cpu;
  bool cpu_work = false;                        // workers do per-sample CPU work
  double worker_seconds_per_sample = 0;         // one worker, one sample
  double decoder_seconds_per_sample = 0;        // the hardware decoder, one sample (0: not used)
  double gpu_seconds_per_sample = 0;            // accelerator time decoding one sample (at == Gpu)
  std::optional<double> node_cores;             // cpu.cores
  double reserved_cores = 0;                    // of the node, for the training processes
  std::optional<double> cores_per_accelerator;  // for workers: (cores - reserved) / accelerators
  double threads_per_core = 1;                  // cpu.threads_per_core: cores count logical CPUs
  double smt_yield = 0.3;                       // what a core's second thread adds (cpu.smt_yield)
  double sigma = 0, kappa = 0;                  // Universal Scalability Law (cpu.scaling_*)
  double oversubscription = 0;                  // cpu.oversubscription_cost
  // Batch assembly: one thread's copy rate into new memory (cpu.memcpy_bandwidth), a worker's
  // collate rate into new shared memory (cpu.collate_bandwidth, else the copy rate), the pin
  // thread's rate over a batch (cpu.pin_bandwidth, else the copy rate), and the bytes per sample
  // a worker collates (the device sample, or the stored one when that is not given).
  std::optional<double> memcpy_bandwidth;
  std::optional<double> collate_bandwidth;
  std::optional<double> pin_bandwidth;
  double collate_bytes_per_sample = 0;
  double worker_batch_overhead = 0;  // a worker's own time per batch (pipeline.worker_batch_overhead)
};

// Universal Scalability Law: what a parallelism of N workers delivers, in single-worker rates:
// N / (1 + sigma (N - 1) + kappa N (N - 1)); N itself when sigma = kappa = 0 or N <= 1.
double usl_workers(const TransformInputs& in, double workers);
// The parallelism where the scaling law peaks (kappa > 0): sqrt((1 - sigma) / kappa).
double usl_peak(const TransformInputs& in);
// Time slicing: the factor by which every task's CPU work grows when `tasks` want `logical`
// CPUs at a cost (cpu.oversubscription_cost) of `cost`: 1 + cost (tasks - logical) / logical
// past the CPUs, 1 up to them. `oversubscription` takes the cost from the inputs.
double oversubscription_factor(double cost, double tasks, double logical);
double oversubscription(const TransformInputs& in, double tasks, double logical);
// What W workers can run at on `logical` CPUs with `threads_per_core` threads per core, in
// single-worker rates: a whole core each up to the physical cores, then smt_yield for each
// worker on a core's further threads, never more than the logical CPUs. min(W, logical) when
// threads_per_core = 1.
double core_capacity(const TransformInputs& in, double workers, double logical);
// Processor sharing among `tasks` on `logical` CPUs (none: no limit), `work` of them working (a
// worker's batch, a copy, the loop's own time) and the rest holding a core for the
// accelerator's time (a loop that spins through compute). Each gets an equal share of the
// cores' capacity (core_capacity); work then loses what the scaling law takes at the
// parallelism the working tasks have among themselves, and past the CPUs what time slicing
// costs; a hold neither suffers contention nor adds to it. `simulate` runs its tasks at these
// rates, and the closed forms count the tasks busy with them.
struct SharedRates {
  double work = 1;  // of a working task, in single-core rates (at most 1)
  double hold = 1;  // of a holding task
};
SharedRates shared_rates(const TransformInputs& in, double tasks, double work, std::optional<double> logical);

TransformInputs resolve_transform(const Scenario& s, const Workload& w);

// Workers that add throughput, in single-worker rates: the scaling law (usl_workers) over the
// parallelism the cores give the W workers (core_capacity; W itself with no core limit), over
// what time slicing costs W workers on those cores (oversubscription); 1 for the main process.
double effective_workers(const TransformInputs& in, const Workload& w);
// Bytes/s of workload.sample_size one worker transforms.
double worker_bytes_per_s(const TransformInputs& in, const Workload& w);
// One worker's time to collate a batch into shared memory (0 when neither cpu.collate_bandwidth
// nor cpu.memcpy_bandwidth is set).
// The main process (no workers) collates into memory it reuses: not counted.
// glibc's malloc serves a block above its mmap threshold with a new mapping and returns it
// on free; the threshold rises with the blocks freed, up to 32 MiB on 64-bit systems
// (DEFAULT_MMAP_THRESHOLD_MAX, mallopt(3)). A larger batch is new memory every time.
inline constexpr double kFreshHeapAbove = 32.0 * 1024 * 1024;
// Time to collate one batch: workers copy it into new shared memory at cpu.collate_bandwidth
// (0 without a rate) and pay pipeline.worker_batch_overhead; the main process (W = 0) only
// copies, into its own heap at cpu.memcpy_bandwidth, and only when the batch is above
// kFreshHeapAbove.
double collate_time(const TransformInputs& in, const Workload& w, double batch);
// One worker's whole time for a batch: every sample's transform, then the collate.
double worker_batch_time(const TransformInputs& in, const Workload& w, double batch);
// The smallest whole number of workers whose scaling-law rate reaches `need` single-worker
// rates (a core each); nullopt when the law peaks below it.
std::optional<double> workers_for(const TransformInputs& in, double need);
// Time per batch of CPU workers and hardware decoder in a pipeline (the slower sets the pace).
double transform_time(const TransformInputs& in, const Workload& w, double batch, Limit* limit = nullptr);

// "How many cores per accelerator does this workload need?"
struct CoreNeeds {
  // False when no number of workers keeps up (the scaling law peaks below what is needed):
  // workers_full is then the count at the peak.
  bool reachable = true;
  // When unreachable: the most the workers deliver, in single-worker rates (the scaling law at
  // its peak, or its limit 1 / sigma, approached but never reached, when kappa = 0).
  double most_rates = 0;
  double workers_full = 0;    // workers per accelerator for the transform to keep up with compute
  double workers_target = 0;  // ... for the target utilization
  double reserved_per_accelerator = 0;
  double cores_per_accelerator = 0;  // node_full per accelerator
  // CPUs for the node that keep up (reach the target): a core each for the workers and those
  // reserved (the closed form); the diagnosis replaces them with the fewest the model confirms.
  double node_full = 0;
  double node_target = 0;
  // The knee (cores aside): the smallest W whose workers deliver 95% of the most workers can
  // (never more than compute needs); the W past which more workers deliver less (0: more never
  // cost, kappa = 0); and whether the node's cores run the knee's workers, a core each.
  double knee_workers = 0;
  double peak_workers = 0;
  bool knee_fits_cores = true;
  // Where the node's CPUs are known: whether workers_full (and workers_target) run on them as
  // they are, and the fewest CPUs for the node at which some count of workers keeps up (reaches
  // the target), with the fewest workers per accelerator that do it there (0: not searched).
  bool full_within_node = true;
  bool target_within_node = true;
  double workers_at_node_full = 0;
  double workers_at_node_target = 0;
  // When the node's CPUs cannot keep up: the fewest workers that deliver what they deliver full.
  double workers_node_best = 0;
  // When the training process shares the CPUs (pipeline.loop_cpu_share set) and the node's CPUs
  // per accelerator for workers are known: the most workers that keep a CPU each (a core each with
  // threads_per_core > 1) beside the training process's busy CPUs, and those CPUs. Past this count a
  // worker shares its CPU, and the loader, handing batches over in order, waits for it each round.
  std::optional<double> workers_beside_training;
  double training_cpus = 0;
  // With those known: the CPUs the workers set leave free beside them and the training process
  // (negative: they outnumber the CPUs), and the most workers that leave one CPU free.
  double spare_cpus = 0;
  double workers_with_spare = 0;
};
// `pin_s`: the pin thread's work per batch (0 without one), a CPU's share of the step when the
// cores are shared by time.
CoreNeeds core_needs(const TransformInputs& in, const Workload& w, double compute_s, double pin_s = 0);

// Smallest whole number >= x, tolerant of rounding just above an integer.
double ceil_count(double x);

}  // namespace pipesim
