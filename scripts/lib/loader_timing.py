"""Timing a DataLoader from the inside (shared by scripts/pipesim-probe.py and scripts/validate
collect): each worker times its samples and its collate, per batch, and the batch carries the
figures to the training process.

A worker calls dataset[i] for each index of its batch, then the collate function, in one process:
Timed adds each sample's thread CPU and wall time to this process's tally and timed_collate
reads it, times default_collate (which copies the batch into new shared memory) and returns
(batch, figures). Each worker process has its own tally (they are forked). Needs torch.
"""
import statistics
import time

from torch.utils.data import Dataset, default_collate

# What this worker's samples took since its last collate.
_SAMPLES = {"cpu": 0.0, "wall": 0.0, "n": 0, "first": 0.0}


class Timed(Dataset):
    """A dataset, each sample timed in the worker that runs it (thread CPU and wall)."""

    def __init__(self, dataset):
        self.dataset = dataset

    def __len__(self):
        return len(self.dataset)

    def __getitem__(self, i):
        cpu, wall = time.thread_time(), time.perf_counter()
        if _SAMPLES["n"] == 0:
            _SAMPLES["first"] = wall
        sample = self.dataset[i]
        _SAMPLES["cpu"] += time.thread_time() - cpu
        _SAMPLES["wall"] += time.perf_counter() - wall
        _SAMPLES["n"] += 1
        return sample


def timed_collate(samples):
    """default_collate, timed, with the batch's sample times beside it: (batch, (samples' CPU,
    samples' wall, samples, collate CPU, collate wall, the batch's first sample start to its
    collate's end))."""
    cpu, wall = time.thread_time(), time.perf_counter()
    batch = default_collate(samples)
    now = time.perf_counter()
    figures = (_SAMPLES["cpu"], _SAMPLES["wall"], _SAMPLES["n"], time.thread_time() - cpu, now - wall,
               now - (_SAMPLES["first"] if _SAMPLES["n"] else wall))
    _SAMPLES.update(cpu=0.0, wall=0.0, n=0)
    return batch, figures


def inside(stats, batch, device_bytes):
    """What the workers' figures say, per sample and per batch: means over the batches timed."""
    n = sum(s[2] for s in stats)
    if not stats or n == 0:
        return None
    return {
        "batches": len(stats),
        "sample_cpu": sum(s[0] for s in stats) / n,
        "sample_wall": sum(s[1] for s in stats) / n,
        "collate_cpu": statistics.mean(s[3] for s in stats),
        "collate_wall": statistics.mean(s[4] for s in stats),
        "batch_span": statistics.mean(s[5] for s in stats),
        "batch_bytes": batch * device_bytes,
    }
