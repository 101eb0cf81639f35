#!/usr/bin/env python3
"""Measure your own PyTorch input pipeline for pipesim (docs/manual/measuring.md, "The probe").

    scripts/pipesim-probe.py --dataset my_data.py:make_dataset --model my_model.py:make_model \\
        --batch-size 64 --num-workers 4 --pin-memory
    scripts/pipesim-probe.py --dataset my_data.py:make_dataset --step-time 0.05 ...
    scripts/pipesim-probe.py --self-test          # on a small dataset and loop it makes itself

--dataset names a function (in a .py file or an importable module) that returns your map-style
Dataset; --model one that returns your nn.Module (the step is forward, the mean of the output,
backward and an SGD step), or --step-time stands in for the model with a sleep of that length
(an accelerator step that leaves the CPU free).

It runs the caching experiments, each for --steps steps after --warmup steps, with your batch
size and DataLoader settings:
  device_cached  one batch kept on the device: the step alone
  host_cached    one batch kept on the host, copied to the device every step
  sample_cached  a DataLoader over a dataset that returns one transformed sample
  raw_cached     a DataLoader over one raw sample (your dataset's `transform` switched off),
                 transformed every time (skipped when the dataset has no `transform`)
  full           your DataLoader
With workers, the full pipeline runs instrumented from inside the DataLoader: each worker times
its samples and its collate (thread CPU and wall clock, per batch), and the training process
its loop thread's CPU and its other threads' (the pin thread's, with pin_memory) per step. It
runs the full pipeline again, instrumented the same way, with as many workers as the logical
CPUs (half as many when the first count is that many already), so that attribute can tell
whether the workers' count moves the rate, and the loop's own step at both counts (its time
outside next()) against the CPUs busy gives pipeline.crowded_loop_time. It times single
samples in this process (dataset[i], and without the transform; with the page faults they
take, which say when the allocator inflates the time), the loop thread's CPU at a small batch
(launching the step's work), and, with workers, a forked process's first batch against the same
samples again (a new worker's warm-up), and the same samples in 1, C and 2C processes forked at
once on this machine's C logical CPUs (how the transform scales across workers and what taking
turns on the cores costs). It prints one TOML for pipesim (every key measured here, over the
loader preset for this kind of machine), the `pipesim attribute` command line for the caching
verdict, and the `pipesim diagnose` command to run next; with --pipesim PATH it runs both.

Needs Debian's python3-torch (and python3-torchvision for --self-test); installs them with
apt-get when missing.
"""
import argparse
import importlib
import importlib.util
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# Through the link `pipesim-probe` an installed pipesim puts on PATH, too: the modules lie beside
# the script itself.
HERE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "lib"))
from debian_python import ensure  # noqa: E402

ensure("pipesim-probe", ["torch", "torchvision"], ["python3-torch", "python3-torchvision", "python3-pil"])

import torch  # noqa: E402
from torch.utils.data import DataLoader, Dataset  # noqa: E402

from fork_timing import first_less_second, in_batches, minor_faults, scaling, warmup, worker_times  # noqa: E402
from loader_timing import Timed, inside, timed_collate  # noqa: E402


# ----------------------------------------------------------------------------- loading the user's code


def load_callable(spec):
    """"file.py:name" or "package.module:name" -> the callable."""
    if ":" not in spec:
        sys.exit(f"pipesim-probe: expected FILE.py:FUNCTION or MODULE:FUNCTION, got {spec!r}")
    where, name = spec.rsplit(":", 1)
    if where.endswith(".py"):
        if not os.path.isfile(where):
            sys.exit(f"pipesim-probe: {where}: no such file")
        module_name = "pipesim_probe_user_" + os.path.splitext(os.path.basename(where))[0]
        loaded = importlib.util.spec_from_file_location(module_name, where)
        module = importlib.util.module_from_spec(loaded)
        sys.modules[module_name] = module  # workers started by fork find it; by spawn re-import it
        loaded.loader.exec_module(module)
    else:
        module = importlib.import_module(where)
    if not hasattr(module, name):
        sys.exit(f"pipesim-probe: {where} has no {name}")
    return getattr(module, name)


# ----------------------------------------------------------------------------- the experiments


class OneSample(Dataset):
    """A dataset of `length` copies of one sample: the loader's own work, nothing else."""

    def __init__(self, sample, length):
        self.sample, self.length = sample, length

    def __len__(self):
        return self.length

    def __getitem__(self, i):
        return self.sample


class OneRawSample(Dataset):
    """One raw sample, transformed every time (the transform of the user's dataset)."""

    def __init__(self, raw, transform, length):
        self.raw, self.transform, self.length = raw, transform, length

    def __len__(self):
        return self.length

    def __getitem__(self, i):
        if isinstance(self.raw, tuple):
            return (self.transform(self.raw[0]),) + tuple(self.raw[1:])
        return self.transform(self.raw)


def mapped(batch, fn):
    """`fn` applied to every tensor of a batch (a tensor, or lists, tuples and dicts of them)."""
    if torch.is_tensor(batch):
        return fn(batch)
    if isinstance(batch, (list, tuple)):
        return type(batch)(mapped(b, fn) for b in batch)
    if isinstance(batch, dict):
        return {k: mapped(v, fn) for k, v in batch.items()}
    return batch


def to_device(batch, device, non_blocking):
    return mapped(batch, lambda t: t.to(device, non_blocking=non_blocking))


def first_tensor(batch):
    if torch.is_tensor(batch):
        return batch
    if isinstance(batch, (list, tuple)):
        return first_tensor(batch[0])
    if isinstance(batch, dict):
        return first_tensor(next(iter(batch.values())))
    raise SystemExit("pipesim-probe: a batch holds no tensor to feed the model")


def make_step(args, device):
    """The training step: the user's model, or a sleep standing in for it."""
    if args.model:
        model = load_callable(args.model)().to(device)
        model.train()
        optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)

        def step(batch):
            optimizer.zero_grad(set_to_none=True)
            out = model(first_tensor(batch))
            if isinstance(out, (tuple, list)):
                out = out[0]
            out.float().mean().backward()
            optimizer.step()
            if device.type == "cuda":
                torch.cuda.synchronize()

        return step

    def sleep_step(batch):
        time.sleep(args.step_time)

    return sleep_step


def timed_loop(batches, step, steps, warmup, device, non_blocking, cpu=None, stats=None):
    """Steps per second over `steps` steps after `warmup` (which take the loader's start). With
    `cpu` (a dict), the training process's CPU per timed step: its loop thread's ("thread") and
    all its threads' ("process"), and the loop's own step ("own": the wall time per step outside
    next(), where it waits for a batch). With `stats` (a list), the batches carry the workers'
    timings (timed_collate), appended there for the timed steps."""
    it = iter(batches)

    def take():
        item = next(it)
        return item if stats is not None else (item, None)

    for _ in range(warmup):
        step(to_device(take()[0], device, non_blocking))
    thread, process = time.thread_time(), time.process_time()
    start = time.perf_counter()
    waits = 0.0
    for _ in range(steps):
        asked = time.perf_counter()
        batch, timing = take()
        waits += time.perf_counter() - asked
        if timing is not None:
            stats.append(timing)
        step(to_device(batch, device, non_blocking))
    wall = time.perf_counter() - start
    if cpu is not None:
        cpu["thread"] = (time.thread_time() - thread) / steps
        cpu["process"] = (time.process_time() - process) / steps
        cpu["own"] = (wall - waits) / steps
    return steps / wall


def repeat(value):
    while True:
        yield value


def loader(dataset, args, workers=None, collate=None):
    workers = args.num_workers if workers is None else workers
    return DataLoader(dataset, batch_size=args.batch_size, num_workers=workers, shuffle=True,
                      pin_memory=args.pin_memory, drop_last=True,
                      persistent_workers=workers > 0,
                      prefetch_factor=args.prefetch_factor if workers > 0 else None,
                      **({"collate_fn": collate} if collate else {}))


def other_count(workers, cpus):
    """The second worker count of the full pipeline: as many as the logical CPUs, where the
    workers crowd the training process (what the node loses there shows), unless the first count
    is that many or more already, then half as many."""
    if workers < cpus - 1:
        return cpus
    return max(1, workers // 2) if workers > 1 else 2


def without_transform(dataset):
    """dataset[0] with its `transform` switched off, or None when it has none."""
    transform = getattr(dataset, "transform", None)
    if transform is None:
        return None, None
    dataset.transform = None
    try:
        raw = dataset[0]
    finally:
        dataset.transform = transform
    return raw, transform


def time_samples(dataset, count, workers, batch):
    """Seconds per dataset[i] in this process, for `count` samples spread over the dataset, as
    training runs them: with workers, as a worker does (fork_timing.worker_times: one torch
    thread, each batch's samples kept and then stacked into new shared memory), else on the
    default threads one after another; and the minor page faults per sample they took (None
    where they cannot be counted)."""
    n = len(dataset)
    picks = [(i * 7919) % n for i in range(min(count, n))]
    threads = torch.get_num_threads()
    if workers > 0:
        torch.set_num_threads(1)
    try:
        dataset[picks[0]]  # warm
        faults = minor_faults()
        if workers > 0:
            times = worker_times(dataset, in_batches(picks, batch))
        else:
            times = []
            for i in picks:
                t = time.perf_counter()
                dataset[i]
                times.append(time.perf_counter() - t)
        if faults is not None:
            faults = (minor_faults() - faults) / len(picks)
    finally:
        torch.set_num_threads(threads)
    return times, faults


def time_warmup(dataset, batch, forks=5):
    """How much longer a new worker's first batch takes than the same samples again
    (pipeline.worker_warmup_time): this process, which has loaded and run the dataset as a
    training process has before it starts its workers, forks `forks` times (fork_timing.py:
    a batch, as many others, the batch again, each batch's samples kept until it is done as a
    worker keeps them for its collate). None where the platform cannot fork."""
    n = len(dataset)
    picks = [(i * 7919 + 13) % n for i in range(min(2 * batch, n))]
    extras = [first_less_second(dataset, picks[:batch], picks[batch:]) for _ in range(forks)]
    return None if None in extras else warmup(extras)


def sample_bytes(dataset):
    """Mean file size when the dataset lists files (torchvision's ImageFolder: .samples), else None."""
    entries = getattr(dataset, "samples", None) or getattr(dataset, "files", None) or getattr(dataset, "paths", None)
    if not entries:
        return None
    paths = [e[0] if isinstance(e, (tuple, list)) else e for e in entries[:1000]]
    sizes = [os.path.getsize(p) for p in paths if isinstance(p, (str, os.PathLike)) and os.path.isfile(p)]
    return statistics.mean(sizes) if sizes else None


def tensor_bytes(sample):
    t = first_tensor(sample)
    return t.element_size() * t.nelement()


def probe(args):
    torch.manual_seed(0)
    device = torch.device(args.device or ("cuda" if torch.cuda.is_available() else "cpu"))
    dataset = load_callable(args.dataset)()
    step = make_step(args, device)
    nb = args.pin_memory
    progress = (lambda m: print(f"pipesim-probe: {m}", file=sys.stderr)) if sys.stderr.isatty() else (lambda m: None)

    one_batch = next(iter(DataLoader(dataset, batch_size=args.batch_size, shuffle=False, drop_last=True)))
    rates = {}
    progress("device_cached")
    on_device = to_device(one_batch, device, False)
    device_cpu = {}
    rates["device-cached"] = timed_loop(repeat(on_device), step, args.steps, args.warmup, device, False,
                                        cpu=device_cpu)
    # The loop thread's CPU per step at a small batch, where the least of it spins while the
    # accelerator computes: what launching the step's work costs (pipeline.launch_time).
    small = max(1, args.batch_size // 8)
    launch = None
    if args.model and small < args.batch_size:
        progress(f"device_cached at batch {small}")
        small_cpu = {}
        first = mapped(on_device, lambda t: t[:small])
        timed_loop(repeat(first), step, args.steps, args.warmup, device, False, cpu=small_cpu)
        launch = small_cpu["thread"]
    progress("host_cached")
    # Pinned as the DataLoader's pin_memory would leave it, so that only the copy is added.
    host = mapped(one_batch, lambda t: t.pin_memory()) if args.pin_memory and device.type == "cuda" else one_batch
    rates["host-cached"] = timed_loop(repeat(host), step, args.steps, args.warmup, device, nb)
    length = args.batch_size * (args.steps + args.warmup + 2 * max(1, args.num_workers) * args.prefetch_factor)
    progress("sample_cached")
    rates["sample-cached"] = timed_loop(loader(OneSample(dataset[0], length), args), step, args.steps,
                                        args.warmup, device, nb)
    raw, transform = without_transform(dataset)
    if transform is not None:
        progress("raw_cached")
        rates["raw-cached"] = timed_loop(loader(OneRawSample(raw, transform, length), args), step, args.steps,
                                         args.warmup, device, nb)
    progress("full")
    needed = args.batch_size * (args.steps + args.warmup)
    if len(dataset) < needed:
        sys.exit(f"pipesim-probe: the dataset has {len(dataset)} samples; --steps and --warmup need {needed} "
                 f"at batch {args.batch_size}")
    stats, full_cpu = [], {}
    if args.num_workers > 0:
        rates["full"] = timed_loop(loader(Timed(dataset), args, collate=timed_collate), step, args.steps,
                                   args.warmup, device, nb, cpu=full_cpu, stats=stats)
    else:
        rates["full"] = timed_loop(loader(dataset, args), step, args.steps, args.warmup, device, nb, cpu=full_cpu)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    other, crowd = None, None
    if args.num_workers > 0:
        count = other_count(args.num_workers, cpus)
        progress(f"full with {count} workers")
        other_stats, other_cpu = [], {}
        rate = timed_loop(loader(Timed(dataset), args, workers=count, collate=timed_collate), step, args.steps,
                          args.warmup, device, nb, cpu=other_cpu, stats=other_stats)
        other = (count, rate)
        crowd = {"first": (args.num_workers, rates["full"], full_cpu, inside(stats, args.batch_size, 0)),
                 "second": (count, rate, other_cpu, inside(other_stats, args.batch_size, 0))}

    progress("single samples")
    per_sample, faults = time_samples(dataset, args.samples, args.num_workers, args.batch_size)
    load_only = None
    if transform is not None:
        dataset.transform = None
        try:
            load_only, _ = time_samples(dataset, args.samples, args.num_workers, args.batch_size)
        finally:
            dataset.transform = transform
    warmup = None
    if args.num_workers > 0:
        progress("a new worker's first batch")
        warmup = time_warmup(dataset, args.batch_size)
    scales = None
    if args.num_workers > 0 and args.scaling_samples > 0:
        progress("how the transform scales across processes")
        n = len(dataset)
        scales = scaling(dataset, [(i * 4099 + 7) % n for i in range(min(args.scaling_samples, n))], cpus)
    return {
        "cpus": cpus,
        "inside": inside(stats, args.batch_size, tensor_bytes(dataset[0])),
        "full_cpu": full_cpu,
        "device_cpu": device_cpu,
        "launch": launch,
        "other": other,
        "crowd": crowd,
        "scaling": scales,
        "rates": rates,
        "per_sample": per_sample,
        "faults_per_sample": faults,
        "warmup": warmup,
        "load_only": load_only,
        "device_sample_bytes": tensor_bytes(dataset[0]),
        "sample_bytes": sample_bytes(dataset),
        "device": str(device),
    }


# ----------------------------------------------------------------------------- what it prints


def fmt_time(s):
    return f"{s * 1e3:.4g} ms" if s >= 1e-3 else f"{s * 1e6:.4g} us"


def scaling_comment(sc):
    """The comment lines that say how the scaling keys were measured (none when they were not)."""
    if not sc:
        return []
    c = sc["processes"]
    return ["# Across processes forked as workers are (one torch thread each, the same samples, the",
            f"# median of 5 rounds): {c} at once delivered {sc['speedup']:.2f} times one's rate"
            + (" (cpu.scaling_contention);" if sc["scaling_contention"] is not None else ";"),
            f"# {2 * c} at once, more than this machine's {c} logical CPUs, spent "
            f"{100 * sc['oversubscription_cost']:.1f}% more CPU time per sample",
            f"# than {c} (cpu.oversubscription_cost). Both describe this machine."]


PAGE = 4096
REMAP_FAULTS = 32  # below this many per sample, faults say nothing of the allocator (a small
#                    sample's buffers come from the heap; on the README's VM 2-5 in the good state)


def fault_comment(m):
    """The comment lines on the page faults the single samples took, and whether that many
    says the time is inflated: a sample whose buffers the allocator gave back and maps anew
    each time faults at least once per page of them, which costs a worker that reuses its
    heap nothing (docs/validation.md, "Validation against a real PyTorch DataLoader")."""
    faults = m.get("faults_per_sample")
    if faults is None:
        return [], False
    remapped = faults >= max(REMAP_FAULTS, 0.5 * m["device_sample_bytes"] / PAGE)
    if not remapped:
        return [f"# They took {faults:.0f} page faults per sample."], False
    return [f"# They took {faults:.0f} page faults per sample: more than half a fault per page of the sample,",
            "# so the allocator gave its buffers back and mapped them anew each time (on the README's",
            "# validation VM that made a 2.1 ms sample 2.7 ms; the DataLoader's workers there took 1-2",
            "# faults per sample). Time again in a fresh process, or with MALLOC_MMAP_THRESHOLD_=33554432",
            "# MALLOC_TRIM_THRESHOLD_=67108864 set (glibc's own ceiling for them), and compare."], True


def loader_preset(args, m):
    """The loader preset the TOML builds on: the one measured on a GPU node with pin_memory, else
    the one measured on a 2-CPU machine."""
    return "pytorch-dataloader-gpu-node" if m["device"].startswith("cuda") and args.pin_memory else "pytorch-dataloader"


def measured_keys(args, m, single, cv):
    """Every scenario key this run measured, by section: {section: [(key, value, comment)]}. One set:
    the caching experiments' figures are in it (compute, the copy), and what the DataLoader's
    insides showed replaces what attribute would infer from the rates."""
    B, D = args.batch_size, m["device_sample_bytes"]
    keys = {"model": [], "pipeline": [], "workload": [], "cpu": [], "link": [], "transform": []}
    device_step = 1 / m["rates"]["device-cached"]
    keys["model"].append(("measured_per_sample", f'"{fmt_time(device_step / B)}"',
                          f"the step with the batch on the device, {fmt_time(device_step)}, over the batch"))
    keys["pipeline"] += [("batch_size", str(B), ""), ("workers", str(args.num_workers), ""),
                         ("prefetch_factor", str(args.prefetch_factor), "")]
    if m.get("warmup") is not None:
        keys["pipeline"].append(("worker_warmup_time", f'"{fmt_time(m["warmup"])}"',
                                 "a new worker's first batch over the same samples again (a forked process)"))
    thread = m["device_cpu"].get("thread")
    if thread is not None and args.model:
        keys["pipeline"].append(("loop_cpu_share", f"{min(1.0, thread / device_step):.3f}",
                                 "the loop thread's CPU over the step, batch on the device"))
    if m.get("launch") is not None:
        keys["pipeline"].append(("launch_time", f'"{fmt_time(m["launch"])}"',
                                 f"the loop thread's CPU per step at batch {max(1, B // 8)}"))
    crowd = crowding(args, m)
    if thread is not None and args.model and crowd and crowd["fitted"] is not None:
        keys["pipeline"].append(("crowded_loop_time", f'"{fmt_time(crowd["fitted"])}"',
                                 "the loop's own step at two worker counts against the CPUs busy"))
    ins = m.get("inside")
    if ins:
        keys["pipeline"].append(("worker_sample_overhead", f'"{fmt_time(max(0.0, ins["sample_cpu"] - single))}"',
                                 "a worker's CPU per sample inside the DataLoader less one process's"))
    keys["workload"].append(("transform_cost", f'"{fmt_time(single)}"', "dataset[i] in one process: load and transform"))
    keys["workload"].append(("device_sample_size", f'"{D} B"', ""))
    if m["sample_bytes"]:
        keys["workload"].append(("sample_size", f'"{m["sample_bytes"]:.0f} B"', "mean file size"))
    else:
        keys["workload"].append(("sample_size", f'"{D} B"', "not found in the dataset (no .samples, .files or "
                                 ".paths): the sample on the device stands in; set the stored size to model storage"))
    keys["cpu"].append(("cores", str(m["cpus"]), "the logical CPUs this process may use"))
    sc = m.get("scaling")
    if sc:
        if sc["scaling_contention"] is not None:
            keys["cpu"].append(("scaling_contention", f"{sc['scaling_contention']:.4f}", ""))
        keys["cpu"].append(("oversubscription_cost", f"{sc['oversubscription_cost']:.4f}", ""))
    if ins and ins["collate_cpu"] > 0:
        keys["cpu"].append(("collate_bandwidth", f'"{ins["batch_bytes"] / ins["collate_cpu"] / 1e9:.4g} GB/s"',
                            "default_collate's CPU per batch inside the DataLoader"))
    pin = pin_cpu(m)
    if ins and args.pin_memory and pin > 0:
        keys["cpu"].append(("pin_bandwidth", f'"{B * D / pin / 1e9:.4g} GB/s"',
                            "the training process's threads but the loop, CPU per step, less theirs "
                            "with the batch on the device"))
    copy = 1 / m["rates"]["host-cached"] - device_step if "host-cached" in m["rates"] else 0
    if m["device"].startswith("cuda") and copy > 0:
        keys["link"] += [("bandwidth", f'"{B * D / copy / 1e9:.4g} GB/s"', "host_cached less device_cached"),
                         ("pinned", "true" if args.pin_memory else "false", "")]
    keys["transform"].append(("cv", f"{cv:.3f}", ""))
    return keys


def other_threads(cpu):
    """The training process's CPU per step in its threads other than the loop's (None: not timed)."""
    if cpu.get("process") is None or cpu.get("thread") is None:
        return None
    return max(0.0, cpu["process"] - cpu["thread"])


def pin_cpu(m):
    """The pin thread's CPU per step: the threads other than the loop's in the full pipeline, less
    theirs with the batch on the device (autograd's and CUDA's threads run there too: ResNet-50's
    backward thread took 10-13 ms a step on an H200, a sixth of what the pin thread took)."""
    full, device = other_threads(m["full_cpu"]), other_threads(m["device_cpu"])
    if full is None:
        return 0.0
    return full - (device or 0.0)


def crowding(args, m):
    """The loop's loss beside busy CPUs, from the full pipeline at both worker counts: at each, the
    tasks busy as the loop takes a batch (the workers, each one's batch span over the step, at
    most W; the pin thread, its CPU over the step) give pipesim's share of the crowding (none up to
    half the CPUs busy, in proportion up to all); the loop's own step (outside next()) grows by
    pipeline.crowded_loop_time times the growth of that share. None when the two counts do not
    differ by a quarter of it (then the CPUs were not crowded enough to tell)."""
    crowd = m.get("crowd")
    if not crowd:
        return None
    device_others = other_threads(m["device_cpu"]) or 0.0
    shares = []
    for workers, rate, cpu, ins in (crowd["first"], crowd["second"]):
        if not rate or cpu.get("own") is None or not ins:
            return None
        step = 1 / rate
        busy = min(workers, ins["batch_span"] / step)
        pin = other_threads(cpu)
        busy += min(1.0, max(0.0, (pin or 0.0) - device_others) / step) if args.pin_memory else 0.0
        shares.append((min(1.0, max(0.0, 2 * busy / m["cpus"] - 1)), cpu["own"], workers, busy))
    (s1, own1, w1, b1), (s2, own2, w2, b2) = shares
    if abs(s2 - s1) < 0.25:
        return {"fitted": None, "counts": ((w1, b1, own1), (w2, b2, own2))}
    return {"fitted": max(0.0, (own2 - own1) / (s2 - s1)), "counts": ((w1, b1, own1), (w2, b2, own2))}


def inside_comment(args, m, single):
    """What the DataLoader's insides showed, in words (the replay reads the first line)."""
    ins, cpu = m.get("inside"), m["full_cpu"]
    lines = []
    if ins:
        lines += [f"# Inside the DataLoader ({args.num_workers} worker{'s' if args.num_workers != 1 else ''}, "
                  f"{ins['batches']} batches): a worker's samples "
                  f"took {ins['sample_cpu'] * 1e3:.4g} ms of CPU per sample",
                  f"# ({ins['sample_wall'] * 1e3:.4g} ms wall; {(ins['sample_cpu'] - single) * 1e3:+.3g} ms against one "
                  f"process), its collate {fmt_time(ins['collate_cpu'])} of CPU per batch of "
                  f"{ins['batch_bytes'] / 1e6:.4g} MB ({fmt_time(ins['collate_wall'])} wall)."]
    if cpu:
        lines.append(f"# The training process per step of the full pipeline: its loop thread {fmt_time(cpu['thread'])} "
                     f"of CPU, its other threads {fmt_time(other_threads(cpu))}"
                     + (" (the pin thread among them)." if args.pin_memory else "."))
    if m["device_cpu"].get("thread") is not None:
        others = other_threads(m["device_cpu"])
        lines.append(f"# With the batch on the device its loop thread took {fmt_time(m['device_cpu']['thread'])} of CPU "
                     f"per {fmt_time(1 / m['rates']['device-cached'])} step"
                     + (f" (its other threads {fmt_time(others)})" if others is not None else "")
                     + (f"; at batch {max(1, args.batch_size // 8)} {fmt_time(m['launch'])} (launching the work)."
                        if m.get("launch") is not None else "."))
    if m.get("other"):
        count, rate = m["other"]
        lines.append(f"# The full pipeline with {count} workers: {rate:.4g} steps/s (with {args.num_workers}: "
                     f"{m['rates']['full']:.4g}).")
    c = crowding(args, m)
    if c:
        (w1, b1, own1), (w2, b2, own2) = c["counts"]
        lines.append(f"# The loop's own step (outside next()): {fmt_time(own1)} with {w1} workers ({b1:.3g} tasks busy), "
                     f"{fmt_time(own2)} with {w2} ({b2:.3g} busy) on {m['cpus']} CPUs"
                     + (f": pipeline.crowded_loop_time {fmt_time(c['fitted'])}." if c["fitted"] is not None
                        else "; too little crowding between them to fit pipeline.crowded_loop_time."))
    return lines


def report(args, m):
    per = m["per_sample"]
    mean = statistics.mean(per)
    cv = statistics.pstdev(per) / mean if len(per) > 1 and mean > 0 else 0.0
    step = f"model {args.model}" if args.model else f"a {args.step_time} s sleep standing in for the model"
    lines = [
        f"# pipesim-probe: measured {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} on {platform.node()}",
        f"# ({platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs), torch {torch.__version__},"
        f" device {m['device']}.",
        f"# Dataset {args.dataset}; {step}; batch {args.batch_size}, {args.num_workers} workers,"
        f" pin_memory {args.pin_memory}.",
        "# Single samples in one process"
        + (" on one torch thread, as a worker runs them" if args.num_workers > 0 else "")
        + f": dataset[i] {fmt_time(mean)} mean over {len(per)} (cv {cv:.2f})"
        + (f"; without the transform {fmt_time(statistics.mean(m['load_only']))}." if m["load_only"] else "."),
        *fault_comment(m)[0],
        "# Caching experiments (steps/s): " + ", ".join(f"{k} {v:.4g}" for k, v in m["rates"].items()) + ".",
        *inside_comment(args, m, mean),
        *scaling_comment(m.get("scaling")),
        f"# The DataLoader's other costs are the preset's {loader_preset(args, m)} (measured on another machine).",
        "",
        f'use = ["{loader_preset(args, m)}"]',
    ]
    for section, entries in measured_keys(args, m, mean, cv).items():
        if not entries:
            continue
        lines += ["", f"[{section}]"]
        for key, value, comment in entries:
            lines.append(f"{key} = {value}" + (f"   # {comment}" if comment else ""))
    toml = "\n".join(lines) + "\n"

    command = ["attribute", "caching", "--batch", str(args.batch_size), "--workers", str(args.num_workers)]
    for level, rate in m["rates"].items():
        command += [f"--{level}", f"{rate:.4g}"]
    if m.get("other"):
        command += ["--full-at", f"{m['other'][0]}={m['other'][1]:.4g}"]
    command += ["--device-sample-size", f"{m['device_sample_bytes']}B"]
    if m["sample_bytes"]:
        command += ["--sample-size", f"{m['sample_bytes']:.0f}B"]
    return toml, command


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dataset", help="FILE.py:FUNCTION or MODULE:FUNCTION returning your Dataset")
    model = p.add_mutually_exclusive_group()
    model.add_argument("--model", help="FILE.py:FUNCTION or MODULE:FUNCTION returning your nn.Module")
    model.add_argument("--step-time", type=float, help="seconds of a training step, standing in for the model")
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--num-workers", type=int, default=4)
    p.add_argument("--prefetch-factor", type=int, default=2)
    p.add_argument("--pin-memory", action="store_true")
    p.add_argument("--device", help="cuda or cpu (default: cuda when there is one)")
    p.add_argument("--steps", type=int, default=50, help="steps timed per experiment")
    p.add_argument("--warmup", type=int, default=5, help="steps before timing (the loader's start)")
    p.add_argument("--samples", type=int, default=100, help="single samples timed")
    p.add_argument("--scaling-samples", type=int, default=32,
                   help="samples each process times when measuring how the transform scales across processes "
                        "(with workers; 0: not measured)")
    p.add_argument("--toml", help="also write the TOML to this file")
    p.add_argument("--pipesim", help="the pipesim binary: run the attribute command with it")
    p.add_argument("--self-test", action="store_true", help="probe a small dataset and loop this script makes")
    args = p.parse_args(argv)
    if args.self_test:
        return self_test(args)
    if not args.dataset:
        p.error("--dataset is required (or --self-test)")
    if not args.model and args.step_time is None:
        p.error("give --model or --step-time")
    if args.batch_size < 1 or args.num_workers < 0 or args.steps < 1 or args.warmup < 0 or args.samples < 1:
        p.error("--batch-size, --steps and --samples must be at least 1, --num-workers and --warmup at least 0")
    m = probe(args)
    toml, command = report(args, m)
    if fault_comment(m)[1]:
        print(f"pipesim-probe: warning: {m['faults_per_sample']:.0f} page faults per single sample; its time may be "
              "high (the TOML's comment says why and what to do)", file=sys.stderr)
    print(toml)
    if args.toml:
        with open(args.toml, "w") as f:
            f.write(toml)
    print("$ pipesim " + " ".join(command))
    if args.pipesim:
        out = subprocess.run([args.pipesim] + command, capture_output=True, text=True)
        if out.returncode != 0:
            print(out.stdout + out.stderr, end="", file=sys.stderr)
            return out.returncode
        # The caching table and its verdict; attribute's own scenario keys are left out: the TOML
        # above holds this run's, measured inside the DataLoader where attribute infers them.
        print(out.stdout.split("\nScenario keys")[0].rstrip("\n"))
        print("(attribute's scenario keys are left out: the TOML above has this run's.)")
    diagnose = ["diagnose", args.toml or "probe.toml"]
    print("\nNext, the whole pipeline with these keys" + ("" if args.toml else " (save the TOML above as probe.toml)")
          + ":\n$ pipesim " + " ".join(diagnose))
    if args.pipesim and args.toml:
        out = subprocess.run([args.pipesim] + diagnose, capture_output=True, text=True)
        print(out.stdout, end="")
        if out.returncode != 0:
            print(out.stderr, end="", file=sys.stderr)
            return out.returncode
    return 0


# ----------------------------------------------------------------------------- the self-test

SELF_TEST_MODULE = '''
import os
from PIL import Image
from torch.utils.data import Dataset
import torchvision.transforms as T

FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "images")


class Files(Dataset):
    """ImageFolder's shape: .samples of (path, target), a PIL loader and a transform."""

    def __init__(self, folder, transform):
        self.samples = [(os.path.join(folder, n), 0) for n in sorted(os.listdir(folder))]
        self.transform = transform

    def __len__(self):
        return len(self.samples) * 4

    def __getitem__(self, i):
        path, target = self.samples[i % len(self.samples)]
        with open(path, "rb") as f:
            image = Image.open(f).convert("RGB")
        if self.transform is not None:
            image = self.transform(image)
        return image, target


def make_dataset():
    return Files(FOLDER, T.Compose([T.RandomResizedCrop(64), T.RandomHorizontalFlip(), T.ToTensor()]))


def make_model():
    import torch.nn as nn

    return nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 31 * 31, 10))
'''


def self_test(args):
    """Probes a dataset of JPEG files this script writes, through the command line a user runs."""
    import numpy as np
    from PIL import Image

    # The pin thread's CPU, worked by hand from the ResNet-50 probe of the H200 node: the other
    # threads took 75.43 ms a step in the full pipeline and 10.57 ms with the batch on the device.
    pin = pin_cpu({"full_cpu": {"thread": 0.04598, "process": 0.12141},
                   "device_cpu": {"thread": 0.04512, "process": 0.05569}})
    assert abs(pin - 0.06486) < 1e-9, pin
    assert abs(pin_cpu({"full_cpu": {"thread": 0.04, "process": 0.1}, "device_cpu": {}}) - 0.06) < 1e-9
    assert pin_cpu({"full_cpu": {}, "device_cpu": {}}) == 0.0
    pipesim = args.pipesim or shutil.which("pipesim") or os.path.join(ROOT, "build", "release", "pipesim")
    with tempfile.TemporaryDirectory() as tmp:
        images = os.path.join(tmp, "images")
        os.makedirs(images)
        rng = np.random.default_rng(3)
        for i in range(32):
            base = rng.integers(0, 255, size=(12, 16, 3), dtype=np.uint8)
            image = Image.fromarray(base).resize((320, 240), Image.BICUBIC)
            image.save(os.path.join(images, f"{i:03d}.jpg"), quality=90)
        module = os.path.join(tmp, "selftest_data.py")
        with open(module, "w") as f:
            f.write(SELF_TEST_MODULE)
        toml_path = os.path.join(tmp, "probe.toml")
        command = [sys.executable, os.path.abspath(__file__), "--dataset", module + ":make_dataset",
                   "--step-time", "0.01", "--batch-size", "8", "--num-workers", "2", "--steps", "12",
                   "--warmup", "2", "--samples", "20", "--scaling-samples", "12", "--toml", toml_path,
                   "--pipesim", pipesim]
        out = subprocess.run(command, capture_output=True, text=True, timeout=600)
        if out.returncode != 0:
            print(out.stdout + out.stderr, file=sys.stderr)
            return f"pipesim-probe self-test: the probe exited {out.returncode}"
        text = out.stdout
        attribute = next(line for line in text.splitlines() if line.startswith("$ pipesim attribute "))
        for level in ("device-cached", "host-cached", "sample-cached", "raw-cached", "full"):
            assert f"--{level} " in attribute, (level, attribute)
        assert "Caching experiments at batch 8 with 2 workers:" in text, text
        # The second count (half, on a 2-CPU machine) and the loop's own step at both.
        assert "# The loop's own step (outside next()): " in text, text
        # The attribute command reproduces every measured rate, and the probe's TOML loads as a scenario.
        argv = attribute[len("$ pipesim "):].split(" ")
        result = subprocess.run([pipesim] + argv + ["--format", "json"], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        attributed = json.loads(result.stdout)
        # Each level's model rate is its measured rate, or the level below's when noise made it faster
        # (a rise attribute reads as no cost), within attribute's 2% margin for workers that keep up.
        below = float("inf")
        for level in attributed["levels"]:
            model, measured = level["model_steps_per_s"], level["measured_steps_per_s"]
            expected = min(measured, below)
            assert abs(model - expected) <= 0.021 * expected, (level, expected)
            below = model
        scenario = os.path.join(tmp, "scenario.toml")
        with open(scenario, "w") as f:
            f.write('use = ["probe.toml"]\n[model]\nmeasured_per_sample = "1.25 ms"\n')
        diag = subprocess.run([pipesim, "diagnose", scenario, "--format", "json"], capture_output=True, text=True)
        assert diag.returncode == 0, diag.stderr
        inputs = json.loads(diag.stdout)["inputs"]
        assert inputs["pipeline.batch_size"] == 8 and inputs["pipeline.workers"] == 2, inputs
        assert inputs["workload.transform_cost"] > 0 and inputs["workload.sample_size"] > 0, inputs
        assert inputs["pipeline.worker_warmup_time"] >= 0, inputs
        assert inputs.get("cpu.oversubscription_cost", -1) >= 0, inputs
        assert "more CPU time per sample" in text, text
        assert " page faults per sample" in text, text
        # An allocator that maps every buffer anew (glibc's thresholds at a page, no trim margin):
        # the single samples fault on every page, and the probe says so.
        forced = dict(os.environ, MALLOC_MMAP_THRESHOLD_="4096", MALLOC_TRIM_THRESHOLD_="0")
        out = subprocess.run(command[:4] + ["--step-time", "0.01", "--batch-size", "8", "--num-workers", "1",
                                            "--steps", "4", "--warmup", "1", "--samples", "10",
                                            "--scaling-samples", "0"],
                             capture_output=True, text=True, timeout=600, env=forced)
        assert out.returncode == 0, out.stdout + out.stderr
        assert "page faults per single sample; its time may be high" in out.stderr, out.stderr
        assert "MALLOC_TRIM_THRESHOLD_=67108864" in out.stdout, out.stdout
        # The user's own model instead of a sleep.
        out = subprocess.run(command[:4] + ["--model", module + ":make_model", "--batch-size", "8", "--num-workers",
                                            "1", "--steps", "4", "--warmup", "1", "--samples", "5"],
                             capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stdout + out.stderr
        assert "; model " in out.stdout and "$ pipesim attribute caching --batch 8 --workers 1 " in out.stdout, out.stdout
    print("pipesim-probe self-test: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
