#include "core/simulate.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <numbers>
#include <queue>
#include <utility>

#include "core/error.hpp"

namespace pipesim {

std::string_view cause_key(Cause c) {
  switch (c) {
    case Cause::None:
      return "none";
    case Cause::Storage:
      return "storage";
    case Cause::Workers:
      return "workers";
    case Cause::Decoder:
      return "decoder";
    case Cause::PinThread:
      return "pin_thread";
    case Cause::Link:
      return "link";
    case Cause::WorkerStart:
      return "worker_start";
    case Cause::Prefetch:
    case Cause::kCount:
      break;
  }
  return "prefetch";
}

std::string_view track_name(Track t) {
  switch (t) {
    case Track::Storage:
      return "storage";
    case Track::Worker:
      return "worker";
    case Track::Decoder:
      return "decoder";
    case Track::PinThread:
      return "pin thread";
    case Track::Link:
      return "link";
    case Track::Loop:
      return "loop";
    case Track::Accelerator:
      break;
  }
  return "accelerator";
}

std::string_view phase_name(Phase p) {
  switch (p) {
    case Phase::Read:
      return "read";
    case Phase::Build:
      return "build batch";
    case Phase::Decode:
      return "decode";
    case Phase::Pin:
      return "pin";
    case Phase::Copy:
      return "copy";
    case Phase::Wait:
      return "wait";
    case Phase::Receive:
      return "receive";
    case Phase::Compute:
      break;
  }
  return "compute";
}

double mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

WaitHistogram wait_histogram(const std::vector<double>& waits, std::size_t bins) {
  WaitHistogram h;
  h.total = waits.size();
  double most = 0;
  for (double w : waits) most = std::max(most, w);
  for (double w : waits) h.no_wait += w > 0 ? 0 : 1;
  if (!(most > 0) || bins == 0) return h;
  // The smallest round width that covers the largest wait in `bins` bins.
  const double raw = most / static_cast<double>(bins);
  double width = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * width >= raw * (1 - 1e-12)) {
      width *= m;
      break;
    }
  h.bin_s = width;
  h.counts.assign(std::min(bins, static_cast<std::size_t>(std::ceil(most / width - 1e-9))), 0);
  if (h.counts.empty()) h.counts.resize(1);
  for (double w : waits) {
    if (!(w > 0)) continue;
    const auto k = static_cast<std::size_t>(std::max(0.0, std::ceil(w / width - 1e-9) - 1));
    ++h.counts[std::min(k, h.counts.size() - 1)];
  }
  return h;
}

Spread spread(std::vector<double> v) {
  Spread s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.mean = mean(v);
  // Nearest rank: the smallest value with at least p of the values at or below it.
  const auto rank = [&](double p) {
    const auto k = static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size())));
    return v[std::clamp<std::size_t>(k, 1, v.size()) - 1];
  };
  s.p50 = rank(0.50);
  s.p95 = rank(0.95);
  s.p99 = rank(0.99);
  s.max = v.back();
  return s;
}

namespace {

std::size_t round_up(std::size_t x, std::size_t m) { return (x + m - 1) / m * m; }

std::size_t workers_of(const Inputs& in) { return static_cast<std::size_t>(in.workers); }

// The steady window: from step k1 (after the warm-up, a whole number of rounds of W) to k2,
// whole rounds of W later, so that batches arriving in bursts of W are counted whole.
struct Window {
  std::size_t k1 = 0, k2 = 0;
};
Window window(const Inputs& in, std::size_t steps) {
  const std::size_t round = std::max<std::size_t>(1, workers_of(in));
  const auto p = static_cast<std::size_t>(in.prefetch_factor);
  const std::size_t k1 = round_up(std::max(steps / 5, (p + 2) * round), round);
  if (steps < k1 + 1 + round) return {k1, k1};
  return {k1, k1 + round * ((steps - 1 - k1) / round)};
}

// xoshiro256** seeded by splitmix64: the same draws on every platform (the standard
// distributions are not specified bit for bit).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) {
    for (auto& v : s_) {
      seed += 0x9e3779b97f4a7c15ULL;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      v = z ^ (z >> 31);
    }
  }
  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  double normal() {                                                           // Box-Muller, one of the pair
    const double u1 = 1.0 - uniform();
    const double u2 = uniform();
    return std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::array<std::uint64_t, 4> s_{};
};

// Lognormal with a given mean and coefficient of variation; the mean itself when cv = 0.
class Lognormal {
 public:
  Lognormal(double mean, double cv) : mean_(mean) {
    if (cv > 0 && mean > 0) {
      sigma_ = std::sqrt(std::log1p(cv * cv));
      mu_ = std::log(mean) - sigma_ * sigma_ / 2;
    }
  }
  double draw(Rng& rng) const { return sigma_ > 0 ? std::exp(mu_ + sigma_ * rng.normal()) : mean_; }
  [[nodiscard]] bool constant() const { return sigma_ == 0; }

 private:
  double mean_ = 0, mu_ = 0, sigma_ = 0;
};

// What each batch costs, derived once from the inputs (per accelerator).
struct Costs {
  std::size_t ranks = 1, workers = 0, prefetch = 2;
  bool in_order = true;
  double batch = 1;
  bool storage = false;
  double storage_bytes = 0;
  bool cpu_work = false;
  double collate = 0;  // per batch, one worker
  bool decoder = false;
  double decoder_time = 0;
  bool pin = false;
  double pin_work = 0;
  // The interpreter lock: the loop's launch per step and the pin thread's locked share of its
  // work take turns on it (lock_time in model.cpp); 0: no lock modelled.
  double launch = 0;
  double pin_locked = 0;
  bool link = false;
  double link_time = 0;
  double transfer_stage = 0;  // the analytic transfer stage (serial: the loop waits for it)
  double serial_copy = 0;     // a pageable copy the loop makes itself
  double loop_time = 0;
  double compute = 0, model_compute = 0;
  bool shared = false;  // training process and pin thread share the workers' cores
  double share = 0;
  std::optional<double> cores;  // logical CPUs per accelerator for workers (and shared threads)
  double start = 0;             // worker start-up at an epoch's start
  double warmup = 0;            // added to a newly started worker's first batch
  bool persistent = false;
};

Costs costs(const Inputs& in, const Result& r) {
  Costs c;
  c.ranks = static_cast<std::size_t>(in.accelerators);
  c.workers = workers_of(in);
  c.prefetch = static_cast<std::size_t>(in.prefetch_factor);
  c.in_order = in.in_order;
  c.batch = in.batch;
  c.storage = in.storage.modelled;
  if (c.storage) c.storage_bytes = storage_bytes_per_batch(in.storage, in, in.batch);
  c.cpu_work = in.transform.cpu_work;
  c.collate = collate_time(in.transform, in, in.batch);
  c.decoder = in.transform.decoder_seconds_per_sample > 0;
  c.decoder_time = in.batch * in.transform.decoder_seconds_per_sample;
  if (in.transfer.modelled) {
    c.transfer_stage = r.stage(Stage::Transfer).time_s;
    if (in.transfer.pinned) {
      c.link = true;
      c.link_time = transfer_time(in.transfer, in.batch);
      c.pin_work = pin_time(in, in.batch);
      c.pin = c.pin_work > 0;
      if (lock_time(in, in.batch) > 0) {
        c.launch = in.launch_time;
        c.pin_locked = in.pin_lock_share * c.pin_work;
      }
    } else {
      c.serial_copy = transfer_time(in.transfer, in.batch);
    }
  }
  c.loop_time = in.loop_time();
  c.model_compute = r.model_compute_s;
  c.compute = r.stage(Stage::Compute).time_s;
  c.shared = in.loop_cpu_share.has_value() && c.cpu_work && c.workers >= 1 && in.transform.cores_per_accelerator;
  c.share = in.loop_cpu_share.value_or(0);
  c.cores = in.transform.cores_per_accelerator;
  c.start = in.epoch_overhead + in.workers * in.worker_start_time;
  c.warmup = in.worker_warmup_time;
  c.persistent = in.persistent_workers;
  return c;
}

constexpr double kNever = std::numeric_limits<double>::infinity();

struct BatchRec {
  std::uint32_t rank = 0, worker = 0;
  std::uint64_t index = 0;  // in its epoch
  double read_done = kNever, work_start = 0;
  double pin_start = 0, delivered = kNever;
  Cause gate = Cause::None;  // what held it last on its way (the cause if the loop waits for it)
};

struct WorkerState {
  std::deque<std::size_t> queue;  // batches dispatched to it, in order
  bool busy = false;
  bool fresh = false;           // started this epoch, its first batch not yet begun
  std::size_t outstanding = 0;  // dispatched and not yet taken by the loop
  double free_at = 0;
};

// Pin: the pin thread's work on a batch before its locked part; PinLocked: that part, holding the
// interpreter lock; Launch: the loop launching the step, holding the lock.
enum class TaskKind : std::uint8_t { Worker, Pin, PinLocked, Loop, Launch, Share };
struct Task {
  TaskKind kind;
  std::size_t rank;
  std::size_t batch;  // Worker, Pin, PinLocked
  double remaining;   // seconds of work at one core's rate
  bool pooled;        // shares the workers' cores
};

struct RankState {
  std::vector<WorkerState> workers;
  bool up = false;
  double up_at = 0;
  double storage_free = 0, decoder_free = 0, link_free = 0;
  std::deque<std::size_t> pin_queue;
  bool pin_busy = false;
  bool lock_held = false;
  std::deque<Task> lock_queue;    // tasks waiting for the interpreter lock, in arrival order
  std::size_t cycle = 0;          // the next worker in turn
  std::size_t sent = 0;           // batches of this epoch dispatched
  std::size_t next_take = 0;      // in order: the batch the loop takes next
  std::deque<std::size_t> ready;  // out of order: delivered, not yet taken, in delivery order
  bool waiting = false;
  double want_at = 0;
  int computing = 0;             // parts of the step's compute still running: the accelerator, the process's CPU share
  double share_now = 0;          // the loop's CPU share of this step (cores shared by time)
  std::vector<std::size_t> ids;  // this epoch's batches by index (SIZE_MAX: not dispatched yet)
};

enum class EventKind : std::uint8_t { ReadDone, WorkersUp, DecoderDone, LinkDone, LoopReady, ComputeDone };
struct Event {
  double time;
  std::uint64_t seq;
  EventKind kind;
  std::size_t rank;
  std::size_t batch;
  bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
};

// One run: `epochs` epochs of `steps` steps, from an empty pipeline.
class Engine {
 public:
  Engine(const Inputs& in, const Costs& c, const SimOptions& o, Rng& rng, bool trace)
      : in_(in),
        c_(c),
        o_(o),
        rng_(rng),
        trace_(trace),
        sample_(in.transform.worker_seconds_per_sample, in.transform_cv),
        size_(1.0, in.sample_size_cv),
        step_time_(1.0, in.step_cv),
        ranks_(c.ranks) {
    for (auto& r : ranks_) r.workers.resize(c.workers);
  }

  void run(std::size_t epochs, std::size_t steps) {
    steps_ = steps;
    step_end_.reserve(epochs * steps);
    for (std::size_t e = 0; e < epochs; ++e) {
      epoch_ = e;
      epoch_start_.push_back(now_);
      start_epoch();
      while (!epoch_done_) advance();
    }
  }

  // Per step (all epochs, in order): its end, and the model compute summed over accelerators.
  std::vector<double> step_end_, step_compute_;
  std::vector<double> epoch_start_;
  // Per step and accelerator: the wait for its batch and why.
  std::vector<double> wait_;
  std::vector<Cause> cause_;
  std::vector<Span> spans_;
  // Busy time (s, summed over accelerators) and CPU work done (core-seconds).
  double worker_busy_ = 0, storage_busy_ = 0, decoder_busy_ = 0, pin_busy_ = 0, link_busy_ = 0, compute_busy_ = 0;
  double cpu_work_ = 0;

 private:
  const Inputs& in_;
  const Costs& c_;
  const SimOptions& o_;
  Rng& rng_;
  bool trace_;
  Lognormal sample_, size_, step_time_;
  std::vector<RankState> ranks_;
  std::vector<BatchRec> batches_;
  std::vector<Task> tasks_;
  std::vector<Task> done_;  // the tasks advance() finishes at once (kept to reuse its memory)
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::uint64_t seq_ = 0;
  double now_ = 0;
  std::size_t epoch_ = 0, steps_ = 0, step_ = 0;  // step_: of this epoch
  std::size_t computed_ = 0;                      // accelerators done computing this step
  double step_compute_now_ = 0;                   // model compute of this step, summed over them
  bool epoch_done_ = false;

  void at(double t, EventKind k, std::size_t rank, std::size_t batch = 0) { events_.push({t, seq_++, k, rank, batch}); }
  [[nodiscard]] bool tracing(std::uint64_t index) const { return trace_ && epoch_ == 0 && index < o_.trace_steps; }
  void span(Track t, Phase p, std::size_t rank, std::size_t worker, std::uint64_t index, double a, double b) {
    if (tracing(index) && b > a)
      spans_.push_back({t, p, static_cast<std::uint32_t>(rank), static_cast<std::uint32_t>(worker), index, a, b});
  }

  // The rates of the pooled tasks: {work, hold}. Every pooled task gets an equal share of the
  // cores' capacity (processor sharing). Work (a worker's batch, the pin thread's copy, the
  // loop's own time) then loses what the scaling law takes at the parallelism the work tasks
  // have among themselves; the loop's share of compute (TaskKind::Share) holds a core for the
  // accelerator's time: time slicing lengthens it, and it neither suffers contention nor adds to
  // it. Past the logical CPUs every task (held or working) costs the work what time slicing does
  // (oversubscription). With no hold this is min(1, usl(capacity(n)) / n / oversubscription(n)),
  // the closed forms' effective workers.
  [[nodiscard]] std::pair<double, double> pooled_rates(double work_tasks, double hold_tasks) const {
    const double ranks = static_cast<double>(c_.ranks);
    const double per_rank = (work_tasks + hold_tasks) / ranks;
    if (per_rank <= 0) return {1, 1};
    const double capacity = c_.cores ? core_capacity(in_.transform, per_rank, *c_.cores) : per_rank;
    const double share = std::min(1.0, capacity / per_rank);
    const double working = work_tasks / ranks * share;
    const double slicing = c_.cores ? oversubscription(in_.transform, per_rank, *c_.cores) : 1;
    const double work = (working > 0 ? share * usl_workers(in_.transform, working) / working : share) / slicing;
    return {std::min(1.0, work), share};
  }
  [[nodiscard]] static double task_rate(const Task& t, std::pair<double, double> rates) {
    if (!t.pooled) return 1;
    return t.kind == TaskKind::Share ? rates.second : rates.first;
  }
  [[nodiscard]] std::pair<double, double> pooled_load() const {
    double work = 0, hold = 0;
    for (const Task& t : tasks_)
      if (t.pooled) (t.kind == TaskKind::Share ? hold : work) += 1;
    return {work, hold};
  }

  // Moves time to the next event or task completion and handles it.
  void advance() {
    const auto [work_tasks, hold_tasks] = pooled_load();
    const auto rates = pooled_rates(work_tasks, hold_tasks);
    double next_task = kNever;
    std::size_t first = 0;
    for (std::size_t i = 0; i < tasks_.size(); ++i) {
      const double t = now_ + tasks_[i].remaining / task_rate(tasks_[i], rates);
      if (t < next_task) next_task = t, first = i;
    }
    const double next_event = events_.empty() ? kNever : events_.top().time;
    if (next_task == kNever && next_event == kNever)
      throw Error("internal: the simulation stalled (no event and no work left before the epoch's end)");
    const double t = std::min(next_task, next_event);
    const double dt = t - now_;
    for (Task& task : tasks_) {
      const double done = dt * task_rate(task, rates);
      task.remaining -= done;
      if (task.pooled) cpu_work_ += done;
    }
    now_ = t;
    if (next_event <= next_task) {
      const Event e = events_.top();
      events_.pop();
      handle(e);
      return;
    }
    // Tasks finishing now (the first, and any within rounding of zero).
    tasks_[first].remaining = 0;
    done_.clear();
    for (std::size_t i = 0; i < tasks_.size();) {
      if (tasks_[i].remaining <= 1e-15 * std::max(1.0, now_)) {
        done_.push_back(tasks_[i]);
        tasks_[i] = tasks_.back();
        tasks_.pop_back();
      } else {
        ++i;
      }
    }
    for (const Task& task : done_) finish(task);  // finish() adds tasks, never to done_
  }

  void handle(const Event& e) {
    switch (e.kind) {
      case EventKind::ReadDone:
        batches_[e.batch].read_done = now_;
        try_start_worker(e.rank, batches_[e.batch].worker);
        break;
      case EventKind::WorkersUp:
        worker_up(e.rank);
        break;
      case EventKind::DecoderDone:
        to_pin(e.batch);
        break;
      case EventKind::LinkDone:
        deliver(e.batch);
        break;
      case EventKind::LoopReady:
        start_compute(e.rank);
        break;
      case EventKind::ComputeDone:
        part_done(e.rank);
        break;
    }
  }

  void finish(const Task& t) {
    switch (t.kind) {
      case TaskKind::Worker:
        worker_done(t.batch);
        break;
      case TaskKind::Pin:
        pin_unlocked_done(t.rank, t.batch);
        break;
      case TaskKind::PinLocked:
        release(t.rank);
        pin_done(t.batch);
        break;
      case TaskKind::Loop:
        start_compute(t.rank);
        break;
      case TaskKind::Launch:
        release(t.rank);
        launched(t.rank);
        break;
      case TaskKind::Share:
        part_done(t.rank);
        break;
    }
  }

  // The interpreter lock of a rank's training process: a task that needs it runs when it is
  // free, else waits its turn (first come, first served).
  void acquire(const Task& t) {
    RankState& rs = ranks_[t.rank];
    if (rs.lock_held) {
      rs.lock_queue.push_back(t);
      return;
    }
    rs.lock_held = true;
    tasks_.push_back(t);
  }
  void release(std::size_t r) {
    RankState& rs = ranks_[r];
    if (rs.lock_queue.empty()) {
      rs.lock_held = false;
      return;
    }
    tasks_.push_back(rs.lock_queue.front());
    rs.lock_queue.pop_front();
  }

  void start_epoch() {
    epoch_done_ = false;
    step_ = 0;
    for (std::size_t r = 0; r < ranks_.size(); ++r) {
      RankState& rs = ranks_[r];
      rs.sent = rs.next_take = rs.cycle = 0;
      rs.ready.clear();
      rs.ids.assign(steps_, SIZE_MAX);
      const bool start = c_.workers >= 1 && (!c_.persistent || epoch_ == 0);
      for (auto& w : rs.workers) {
        w.outstanding = 0;
        w.fresh = start;
      }
      if (c_.workers >= 1) {
        rs.up = !start;
        if (start) {
          rs.up_at = now_ + c_.start;
          at(rs.up_at, EventKind::WorkersUp, r);
        } else {
          worker_up(r);
        }
      }
    }
    begin_step();
  }

  void worker_up(std::size_t r) {
    RankState& rs = ranks_[r];
    rs.up = true;
    rs.up_at = now_;
    const std::size_t prime = std::min(c_.prefetch * c_.workers, steps_);
    for (std::size_t i = 0; i < prime; ++i) dispatch(r);
    for (std::size_t w = 0; w < c_.workers; ++w) try_start_worker(r, w);
  }

  // The sampler's next batch to a worker (PyTorch's _try_put_index).
  void dispatch(std::size_t r) {
    RankState& rs = ranks_[r];
    if (rs.sent >= steps_) return;
    std::size_t w = rs.cycle % c_.workers;
    bool found = c_.in_order;
    for (std::size_t tries = 0; !found && tries < c_.workers; ++tries) {
      w = rs.cycle % c_.workers;
      if (rs.workers[w].outstanding < c_.prefetch)
        found = true;
      else
        ++rs.cycle;
    }
    if (!found) return;
    ++rs.cycle;
    BatchRec b;
    b.rank = static_cast<std::uint32_t>(r);
    b.worker = static_cast<std::uint32_t>(w);
    b.index = rs.sent;
    const std::size_t id = batches_.size();
    rs.ids[rs.sent++] = id;
    ++rs.workers[w].outstanding;
    if (c_.storage) {
      const double start = std::max(now_, rs.storage_free);
      const double service = storage_time(in_.storage, c_.storage_bytes * batch_factor(size_));
      // The server is busy for the batch's time (bandwidth, IOPS, requests in flight); the batch
      // is not there before one request's latency either (reads from page cache have none).
      const double delay = in_.storage.latency && in_.storage.cache_hit < 1 ? *in_.storage.latency : 0;
      const double ready = start + std::max(service, delay);
      rs.storage_free = start + service;
      storage_busy_ += service;
      b.gate = Cause::Storage;
      at(ready, EventKind::ReadDone, r, id);
      span(Track::Storage, Phase::Read, r, 0, b.index, start, ready);
    } else {
      b.read_done = now_;
      b.gate = Cause::Prefetch;
    }
    batches_.push_back(b);
    rs.workers[w].queue.push_back(id);
    try_start_worker(r, w);
  }

  // The mean of B draws of a factor with mean 1 (one per sample of the batch).
  double batch_factor(const Lognormal& f) {
    if (f.constant()) return 1;
    double sum = 0;
    for (std::size_t i = 0; i < static_cast<std::size_t>(c_.batch); ++i) sum += f.draw(rng_);
    return sum / c_.batch;
  }

  double batch_work() {
    if (!c_.cpu_work) return 0;
    double sum = 0;
    const auto n = static_cast<std::size_t>(c_.batch);
    if (!o_.sample_times.empty()) {
      for (std::size_t i = 0; i < n; ++i)
        sum += o_.sample_times[static_cast<std::size_t>(rng_.uniform() * static_cast<double>(o_.sample_times.size()))];
    } else if (sample_.constant()) {
      sum = c_.batch * in_.transform.worker_seconds_per_sample;
    } else {
      for (std::size_t i = 0; i < n; ++i) sum += sample_.draw(rng_);
    }
    return sum + c_.collate;
  }

  void try_start_worker(std::size_t r, std::size_t w) {
    RankState& rs = ranks_[r];
    WorkerState& ws = rs.workers[w];
    if (!rs.up || ws.busy || ws.queue.empty()) return;
    const std::size_t id = ws.queue.front();
    BatchRec& b = batches_[id];
    if (b.read_done == kNever) return;
    ws.queue.pop_front();
    ws.busy = true;
    b.work_start = now_;
    // What it waited for last: its read, its worker's earlier batches, or the workers' start.
    const double latest = std::max({b.read_done, ws.free_at, rs.up_at});
    if (latest > b.read_done)
      b.gate = latest == rs.up_at && rs.up_at > ws.free_at ? Cause::WorkerStart : Cause::Workers;
    // A newly started worker's first batch also pays its warm-up (CPU work, shared as the rest);
    // a wait for it is the workers' start's.
    double work = batch_work();
    if (ws.fresh && c_.warmup > 0) {
      work += c_.warmup;
      b.gate = Cause::WorkerStart;
    }
    ws.fresh = false;
    if (work > 0) {
      tasks_.push_back({TaskKind::Worker, r, id, work, true});
    } else {
      worker_done(id);
    }
  }

  void worker_done(std::size_t id) {
    BatchRec& b = batches_[id];
    RankState& rs = ranks_[b.rank];
    WorkerState& ws = rs.workers[b.worker];
    worker_busy_ += now_ - b.work_start;
    span(Track::Worker, Phase::Build, b.rank, b.worker, b.index, b.work_start, now_);
    ws.busy = false;
    ws.free_at = now_;
    try_start_worker(b.rank, b.worker);
    if (c_.decoder) {
      const double start = std::max(now_, rs.decoder_free);
      if (start > now_) b.gate = Cause::Decoder;
      rs.decoder_free = start + c_.decoder_time;
      decoder_busy_ += c_.decoder_time;
      span(Track::Decoder, Phase::Decode, b.rank, 0, b.index, start, start + c_.decoder_time);
      at(start + c_.decoder_time, EventKind::DecoderDone, b.rank, id);
    } else {
      to_pin(id);
    }
  }

  void to_pin(std::size_t id) {
    BatchRec& b = batches_[id];
    if (!c_.pin) return to_link(id);
    RankState& rs = ranks_[b.rank];
    rs.pin_queue.push_back(id);
    if (rs.pin_busy) b.gate = Cause::PinThread;
    try_start_pin(b.rank);
  }

  void try_start_pin(std::size_t r) {
    RankState& rs = ranks_[r];
    if (rs.pin_busy || rs.pin_queue.empty()) return;
    const std::size_t id = rs.pin_queue.front();
    rs.pin_queue.pop_front();
    rs.pin_busy = true;
    batches_[id].pin_start = now_;
    const double unlocked = c_.pin_work - c_.pin_locked;
    if (unlocked > 0)
      tasks_.push_back({TaskKind::Pin, r, id, unlocked, c_.shared});
    else
      pin_unlocked_done(r, id);
  }

  // The pin thread's work on a batch up to its locked part, which then waits for the lock.
  void pin_unlocked_done(std::size_t r, std::size_t id) {
    if (c_.pin_locked > 0)
      acquire({TaskKind::PinLocked, r, id, c_.pin_locked, c_.shared});
    else
      pin_done(id);
  }

  void pin_done(std::size_t id) {
    BatchRec& b = batches_[id];
    RankState& rs = ranks_[b.rank];
    rs.pin_busy = false;
    pin_busy_ += now_ - b.pin_start;
    span(Track::PinThread, Phase::Pin, b.rank, 0, b.index, b.pin_start, now_);
    try_start_pin(b.rank);
    to_link(id);
  }

  void to_link(std::size_t id) {
    BatchRec& b = batches_[id];
    if (!c_.link) return deliver(id);
    RankState& rs = ranks_[b.rank];
    const double start = std::max(now_, rs.link_free);
    if (start > now_) b.gate = Cause::Link;
    rs.link_free = start + c_.link_time;
    link_busy_ += c_.link_time;
    span(Track::Link, Phase::Copy, b.rank, 0, b.index, start, start + c_.link_time);
    at(start + c_.link_time, EventKind::LinkDone, b.rank, id);
  }

  void deliver(std::size_t id) {
    BatchRec& b = batches_[id];
    b.delivered = now_;
    RankState& rs = ranks_[b.rank];
    if (!c_.in_order) rs.ready.push_back(id);
    try_take(b.rank);
  }

  void begin_step() {
    computed_ = 0;
    for (std::size_t r = 0; r < ranks_.size(); ++r) {
      RankState& rs = ranks_[r];
      rs.waiting = true;
      rs.want_at = now_;
      if (c_.workers == 0)
        serial_step(r);
      else
        try_take(r);
    }
  }

  // The loop takes its next batch when it is there (in order: the next index; else any).
  void try_take(std::size_t r) {
    RankState& rs = ranks_[r];
    if (!rs.waiting) return;
    std::size_t id = SIZE_MAX;
    if (c_.in_order) {
      if (rs.next_take < steps_ && rs.ids[rs.next_take] != SIZE_MAX && batches_[rs.ids[rs.next_take]].delivered <= now_)
        id = rs.ids[rs.next_take];
    } else if (!rs.ready.empty()) {
      id = rs.ready.front();
      rs.ready.pop_front();
    }
    if (id == SIZE_MAX) return;
    ++rs.next_take;
    rs.waiting = false;
    const BatchRec& b = batches_[id];
    const double wait = now_ - rs.want_at;
    wait_.push_back(wait);
    cause_.push_back(wait > 0 ? b.gate : Cause::None);
    span(Track::Loop, Phase::Wait, r, 0, step_, rs.want_at, now_);
    --rs.workers[b.worker].outstanding;
    dispatch(r);
    const double own = c_.loop_time + c_.serial_copy;
    span(Track::Loop, Phase::Receive, r, 0, step_, now_, now_ + own);
    if (own <= 0)
      start_compute(r);
    else if (c_.shared)
      tasks_.push_back({TaskKind::Loop, r, 0, own, true});
    else
      at(now_ + own, EventKind::LoopReady, r);
  }

  // No workers: the training process reads, transforms, copies and computes in turn.
  void serial_step(std::size_t r) {
    RankState& rs = ranks_[r];
    rs.waiting = false;
    const double read = c_.storage ? storage_time(in_.storage, c_.storage_bytes * batch_factor(size_)) : 0;
    const double transform = std::max(batch_work(), c_.decoder_time);
    const double copy = c_.transfer_stage;
    storage_busy_ += read;
    const std::array<std::pair<double, Cause>, 3> parts = {
        {{read, Cause::Storage}, {transform, Cause::Workers}, {copy, Cause::Link}}};
    Cause most = Cause::None;
    double longest = 0;
    for (const auto& [time, cause] : parts)
      if (time > longest) longest = time, most = cause;
    wait_.push_back(read + transform + copy);
    cause_.push_back(most);
    span(Track::Loop, Phase::Read, r, 0, step_, now_, now_ + read);
    span(Track::Loop, Phase::Build, r, 0, step_, now_ + read, now_ + read + transform);
    span(Track::Loop, Phase::Copy, r, 0, step_, now_ + read + transform, now_ + read + transform + copy);
    span(Track::Loop, Phase::Receive, r, 0, step_, now_ + read + transform + copy,
         now_ + read + transform + copy + c_.loop_time);
    at(now_ + read + transform + copy + c_.loop_time, EventKind::LoopReady, r);
  }

  void start_compute(std::size_t r) {
    RankState& rs = ranks_[r];
    const double f = step_time_.draw(rng_);
    // Shared by time, the training process keeps a core busy for its share of the compute (it
    // launches the work, or computes itself): the step's compute ends when both are done.
    // With the interpreter lock the loop first launches the step's work, holding the lock (the
    // accelerator computes meanwhile); the launch is part of its CPU share, the rest follows.
    rs.computing = 1;
    rs.share_now = c_.shared ? c_.share * c_.compute * f : 0;
    if (c_.launch > 0) {
      rs.computing = 2;
      acquire({TaskKind::Launch, r, 0, c_.launch, c_.shared});
    } else if (rs.share_now > 0) {
      rs.computing = 2;
      tasks_.push_back({TaskKind::Share, r, 0, rs.share_now, true});
    }
    compute_busy_ += c_.compute * f;
    step_compute_now_ += c_.model_compute * f;
    span(Track::Accelerator, Phase::Compute, r, 0, step_, now_, now_ + c_.compute * f);
    at(now_ + c_.compute * f, EventKind::ComputeDone, r);
  }

  // The launch is done: the rest of the loop's CPU share of this step, if any, then its end.
  void launched(std::size_t r) {
    const double rest = ranks_[r].share_now - c_.launch;
    if (rest > 0)
      tasks_.push_back({TaskKind::Share, r, 0, rest, true});
    else
      part_done(r);
  }

  void part_done(std::size_t r) {
    if (--ranks_[r].computing == 0) compute_done();
  }

  // Data-parallel ranks step together: the step ends when the slowest has computed.
  void compute_done() {
    if (++computed_ < ranks_.size()) return;
    step_end_.push_back(now_);
    step_compute_.push_back(step_compute_now_);
    step_compute_now_ = 0;
    if (++step_ == steps_) {
      epoch_done_ = true;
      return;
    }
    begin_step();
  }
};

// About how many operations one step of the node costs: the draws per batch (one per sample
// when a time or size varies) and the tasks every event visits.
double work_per_step(const Inputs& in, const SimOptions& o) {
  const bool draws = in.transform_cv > 0 || !o.sample_times.empty() || (in.storage.modelled && in.sample_size_cv > 0);
  const double tasks = in.accelerators * (in.workers + 2);
  return in.accelerators * ((draws ? 2 * in.batch : 0) + 8 * tasks + 16);
}

}  // namespace

std::size_t min_batches(const Inputs& in) {
  const std::size_t round = std::max<std::size_t>(1, workers_of(in));
  const auto p = static_cast<std::size_t>(in.prefetch_factor);
  // The warm-up (prefetch + 2 rounds) and two rounds of window: five times that keeps
  // steps / 5 from setting the warm-up.
  return round_up((p + 2) * round, round) + 2 * round + 1;
}

std::size_t default_batches(const Inputs& in) { return std::max<std::size_t>(2000, 10 * min_batches(in)); }

namespace {

// The engine's clock is absolute seconds from the run's start. Where a run lasts so long that
// the clock's last digit is more than a ten-thousandth of a step (an epoch_overhead of 1e17 s: 16 s
// a digit against steps of 0.1 s), it cannot tell the steps apart and every figure would be
// wrong (a step of 0 s, utilization inf): refused, with what to change.
void check_clock(double end, double step) {
  if (!(end > 0) || !(step > 0)) return;
  const double digit = std::nextafter(end, std::numeric_limits<double>::infinity()) - end;
  if (digit <= 1e-4 * step) return;
  throw Error(fmt::format(
      "simulate: the run lasts {:.4g} s, too long beside steps of {:.4g} s for its clock (16 digits) to tell "
      "them apart; lower the longest times (pipeline.epoch_overhead, pipeline.worker_start_time, "
      "pipeline.worker_warmup_time) or simulate fewer epochs (the closed forms of `pipesim diagnose` hold)",
      end, step));
}

}  // namespace

Simulation simulate(const Inputs& in, const SimOptions& o) {
  Simulation s;
  s.inputs = in;
  s.analytic = evaluate(in);
  s.seed = o.seed;
  if (!o.sample_times.empty()) {
    s.sample_times = o.sample_times.size();
    s.sample_times_mean = mean(o.sample_times);
    s.sample_times_label = o.sample_times_label;
  }
  const Costs c = costs(in, s.analytic);
  const std::size_t steps = o.batches ? o.batches : default_batches(in);
  if (steps < min_batches(in))
    throw Error(
        fmt::format("--batches {} is too few: with {} workers and prefetch factor {} the steady state "
                    "needs at least {} steps",
                    steps, workers_of(in), in.prefetch_factor, min_batches(in)));
  if (static_cast<double>(steps) * in.accelerators > static_cast<double>(o.max_steps) ||
      work_per_step(in, o) * static_cast<double>(steps) > o.max_work)
    throw Error(
        fmt::format("simulating {} steps (--batches) of {} accelerators per node with {} workers each and "
                    "batch {} would take too long: lower --batches (at least {}), the workers or the "
                    "accelerators",
                    steps, in.accelerators, in.workers, in.batch, min_batches(in)));
  Rng rng(o.seed);
  {
    Engine e(in, c, o, rng, o.trace_steps > 0);
    e.run(1, steps);
    check_clock(e.step_end_.back(), s.analytic.stage(Stage::Compute).time_s);
    const Window w = window(in, steps);
    s.steps = steps;
    s.window_steps = w.k2 - w.k1;
    const double span = e.step_end_[w.k2 - 1] - e.step_end_[w.k1 - 1];
    double compute = 0;
    for (std::size_t k = w.k1; k < w.k2; ++k) compute += e.step_compute_[k];
    s.step_s = span / static_cast<double>(s.window_steps);
    s.utilization = compute / in.accelerators / span;
    s.throughput = static_cast<double>(s.window_steps) * in.batch * in.accelerators * in.nodes / span;
    const auto ranks = static_cast<std::size_t>(in.accelerators);
    std::vector<double> waits(e.wait_.begin() + static_cast<std::ptrdiff_t>(w.k1 * ranks),
                              e.wait_.begin() + static_cast<std::ptrdiff_t>(w.k2 * ranks));
    double total_wait = 0;
    for (std::size_t i = w.k1 * ranks; i < w.k2 * ranks; ++i) {
      const auto k = static_cast<std::size_t>(e.cause_[i]);
      s.cause_steps[k] += 1.0 / static_cast<double>(waits.size());
      s.cause_wait[k] += e.wait_[i];
      total_wait += e.wait_[i];
    }
    for (double& x : s.cause_wait) x = total_wait > 0 ? x / total_wait : 0;
    s.wait_histogram = wait_histogram(waits, 30);
    s.wait = spread(std::move(waits));
    const double elapsed = e.step_end_.back() * in.accelerators;  // accelerator-seconds
    s.busy.accelerator = e.compute_busy_ / elapsed;
    s.busy.workers = c.workers ? e.worker_busy_ / (elapsed * static_cast<double>(c.workers)) : 0;
    if (c.cores && c.workers) s.busy.cores = e.cpu_work_ / (elapsed * *c.cores);
    if (c.storage) s.busy.storage = e.storage_busy_ / elapsed;
    if (c.decoder) s.busy.decoder = e.decoder_busy_ / elapsed;
    if (c.pin && c.workers) s.busy.pin_thread = e.pin_busy_ / elapsed;
    if (c.link && c.workers) s.busy.link = e.link_busy_ / elapsed;
    s.spans = std::move(e.spans_);
  }
  if (!in.dataset_samples) {
    s.epoch_skip = EpochSkip::NoDataset;
    return s;
  }
  const double per_step = in.batch * in.accelerators * in.nodes;
  const auto n = static_cast<std::size_t>(std::floor(*in.dataset_samples / per_step));
  const std::size_t epochs = o.epochs ? o.epochs : 2;
  s.steps_per_epoch = n;
  if (n == 0) {
    s.epoch_skip = EpochSkip::TooFewSamples;
    return s;
  }
  if (static_cast<double>(n) * static_cast<double>(epochs) * in.accelerators > static_cast<double>(o.max_steps) ||
      work_per_step(in, o) * static_cast<double>(n) * static_cast<double>(epochs) > o.max_work) {
    s.epoch_skip = EpochSkip::TooLong;
    return s;
  }
  Engine e(in, c, o, rng, false);
  e.run(epochs, n);
  check_clock(e.step_end_.back(), s.analytic.stage(Stage::Compute).time_s);
  s.epochs = epochs;
  double compute = 0, time = 0;
  for (std::size_t ep = 0; ep < epochs; ++ep) {
    const double start = e.epoch_start_[ep];
    const double end = e.step_end_[(ep + 1) * n - 1];
    s.epoch_s.push_back(end - start);
    s.first_batch_s.push_back(e.step_end_[ep * n] - start);
    if (epochs > 1 && ep == 0) continue;
    for (std::size_t k = ep * n; k < (ep + 1) * n; ++k) compute += e.step_compute_[k];
    time += end - start;
  }
  s.epoch_utilization = compute / in.accelerators / time;
  return s;
}

}  // namespace pipesim
