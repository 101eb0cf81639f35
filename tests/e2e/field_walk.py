#!/usr/bin/env python3
"""Every key a user sets either changes what `diagnose` prints or is named unused.

    field_walk.py PIPESIM [--every-preset]

For each key of `pipesim presets --keys` on each scenario below (the default, the shipped plans,
a two-node plan, a GPU node built from presets; with --every-preset, instead, compositions of
the shipped presets in which each node, accelerator, storage, workload and loader preset takes
part at least once), the key is set to v/2 and to its neighbours v
and v/4 (a flag: true and false), v being the scenario's own value or one of the key's kind. The
outputs compared are the figures of the JSON, not the inputs it echoes. Named unused at v/2, the
key must leave the output where its neighbours have it; not named, a neighbour's output must
differ. A choice key is left out (pipesim tries every other choice; two values cannot stand for
them), and a value the model refuses for the scenario is passed over. Prints each key that
breaks the rule and exits 1, else how many were walked.
"""
import json, re, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

P = sys.argv[1]
SCENARIOS = [
    [], ["p4d-resnet50-nvme"], ["p4d-resnet50-nfs"], ["8xa100-small-cpu"], ["dgx-h100-imagenet-nfs10"],
    ["dgx-h100-unet3d-nvme"],
    ["p4d-resnet50-nvme", "--set", "cluster.nodes=2", "--set", "workload.dataset_samples=400M"],
    ["dgx-h100+nvme-gen4+resnet50-imagenet-h100+pytorch-dataloader-gpu-node"],
]
# The SI unit of each kind `presets --keys --format json` names, and a value where none is set.
SI = {"a duration": ("s", 2e-3), "a rate": ("B/s", 2e9), "a size": ("B", 2e6),
      "a sample rate or a rate per step": ("samples/s", 400), "a FLOP rate": ("FLOPS", 2e14),
      "a FLOP count": ("FLOP", 8e9)}


def diagnose(scenario, extra):
    r = subprocess.run([P, "diagnose", *scenario, *extra, "--format", "json"], capture_output=True, text=True)
    if r.returncode != 0:
        return None
    j = json.loads(r.stdout)
    unused = [u["key"] for u in j.pop("unused", [])]
    # The figures, not the inputs echoed (nor the words about them): a key that only shows itself
    # ("(now 1.000 GB/s)") changes nothing.
    j.pop("inputs", None)
    j.pop("assumptions", None)
    for fix in j.get("recommendations", []):
        fix["text"] = re.sub(r" \(now [^)]*\)", "", fix["text"])
    return json.dumps(j, sort_keys=True), unused


def values(key, current):
    if key["kind"] == "true or false":
        return ["true", "false"]
    unit, fallback = SI.get(key["kind"], ("", 0.4))
    x = current if isinstance(current, (int, float)) and not isinstance(current, bool) and current else fallback
    if key.get("integer"):
        x = max(4, round(x))
        x += (-x) % 4
        return [str(x), str(x // 2), str(x // 4)]
    return [f"{v:.17g}{' ' + unit if unit else ''}" for v in (x, x / 2, x / 4)]


def walk(scenario, keys):
    base = subprocess.run([P, "diagnose", *scenario, "--format", "json"], capture_output=True, text=True)
    inputs = json.loads(base.stdout)["inputs"]

    def one(key):
        if key["kind"] == "a name":
            return None
        v = values(key, inputs.get(key["key"]))
        out = [diagnose(scenario, ["--set", f"{key['key']}={x}"]) for x in v]
        middle = out[1]
        neighbours = [o[0] for o in out[:1] + out[2:] if o is not None]
        if middle is None or not neighbours:
            return None
        named = key["key"] in middle[1]
        moves = any(n != middle[0] for n in neighbours)
        if named != moves:
            return ""
        where = " ".join(scenario) or "the default scenario"
        return f"{where}: {key['key']} = {v[1]} (against {', '.join(v[:1] + v[2:])}): " + (
            "named unused, yet the output moves" if named else "changes nothing, yet not named")

    with ThreadPoolExecutor(4) as pool:
        return [r for r in pool.map(one, keys) if r is not None]


# What a preset leaves to the user, where the composition needs it to be diagnosed.
NEEDS = {"fsx-lustre": ["--set", "storage.capacity=100 TiB"],
         "resnet50-reference": ["--set", "pipeline.batch_size=256", "--set", "pipeline.workers=8"],
         "medical-images-5mb": ["--set", "model.measured_per_sample=5 ms"],
         "vit-b16-imagenet": ["--set", "accelerator.efficiency=0.4"]}


def every_preset():
    """Compositions (hardware + storage + workload + loader) in which every such preset takes part:
    one per preset of the longest kind, the others in turn; where a composition cannot be
    diagnosed (an accelerator without the precision a model asks), the next hardware is tried."""
    presets = json.loads(subprocess.run([P, "presets", "--format", "json"], capture_output=True,
                                        text=True).stdout)["presets"]
    kind = {}
    for p in presets:
        kind.setdefault(p["kind"], []).append(p["name"])
    lists = [kind["node"] + kind["accelerator"], kind["storage"], kind["workload"], kind["loader"]]
    hardware = lists[0]
    scenarios, seen = [], set()
    for i in range(max(map(len, lists))):
        parts = [l[i % len(l)] for l in lists]
        for j in range(len(hardware)):
            parts[0] = hardware[(i + j) % len(hardware)]
            args = ["+".join(parts)] + [a for p in parts for a in NEEDS.get(p, [])]
            if subprocess.run([P, "diagnose", *args], capture_output=True).returncode == 0:
                scenarios.append(args)
                seen.update(parts)
                break
    missing = [p for l in lists for p in l if p not in seen]
    if missing:
        sys.exit(f"no composition could be diagnosed with: {', '.join(missing)}")
    return scenarios


def main():
    keys = json.loads(subprocess.run([P, "presets", "--keys", "--format", "json"], capture_output=True,
                                     text=True).stdout)["keys"]
    scenarios = every_preset() if "--every-preset" in sys.argv[2:] else SCENARIOS
    results = [r for s in scenarios for r in walk(s, keys)]
    problems = [r for r in results if r]
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print(f"{len(results)} keys walked over {len(scenarios)} scenarios: each changes the output or is named")


if __name__ == "__main__":
    main()
