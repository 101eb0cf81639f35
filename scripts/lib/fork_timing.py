"""A sample's time as a DataLoader worker runs it and a new worker's warm-up, timed as a user
can without a DataLoader (shared by scripts/validate and scripts/pipesim-probe.py;
pipeline.worker_warmup_time), and how the
transform scales across processes forked as workers are (pipesim-probe.py:
cpu.scaling_contention and cpu.oversubscription_cost); and a process's page faults, which say
whether glibc's allocator is inflating a sample's time (minor_faults, shared by both).

A DataLoader forks its workers from the training process, and each sets one torch thread
before its first sample. So: fork the process that has loaded and run the dataset, and in the
new process time a batch's samples, some others, then the same batch again. Per sample the
first time less the second is what the new process paid first; the same samples both times, so
the samples' own spread does not count (against other samples' mean it swung a batch of 64
from -5 to +33 ms on the validation VM). A worker keeps a batch's samples until its collate, so
the new process does too: its first batch then faults in memory for all of them, as a new
worker's does, where a process that drops each sample reuses the first one's memory (on the
validation VM, batch 32: 104 ms against 41, 219 page faults a sample against 65; a DataLoader
worker's first batch there took about 120 ms more than its later ones, at 240 faults a
sample); and it stacks each batch into new shared memory as the worker's collate does
(worker_times). Needs torch imported by the caller first.
"""
import json
import os
import statistics
import time

import torch

try:
    import resource
except ImportError:  # Windows has none: page faults are then not counted
    resource = None


def minor_faults():
    """This process's minor page faults so far (None where they cannot be counted). A sample that
    faults its buffers in anew each time (the allocator gave their memory back) is slower: on the
    README's VM 2.05 ms per sample at 0 faults, 2.8 ms at 250 and 4.4 ms at 1130, by the
    allocator's thresholds alone."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt if resource else None


def forked_times(dataset, batches):
    """The time of each of dataset's samples at the indices of `batches` (lists), one after
    another, in a process forked from this one just now, on one torch thread, as a worker runs
    them (worker_times); None where the platform cannot fork or the forked process failed."""
    if not hasattr(os, "fork"):
        return None
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            torch.set_num_threads(1)
            times = worker_times(dataset, batches)
            with os.fdopen(write, "w") as out:
                out.write(json.dumps(times))
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as f:
        text = f.read()
    os.waitpid(pid, 0)
    return json.loads(text) if text else None


def worker_times(dataset, batches):
    """The time of each of dataset's samples at the indices of `batches` (lists), run as a
    DataLoader worker runs them: each batch's samples kept until its last is done, then stacked
    into new shared memory (the worker's collate, not timed). Those copies pass through the
    caches between one batch and the next: on the validation VM a worker's samples took 1.10 and
    1.11 times as long as a loop that drops each sample, 1.05 and 1.08 times as long as this one
    (the medians of two runs of six tries, batch 32 and 48). The caller sets the torch threads."""
    times = []
    for batch in batches:
        kept = []
        for i in batch:
            t0 = time.perf_counter()
            kept.append(dataset[i])
            times.append(time.perf_counter() - t0)
        shared_stack(kept)
    return times


def in_batches(indices, size):
    """The indices cut into consecutive batches of `size` (the last one shorter)."""
    return [indices[k:k + size] for k in range(0, len(indices), size)]


def shared_stack(samples):
    """Each tensor of the samples (found in tuples, lists and dicts) stacked into a tensor on a
    new shared-memory segment, as default_collate does in a worker; other leaves give None."""
    first = samples[0]
    if isinstance(first, torch.Tensor):
        typed = first._typed_storage() if hasattr(first, "_typed_storage") else first.storage()
        out = first.new(typed._new_shared(first.numel() * len(samples))).resize_(len(samples), *first.shape)
        return torch.stack(samples, 0, out=out)
    if isinstance(first, (tuple, list)):
        return [shared_stack(list(leaves)) for leaves in zip(*samples)]
    if isinstance(first, dict):
        return {k: shared_stack([s[k] for s in samples]) for k in first}
    return None


def first_less_second(dataset, batch, others):
    """In one new process: the batch's samples (`batch`, indices), the `others` in batches of
    as many, then the batch again; per sample of the batch its first time less its second (None
    as forked_times)."""
    times = forked_times(dataset, [batch, *in_batches(others, len(batch)), batch])
    if times is None:
        return None
    return [a - b for a, b in zip(times[:len(batch)], times[-len(batch):])]


def warmup(extras):
    """The warm-up from several forks' first_less_second: each sample's median over the forks,
    summed over the batch (a pause of the machine in one fork's pass does not move it), and at
    least 0."""
    return max(0.0, sum(statistics.median(column) for column in zip(*extras)))


def sigma_of(speedup, n):
    """cpu.scaling_contention from N processes delivering `speedup` times one's rate (the
    Universal Scalability Law with no coherency term: sigma = (N / S - 1) / (N - 1))."""
    return max(0.0, (n / speedup - 1) / (n - 1)) if n > 1 else 0.0


def oversubscription_of(cpu_cores, cpu_all, cores, n):
    """cpu.oversubscription_cost from the CPU time per sample of `cores` processes at once and of
    n > cores at once: each of n tasks on C cores spends 1 + o (n - C) / C times the CPU time it
    spends with C."""
    return max(0.0, (cpu_all / cpu_cores - 1) * cores / (n - cores)) if n > cores else 0.0


def forked_together(dataset, indices, n, warm=8):
    """`n` processes forked from this one, each on one torch thread: they run `warm` of the
    samples untimed (a new process's first samples pay its warm-up), wait until all are ready,
    then time dataset's samples at `indices` at once. Per process (mean wall seconds per sample,
    CPU seconds per sample); None where the platform cannot fork or a process failed."""
    if not hasattr(os, "fork"):
        return None
    ready_r, ready_w = os.pipe()
    go_r, go_w = os.pipe()
    children = []
    for _ in range(n):
        out_r, out_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(out_r)
            os.close(ready_r)
            os.close(go_w)
            try:
                torch.set_num_threads(1)
                for i in indices[:warm]:
                    dataset[i]
                os.write(ready_w, b"r")
                os.read(go_r, 1)  # returns at end of file: the parent closed it
                cpu, wall = time.process_time(), time.perf_counter()
                for i in indices:
                    dataset[i]
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                with os.fdopen(out_w, "w") as out:
                    out.write(json.dumps([wall / len(indices), cpu / len(indices)]))
            finally:
                os._exit(0)
        os.close(out_w)
        children.append((pid, out_r))
    os.close(ready_w)
    os.close(go_r)
    got = 0
    while got < n:
        chunk = os.read(ready_r, n - got)
        if not chunk:
            break  # a process ended before it was ready
        got += len(chunk)
    os.close(ready_r)
    os.close(go_w)  # all start
    results = []
    for pid, out_r in children:
        with os.fdopen(out_r) as f:
            text = f.read()
        os.waitpid(pid, 0)
        results.append(json.loads(text) if text else None)
    return None if got < n or None in results else [tuple(r) for r in results]


def scaling(dataset, indices, cores, rounds=5):
    """How the transform scales across forked processes, as pipesim's scaling keys define it:
    one process alone, `cores` at once and 2 x `cores` at once, on the same samples, `rounds`
    times in turn. With C processes delivering S times one's rate, the Universal Scalability Law
    with no coherency term gives cpu.scaling_contention = (C / S - 1) / (C - 1); with 2C, each
    process's CPU time per sample t(2C) against t(C) gives cpu.oversubscription_cost =
    t(2C) / t(C) - 1 (CPU time: what a VM's host takes moves the wall time far more). The medians
    over the rounds; None where the platform cannot fork. On one core only the second."""
    speedups, costs = [], []
    for _ in range(rounds):
        alone = forked_together(dataset, indices, 1)
        many = forked_together(dataset, indices, cores)
        over = forked_together(dataset, indices, 2 * cores)
        if alone is None or many is None or over is None:
            return None
        speedups.append(sum(alone[0][0] / wall for wall, _ in many))
        costs.append(oversubscription_of(statistics.mean(cpu for _, cpu in many),
                                         statistics.mean(cpu for _, cpu in over), cores, 2 * cores))
    speedup = statistics.median(speedups)
    sigma = sigma_of(speedup, cores) if cores > 1 else None
    return {"processes": cores, "speedup": speedup, "scaling_contention": sigma,
            "oversubscription_cost": statistics.median(costs)}
