"""A new DataLoader worker's warm-up, timed as a user can without a DataLoader (shared by
scripts/validate and scripts/pipesim-probe.py; pipeline.worker_warmup_time).

A DataLoader forks its workers from the training process, and each sets one torch thread
before its first sample. So: fork the process that has loaded and run the dataset, and in the
new process time a batch's samples, some others, then the same batch again. Per sample the
first time less the second is what the new process paid first; the same samples both times, so
the samples' own spread does not count (against other samples' mean it swung a batch of 64
from -5 to +33 ms on the validation VM). Needs torch imported by the caller first.
"""
import json
import os
import statistics
import time

import torch


def forked_times(dataset, indices):
    """The time of each of dataset's samples at `indices`, one after another, in a process forked
    from this one just now, on one torch thread; None where the platform cannot fork or the
    forked process failed."""
    if not hasattr(os, "fork"):
        return None
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            torch.set_num_threads(1)
            times = []
            for i in indices:
                t0 = time.perf_counter()
                dataset[i]
                times.append(time.perf_counter() - t0)
            with os.fdopen(write, "w") as out:
                out.write(json.dumps(times))
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as f:
        text = f.read()
    os.waitpid(pid, 0)
    return json.loads(text) if text else None


def first_less_second(dataset, batch, others):
    """In one new process: the batch's samples (`batch`, indices), the `others`, then the batch
    again; per sample of the batch its first time less its second (None as forked_times)."""
    times = forked_times(dataset, [*batch, *others, *batch])
    if times is None:
        return None
    return [a - b for a, b in zip(times[:len(batch)], times[-len(batch):])]


def warmup(extras):
    """The warm-up from several forks' first_less_second: each sample's median over the forks,
    summed over the batch (a pause of the machine in one fork's pass does not move it), and at
    least 0."""
    return max(0.0, sum(statistics.median(column) for column in zip(*extras)))
