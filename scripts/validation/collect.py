"""Collecting a run of a GPU node: `scripts/validate collect OUT_DIR`.

Trains a real torchvision model from a real DataLoader over a grid of batch sizes and worker
counts on this machine, measures what a user can measure without pipesim (the calibration
records) and what each grid point reached, timed from inside the loader, and writes them as
`OUT_DIR/results.jsonl` in the format `scripts/validate replay` reads (docs/validation.md,
"Replaying runs of a GPU node"); then runs scripts/pipesim-probe.py on the same machine (`probe.toml`,
`probe.txt`). Nothing here comes from pipesim. Beside the calibration records the replay reads, a
`contention` record per batch size times the step beside processes that only spin, for the CPU
the training loop loses when workers share the node's CPUs with it (not read by the replay yet).

The data: JPEG files cut from scikit-image's photographs (validate's make_images), read, decoded
with PIL and transformed as ImageNet training does (RandomResizedCrop(224), flip, ToTensor,
Normalize). The step: zero_grad, forward under bf16 autocast (CUDA), the output's mean,
backward, SGD, synchronize. A point's utilization is n x the device-cached step over the wall
time of n steps, whole rounds of W batches after the first batch, over at least --seconds.
"""
import json
import os
import platform
import statistics
import subprocess
import sys
import threading
import time

import numpy as np
import torch
import torchvision
from torch.utils.data import DataLoader, Dataset

from fork_timing import forked_together
from loader_timing import Timed, inside, timed_collate

try:
    import resource
except ImportError:  # no involuntary context switches to count
    resource = None

HERE = os.path.dirname(os.path.abspath(__file__))
SHAPE = (3, 224, 224)


class Files(Dataset):
    """ImageFolder's work per sample: read the file, decode it with PIL, transform; a dataset
    of any length cycles over the files."""

    def __init__(self, paths, length, transform):
        self.paths, self.length, self.transform = paths, length, transform

    def __len__(self):
        return self.length

    def __getitem__(self, i):
        from PIL import Image

        with open(self.paths[i % len(self.paths)], "rb") as f:
            image = Image.open(f).convert("RGB")
        return self.transform(image) if self.transform is not None else image


class Writer:
    """results.jsonl, one record a line, written as it is measured (a run cut short keeps its
    records so far); `t` is seconds since the start."""

    def __init__(self, path):
        self.f = open(path, "w")
        self.start = time.perf_counter()

    def __call__(self, kind, **fields):
        fields.update(kind=kind, t=round(time.perf_counter() - self.start, 2))
        self.f.write(json.dumps(fields) + "\n")
        self.f.flush()
        print(f"collect: {kind} " + " ".join(f"{k}={v}" for k, v in fields.items()
                                             if isinstance(v, (int, float, str)) and k not in ("kind", "t")
                                             and len(str(v)) < 40), file=sys.stderr)

    def close(self):
        self.f.close()


def command(args):
    try:
        return subprocess.run(args, capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def env_record(device):
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            mem = f.readline().strip()
    except OSError:
        pass
    gpu = torch.cuda.get_device_name(0) if device.type == "cuda" else "none (cpu)"
    smi = command(["nvidia-smi", "--query-gpu=name,driver_version,clocks.current.sm,clocks.max.sm,power.limit",
                   "--format=csv"]) if device.type == "cuda" else ""
    return dict(cpus=os.cpu_count(), affinity=affinity, lscpu=command(["lscpu"]), mem=mem, gpu=gpu,
                torch=torch.__version__, torchvision=torchvision.__version__, nvidia_smi=smi,
                python=platform.python_version())


def per_sample(dataset, count):
    """One process, one torch thread: each sample's seconds, and read + decode alone."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        dataset[0]
        times = []
        for i in range(count):
            t = time.perf_counter()
            dataset[(i * 7919) % len(dataset)]
            times.append(time.perf_counter() - t)
        transform, dataset.transform = dataset.transform, None
        try:
            load = []
            for i in range(min(count, 100)):
                t = time.perf_counter()
                dataset[(i * 7919) % len(dataset)]
                load.append(time.perf_counter() - t)
        finally:
            dataset.transform = transform
    finally:
        torch.set_num_threads(threads)
    mean = statistics.mean(times)
    return dict(mean_s=mean, median_s=statistics.median(times), cv=statistics.pstdev(times) / mean,
                load_decode_mean_s=statistics.mean(load), times=times)


def scaling_rows(dataset, cpus, samples=60):
    """k processes forked at once as workers are, each timing the same `samples` samples: the
    aggregate rate and the mean per-process time per sample, k from 1 to twice the CPUs."""
    indices = [(i * 4099 + 7) % len(dataset) for i in range(samples)]
    rows = []
    for k in sorted({1, 2, 4, 8, max(1, cpus - 1), cpus, 2 * cpus}):
        got = forked_together(dataset, indices, k)
        if got is None:
            continue
        rows.append(dict(k=k, rate=sum(1 / wall for wall, _ in got),
                         mean_proc_s_per_sample=statistics.mean(wall for wall, _ in got)))
    return rows


def memcpy_record(mib=64, rounds=5):
    """One thread's numpy copy of 64 MiB: between warm buffers, and into newly allocated memory
    (its pages fault in, as a collate's do)."""
    n = mib << 20
    src, dst = np.ones(n, dtype=np.uint8), np.empty(n, dtype=np.uint8)
    np.copyto(dst, src)
    warm, fresh = [], []
    for _ in range(rounds):
        t = time.perf_counter()
        np.copyto(dst, src)
        warm.append(time.perf_counter() - t)
        t = time.perf_counter()
        out = np.empty(n, dtype=np.uint8)
        np.copyto(out, src)
        fresh.append(time.perf_counter() - t)
        del out
    return dict(warm_Bps=n / min(warm), fresh_Bps=n / min(fresh), bytes=n)


def tiny():
    """A model of a few layers, for a dry run on a machine without a GPU (--model tiny)."""
    import torch.nn as nn

    return nn.Sequential(nn.Conv2d(3, 8, 7, stride=4), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten(),
                         nn.Linear(128, 10))


class Trained(torch.nn.Module):
    """The model as the run trains it: parameters and batch in channels_last, the forward under
    bf16 autocast on CUDA. The probe is given this module too, so that it times the same step."""

    def __init__(self, net):
        super().__init__()
        self.net = net.to(memory_format=torch.channels_last)

    def forward(self, x):
        x = x.contiguous(memory_format=torch.channels_last)
        with torch.autocast(device_type=x.device.type, dtype=torch.bfloat16, enabled=x.device.type == "cuda"):
            return self.net(x)


def trained(name):
    """`name` from torchvision.models (random weights), or tiny, wrapped as the run trains it."""
    return Trained(tiny() if name == "tiny" else getattr(torchvision.models, name)())


def make_model(name, device):
    model = trained(name).to(device)
    model.train()
    return model, torch.optim.SGD(model.parameters(), lr=1e-3)


def make_step(model, optimizer, device):
    """zero_grad; forward (Trained: bf16 autocast on CUDA); the output's mean; backward; SGD;
    synchronize."""
    cuda = device.type == "cuda"

    def step(x):
        optimizer.zero_grad(set_to_none=True)
        out = model(x)
        out.float().mean().backward()
        optimizer.step()
        if cuda:
            torch.cuda.synchronize()

    return step


def p95(values):
    """The 95th percentile: the value that 95% of them do not exceed."""
    return sorted(values)[-(-95 * len(values) // 100) - 1]


def timed_steps(step, x, warmup, steps):
    """`warmup` untimed steps on x, then `steps` timed: each one's wall time, and per step the loop
    thread's CPU, the whole process's CPU and the loop thread's involuntary context switches (None
    where they are not counted)."""
    for _ in range(warmup):
        step(x)
    times, cpu, switches = [], 0.0, involuntary_switches()
    process = time.process_time()
    for _ in range(steps):
        c, t = time.thread_time(), time.perf_counter()
        step(x)
        times.append(time.perf_counter() - t)
        cpu += time.thread_time() - c
    process = (time.process_time() - process) / steps
    switches = (involuntary_switches() - switches) / steps if switches is not None else None
    return times, cpu / steps, process, switches


def compute_record(step, batch, device, warmup=5, steps=20):
    """The step on a batch already on the device (its time, the loop thread's CPU and all the
    process's threads' CPU: autograd's and CUDA's beside the loop, no pin thread), and on a pinned
    batch copied each step."""
    x = torch.randn(batch, *SHAPE).to(device, memory_format=torch.channels_last)
    device_times, cpu, process, _ = timed_steps(step, x, warmup, steps)
    host = torch.randn(batch, *SHAPE)
    if device.type == "cuda":
        host = host.pin_memory()
    host_times = []
    for _ in range(max(5, steps * 3 // 4)):
        t = time.perf_counter()
        step(host.to(device, non_blocking=True))
        host_times.append(time.perf_counter() - t)
    return dict(batch=batch, device_cached_median_s=statistics.median(device_times),
                device_cached_mean_s=statistics.mean(device_times), main_thread_cpu_per_step=cpu,
                main_process_cpu_per_step=process,
                host_cached_median_s=statistics.median(host_times), device_cached=device_times,
                host_cached=host_times)


def burner_counts(cpus):
    """The numbers of busy processes the loop is timed beside: none, half the CPUs, and around and
    past all of them, where a grid's workers share the CPUs with the training process."""
    return sorted({k for k in (0, cpus // 2, cpus - 4, cpus - 2, cpus, cpus + 4) if k >= 0})


def wake_late(stop, lates, period=0.002):
    """The canary: sleeps `period` at a time until `stop`, noting how late it woke each time."""
    while not stop.is_set():
        t = time.perf_counter()
        time.sleep(period)
        lates.append(time.perf_counter() - t - period)


def contention_record(step, batch, device, cpus, steps=15):
    """The device-cached step beside k processes that only spin (stand-ins for busy DataLoader
    workers, with no data and no shared memory): per k, the step's time, the loop thread's and
    the process's CPU and the loop thread's involuntary context switches per step; then again
    with a canary thread in the training process that sleeps 2 ms at a time and notes how late it
    wakes (the wait for a CPU and for the interpreter lock that a pin-memory thread also sees).
    What the loop loses when W workers share the node's CPUs with it, measured without a loader."""
    x = torch.randn(batch, *SHAPE).to(device, memory_format=torch.channels_last)
    rows = []
    for k in burner_counts(cpus):
        burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(k)]
        try:
            time.sleep(0.3 + 0.02 * k)  # the interpreters start and spin
            for canary in (False, True):
                lates, stop = [], threading.Event()
                thread = threading.Thread(target=wake_late, args=(stop, lates), daemon=True) if canary else None
                if thread:
                    thread.start()
                times, cpu, process, switches = timed_steps(step, x, 3, steps)
                stop.set()
                if thread:
                    thread.join()
                row = dict(burners=k, canary=canary, step_median_s=statistics.median(times),
                           step_mean_s=statistics.mean(times), main_thread_cpu_per_step=cpu,
                           main_process_cpu_per_step=process, main_ctx_switches=switches)
                if canary and lates:
                    row.update(canary_late_mean_s=statistics.mean(lates),
                               canary_late_p95_s=p95(lates),
                               canary_wakes_per_step=len(lates) / (steps + 3))
                rows.append(row)
        finally:
            for b in burners:
                b.kill()
            for b in burners:
                b.wait()
    return dict(batch=batch, cpus=cpus, rows=rows)


def h2d_records(batch, device):
    if device.type != "cuda":
        return []
    out = []
    for mode in ("pinned", "pageable"):
        x = torch.randn(batch, *SHAPE)
        if mode == "pinned":
            x = x.pin_memory()
        best = float("inf")
        for _ in range(8):
            torch.cuda.synchronize()
            t = time.perf_counter()
            x.to(device, non_blocking=mode == "pinned")
            torch.cuda.synchronize()
            best = min(best, time.perf_counter() - t)
        out.append(dict(mode=mode, bytes=x.nelement() * x.element_size(), Bps=x.nelement() * x.element_size() / best))
    return out


def involuntary_switches():
    return resource.getrusage(resource.RUSAGE_THREAD).ru_nivcsw if resource and hasattr(resource, "RUSAGE_THREAD") \
        else None


MIN_ROUNDS = 3  # whole rounds of W batches a point measures at the least


def point(dataset, step, device, batch, workers, compute_s, seconds):
    """One grid point: the DataLoader as a user writes it, instrumented inside; the loop's time in
    next() and in the step (the copy to the device, the step) per step, and n steps over whole
    rounds of W after the first batch, at least `seconds` and MIN_ROUNDS rounds.

    `utilization` is over all n steps. The first round still holds the workers' start: they are
    started one after another, and at W near or past the node's CPUs the last one's first batch
    comes a second or more after the first one's, a cost an epoch pays once.
    `utilization_after_first_round` leaves that round out: the steady state a long epoch runs
    in. `step_times` (each step's time, the wait not in it) and `waits` split a step's time
    between the training process (the copy, the loop, what it lost to the workers) and the
    loader (the wait for a batch). `batch_spans` and `batch_cpus` are each batch's, in the order
    taken (batch i from worker i mod W): its first sample's start to its collate's end, and the
    CPU its worker's thread spent on it; a span well over its CPU is a worker that lost its CPU
    while building it, which the in-order hand-over makes every later batch wait for."""
    pin = device.type == "cuda"
    loader = DataLoader(Timed(dataset), batch_size=batch, shuffle=True, num_workers=workers, pin_memory=pin,
                        drop_last=True, prefetch_factor=2 if workers > 0 else None, persistent_workers=False,
                        collate_fn=timed_collate)
    start_unix, start = time.time(), time.perf_counter()
    it = iter(loader)
    x, _ = next(it)
    step(x.to(device, non_blocking=pin))
    first = time.perf_counter() - start
    rounds = max(1, workers)
    waits, steps, stats = [], [], []
    thread, process, switches = time.thread_time(), time.process_time(), involuntary_switches()
    t0 = time.perf_counter()
    after_first = None  # when the first round ended
    n, last = 0, len(loader) - 1  # the batches after the first
    while n < last and (n == 0 or n % rounds or n < MIN_ROUNDS * rounds or time.perf_counter() - t0 < seconds):
        w = time.perf_counter()
        x, figures = next(it)
        s = time.perf_counter()
        waits.append(s - w)
        stats.append(figures)
        step(x.to(device, non_blocking=pin))
        steps.append(time.perf_counter() - s)
        n += 1
        if n == rounds:
            after_first = time.perf_counter()
    wall = time.perf_counter() - t0
    thread, process = (time.thread_time() - thread) / n, (time.process_time() - process) / n
    switches = (involuntary_switches() - switches) / n if switches is not None else None
    end_unix = time.time()
    s = time.perf_counter()
    del it
    shutdown = time.perf_counter() - s
    ins = inside(stats, batch, int(np.prod(SHAPE)) * 4) or {}
    return dict(batch=batch, workers=workers, compute_s=compute_s, n=n, wall=wall, first_batch_s=first,
                shutdown_s=shutdown, main_process_cpu_per_step=process, main_thread_cpu_per_step=thread,
                worker_sample_cpu_per_sample=ins.get("sample_cpu"), worker_sample_wall_per_sample=ins.get("sample_wall"),
                collate_cpu=ins.get("collate_cpu"), collate_wall=ins.get("collate_wall"),
                worker_batch_span=ins.get("batch_span"), main_ctx_switches=switches,
                wait_mean=statistics.mean(waits), wait_p50=statistics.median(waits),
                wait_p95=p95(waits), waits=waits, epoch_start_unix=start_unix,
                end_unix=end_unix, utilization=n * compute_s / wall, samples_per_s=n * batch / wall,
                step_times=steps, batch_spans=[f[5] for f in stats], batch_cpus=[f[0] + f[3] for f in stats],
                utilization_after_first_round=(
                    (n - rounds) * compute_s / (t0 + wall - after_first) if after_first and n > rounds else None))


USER_MODULE = '''
# The dataset and model of a run of scripts/validate collect, for scripts/pipesim-probe.py.
import os, sys
sys.path.insert(0, {here!r})
import torchvision
import torchvision.transforms as T
from collect import Files

def make_dataset():
    files = sorted(os.path.join({images!r}, n) for n in os.listdir({images!r}) if n.endswith(".jpg"))
    return Files(files, 60000, T.Compose([T.RandomResizedCrop(224), T.RandomHorizontalFlip(), T.ToTensor(),
                                          T.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])]))

def make_model():
    from collect import trained
    return trained({model!r})
'''


def run_probe(out, images, model, batch, workers, pipesim, device):
    """scripts/pipesim-probe.py on this machine with the run's dataset and model: probe.toml and
    its stdout as probe.txt."""
    user = os.path.join(out, "probe_user.py")
    with open(user, "w") as f:
        f.write(USER_MODULE.format(here=HERE, images=images, model=model))
    cmd = [sys.executable, os.path.join(os.path.dirname(HERE), "pipesim-probe.py"), "--dataset", f"{user}:make_dataset", "--model",
           f"{user}:make_model", "--batch-size", str(batch), "--num-workers", str(workers),
           "--steps", "30" if device.type == "cuda" else "6", "--warmup", "5" if device.type == "cuda" else "2",
           "--toml", os.path.join(out, "probe.toml"), "--device", device.type]
    if device.type == "cuda":
        cmd.append("--pin-memory")
    if pipesim:
        cmd += ["--pipesim", pipesim]
    t = time.perf_counter()
    res = subprocess.run(cmd, capture_output=True, text=True)
    with open(os.path.join(out, "probe.txt"), "w") as f:
        f.write(" ".join(os.path.relpath(c) if os.path.isabs(c) else c for c in cmd[1:]) + "\n\n" + res.stdout
                + "\n--- stderr\n" + res.stderr)
    return dict(rc=res.returncode, seconds=time.perf_counter() - t, tail=res.stderr[-2000:])


def collect(out, make_images, model="resnet50", batches=(128, 256), workers=(4, 8, 12, 14, 16, 20), files=3000,
            seconds=4.5, device=None, probe_at=None, pipesim=None):
    """The whole run into `out`. `make_images(folder, count)` makes the JPEG files."""
    import torchvision.transforms as T

    device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
    if device.type == "cuda":
        torch.backends.cudnn.benchmark = True
    os.makedirs(out, exist_ok=True)
    write = Writer(os.path.join(out, "results.jsonl"))
    try:
        write("env", **env_record(device))
        images = os.path.join(out, "images")
        t = time.perf_counter()
        paths = make_images(images, files)
        transform = T.Compose([T.RandomResizedCrop(224), T.RandomHorizontalFlip(), T.ToTensor(),
                               T.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])
        dataset = Files(paths, 60000, transform)
        write("dataset", files=len(paths), mean_bytes=statistics.mean(os.path.getsize(p) for p in paths),
              device_sample_bytes=int(np.prod(SHAPE)) * 4, seconds=time.perf_counter() - t)
        write("per_sample", **per_sample(dataset, 300))
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        write("scaling", rows=scaling_rows(dataset, cpus))
        write("memcpy", **memcpy_record())
        net, optimizer = make_model(model, device)
        step = make_step(net, optimizer, device)
        computes = {}
        # Also at an eighth of the smallest batch, as the probe times the loop's launch: at a
        # small batch less of the loop thread's CPU is spent spinning while the GPU computes
        # (ResNet-50 on an H200: 8.9 ms at batch 32, 19.9 ms at batch 128).
        small = max(1, min(batches) // 8)
        for b in sorted(set(batches) | {small}):
            computes[b] = compute_record(step, b, device)
            write("compute", model=model, **computes[b])
        for r in h2d_records(max(batches), device):
            write("h2d", **r)
        for b in sorted(batches):
            write("contention", model=model, **contention_record(step, b, device, cpus))
        for b in sorted(batches, reverse=True):
            for w in workers:
                write("point", **point(dataset, step, device, b, w, computes[b]["device_cached_median_s"], seconds))
        if probe_at:
            del net, optimizer, step
            if device.type == "cuda":
                torch.cuda.empty_cache()
            write("probe", **run_probe(out, images, model, probe_at[0], probe_at[1], pipesim, device))
        write("done")
    finally:
        write.close()
