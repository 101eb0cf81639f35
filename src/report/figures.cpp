#include "report/figures.hpp"

#include <array>

namespace pipesim {

namespace {

using U = FigureUnit;
using G = FigureGroup;
using C = CsvPart;
using Value = std::optional<double>;

double flag(bool b) { return b ? 1 : 0; }
const Result& res(const FigureSource& s) { return s.result; }

// The first epoch's figures, when the page cache makes it differ.
template <class Get>
Value cold(const FigureSource& s, Get get) {
  return s.result.cold ? Value(get(*s.result.cold)) : std::nullopt;
}

// A CSV sweep's columns come in this order: step_time_s, binding, ... ; the JSON members between
// them are JSON's own.
constexpr std::array kPoint{
    PointFigure{"step_time_s", G::Point, U::Seconds, "step", "step_time_s", C::Always, true,
                [](const FigureSource& s) -> Value { return res(s).step_s; }},
    PointFigure{"binding", G::Point, U::Walls, "binding wall", "binding", C::Always, true,
                [](const FigureSource& s) -> Value { return res(s).binding; }},
    PointFigure{"utilization", G::Point, U::Fraction, "utilization", "utilization", C::Always, true,
                [](const FigureSource& s) -> Value { return res(s).utilization; }},
    PointFigure{"upper_bound", G::Point, U::Flag, "an upper bound (a stage is not modelled)", "", C::None, false,
                [](const FigureSource& s) -> Value { return flag(res(s).upper_bound()); }},
    PointFigure{"unmodelled", G::Point, U::Walls, "stages not modelled", "", C::None, false,
                [](const FigureSource& s) -> Value { return res(s).unmodelled; }},
    PointFigure{"idle_fraction", G::Point, U::Fraction, "accelerator idle", "", C::None, true,
                [](const FigureSource& s) -> Value { return res(s).idle_fraction; }},
    PointFigure{"slowdown", G::Point, U::Factor, "slowdown (step / compute)", "slowdown", C::Always, true,
                [](const FigureSource& s) -> Value { return res(s).slowdown; }},
    PointFigure{"throughput_samples_per_s", G::Point, U::SampleRate, "throughput", "throughput_samples_per_s",
                C::Always, true, [](const FigureSource& s) -> Value { return res(s).throughput; }},
    PointFigure{"throughput_per_node_samples_per_s", G::Point, U::SampleRate, "throughput per node", "", C::None, true,
                [](const FigureSource& s) -> Value { return res(s).throughput_per_node; }},
    PointFigure{"throughput_per_accelerator_samples_per_s", G::Point, U::SampleRate, "throughput per accelerator", "",
                C::None, true, [](const FigureSource& s) -> Value { return res(s).throughput_per_accelerator; }},
    PointFigure{"data_demand_bytes_per_s", G::Point, U::ByteRate, "data demand per accelerator",
                "data_demand_bytes_per_s", C::Always, true,
                [](const FigureSource& s) -> Value { return res(s).data_demand; }},
    PointFigure{"data_demand_per_node_bytes_per_s", G::Point, U::ByteRate, "data demand per node", "", C::None, true,
                [](const FigureSource& s) -> Value { return res(s).data_demand_per_node; }},
    PointFigure{"data_demand_per_cluster_bytes_per_s", G::Point, U::ByteRate, "data demand for the cluster", "",
                C::None, true, [](const FigureSource& s) -> Value { return res(s).data_demand_per_cluster; }},
    PointFigure{"serial", G::Point, U::Flag, "stages run in turn (workers = 0)", "", C::None, false,
                [](const FigureSource& s) -> Value { return flag(res(s).serial); }},
    PointFigure{"transfer_serialised", G::Point, U::Flag, "the pageable copy adds to compute", "", C::None, false,
                [](const FigureSource& s) -> Value { return flag(res(s).transfer_serialised); }},
    PointFigure{"epoch_time_s", G::Point, U::Seconds, "epoch", "epoch_time_s", C::Always, true,
                [](const FigureSource& s) -> Value { return res(s).epoch_s; }},
    PointFigure{"idle_time_per_epoch_s", G::Point, U::Seconds, "accelerator idle per epoch", "", C::None, true,
                [](const FigureSource& s) -> Value { return res(s).idle_per_epoch_s; }},
    PointFigure{"crossover", G::Point, U::Flag, "the binding wall changed from the row before", "crossover", C::Always,
                false,
                [](const FigureSource& s) -> Value { return s.crossed ? Value(flag(*s.crossed)) : std::nullopt; }},
    PointFigure{"memory_needed_bytes", G::Point, U::Bytes, "accelerator memory needed", "memory_needed_bytes",
                C::Always, true, [](const FigureSource& s) -> Value { return res(s).memory_needed; }},
    PointFigure{
        "fits", G::Point, U::Flag, "fits in accelerator memory", "fits", C::Always, false,
        [](const FigureSource& s) -> Value { return res(s).memory_needed ? Value(flag(res(s).fits)) : std::nullopt; }},
    PointFigure{"effective_workers", G::Point, U::Count, "effective workers (in single-worker rates)",
                "effective_workers", C::EffectiveWorkers, false,
                [](const FigureSource& s) -> Value { return res(s).effective_workers; }},
    PointFigure{"worker_time_slicing", G::Point, U::Factor, "time slicing of the workers' CPU work", "", C::None, false,
                [](const FigureSource& s) -> Value {
                  return res(s).worker_slicing > 1 ? Value(res(s).worker_slicing) : std::nullopt;
                }},
    PointFigure{
        "padding", G::Point, U::Factor, "each batch padded to its longest sample", "", C::None, false,
        [](const FigureSource& s) -> Value { return res(s).padding > 1 ? Value(res(s).padding) : std::nullopt; }},
    PointFigure{"worker_bytes_per_s", G::Point, U::ByteRate, "one worker's transform rate", "", C::None, false,
                [](const FigureSource& s) -> Value {
                  return res(s).worker_bytes_per_s > 0 ? Value(res(s).worker_bytes_per_s) : std::nullopt;
                }},
    PointFigure{"cache_hit", G::Point, U::Fraction, "page-cache hit", "", C::None, true,
                [](const FigureSource& s) -> Value {
                  return res(s).stage(Stage::Storage).modelled ? Value(res(s).cache_hit) : std::nullopt;
                }},
    PointFigure{"cache_hit", G::FirstEpoch, U::Fraction, "first epoch's page-cache hit", "", C::None, false,
                [](const FigureSource& s) { return cold(s, [](const ColdEpoch& c) { return c.cache_hit; }); }},
    PointFigure{"storage_time_s", G::FirstEpoch, U::Seconds, "first epoch's storage", "", C::None, true,
                [](const FigureSource& s) { return cold(s, [](const ColdEpoch& c) { return c.storage_s; }); }},
    PointFigure{"step_time_s", G::FirstEpoch, U::Seconds, "first epoch's step", "first_epoch_step_time_s",
                C::FirstEpoch, true,
                [](const FigureSource& s) { return cold(s, [](const ColdEpoch& c) { return c.step_s; }); }},
    PointFigure{"binding", G::FirstEpoch, U::Walls, "first epoch's binding wall", "first_epoch_binding", C::FirstEpoch,
                true,
                [](const FigureSource& s) {
                  return cold(s, [](const ColdEpoch& c) { return static_cast<double>(c.binding); });
                }},
    PointFigure{"utilization", G::FirstEpoch, U::Fraction, "first epoch's utilization", "first_epoch_utilization",
                C::FirstEpoch, true,
                [](const FigureSource& s) { return cold(s, [](const ColdEpoch& c) { return c.utilization; }); }},
    PointFigure{"throughput_samples_per_s", G::FirstEpoch, U::SampleRate, "first epoch's throughput",
                "first_epoch_throughput_samples_per_s", C::FirstEpoch, false,
                [](const FigureSource& s) { return cold(s, [](const ColdEpoch& c) { return c.throughput; }); }},
    PointFigure{"epoch_time_s", G::FirstEpoch, U::Seconds, "first epoch", "first_epoch_time_s", C::FirstEpoch, true,
                [](const FigureSource& s) -> Value { return res(s).cold ? res(s).cold->epoch_s : std::nullopt; }},
    PointFigure{"price_per_hour_usd", G::Point, U::UsdPerHour, "price", "price_per_hour_usd", C::Cost, true,
                [](const FigureSource& s) -> Value { return res(s).price_per_hour; }},
    PointFigure{"cost_per_epoch_usd", G::Point, U::Usd, "cost per epoch", "cost_per_epoch_usd", C::Cost, true,
                [](const FigureSource& s) -> Value { return res(s).cost_per_epoch; }},
    PointFigure{"idle_cost_per_epoch_usd", G::Point, U::Usd, "idle accelerator cost per epoch",
                "idle_cost_per_epoch_usd", C::Cost, true,
                [](const FigureSource& s) -> Value { return res(s).idle_cost_per_epoch; }},
    PointFigure{"samples_per_usd", G::Point, U::SamplesPerUsd, "samples per USD", "samples_per_usd", C::Cost, true,
                [](const FigureSource& s) -> Value { return res(s).samples_per_usd; }},
    PointFigure{"epoch_start_s", G::Point, U::Seconds, "an epoch's start", "", C::None, true,
                [](const FigureSource& s) -> Value { return res(s).epoch_start_s; }},
    PointFigure{"first_batch_s", G::Point, U::Seconds, "first step done", "", C::None, true,
                [](const FigureSource& s) -> Value { return res(s).first_batch_s; }},
    PointFigure{"workers_start_s", G::Point, U::Seconds, "workers start", "", C::None, false,
                [](const FigureSource& s) -> Value { return res(s).workers_start_s; }},
    PointFigure{"epoch_utilization", G::Point, U::Fraction, "utilization over the whole epoch", "", C::None, true,
                [](const FigureSource& s) -> Value { return res(s).epoch_utilization; }},
    PointFigure{"worst_epoch_utilization", G::Point, U::Fraction,
                "utilization over the first epoch with its start (the run's slowest)", "worst_epoch_utilization",
                C::WorstEpoch, false,
                [](const FigureSource& s)
                    -> Value { return res(s).worst_epoch ? Value(res(s).worst_epoch->utilization) : std::nullopt; }},
    PointFigure{"worst_epoch_time_s", G::Point, U::Seconds, "the first epoch with its start", "worst_epoch_time_s",
                C::WorstEpoch, false,
                [](const FigureSource& s)
                    -> Value { return res(s).worst_epoch ? Value(res(s).worst_epoch->epoch_s) : std::nullopt; }},
    PointFigure{"run_time_s", G::Point, U::Seconds, "the whole run", "run_time_s", C::Run, true,
                [](const FigureSource& s) -> Value { return res(s).run_s; }},
    PointFigure{"run_utilization", G::Point, U::Fraction, "utilization over the whole run", "run_utilization", C::Run,
                true, [](const FigureSource& s) -> Value { return res(s).run_utilization; }},
    PointFigure{"run_cost_usd", G::Point, U::Usd, "cost of the whole run", "run_cost_usd", C::Cost, true,
                [](const FigureSource& s) -> Value { return res(s).run_cost; }},
    PointFigure{"loop_overhead_s", G::Point, U::Seconds, "the training loop's own time per step", "", C::None, false,
                [](const FigureSource& s) -> Value { return res(s).loop_overhead_s; }},
    PointFigure{
        "sync_wait_s", G::Point, U::Seconds, "the wait per step for the slowest accelerator", "", C::None, false,
        [](const FigureSource& s) -> Value {
          return res(s).sync_wait_s > 0 ? Value(res(s).sync_wait_s) : std::nullopt;
        }},
    PointFigure{"lock_s", G::Point, U::Seconds, "the interpreter lock's work per step", "", C::None, false,
                [](const FigureSource& s) -> Value { return res(s).lock_s > 0 ? Value(res(s).lock_s) : std::nullopt; }},
    PointFigure{"shared_cpu_s", G::Point, U::Seconds, "CPU time per step on the shared CPUs", "", C::None, false,
                [](const FigureSource& s) -> Value {
                  return res(s).shared_cores > 0 ? Value(res(s).shared_cpu_s) : std::nullopt;
                }},
    PointFigure{"shared_cores", G::Point, U::Count, "CPUs shared by time", "", C::None, false,
                [](const FigureSource& s) -> Value {
                  return res(s).shared_cores > 0 ? Value(res(s).shared_cores) : std::nullopt;
                }},
    PointFigure{"shared_wait_s", G::Point, U::Seconds, "time the shared CPUs add per step", "", C::None, false,
                [](const FigureSource& s) -> Value {
                  return res(s).shared_cores > 0 ? Value(res(s).shared_wait_s) : std::nullopt;
                }},
    PointFigure{"crowded_loop_s", G::Point, U::Seconds, "time per step the loop waits for a CPU", "", C::None, false,
                [](const FigureSource& s) -> Value {
                  return res(s).shared_cores > 0 ? Value(res(s).crowded_s) : std::nullopt;
                }},
    PointFigure{"busy_workers", G::Point, U::Count, "workers busy on average", "", C::None, false,
                [](const FigureSource& s) -> Value {
                  return res(s).shared_cores > 0 ? Value(res(s).busy_workers) : std::nullopt;
                }},
    PointFigure{"receive_busy_workers", G::Point, U::Count, "workers busy while the loop receives", "", C::None, false,
                [](const FigureSource& s) -> Value {
                  return res(s).shared_cores > 0 ? Value(res(s).receive_busy_workers) : std::nullopt;
                }},
    PointFigure{
        "thread_rate", G::Point, U::Fraction, "share of a CPU each training-process thread gets", "", C::None, false,
        [](const FigureSource& s) -> Value {
          return res(s).shared_cores > 0 ? Value(res(s).thread_rate) : std::nullopt;
        }},
};

Value modelled(const StageResult& r, double v) { return r.modelled ? Value(v) : std::nullopt; }
// A stage that takes no time (every read from page cache) has no finite rate.
Value timed(const StageResult& r, double v) { return r.modelled && r.time_s > 0 ? Value(v) : std::nullopt; }

constexpr std::array kStage{
    StageFigure{"time_s", U::Seconds, "time/batch", true, true,
                [](const StageResult& r) { return modelled(r, r.time_s); }},
    StageFigure{"samples_per_s", U::SampleRate, "samples/s", false, true,
                [](const StageResult& r) { return timed(r, r.samples_per_s); }},
    StageFigure{"bytes_per_s", U::ByteRate, "bytes/s", false, false,
                [](const StageResult& r) { return timed(r, r.bytes_per_s); }},
    StageFigure{"share_of_step", U::Fraction, "share of step", false, true,
                [](const StageResult& r) { return modelled(r, r.share_of_step); }},
    StageFigure{"bytes_per_batch", U::Bytes, "bytes per batch", false, false,
                [](const StageResult& r) { return modelled(r, r.bytes_per_batch); }},
    StageFigure{"demand_bytes_per_s", U::ByteRate, "demand", false, false,
                [](const StageResult& r) { return modelled(r, r.demand_bytes_per_s); }},
    StageFigure{"binding", U::Flag, "binding", false, true,
                [](const StageResult& r) { return modelled(r, flag(r.binding)); }},
    StageFigure{"limit", U::Limit, "what limits it", false, false,
                [](const StageResult& r) { return modelled(r, static_cast<double>(r.limit)); }},
};

}  // namespace

std::span<const PointFigure> point_figures() { return kPoint; }
std::span<const StageFigure> stage_figures() { return kStage; }

}  // namespace pipesim
