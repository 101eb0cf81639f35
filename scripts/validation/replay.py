"""Replaying measured runs of a GPU node: `scripts/validate replay RUN_DIR`.

A run folder holds `results.jsonl` (one JSON object per line, `kind` says which: the run's
calibration records `env`, `dataset`, `per_sample`, `scaling`, `memcpy`, `compute`, `h2d`, and
one `point` per grid point) and, when the probe ran there, `probe.toml` and `probe.txt`. The
format is the one `scripts/validate collect` writes (docs/validation.md, "Replaying runs of a GPU node").

Every point's utilization is predicted from the calibration records alone, as a careful user
would describe the run to pipesim: never from a point's own measured fields. Standard library
only (no torch): a run collected on a GPU node replays anywhere pipesim builds.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Targets of the replay: with the probe's files the mean absolute error; without them
# the mean and the largest.
TARGET_MEAN_PROBE = 0.03
TARGET_MEAN, TARGET_MAX = 0.06, 0.15
LOADER_PRESET = "pytorch-dataloader-gpu-node"
DEVICE_SAMPLE_BYTES = 3 * 224 * 224 * 4  # the format's transform (3x224x224 float32) when a run does not say
MAX_BYTES = 64 << 20  # a run's records, and each probe file, at most
CALIBRATION = ("env", "dataset", "per_sample", "scaling", "memcpy", "compute", "h2d", "probe")


class BadRun(Exception):
    """The run folder cannot be replayed: one line for the user, exit status 2."""


def read_run(folder):
    """The run's records: {kind: record} for the calibration kinds (`compute` and `h2d` keyed by
    batch and mode), and the points in file order."""
    path = os.path.join(folder, "results.jsonl")
    if not os.path.isdir(folder):
        raise BadRun(f"{folder}: not a folder")
    if not os.path.isfile(path):
        raise BadRun(f"{path}: no such file (a run folder holds results.jsonl)")
    if os.path.getsize(path) > MAX_BYTES:
        raise BadRun(f"{path}: larger than {MAX_BYTES >> 20} MiB; not a run's records")
    run = {"compute": {}, "h2d": {}, "points": []}
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as e:
                raise BadRun(f"{path}:{number}:{e.colno}: not JSON: {e.msg}")
            except ValueError as e:  # numbers too deep or too large for Python
                raise BadRun(f"{path}:{number}:1: not JSON: {e}")
            if not isinstance(record, dict) or not isinstance(record.get("kind"), str):
                raise BadRun(f"{path}:{number}:1: expected an object with a \"kind\"")
            kind = record["kind"]
            if kind == "point":
                for key in ("batch", "workers"):
                    if not isinstance(record.get(key), int) or record[key] < (1 if key == "batch" else 0):
                        raise BadRun(f"{path}:{number}:1: a point needs \"{key}\" as a whole number")
                run["points"].append(record)
            elif kind == "compute":
                batch = record.get("batch")
                if not isinstance(batch, int) or not _positive(record.get("device_cached_median_s")):
                    raise BadRun(f"{path}:{number}:1: a compute record needs \"batch\" and \"device_cached_median_s\"")
                run["compute"][batch] = record
            elif kind == "h2d":
                if _positive(record.get("Bps")):
                    run["h2d"][record.get("mode")] = record
            elif kind in CALIBRATION:
                run[kind] = record
    if not run["points"]:
        raise BadRun(f"{path}: no point records to predict")
    run["probe_files"] = read_probe(folder)
    return run


def _positive(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x > 0


def read_probe(folder):
    """The probe's files, when the probe ran in this run: the TOML it wrote (loaded by pipesim with
    `use`) and its caching experiments as printed in probe.txt (or probe.toml's comment)."""
    toml = os.path.join(folder, "probe.toml")
    text = os.path.join(folder, "probe.txt")
    out = {}
    if os.path.isfile(toml) and os.path.getsize(toml) <= MAX_BYTES:
        out["toml"] = toml
        with open(toml, encoding="utf-8", errors="replace") as f:
            out["keys"] = {m.group(1) for m in re.finditer(r"^(\w+) =", f.read(), re.M)}
    lines = []
    for p in (text, toml):
        if os.path.isfile(p) and os.path.getsize(p) <= MAX_BYTES:
            with open(p, encoding="utf-8", errors="replace") as f:
                lines += f.read().splitlines()
    for line in lines:
        m = re.search(r"batch (\d+), (\d+) workers", line)
        if m and "batch" not in out:
            out["batch"], out["workers"] = int(m.group(1)), int(m.group(2))
        m = re.match(r"# Caching experiments \(steps/s\): (.*)\.$", line)
        if m and "rates" not in out:
            rates = {}
            for part in m.group(1).split(", "):
                name, _, value = part.rpartition(" ")
                try:
                    rates[name] = float(value)
                except ValueError:
                    continue
            out["rates"] = rates
        m = re.match(r'(transform_cost|launch_time) = "([\d.]+) (ms|us|s)"', line)
        if m and m.group(1) not in out:
            out[m.group(1)] = float(m.group(2)) * {"ms": 1e-3, "us": 1e-6, "s": 1.0}[m.group(3)]
        m = re.match(r"scaling_contention = ([\d.eE+-]+)", line)
        if m and "scaling_contention" not in out:
            out["scaling_contention"] = float(m.group(1))
        m = re.match(r"# Inside the DataLoader .*?took (\d+(?:\.\d+)?) ms of CPU per sample", line)
        if m and "loader_sample_s" not in out:
            out["loader_sample_s"] = float(m.group(1)) / 1e3
    return out if out else None


# ----------------------------------------------------------------------------- what the user feeds pipesim


def cores_of(run):
    env = run.get("env", {})
    for key in ("affinity", "cpus"):
        if _positive(env.get(key)):
            return int(env[key])
    raise BadRun("the run has no env record with \"cpus\": the node's logical CPUs are needed")


def device_sample_bytes(run):
    d = run.get("dataset", {})
    if _positive(d.get("device_sample_bytes")):
        return float(d["device_sample_bytes"]), "the dataset record"
    return float(DEVICE_SAMPLE_BYTES), "3x224x224 float32, the format's transform"


def sample_times(run, preset):
    """The time per sample one process takes (workload.transform_cost) and what a worker pays
    more inside the loader (pipeline.worker_sample_overhead; None: the loader preset's), with
    where they came from. The single-process time comes from the run's per_sample record (or the
    probe's TOML); the extra from the probe when it ran: its own timing inside the DataLoader, or
    its full pipeline when its workers bound it (one worker's batch is W steps, less the collate
    and the worker's own time per batch at the loader preset's rates, and less the contention its
    scaling law gives W workers at once)."""
    per = run.get("per_sample", {})
    probe = run.get("probe_files") or {}
    single = per.get("mean_s") if _positive(per.get("mean_s")) else probe.get("transform_cost")
    if not _positive(single):
        raise BadRun("the run has no per_sample record with \"mean_s\" (nor a probe TOML with "
                     "workload.transform_cost): the time per sample is needed")
    inside, source = None, None
    if probe.get("loader_sample_s"):
        inside, source = probe["loader_sample_s"], "the probe, inside the DataLoader"
    rates = probe.get("rates") or {}
    full, cached = rates.get("full"), rates.get("sample-cached")
    b, w = probe.get("batch"), probe.get("workers")
    if inside is None and full and w and b and (not cached or full < 0.8 * cached):
        batch_s = w / full - b * device_sample_bytes(run)[0] / preset["cpu.collate_bandwidth"] - \
            preset.get("pipeline.worker_batch_overhead", 0.0)
        if batch_s > 0:
            inside = batch_s / b
            source = f"the probe's full pipeline ({w} worker{'s' if w != 1 else ''}, batch {b})"
    if inside is None:
        fit = scaling_fit(run, cores_of(run))
        if fit:
            # The scaling record's processes are forked as workers are and time the transform as
            # a worker does, each beside the others: its line through k = 2 to the CPUs is the
            # worker's time alone and its contention, robust to one slow row (the one-process row
            # and the per_sample record vary most from run to run).
            return fit[0], 0.0, (f"the scaling record's forked processes, {fit[2]} at once (least squares), "
                                 f"with their contention")
        return single, None, f"one process; inside the loader + the preset's {LOADER_PRESET}"
    # Timed with W workers at once: the contention the probe's scaling law gives W workers is in
    # it already, and pipesim applies it again, so one worker alone is that much faster.
    if w:
        inside /= 1 + probe.get("scaling_contention", 0.0) * (w - 1)
    return single, max(0.0, inside - single), f"one process; inside the loader from {source}"


def preset_inputs(pipesim):
    """The loader preset's figures (what the probe's full pipeline is corrected by)."""
    out = subprocess.run([pipesim, "presets", LOADER_PRESET, "--format", "json"], capture_output=True, text=True)
    if out.returncode != 0:
        raise BadRun(f"{pipesim} has no preset {LOADER_PRESET}: {out.stderr.strip()}")
    return json.loads(out.stdout)["inputs"]


def scenario(run, batch, workers, user):
    """The point as a careful user describes it to pipesim: the GPU node's loader preset, the
    step measured with the batch on the device and the loop thread's CPU in it, the time per
    sample a worker pays, its variation, the node's CPUs, the measured copy and link rates."""
    c = run["compute"].get(batch)
    if c is None:
        raise BadRun(f"no compute record at batch {batch}: the step at each batch of the points is needed")
    step = c["device_cached_median_s"]
    lines = [f'name = "replay of batch {batch}, {workers} workers"',
             "use = [" + ", ".join(json.dumps(u) for u in user["use"]) + "]",
             "[model]", f'measured_overhead = "{step!r} s"', 'measured_per_sample = "0 s"',
             "[workload]", f'sample_size = "{user["sample_bytes"]!r} B"',
             f'device_sample_size = "{user["device_bytes"]!r} B"', f'transform_cost = "{user["sample_s"]!r} s"',
             "[pipeline]", f"batch_size = {batch}", f"workers = {workers}", "prefetch_factor = 2",
             "persistent_workers = false"]
    if user["sample_extra_s"] is not None:
        lines.append(f'worker_sample_overhead = "{user["sample_extra_s"]!r} s"')
    if _positive(c.get("main_thread_cpu_per_step")):
        # The loop thread's CPU over the step it keeps busy (launching, Python, spinning in
        # synchronize): the cores are then shared by time with the workers.
        lines.append(f"loop_cpu_share = {min(1.0, c['main_thread_cpu_per_step'] / step)!r}")
    if user.get("launch_s"):
        lines.append(f'launch_time = "{user["launch_s"]!r} s"')
    if user.get("crowded") is not None:
        lines.append(f'crowded_loop_time = "{user["crowded"]!r} s"')
    if user.get("lock") is not None:
        lines.append(f"pin_lock_share = {user['lock']!r}")
    lines += ["[cpu]", f"cores = {user['cores']}"]
    if user.get("pin"):
        lines.append(f'pin_bandwidth = "{user["pin"]!r} B/s"')
    if user.get("sigma") is not None:
        lines.append(f"scaling_contention = {user['sigma']!r}")
    if user.get("memcpy"):
        lines.append(f'memcpy_bandwidth = "{user["memcpy"]!r} B/s"')
    if user.get("link"):
        lines += ["[link]", f'bandwidth = "{user["link"]!r} B/s"']
        if user.get("pageable"):
            lines.append(f'pageable_bandwidth = "{user["pageable"]!r} B/s"')
    if user.get("cv") is not None and not user["probe_cv"]:
        lines += ["[transform]", f"cv = {user['cv']!r}"]
    return "\n".join(lines) + "\n"


def scaling_fit(run, cores):
    """(time per sample of one process alone, cpu.scaling_contention, the k used as text) from the
    scaling record: a least-squares line through each row's time per sample per process,
    t(k) = t1 (1 + sigma (k - 1)), over the rows of 2 to `cores` processes; None with fewer than
    two such rows or a line that does not start above 0. Sigma is at least 0."""
    rows = [(r["k"], r["k"] / r["rate"]) for r in run.get("scaling", {}).get("rows", [])
            if isinstance(r.get("k"), int) and 2 <= r["k"] <= cores and _positive(r.get("rate"))]
    if len({k for k, _ in rows}) < 2:
        return None
    mx = sum(k - 1 for k, _ in rows) / len(rows)
    my = sum(t for _, t in rows) / len(rows)
    slope = sum((k - 1 - mx) * (t - my) for k, t in rows) / sum((k - 1 - mx) ** 2 for k, _ in rows)
    t1 = my - slope * mx
    if not _positive(t1):
        return None
    ks = sorted(k for k, _ in rows)
    return t1, max(0.0, slope / t1), f"{ks[0]} to {ks[-1]}"


def contention(run, cores, probe):
    """cpu.scaling_contention from the scaling record: the slope of scaling_fit, a line through
    every count of processes from 2 to the logical CPUs, in place of the probe's (one count, the
    most processes, inverted through the law), which stands only without that line; without
    either, C processes forked at once (the most up to the logical CPUs) delivering S times
    one's rate, the Universal Scalability Law with no coherency term: sigma = (C / S - 1) / (C - 1),
    at least 0. Returns (sigma, where it came from); sigma None where the probe's TOML gives it or
    nothing does."""
    fit = scaling_fit(run, cores)
    if fit:
        return fit[1], "the scaling record's line"
    if probe and "scaling_contention" in probe:
        return None, "the probe's"
    rows = {r.get("k"): r.get("rate") for r in run.get("scaling", {}).get("rows", [])
            if isinstance(r.get("k"), int) and _positive(r.get("rate"))}
    many = max((k for k in rows if 1 < k <= cores), default=None)
    if 1 not in rows or many is None:
        return None, None
    return max(0.0, (many / (rows[many] / rows[1]) - 1) / (many - 1)), "the scaling record's most processes"


def loop_steps(p, first):
    """From a point's waits: (the loop's own step, the window's wall less its waits over the steps;
    the step after the first `first` batches, that plus their mean wait, None when none came after
    them). None without waits, a wall or steps."""
    waits = p.get("waits")
    if not isinstance(waits, list) or not _positive(p.get("wall")) or not _positive(p.get("n")):
        return None
    own = (p["wall"] - sum(waits)) / p["n"]
    later = waits[first:]
    return own, (own + sum(later) / len(later) if later else None)


def crowded_points(run, preset):
    """Each point's (share of the crowding, the loop's time lost per step), from the point's own
    instrumented records (never its utilization): the loop's own step, the window's wall less its
    waits over the steps, less the compute record's device-cached step and the preset's receive
    time; the tasks busy as it takes a batch, the workers building (each's batch span over the step
    after the first round, at most W) and the pin thread (the process's CPU per step beyond the
    loop thread's, less the same without a loader, over the step); the share is pipesim's, none
    up to half the CPUs busy, then in proportion up to all of them."""
    cores = cores_of(run)
    out = []
    receive = preset.get("pipeline.receive_time", 0.0)
    per_sample = preset.get("pipeline.receive_time_per_sample", 0.0)
    for p in run["points"]:
        c = run["compute"].get(p["batch"])
        w = p["workers"]
        steps = loop_steps(p, w)
        if c is None or steps is None or not _positive(p.get("worker_batch_span")):
            continue
        own, step = steps[0], steps[1] if steps[1] is not None else steps[0]
        if w < 1 or not _positive(step):
            continue
        busy = min(w, p["worker_batch_span"] / step)
        others = [x.get("main_process_cpu_per_step", 0.0) - x.get("main_thread_cpu_per_step", 0.0) for x in (p, c)]
        busy += min(1.0, max(0.0, others[0] - others[1]) / step)
        share = min(1.0, max(0.0, 2 * busy / cores - 1))
        out.append((share, own - c["device_cached_median_s"] - receive - p["batch"] * per_sample))
    return out


def fit_crowded(runs, preset):
    """pipeline.crowded_loop_time by least squares through 0 over the points of `runs`: the loop's
    time lost per step against its share of the crowding; None where no point is crowded."""
    points = [x for run in runs for x in crowded_points(run, preset)]
    weight = sum(share * share for share, _ in points)
    if weight <= 0:
        return None
    return max(0.0, sum(share * lost for share, lost in points) / weight)


STEP_AGREEMENT = 1.25  # the probe's step and the run's at the same batch agree within this ratio


def probe_step_check(run, probe):
    """(the probe's step, the run's at the probe's batch, whether they agree), or None when the
    probe's device-cached rate or the run's compute record at its batch is missing. They differ
    when the probe was given another model or step than the run trained (another precision or
    memory format): then what it measured of the training process is not this run's."""
    rate = (probe.get("rates") or {}).get("device-cached")
    c = run["compute"].get(probe.get("batch"))
    if not _positive(rate) or c is None:
        return None
    ratio = (1 / rate) / c["device_cached_median_s"]
    return 1 / rate, c["device_cached_median_s"], 1 / STEP_AGREEMENT <= ratio <= STEP_AGREEMENT


def user_inputs(run, pipesim, crowded_from=()):
    """What every point of the run shares, with where each figure came from (for the header).
    `crowded_from`: other runs (read_run) to fit pipeline.crowded_loop_time on, in place of the
    preset's."""
    cores = cores_of(run)
    preset = preset_inputs(pipesim)
    device_bytes, device_from = device_sample_bytes(run)
    sample_s, sample_extra_s, sample_from = sample_times(run, preset)
    worker_s = sample_s + (preset.get("pipeline.worker_sample_overhead", 0.0) if sample_extra_s is None
                           else sample_extra_s)
    probe = run.get("probe_files") or {}
    use = [LOADER_PRESET] + ([os.path.abspath(probe["toml"])] if probe.get("toml") else [])
    dataset = run.get("dataset", {})
    per = run.get("per_sample", {})
    step_check = probe_step_check(run, probe)
    threads = [r["main_thread_cpu_per_step"] for r in run["compute"].values()
               if _positive(r.get("main_thread_cpu_per_step"))]
    launch, launch_from = (min(threads), "its thread's CPU at the smallest batch") if threads else (None, None)
    if _positive(probe.get("launch_time")) and step_check and step_check[2]:
        launch, launch_from = probe["launch_time"], "the probe's: its thread's CPU at an eighth of its batch"
    crowded = fit_crowded(crowded_from, preset) if crowded_from else None
    sigma, sigma_from = contention(run, cores, probe)
    user = {
        "cores": cores,
        "sigma": sigma,
        "sigma_from": sigma_from,
        "crowded": crowded,
        "crowded_from": len(crowded_from),
        "crowded_preset": preset.get("pipeline.crowded_loop_time"),
        "use": use,
        "sample_s": sample_s,
        "sample_extra_s": sample_extra_s,
        "worker_s": worker_s,
        "sample_from": sample_from,
        "device_bytes": device_bytes,
        "device_from": device_from,
        "sample_bytes": float(dataset["mean_bytes"]) if _positive(dataset.get("mean_bytes")) else device_bytes,
        "probe_cv": bool(probe.get("toml")) and "cv" in probe.get("keys", ()),
        "cv": per["cv"] if isinstance(per.get("cv"), (int, float)) and per["cv"] >= 0 else None,
        # The loop's launch: its thread's CPU per step at the smallest batch measured, where
        # the least of it is spent spinning while the accelerator computes (an upper bound); the
        # probe's, at an eighth of its batch, when it trained the run's step.
        "launch_s": launch,
        "launch_from": launch_from,
        "probe_step": step_check,
        # A probe that trained another step than the run's: its training-process figure (the pin
        # thread's rate) is not this run's, so the preset's stands in for it.
        "pin": preset.get("cpu.pin_bandwidth") if step_check and not step_check[2] else None,
        "memcpy": run.get("memcpy", {}).get("fresh_Bps") if _positive(run.get("memcpy", {}).get("fresh_Bps")) else None,
        "link": run["h2d"].get("pinned", {}).get("Bps"),
        "pageable": run["h2d"].get("pageable", {}).get("Bps"),
    }
    return user


def predict(pipesim, text):
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        out = subprocess.run([pipesim, "diagnose", path, "--format", "json"], capture_output=True, text=True)
    finally:
        os.remove(path)
    if out.returncode != 0:
        raise BadRun("pipesim refused the scenario it was given:\n" + text + out.stderr.strip())
    return json.loads(out.stdout)


# ----------------------------------------------------------------------------- the table


def model_name(run):
    names = {r.get("model") for r in run["compute"].values() if r.get("model")}
    return ", ".join(sorted(names)) if names else "the run's model"


def replay(folder, pipesim, crowded_from=()):
    run = read_run(folder)
    user = user_inputs(run, pipesim, [read_run(d) for d in crowded_from])
    return run, user, replay_rows(run, user, pipesim)


def steady_utilization(p, compute):
    """The point's utilization after its first round of W batches: the record's where the collector
    wrote one, else from its waits (the loop's own time per step, the window's wall less its waits
    over the steps, and the waits after the first W). pipesim's utilization is this steady state; the
    window's holds the first round too, the workers' start, which past the CPUs takes a second or
    more of a few-second window and which a long epoch pays once. None where the window is no
    longer than its first round."""
    if isinstance(p.get("utilization_after_first_round"), (int, float)):
        return p["utilization_after_first_round"]
    steps = loop_steps(p, max(1, p.get("workers", 0)))
    if compute is None or steps is None or steps[1] is None:
        return None
    return compute["device_cached_median_s"] / steps[1] if _positive(steps[1]) else None


def round_over_batch(p):
    """Where the loop waited for batches after the first round (its own step under 0.9 of the step):
    a round of W batches (the step after the first round, times W) over a worker's mean batch span.
    About 1 when the workers pace the loop evenly; above it when the round waited on a slower worker,
    which the loader's in-order hand-over makes every other batch wait for. None elsewhere."""
    w, span = p.get("workers", 0), p.get("worker_batch_span")
    steps = loop_steps(p, w) if w >= 1 and _positive(span) else None
    if steps is None or steps[1] is None:
        return None
    own, step = steps
    return step * w / span if _positive(step) and own < 0.9 * step else None


def replay_rows(run, user, pipesim):
    rows = []
    for p in run["points"]:
        result = predict(pipesim, scenario(run, p["batch"], p["workers"], user))
        transfer = next((s for s in result["stages"] if s["name"] == "transfer"), {})
        binding = ", ".join(result["binding"])
        if "transfer" in result["binding"] and transfer.get("limit") in ("interpreter_lock", "pin_thread"):
            binding = "training process"
        measured = p.get("utilization")
        rows.append({"batch": p["batch"], "workers": p["workers"], "utilization": result["utilization"],
                     "measured": measured if isinstance(measured, (int, float)) else None,
                     "steady": steady_utilization(p, run["compute"].get(p["batch"])), "binding": binding,
                     "round": round_over_batch(p)})
    return rows


def summary(rows, probe):
    judged = [r for r in rows if r["measured"] is not None]
    if not judged:
        return None
    errors = [abs(r["utilization"] - r["measured"]) for r in judged]
    mean, most = sum(errors) / len(errors), max(errors)
    ok = mean <= TARGET_MEAN_PROBE if probe else (mean <= TARGET_MEAN and most <= TARGET_MAX)
    target = f"mean <= {TARGET_MEAN_PROBE}" if probe else f"mean <= {TARGET_MEAN}, max <= {TARGET_MAX}"
    steady = [abs(r["utilization"] - r["steady"]) for r in judged if r.get("steady") is not None]
    after = (f"; against the steady state (after the first round) {sum(steady) / len(steady):.3f}, max "
             f"{max(steady):.3f}" if steady else "")
    return (f"mean absolute utilization error {mean:.3f}, max {most:.3f} over {len(judged)} points "
            f"({'within' if ok else 'OUTSIDE'} the target: {target}){after}"), ok


def group_of(folder):
    """Runs that leave-one-out leaves out together: the same parent folder and the same name less
    a trailing "-b", "-c", ... (a run continued or repeated on the same node)."""
    path = os.path.realpath(folder)
    return os.path.dirname(path), re.sub(r"-[a-z]$", "", os.path.basename(path))


LOCK_GRID = [i / 10 for i in range(11)]  # pipeline.pin_lock_share values tried by --fit-lock


def steady_errors(run, user, pipesim, lock):
    """(sum, count) of |pipesim - steady state| over the run's points with pin_lock_share `lock`."""
    rows = replay_rows(run, dict(user, lock=lock), pipesim)
    errors = [abs(r["utilization"] - r["steady"]) for r in rows if r["steady"] is not None]
    return sum(errors), len(errors)


def fit_lock(folders, pipesim):
    """pipeline.pin_lock_share fitted to the steady state (after the first round): per run, the
    value of LOCK_GRID with the least mean error over every other run but its group's, and the
    run's error with it; then the value fitted on all runs. Returns the exit status."""
    runs = {f: read_run(f) for f in folders}
    users = {f: user_inputs(runs[f], pipesim) for f in folders}
    table = {f: {x: steady_errors(runs[f], users[f], pipesim, x) for x in LOCK_GRID} for f in folders}

    def best(fit_on):
        def mean(x):
            total = [table[f][x] for f in fit_on]
            n = sum(c for _, c in total)
            return sum(e for e, _ in total) / n if n else math.inf
        return min(LOCK_GRID, key=mean), mean

    names = {f: os.path.relpath(f, ROOT) if os.path.realpath(f).startswith(ROOT + os.sep) else f.rstrip("/")
             for f in folders}
    width = max(len(n) for n in names.values())
    preset = preset_inputs(pipesim).get("pipeline.pin_lock_share", 0.0)
    print(f"{'run':<{width}} {'points':>6}  {'preset':>7}  {'fitted without it':>17} {'held out':>8}")
    held, with_preset, count = 0.0, 0.0, 0
    for f in folders:
        x, _ = best([o for o in folders if group_of(o) != group_of(f)])
        e, n = table[f][x]
        closest = min(LOCK_GRID, key=lambda v: abs(v - preset))
        ep, _ = table[f][closest]
        held, with_preset, count = held + e, with_preset + ep, count + n
        print(f"{names[f]:<{width}} {n:>6}  {ep / n if n else 0:>7.3f}  {x:>17.1f} {e / n if n else 0:>8.3f}")
    x, mean = best(folders)
    print(f"{'all runs':<{width}} {count:>6}  {with_preset / count if count else 0:>7.3f}  {'':>17} "
          f"{held / count if count else 0:>8.3f}")
    print(f"mean error against the steady state: the preset's pin_lock_share {preset:g}, the one fitted without "
          f"each run; fitted on all runs: {x:.1f} (mean error {mean(x):.3f})")
    return 0


def leave_one_out(folders, pipesim):
    """Per run: its replay with the preset's pipeline.crowded_loop_time, and with the figure fitted
    on every other run but its group's; the preset's against the steady state too (after the first
    round); then all points together. Returns the exit status."""
    runs = {f: read_run(f) for f in folders}
    names = {f: os.path.relpath(f, ROOT) if os.path.realpath(f).startswith(ROOT + os.sep) else f.rstrip("/")
             for f in folders}
    width = max(len(n) for n in names.values())
    print(f"{'run':<{width}} {'points':>6}  {'preset mean':>11} {'max':>6}  {'fitted without it':>17} {'mean':>6} "
          f"{'max':>6}  {'steady mean':>11}")
    every = {"preset": [], "held out": [], "steady": []}
    for f in folders:
        others = [runs[o] for o in folders if group_of(o) != group_of(f)]
        errors = {}
        for label, fit_on in (("preset", []), ("held out", others)):
            user = user_inputs(runs[f], pipesim, fit_on)
            rows = [r for r in replay_rows(runs[f], user, pipesim) if r["measured"] is not None]
            errors[label] = [abs(r["utilization"] - r["measured"]) for r in rows]
            every[label] += errors[label]
            if label == "preset":  # the same figures against the steady state, after the first round
                errors["steady"] = [abs(r["utilization"] - r["steady"]) for r in rows if r["steady"] is not None]
                every["steady"] += errors["steady"]
            if label == "held out":
                fitted = user.get("crowded")
        fitted_text = f"{fitted * 1e3:.1f} ms" if fitted is not None else "none"
        print(f"{names[f]:<{width}} {len(errors['preset']):>6}  {_mean(errors['preset']):>11.3f} "
              f"{max(errors['preset'], default=0):>6.3f}  {fitted_text:>17} {_mean(errors['held out']):>6.3f} "
              f"{max(errors['held out'], default=0):>6.3f}  {_mean(errors['steady']):>11.3f}")
    print(f"{'all runs':<{width}} {len(every['preset']):>6}  {_mean(every['preset']):>11.3f} "
          f"{max(every['preset'], default=0):>6.3f}  {'':>17} {_mean(every['held out']):>6.3f} "
          f"{max(every['held out'], default=0):>6.3f}  {_mean(every['steady']):>11.3f}")
    return 0


def _mean(xs):
    return sum(xs) / len(xs) if xs else 0.0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="validate replay", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("replay", metavar="RUN_DIR", nargs="+",
                    help="a run folder: results.jsonl (and the probe's files); several with --leave-one-out")
    ap.add_argument("--leave-one-out", action="store_true",
                    help="one line per run: its error with the preset's pipeline.crowded_loop_time and with the "
                         "figure fitted on the other runs (a run's -b, -c, ... siblings left out with it)")
    ap.add_argument("--fit-lock", action="store_true",
                    help="with several runs: pipeline.pin_lock_share fitted to the steady state on every run "
                         "but one (its -b, -c, ... siblings left out with it), and that run's error with it")
    ap.add_argument("--json", action="store_true", help="one JSON object per point on stdout: batch, workers, utilization")
    ap.add_argument("--pipesim", help="the pipesim binary (default: build it with scripts/pipesim)")
    ap.add_argument("--crowded-from", nargs="+", metavar="RUN_DIR", default=[],
                    help="fit pipeline.crowded_loop_time on these runs' records (never the replayed run's) in "
                         "place of the preset's: a run's error with the figure fitted without it")
    args = ap.parse_args(argv)
    pipesim = args.pipesim
    if pipesim is None:
        subprocess.run([os.path.join(ROOT, "scripts", "pipesim"), "presets"], check=True, stdout=subprocess.DEVNULL)
        pipesim = os.path.join(ROOT, "build", "release", "pipesim")
    elif not os.access(pipesim, os.X_OK):
        print(f"validate: --pipesim {pipesim}: not an executable file", file=sys.stderr)
        return 2
    # The modes over several runs, each fitting on the other runs itself.
    for on, option, mode in ((args.fit_lock, "--fit-lock", fit_lock), (args.leave_one_out, "--leave-one-out",
                                                                        leave_one_out)):
        if not on:
            continue
        if args.crowded_from or args.json or (args.fit_lock and args.leave_one_out):
            print(f"validate: {option} fits on the other runs itself: no --crowded-from, --json or other such mode",
                  file=sys.stderr)
            return 2
        try:
            return mode(args.replay, pipesim)
        except BadRun as e:
            print(f"validate: {e}", file=sys.stderr)
            return 2
    if len(args.replay) > 1:
        print("validate: one RUN_DIR to replay (several with --leave-one-out)", file=sys.stderr)
        return 2
    args.replay = args.replay[0]
    if any(os.path.realpath(d) == os.path.realpath(args.replay) for d in args.crowded_from):
        print(f"validate: --crowded-from {args.replay}: the replayed run; fit on other runs only", file=sys.stderr)
        return 2
    try:
        run, user, rows = replay(args.replay, pipesim, args.crowded_from)
    except BadRun as e:
        print(f"validate: {e}", file=sys.stderr)
        return 2
    probe = bool(run.get("probe_files"))
    verdict = summary(rows, probe)
    if args.json:
        for r in rows:
            print(json.dumps({"batch": r["batch"], "workers": r["workers"], "utilization": r["utilization"]}))
        if verdict:
            print(verdict[0], file=sys.stderr)
        return 0 if verdict is None or verdict[1] else 1
    print(f"replay of {args.replay}: {model_name(run)} on {user['cores']} logical CPUs"
          + (f", {run['env'].get('gpu')}" if run.get("env", {}).get("gpu") else "")
          + (", with the probe's files" if probe else ""))
    print(f"  time per sample: {user['sample_s'] * 1e3:.3f} ms, a worker inside the loader "
          f"{user['worker_s'] * 1e3:.3f} ms ({user['sample_from']}); "
          f"device sample {user['device_bytes']:.0f} B ({user['device_from']})")
    print(f"  loop launch {user['launch_s'] * 1e3:.2f} ms per step ({user['launch_from']})"
          if user.get("launch_s") else "  loop launch: not in the compute records")
    sigma = f"contention {user['sigma']:.4f} ({user['sigma_from']})" if user.get("sigma") is not None else \
        "contention: the probe's"
    if user.get("crowded") is not None:
        crowded = (f"{user['crowded'] * 1e3:.2f} ms (fitted on {user['crowded_from']} other "
                   f"run{'s' if user['crowded_from'] != 1 else ''})")
    elif user.get("crowded_preset") is not None:
        crowded = f"{user['crowded_preset'] * 1e3:.2f} ms (the preset's)"
    else:
        crowded = "none"
    print(f"  {sigma}; the loop's loss with every CPU busy {crowded}")
    link = f"link {user['link'] / 1e9:.1f} GB/s pinned" if user.get("link") else "link not measured (not modelled)"
    copy = f"{user['memcpy'] / 1e9:.2f} GB/s" if user.get("memcpy") else "not measured"
    print(f"  preset {LOADER_PRESET}; {link}; copy into fresh memory {copy}")
    check = user.get("probe_step")
    if check and not check[2]:
        print(f"  the probe's step ({check[0] * 1e3:.1f} ms) is not the run's ({check[1] * 1e3:.1f} ms at its batch): it "
              f"trained another step, so its pin thread's rate is left for the preset's")
    print(f"{'batch':>6} {'workers':>7} {'measured':>9} {'steady':>7} {'pipesim':>8} {'error':>7}  {'round':>5}  binding (pipesim)")
    for r in rows:
        measured = f"{r['measured']:.3f}" if r["measured"] is not None else "-"
        steady = f"{r['steady']:.3f}" if r.get("steady") is not None else "-"
        error = f"{r['utilization'] - r['measured']:+.3f}" if r["measured"] is not None else "-"
        rounds = f"{r['round']:.2f}" if r.get("round") is not None else "-"
        print(f"{r['batch']:>6} {r['workers']:>7} {measured:>9} {steady:>7} {r['utilization']:>8.3f} {error:>7}  "
              f"{rounds:>5}  {r['binding']}")
    if verdict is None:
        print("no point carries a measured utilization: nothing to judge")
        return 0
    print(verdict[0])
    return 0 if verdict[1] else 1
