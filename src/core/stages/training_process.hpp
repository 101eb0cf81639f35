// The training process beside its workers: its own chain of work per step, and where it shares
// the CPUs the workers hold (pipeline.loop_cpu_share set), what that sharing costs the transform
// stage, the loop and the pin thread. Steps of `evaluate` (model.cpp), which runs shared_cores
// and then shared_wait once every stage's own time is known; simulate reads the two rules
// receive_busy and crowded_loss.
#pragma once

#include "core/stages/model.hpp"

namespace pipesim {

// The training process's chain per step: its own loop time, then (unless pinned) the copy, then
// compute. Needs the stages and transfer_serialised of `r`.
double device_chain(const Result& r);
// The training process's own CPU work per step: its loop time and a pageable copy it makes itself.
double loop_own_work(const Result& r);
// The transform stage's bound from all a step's CPU work over the cores (Limit::SharedCores).
void shared_cores(const Inputs& in, Result& r);
// The loop's wait for a CPU and the transfer stretched by the training process's threads' share
// of the CPUs (Result::shared_wait_s, crowded_s, thread_rate, busy_workers).
void shared_wait(const Inputs& in, Result& r);
// Shared by time: how many of W workers building `build`-second batches are busy, on average,
// while the training loop spends `receive` seconds taking a batch, one `step` after the last:
// the sender starts its next batch as the take frees its window, and the worker sent a batch
// j steps ago still builds it for build - j x step of the receive.
double receive_busy(double workers, double build, double step, double receive);
// What the training loop loses per step waiting for a CPU as it takes a batch with `busy` tasks
// (workers building, the pin thread) on `cores` CPUs: pipeline.crowded_loop_time times the share
// of the CPUs busy past half of them, 0 up to half, all of it from all of them busy.
double crowded_loss(const Inputs& in, double busy, double cores);

}  // namespace pipesim
