// The loss from variance under the DataLoader's delivery (docs/model.md, "What real loaders do"): W workers with
// prefetch_factor batches each feed a loop that takes them in order (or any ready one). A
// closed form fitted against `pipesim simulate`: the worker pool is a producer whose rate the
// in-order round-robin lowers (the loop waits for the slowest of W workers, less so with more
// prefetch), and the batches between producer and loop are a buffer of prefetch x W batches,
// whose level moves as Brownian motion between empty (the loop waits) and full (workers stop).
#pragma once

namespace pipesim {

struct VarianceInputs {
  double workers = 1;      // W
  double prefetch = 2;     // batches each worker may hold ahead
  bool in_order = true;    // the loop takes batches in order
  double worker_rate = 0;  // batches/s the W workers deliver with no variance
  double batch_cv = 0;     // coefficient of variation of one worker's time per batch
  double loop_rate = 0;    // batches/s the loop takes when never starved (1 / its time per step)
  double loop_cv = 0;      // coefficient of variation of the loop's time per step
};

// Batches per second the loop receives: at most min(worker_rate, loop_rate), and exactly that
// when both variations are 0.
double delivered_rate(const VarianceInputs& in);

// The expected largest of n independent standard normal values (Blom's approximation,
// within 0.03 of the exact value); 0 for n = 1.
double expected_max_normal(double n);

// The standard normal quantile: z with P(Z <= z) = p, for 0 < p < 1 (relative error below 1.2e-9).
double normal_quantile(double p);

// The slowest of n accelerators that step together (data-parallel ranks wait for each other
// every step), each one's step a draw of a lognormal with mean 1 and coefficient of variation
// cv: the mean and the standard deviation of the largest of n such draws, by quadrature
// (within 1e-9 of the exact moments; {1, cv} for n = 1).
struct Slowest {
  double mean = 1;
  double sd = 0;
};
Slowest slowest_of(double n, double cv);

// Samples of different lengths padded to their batch's longest (workload.padding): the mean
// over batches of the longest of `batch` draws over the mean length, lengths a lognormal with
// coefficient of variation cv; with `buckets` > 1 each batch is drawn from one of that many
// buckets of equal share by length, and pads to that bucket's longest. 1 when cv = 0 or
// batch = 1; the mean of slowest_of(batch, cv) with one bucket.
double padded_length(double batch, double cv, double buckets = 1);

// The fitted constants, with where they come from (scripts/validation/fit-variance).
struct VarianceFit {
  double sync_in_order;   // in order: the loop waits for the slowest of W, per z_W x batch cv
  double sync_any;        // either order: a worker idles with its batches done until one is taken
  double prefetch_power;  // both shrink as prefetch^-power
  double balance_decay;   // and as (1 + decay x (rho - 1))^-2 when the workers are the slower side
};
inline constexpr VarianceFit kVarianceFit{0.8320, 0.1704, 1.6024, 0.2898};

}  // namespace pipesim
