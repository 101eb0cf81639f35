#!/usr/bin/env bash
# The schema is JSON Schema draft-07 that every embedded preset (plans with their [require]
# too) satisfies, and that catches an unknown key, a value of the wrong kind and a bad choice.
set -uo pipefail
/usr/bin/python3 - "$CASE_TMP/schema.json" ../../../../configs << 'PY'
import json, pathlib, sys, tomllib
schema = json.load(open(sys.argv[1]))
try:
    import jsonschema
except ImportError:
    print("python3-jsonschema is not installed: the schema is only parsed"); sys.exit(0)
jsonschema.Draft7Validator.check_schema(schema)
v = jsonschema.Draft7Validator(schema)
files = sorted(pathlib.Path(sys.argv[2]).rglob("*.toml"))
assert len(files) > 40, files
bad = 0
for f in files:
    for e in v.iter_errors(tomllib.loads(f.read_text())):
        print(f"{f}: {e.message}"); bad += 1
for text, why in [('[pipeline]\nbatch_sise = 8\n', "unknown key"),
                  ('[storage]\nread_bandwidth = "2 GB"\n', "a size where a rate is due"),
                  ('[model]\nprecision = "fp12"\n', "an unknown choice"),
                  ('[link]\npinned = "maybe"\n', "not a boolean"),
                  ('[require]\nmin_utilisation = 0.9\n', "unknown requirement")]:
    if v.is_valid(tomllib.loads(text)):
        print(f"the schema accepts {why}: {text!r}"); bad += 1
for text in ['[storage]\nread_bandwidth = "100 Gb/s"\n', '[workload]\ndataset_samples = "1.28M"\n',
             '[cpu]\nworker_sample_rate = "1.2k img/s"\n', '[cost]\nprice_per_hour = "$32.77/hr"\n',
             '[workload]\ndevice_shape = [3, 224, 224]\n']:
    if not v.is_valid(tomllib.loads(text)):
        print(f"the schema refuses {text!r}"); bad += 1
sys.exit(1 if bad else 0)
PY
