#include "core/sim/sim_engine.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <queue>
#include <utility>

#include "core/stages/compute.hpp"
#include "core/stages/storage.hpp"
#include "core/stages/training_process.hpp"
#include "core/stages/transfer.hpp"
#include "core/stages/transform.hpp"
#include "core/stages/variance.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace pipesim {

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

// Asks for 2 MiB pages over a record's storage where the kernel gives them on request (Linux's
// transparent huge pages in "madvise" mode): a run of millions of steps writes tens of MB of
// records, and taking their pages 4 KiB at a time cost a third of the run (2,000,000 batches:
// 12,300 page faults, 0.07 s of 0.25 s). Only the whole 2 MiB spans inside the storage; a hint,
// whose refusal changes nothing but the time.
template <class T>
void ask_huge_pages(const std::vector<T>& v) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t huge = std::uintptr_t{1} << 21;
  const auto begin = reinterpret_cast<std::uintptr_t>(v.data());
  const std::uintptr_t end = begin + v.capacity() * sizeof(T);
  const std::uintptr_t from = (begin + huge - 1) & ~(huge - 1), to = end & ~(huge - 1);
  if (v.data() != nullptr && to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);
#else
  (void)v;
#endif
}

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
  double lock_since = 0;          // when the lock was last taken while free
  std::deque<Task> lock_queue;    // tasks waiting for the interpreter lock, in arrival order
  std::size_t cycle = 0;          // the next worker in turn
  std::size_t sent = 0;           // batches of this epoch dispatched
  std::size_t next_take = 0;      // in order: the batch the loop takes next
  std::deque<std::size_t> ready;  // out of order: delivered, not yet taken, in delivery order
  bool waiting = false;
  double want_at = 0;
  int computing = 0;     // parts of the step's compute still running: the accelerator, the process's CPU share
  double share_now = 0;  // the loop's CPU share of this step (cores shared by time)
  std::deque<std::size_t> pending;  // in order: the batches dispatched and not yet taken, by index
};

enum class EventKind : std::uint8_t {
  ReadDone,
  WorkersUp,
  DecoderDone,
  LinkDone,
  LoopWoken,
  LoopReady,
  ComputeDone,
  OthersDone
};
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
        batch_time_(in.transform.worker_seconds_per_sample, in.transform_cv, static_cast<std::size_t>(c.batch),
                    !o.sample_draws),
        batch_size_(1.0, in.sample_size_cv, static_cast<std::size_t>(c.batch), !o.sample_draws),
        step_time_(1.0, in.step_cv),
        ranks_(c.ranks) {
    for (auto& r : ranks_) r.workers.resize(c.workers);
  }

  void run(std::size_t epochs, std::size_t steps) {
    steps_ = steps;
    // Every step's record, reserved at once: growing them by doubling copied them over and over.
    rec_.step_end.reserve(epochs * steps);
    rec_.step_compute.reserve(epochs * steps);
    rec_.wait.reserve(epochs * steps * ranks_.size());
    rec_.cause.reserve(epochs * steps * ranks_.size());
    ask_huge_pages(rec_.step_end);
    ask_huge_pages(rec_.step_compute);
    ask_huge_pages(rec_.wait);
    ask_huge_pages(rec_.cause);
    for (std::size_t e = 0; e < epochs; ++e) {
      epoch_ = e;
      rec_.epoch_start.push_back(now_);
      start_epoch();
      while (!epoch_done_) advance();
    }
  }

  EngineRecord rec_;  // what the run recorded

 private:
  const Inputs& in_;
  const Costs& c_;
  const SimOptions& o_;
  Rng& rng_;
  bool trace_;
  // A batch's transform time and its bytes over their mean, each the sum of its samples' draws
  // (drawn at once where that is close: LognormalSum); a step's time factor.
  LognormalSum batch_time_, batch_size_;
  Lognormal step_time_;
  std::vector<RankState> ranks_;
  // The batches on their way (a taken batch's record is reused: memory stays that of the
  // batches in flight, whatever the run's length).
  std::vector<BatchRec> batches_;
  std::vector<std::size_t> free_;
  std::vector<Task> tasks_;
  int work_tasks_ = 0, hold_tasks_ = 0;  // the pooled tasks among tasks_: working, holding a core
  int rates_work_ = -1, rates_hold_ = -1;
  std::pair<double, double> rates_{1, 1};  // pooled_rates(rates_work_, rates_hold_)
  std::vector<Task> done_;                 // the tasks advance() finishes at once (kept to reuse its memory)
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::uint64_t seq_ = 0;
  double now_ = 0;
  std::size_t epoch_ = 0, steps_ = 0, step_ = 0;  // step_: of this epoch
  std::size_t computed_ = 0;                      // accelerators done computing this step
  double step_compute_now_ = 0;                   // model compute of this step, summed over them
  double first_compute_ = kNever;                 // when the first of them began this step's compute
  bool epoch_done_ = false;

  void at(double t, EventKind k, std::size_t rank, std::size_t batch = 0) { events_.push({t, seq_++, k, rank, batch}); }
  [[nodiscard]] bool tracing(std::uint64_t index) const { return trace_ && epoch_ == 0 && index < o_.trace_steps; }
  void span(Track t, Phase p, std::size_t rank, std::size_t worker, std::uint64_t index, double a, double b) {
    if (tracing(index) && b > a)
      rec_.spans.push_back({t, p, static_cast<std::uint32_t>(rank), static_cast<std::uint32_t>(worker), index, a, b});
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
    const SharedRates r = shared_rates(in_.transform, (work_tasks + hold_tasks) / ranks, work_tasks / ranks, c_.cores);
    return {r.work, r.hold};
  }
  [[nodiscard]] static double task_rate(const Task& t, std::pair<double, double> rates) {
    if (!t.pooled) return 1;
    return t.kind == TaskKind::Share ? rates.second : rates.first;
  }
  // A task starts: the pooled ones are counted as they come and go (pooled_rates' arguments).
  void add_task(const Task& t) {
    tasks_.push_back(t);
    count_task(t, 1);
  }
  void count_task(const Task& t, int sign) {
    if (t.pooled) (t.kind == TaskKind::Share ? hold_tasks_ : work_tasks_) += sign;
  }
  // pooled_rates at the present load, computed again only when the load has changed.
  [[nodiscard]] std::pair<double, double> current_rates() {
    if (work_tasks_ != rates_work_ || hold_tasks_ != rates_hold_) {
      rates_work_ = work_tasks_;
      rates_hold_ = hold_tasks_;
      rates_ = pooled_rates(work_tasks_, hold_tasks_);
    }
    return rates_;
  }

  // Moves time to the next event or task completion and handles it.
  void advance() {
    const auto rates = current_rates();
    double next_task = kNever;
    std::size_t first = 0;
    const std::size_t n = tasks_.size();
    const double now = now_;
    for (std::size_t i = 0; i < n; ++i) {
      const double t = now + tasks_[i].remaining / task_rate(tasks_[i], rates);
      if (t < next_task) next_task = t, first = i;
    }
    const double next_event = events_.empty() ? kNever : events_.top().time;
    if (next_task == kNever && next_event == kNever)
      throw Error("internal: the simulation stalled (no event and no work left before the epoch's end)");
    const double t = std::min(next_task, next_event);
    const double dt = t - now;
    // The CPU work done, summed in the same order as ever, in a register.
    double cpu_work = rec_.cpu_work;
    for (Task& task : tasks_) {
      const double done = dt * task_rate(task, rates);
      task.remaining -= done;
      if (task.pooled) cpu_work += done;
    }
    rec_.cpu_work = cpu_work;
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
        count_task(tasks_[i], -1);
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
      case EventKind::LoopWoken:
        receive(e.rank);
        break;
      case EventKind::LoopReady:
        start_compute(e.rank);
        break;
      case EventKind::ComputeDone:
        part_done(e.rank);
        break;
      case EventKind::OthersDone:
        end_step();
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
    rs.lock_since = now_;
    add_task(t);
  }
  void release(std::size_t r) {
    RankState& rs = ranks_[r];
    if (rs.lock_queue.empty()) {
      rs.lock_held = false;
      rec_.lock_held += now_ - rs.lock_since;
      return;
    }
    add_task(rs.lock_queue.front());
    rs.lock_queue.pop_front();
  }

  void start_epoch() {
    epoch_done_ = false;
    step_ = 0;
    for (std::size_t r = 0; r < ranks_.size(); ++r) {
      RankState& rs = ranks_[r];
      rs.sent = rs.next_take = rs.cycle = 0;
      rs.ready.clear();
      rs.pending.clear();
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
    std::size_t id = batches_.size();
    if (!free_.empty()) {
      id = free_.back();
      free_.pop_back();
    }
    if (c_.in_order) rs.pending.push_back(id);
    ++rs.sent;
    ++rs.workers[w].outstanding;
    if (c_.storage) {
      const double start = std::max(now_, rs.storage_free);
      const double service = storage_time(in_.storage, c_.storage_bytes * size_factor());
      // The server is busy for the batch's time (bandwidth, IOPS, requests in flight); the batch
      // is not there before one request's latency either (reads from page cache have none). Where
      // one request holds a shard's several batches, each worker's first batch of the epoch waits
      // for its first request whole, as the model's epoch start does, and the rest for none.
      double delay = in_.storage.latency && in_.storage.cache_hit < 1 ? *in_.storage.latency : 0;
      // A worker's first batch of an epoch waits for its first request and its shuffle buffer
      // (first_read_time); the later batches of a request that holds several batches, for none.
      const bool whole_request = in_.storage.shard_bytes && in_.storage.request_bytes > c_.batch * in_.sample_bytes;
      if (b.index < std::max<std::size_t>(1, c_.workers) && (whole_request || in_.storage.shuffle_buffer_bytes > 0))
        delay = first_read_time(in_.storage, static_cast<double>(c_.workers));
      else if (whole_request)
        delay = 0;
      const double ready = start + std::max(service, delay);
      rs.storage_free = start + service;
      rec_.storage_busy += service;
      b.gate = Cause::Storage;
      at(ready, EventKind::ReadDone, r, id);
      span(Track::Storage, Phase::Read, r, 0, b.index, start, ready);
    } else {
      b.read_done = now_;
      b.gate = Cause::Prefetch;
    }
    if (id == batches_.size())
      batches_.push_back(b);
    else
      batches_[id] = b;
    rs.workers[w].queue.push_back(id);
    try_start_worker(r, w);
  }

  // A batch's bytes over their mean: the mean of its samples' size factors.
  double size_factor() { return batch_size_.constant() ? 1 : batch_size_.draw(rng_) / c_.batch; }

  double batch_work() {
    if (!c_.cpu_work) return 0;
    double sum = 0;
    const auto n = static_cast<std::size_t>(c_.batch);
    if (!o_.sample_times.empty()) {
      for (std::size_t i = 0; i < n; ++i)
        sum += o_.sample_times[static_cast<std::size_t>(rng_.uniform() * static_cast<double>(o_.sample_times.size()))];
    } else {
      sum = batch_time_.draw(rng_);  // without variance, B times the mean (no draw)
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
      add_task({TaskKind::Worker, r, id, work, true});
    } else {
      worker_done(id);
    }
  }

  void worker_done(std::size_t id) {
    BatchRec& b = batches_[id];
    RankState& rs = ranks_[b.rank];
    WorkerState& ws = rs.workers[b.worker];
    rec_.worker_busy += now_ - b.work_start;
    span(Track::Worker, Phase::Build, b.rank, b.worker, b.index, b.work_start, now_);
    ws.busy = false;
    ws.free_at = now_;
    try_start_worker(b.rank, b.worker);
    if (c_.decoder) {
      const double start = std::max(now_, rs.decoder_free);
      if (start > now_) b.gate = Cause::Decoder;
      rs.decoder_free = start + c_.decoder_time;
      rec_.decoder_busy += c_.decoder_time;
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
      add_task({TaskKind::Pin, r, id, unlocked, c_.shared});
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
    rec_.pin_busy += now_ - b.pin_start;
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
    rec_.link_busy += c_.link_time;
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
    first_compute_ = kNever;
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
      if (!rs.pending.empty() && batches_[rs.pending.front()].delivered <= now_) {
        id = rs.pending.front();
        rs.pending.pop_front();
      }
    } else if (!rs.ready.empty()) {
      id = rs.ready.front();
      rs.ready.pop_front();
    }
    if (id == SIZE_MAX) return;
    ++rs.next_take;
    rs.waiting = false;
    const BatchRec& b = batches_[id];
    const double wait = now_ - rs.want_at;
    rec_.wait.push_back(wait);
    rec_.cause.push_back(wait > 0 ? b.gate : Cause::None);
    span(Track::Loop, Phase::Wait, r, 0, step_, rs.want_at, now_);
    --rs.workers[b.worker].outstanding;
    free_.push_back(id);  // nothing reads the record again
    dispatch(r);
    // Shared by time, with most CPUs busy as it takes the batch (the workers building, the next
    // one just sent its index, and the pin thread) the loop first waits to be run at all.
    const double crowd = c_.crowded > 0
                             ? crowded_loss(in_, static_cast<double>(work_tasks_) / static_cast<double>(ranks_.size()),
                                            c_.cores.value_or(0))
                             : 0;
    if (crowd > 0) {
      span(Track::Loop, Phase::Receive, r, 0, step_, now_, now_ + crowd);
      at(now_ + crowd, EventKind::LoopWoken, r);
    } else {
      receive(r);
    }
  }

  // The loop's own time with the batch taken (receiving it, a pageable copy it makes), then compute.
  void receive(std::size_t r) {
    const double own = c_.loop_time + c_.serial_copy;
    span(Track::Loop, Phase::Receive, r, 0, step_, now_, now_ + own);
    if (own <= 0)
      start_compute(r);
    else if (c_.shared)
      add_task({TaskKind::Loop, r, 0, own, true});
    else
      at(now_ + own, EventKind::LoopReady, r);
  }

  // No workers: the training process reads, transforms, copies and computes in turn.
  void serial_step(std::size_t r) {
    RankState& rs = ranks_[r];
    rs.waiting = false;
    const double read = c_.storage ? storage_time(in_.storage, c_.storage_bytes * size_factor()) : 0;
    const double transform = std::max(batch_work(), c_.decoder_time);
    const double copy = c_.transfer_stage;
    rec_.storage_busy += read;
    const std::array<std::pair<double, Cause>, 3> parts = {
        {{read, Cause::Storage}, {transform, Cause::Workers}, {copy, Cause::Link}}};
    Cause most = Cause::None;
    double longest = 0;
    for (const auto& [time, cause] : parts)
      if (time > longest) longest = time, most = cause;
    rec_.wait.push_back(read + transform + copy);
    rec_.cause.push_back(most);
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
    first_compute_ = std::min(first_compute_, now_);
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
      add_task({TaskKind::Share, r, 0, rs.share_now, true});
    }
    rec_.compute_busy += c_.compute * f;
    step_compute_now_ += c_.model_compute * f;
    span(Track::Accelerator, Phase::Compute, r, 0, step_, now_, now_ + c_.compute * f);
    at(now_ + c_.compute * f, EventKind::ComputeDone, r);
  }

  // The launch is done: the rest of the loop's CPU share of this step, if any, then its end.
  void launched(std::size_t r) {
    const double rest = ranks_[r].share_now - c_.launch;
    if (rest > 0)
      add_task({TaskKind::Share, r, 0, rest, true});
    else
      part_done(r);
  }

  void part_done(std::size_t r) {
    if (--ranks_[r].computing == 0) compute_done();
  }

  // Data-parallel ranks step together: the step ends when the slowest has computed. The other
  // nodes' accelerators are this node's statistical copies for their data: each begins its
  // compute when this node's first does, its step a draw of its own (the slowest of them drawn
  // at once).
  void compute_done() {
    if (++computed_ < ranks_.size()) return;
    if (c_.other_ranks > 0 && !step_time_.constant()) {
      const double others =
          first_compute_ + c_.compute * step_time_.draw_largest(rng_, c_.other_ranks, normal_quantile);
      if (others > now_) {
        at(others, EventKind::OthersDone, 0);
        return;
      }
    }
    end_step();
  }

  void end_step() {
    rec_.step_end.push_back(now_);
    rec_.step_compute.push_back(step_compute_now_);
    step_compute_now_ = 0;
    if (++step_ == steps_) {
      epoch_done_ = true;
      return;
    }
    begin_step();
  }
};

}  // namespace

EngineRecord run_engine(const Inputs& in, const Costs& c, const SimOptions& o, Rng& rng, bool trace, std::size_t epochs,
                        std::size_t steps) {
  Engine e(in, c, o, rng, trace);
  e.run(epochs, steps);
  return std::move(e.rec_);
}

}  // namespace pipesim
