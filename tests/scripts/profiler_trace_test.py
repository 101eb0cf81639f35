#!/usr/bin/env python3
"""pipesim attribute trace on traces torch.profiler writes here: a real DataLoader at 0, 1 and 2
workers whose samples cost a known CPU time, and a training loop whose step is a known wait.

For each trace, pipesim's data-wait fraction must come within 0.03 of the one computed here from
the trace's own spans (the DataLoader's __next__ inside each ProfilerStep over the steps), the
scenario `--format toml` writes must give, through `pipesim diagnose`, the trace's utilization
(the loop's own share of the step: the trace has no device events) within 0.05, and the waits
must be what the costs make them: with no workers the loop builds every batch itself
(a wait of at least the batch's CPU time); with two workers the loop waits less than with one.

    profiler_trace_test.py PIPESIM
"""
import json
import os
import subprocess
import sys
import tempfile
import time

import torch
from torch.utils.data import DataLoader, Dataset

PER_SAMPLE_S = 0.004  # CPU time a sample costs
BATCH = 8
STEP_S = 0.012  # the loop's own work a step
ACTIVE = 8  # profiled steps


class Costly(Dataset):
    def __len__(self):
        return BATCH * (ACTIVE + 6)

    def __getitem__(self, i):
        end = time.thread_time() + PER_SAMPLE_S
        while time.thread_time() < end:
            pass
        return torch.zeros(3, 32, 32), i


def make_trace(folder, workers):
    path = os.path.join(folder, f"workers-{workers}.json")
    loader = DataLoader(Costly(), batch_size=BATCH, num_workers=workers)
    schedule = torch.profiler.schedule(wait=1, warmup=1, active=ACTIVE, repeat=1)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], schedule=schedule,
                                on_trace_ready=lambda p: p.export_chrome_trace(path)) as prof:
        for x, _ in loader:
            end = time.perf_counter() + STEP_S
            while time.perf_counter() < end:
                pass
            (x * 2).sum()
            prof.step()
    return path


def own_wait_fraction(path):
    """The waits from the trace's spans, computed here without pipesim."""
    events = json.load(open(path))
    events = events["traceEvents"] if isinstance(events, dict) else events
    steps = [(e["ts"], e["ts"] + e["dur"]) for e in events if e.get("name", "").startswith("ProfilerStep#")]
    nexts = [(e["ts"], e["ts"] + e["dur"]) for e in events
             if e.get("name", "").startswith("enumerate(DataLoader)#") and "__next__" in e["name"]]
    total = sum(b - a for a, b in steps)
    wait = sum(max(0, min(b, d) - max(a, c)) for a, b in steps for c, d in nexts)
    return wait / total, len(steps)


def main(pipesim):
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        fractions = {}
        for workers in (0, 1, 2):
            path = make_trace(folder, workers)
            out = subprocess.run([pipesim, "attribute", "trace", path, "--format", "json"], capture_output=True,
                                 text=True)
            if out.returncode != 0:
                failures.append(f"{workers} workers: exit {out.returncode}: {out.stderr.strip()}")
                continue
            result = json.loads(out.stdout)
            own, steps = own_wait_fraction(path)
            fractions[workers] = result["data_wait_fraction"]
            print(f"{workers} workers: {result['steps']} steps, data wait {result['data_wait_fraction']:.3f} "
                  f"(from the spans here {own:.3f}), step {1e3 * result['step_time_s']:.1f} ms")
            if result["steps"] != steps:
                failures.append(f"{workers} workers: {result['steps']} steps, the trace has {steps}")
            if abs(result["data_wait_fraction"] - own) > 0.03:
                failures.append(f"{workers} workers: data wait {result['data_wait_fraction']:.3f}, spans {own:.3f}")
            if result["accelerator_busy_fraction"] is not None:
                failures.append(f"{workers} workers: a busy fraction without device events")
            scenario = os.path.join(folder, f"workers-{workers}.toml")
            subprocess.run([pipesim, "attribute", "trace", path, "--format", "toml", "--batch", str(BATCH),
                            "--workers", str(workers), "-o", scenario], check=True)
            out = subprocess.run([pipesim, "diagnose", scenario, "--format", "json"], capture_output=True, text=True,
                                 check=True)
            utilization = json.loads(out.stdout)["utilization"]
            print(f"  the scenario written: utilization {utilization:.3f} against the trace's "
                  f"{1 - result['data_wait_fraction']:.3f}")
            if abs(utilization - (1 - result["data_wait_fraction"])) > 0.05:
                failures.append(f"{workers} workers: the scenario gives utilization {utilization:.3f}, the trace "
                                f"{1 - result['data_wait_fraction']:.3f}")
        batch_s = BATCH * PER_SAMPLE_S
        # No workers: each step's wait is at least the batch's CPU time.
        if 0 in fractions and fractions[0] < 0.8 * batch_s / (batch_s + STEP_S):
            failures.append(f"no workers: data wait {fractions[0]:.3f}, the batch's cost makes it at least "
                            f"{batch_s / (batch_s + STEP_S):.3f}")
        if 1 in fractions and 2 in fractions and not fractions[2] < fractions[1]:
            failures.append("two workers waited no less than one")
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
