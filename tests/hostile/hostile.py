#!/usr/bin/env python3
"""Generated hostile and careless input, one class at a time.

    hostile.py PIPESIM CLASS [--seed N] [--scale K]

CLASS is 1..9 (the classes of docs/manual/output.md, "Errors and exit codes"; 8: the measurement
commands and values at the model's extremes; 9: names that are commands or markup elsewhere, and
values read once). Each class builds
its inputs from a seeded generator (sizes, fan-out, encodings, output targets, numbers at
their limits) and runs the real binary on them. Every run is held to the contract:

* the exit code is 0 (1 for a failing `check`, 4 for one not verified), or 2 for bad input;
* exit 2: stdout is empty and stderr is one error line (one per problem when a file has
  several, at most MAX_ERROR_LINES), valid UTF-8, with no control character (a name cannot
  hide or fake a line);
* otherwise stdout is complete and parses in its format (JSON, CSV with every row as wide
  as the header, JUnit as XML, text as UTF-8 without control characters), holds no inf
  or NaN, and stderr is at most one warning line;
* each run finishes within TIME_LIMIT seconds and its peak resident memory stays under
  MEMORY_LIMIT.

A failure prints the class, the case and the command (with the seed to reproduce it).
"""
import argparse
import csv
import io
import json
import os
import random
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import xml.dom.minidom

TIME_LIMIT = 30.0  # seconds per run, generous for the sanitizer build on a shared machine
MAX_ERROR_LINES = 20  # core/base/error.hpp kMaxErrorLines
MEMORY_LIMIT = 2 << 30  # bytes of peak resident memory per run (the sanitizer build included)

PLANS = ["p4d-resnet50-nvme", "p4d-resnet50-nfs", "dgx-h100-unet3d-nvme", "8xa100-small-cpu",
         "dgx-h100-imagenet-nfs10"]
FORMATS = ["table", "json", "csv", "markdown"]
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# A line a GitHub Actions runner reads as a workflow command: "::" after the blanks it trims.
WORKFLOW = re.compile(r"^[\t-\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*::", re.M)
# pipesim's own annotations in --format github.
ANNOTATION = re.compile(r"^::(error|warning|notice) [^\n]*::")
INF_NAN = re.compile(rb"(^|[^A-Za-z_])(inf|nan|-inf)([^A-Za-z_]|$)", re.I)


class Failure(Exception):
    pass


class Run:
    def __init__(self, argv, code, out, err, seconds):
        self.argv, self.code, self.out, self.err, self.seconds = argv, code, out, err, seconds

    def describe(self):
        return " ".join(shlex.quote(a if isinstance(a, str) else os.fsdecode(a)) for a in self.argv)


class Suite:
    def __init__(self, binary, seed, scale):
        self.binary = binary
        self.rng = random.Random(seed)
        self.seed = seed
        self.scale = scale
        self.runs = 0
        self.failures = []
        self.case = ""
        self.tmp = tempfile.mkdtemp(prefix="pipesim-hostile-")

    # --- running -------------------------------------------------------------------
    def run(self, args, cwd=None, stdout=None, stdin=subprocess.DEVNULL, pass_fds=(), preexec_fn=None):
        argv = [self.binary] + list(args)
        start = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic()
        try:
            p = subprocess.run(argv, cwd=cwd or self.tmp, stdin=stdin,
                               stdout=stdout if stdout is not None else subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=TIME_LIMIT, pass_fds=pass_fds,
                               close_fds=True, preexec_fn=preexec_fn)
        except subprocess.TimeoutExpired:
            raise Failure(f"did not finish in {TIME_LIMIT:.0f} s: {Run(argv, 0, b'', b'', 0).describe()}")
        seconds = time.monotonic() - t0
        self.runs += 1
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        # ru_maxrss (KiB on Linux) is the largest of all children so far: a rise past the limit
        # can only come from this run.
        if usage.ru_maxrss * 1024 > MEMORY_LIMIT and start.ru_maxrss * 1024 <= MEMORY_LIMIT:
            raise Failure(f"peak memory {usage.ru_maxrss // 1024} MiB: {Run(argv, 0, b'', b'', 0).describe()}")
        return Run(argv, p.returncode, p.stdout or b"", p.stderr, seconds)

    def check(self, r, fmt="table", codes=(0, 2), stdout_checked=True):
        """The contract for one run; returns the run for further checks."""
        where = f"[{self.case}] {r.describe()}"
        if r.code not in codes:
            raise Failure(f"exit {r.code}, expected one of {codes}: {where}\n{r.err[-2000:].decode(errors='replace')}")
        try:
            err = r.err.decode("utf-8")
        except UnicodeDecodeError:
            raise Failure(f"stderr is not valid UTF-8: {where}")
        if CONTROL.search(err.replace("\n", "")):
            raise Failure(f"stderr holds a control character: {where}\n{err!r}")
        if WORKFLOW.search(err):
            raise Failure(f"a line of stderr starts a workflow command: {where}\n{err[:2000]!r}")
        if "AddressSanitizer" in err or "runtime error:" in err:
            raise Failure(f"sanitizer report: {where}\n{err[-3000:]}")
        if r.code == 2:
            lines = err.split("\n")[:-1]
            if not err.endswith("\n") or not 1 <= len(lines) <= MAX_ERROR_LINES or any(": error: " not in l for l in lines):
                raise Failure(f"exit 2 without 1 to {MAX_ERROR_LINES} error lines on stderr: {where}\n{err[:2000]!r}")
            if stdout_checked and r.out:
                raise Failure(f"exit 2 with output on stdout: {where}\n{r.out[:500]!r}")
            return r
        # A run that succeeds says at most one thing on stderr (a warning), besides notes (a
        # sweep's axis that changes nothing: one per axis).
        said = [l for l in err.split("\n")[:-1] if not l.startswith("pipesim: note: ")]
        if len(said) > 1:
            raise Failure(f"more than one line on stderr: {where}\n{err[:2000]!r}")
        if stdout_checked:
            self.parse(r, fmt, where)
        return r

    def parse(self, r, fmt, where):
        if not r.out:
            raise Failure(f"exit {r.code} with empty stdout: {where}")
        if INF_NAN.search(r.out):
            raise Failure(f"inf or NaN in the output: {where}")
        try:
            text = r.out.decode("utf-8")
        except UnicodeDecodeError as e:
            raise Failure(f"stdout is not valid UTF-8 ({e}): {where}")
        for m in WORKFLOW.finditer(text):
            line = text[m.start():text.find("\n", m.start()) if "\n" in text[m.start():] else len(text)]
            if fmt != "github" or not ANNOTATION.match(line):
                raise Failure(f"a line of stdout starts a workflow command: {where}\n{line[:300]!r}")
        if fmt == "json":
            try:
                json.loads(text)
            except ValueError as e:
                raise Failure(f"stdout is not JSON ({e}): {where}")
            if re.search(r"\\ud[89ab][0-9a-f]{2}", text, re.I):
                raise Failure(f"JSON holds an escaped surrogate: {where}")
        elif fmt == "csv":
            rows = list(csv.reader(io.StringIO(text, newline="")))
            if len(rows) < 2 or any(len(row) != len(rows[0]) for row in rows):
                raise Failure(f"CSV rows differ from the header's width: {where}")
            for row in rows:
                for cell in row:
                    if cell[:1] in ("=", "+", "-", "@", "\t", "\r") and not re.fullmatch(r"[-+]?[0-9.eE+-]+", cell):
                        raise Failure(f"a CSV cell a spreadsheet reads as a formula ({cell[:80]!r}): {where}")
        elif fmt == "junit":
            try:
                xml.dom.minidom.parseString(r.out)
            except Exception as e:  # expat raises its own error type
                raise Failure(f"JUnit is not XML ({e}): {where}")
        else:
            if CONTROL.search(text.replace("\n", "")):
                raise Failure(f"{fmt} output holds a control character: {where}")

    def file(self, name, content):
        path = os.path.join(self.tmp, name) if isinstance(name, str) else os.path.join(os.fsencode(self.tmp), name)
        parent = os.path.dirname(path)
        if parent:
            os.makedirs(parent, exist_ok=True)
        with open(path, "wb") as f:
            f.write(content if isinstance(content, bytes) else content.encode())
        return path

    def attempt(self, case, body):
        self.case = case
        try:
            body()
        except Failure as e:
            self.failures.append(f"{case}: {e}")

    # --- class 1: work bounded by the input's size ----------------------------------
    def class1(self):
        def fanout():
            layers, k = self.rng.randint(6, 9), self.rng.randint(3, 5)
            for layer in range(layers):
                uses = ", ".join(f'"l{layer + 1}_{i}.toml"' for i in range(k)) if layer + 1 < layers else '"p4d-resnet50-nvme"'
                for i in range(k):
                    self.file(f"fan/l{layer}_{i}.toml", f"use = [{uses}, {uses}]\n")
            self.check(self.run(["diagnose", "fan/l0_0.toml", "--format", "json"]), "json", codes=(0,))
        self.attempt("use fan-out", fanout)

        def repeated():
            n = self.rng.choice([10_000, 50_000, 100_000])
            self.file("rep.toml", "use = [" + ", ".join(['"reference"'] * n) + "]\n")
            self.check(self.run(["diagnose", "rep.toml", "--format", "csv"]), "csv", codes=(0,))
        self.attempt("one preset used many times", repeated)

        def chain():
            depth = self.rng.randint(17, 60)
            for i in range(depth):
                self.file(f"chain/c{i}.toml", f'use = "c{i + 1}.toml"\n' if i + 1 < depth else 'use = "reference"\n')
            r = self.check(self.run(["diagnose", "chain/c0.toml"]), codes=(2,))
            if b"nests deeper" not in r.err:
                raise Failure(f"deep use not named: {r.err!r}")
        self.attempt("use nested too deep", chain)

        def cycle():
            n = self.rng.randint(1, 6)
            for i in range(n):
                self.file(f"cyc/c{i}.toml", f'use = ["reference", "c{(i + 1) % n}.toml"]\n')
            self.check(self.run(["diagnose", "cyc/c0.toml"]), codes=(2,))
        self.attempt("use cycle", cycle)

        for length in (1_000, 100_000, 2_000_000):
            def long_key(length=length):
                key = "".join(self.rng.choice("abcdefghijklmnopqrstuvwxyz_.") for _ in range(length)).strip(".") or "k"
                key = re.sub(r"\.+", ".", key)
                # One argument holds at most 128 KiB (MAX_ARG_STRLEN); a file holds the rest.
                for r in (self.run(["diagnose", "--set", f"{key[:100_000]}=1"]),
                          self.run(["diagnose", self.file("longkey.toml", f'use = "reference"\n[pipeline]\n{key.replace(".", "_")} = 1\n')])):
                    self.check(r, codes=(2,))
                    if len(r.err) > 1000:
                        raise Failure(f"a {length}-byte key echoed as {len(r.err)} bytes")
            self.attempt(f"unknown key of {length} bytes", long_key)

        def long_value():
            digits = "9" * self.rng.choice([400, 100_000])
            for field in ("pipeline.batch_size", "storage.read_bandwidth", "workload.sample_size"):
                r = self.check(self.run(["diagnose", "--set", f"{field}={digits}"]), codes=(2,))
                if len(r.err) > 1000:
                    raise Failure(f"a long value echoed as {len(r.err)} bytes")
        self.attempt("long values", long_value)

        def ranges():
            cases = [
                ["--sample-size", f"1KB..1e15B:x1.{'0' * self.rng.randint(5, 9)}1"],
                ["--batch", f"1..{self.rng.randint(10**8, 10**12)}:+1"],
                ["--batch", "1..1e15:+1"],
                ["--vary", "storage.read_bandwidth=1MB/s..1e15MB/s:x1.000001"],
                ["--batch", "1..1000:+1", "--workers", "0..1000:+1", "--sample-size", "1KB..100KB:+1KB"],
            ]
            for extra in cases:
                self.check(self.run(["sweep"] + extra + ["--format", "csv"]), "csv", codes=(2,))
        self.attempt("ranges counted before built", ranges)

        def big_files():
            self.file("huge.toml", b"#" * (17 << 20))
            self.check(self.run(["diagnose", "huge.toml"]), codes=(2,))
            lines = self.rng.randint(50_000, 200_000)
            self.file("comments.toml", "# a comment\n" * lines + 'use = "reference"\n')
            self.check(self.run(["diagnose", "comments.toml", "--format", "json"]), "json", codes=(0,))
            depth = self.rng.choice([300, 10_000, 100_000])
            self.file("nested.toml", "a = " + "[" * depth + "]" * depth + "\n")
            self.check(self.run(["diagnose", "nested.toml"]), codes=(2,))
            self.file("inline.toml", "a = " + "{b = " * depth + "1" + "}" * depth + "\n")
            self.check(self.run(["diagnose", "inline.toml"]), codes=(2,))
        self.attempt("large and deep files", big_files)

    # --- class 2: no exit 2 after rows were printed -----------------------------------
    def class2(self):
        axes = [
            ("accelerator.count", ["1..128", "8..512", "4,8,1000"]),
            ("model.precision", ["fp32,fp16,bf16,fp8,int8", "fp8,fp16"]),
            ("transform.device", ["cpu,decoder,accelerator", "decoder,cpu"]),
            ("cpu.cores", ["1..256", "2,4,8,96"]),
            ("cpu.reserved_cores", ["0..128:+32"]),
            ("storage.cache_hit", ["0..0.9:+0.3"]),
        ]
        for n in range(30 * self.scale):
            def one(n=n):
                plan = self.rng.choice(PLANS)
                chosen = self.rng.sample(axes, self.rng.randint(1, 3))
                args = ["sweep", plan]
                for key, ranges in chosen:
                    args += ["--vary", f"{key}={self.rng.choice(ranges)}"]
                if self.rng.random() < 0.5:
                    args += ["--batch", self.rng.choice(["32..1024", "1,7,4096", "64"])]
                fmt = self.rng.choice(FORMATS)
                r = self.check(self.run(args + ["--format", fmt]), fmt)
                if r.code == 0 and fmt == "json":
                    # Every point is a row: a result, or its inputs and why it is invalid.
                    rows = json.loads(r.out)["rows"]
                    invalid = sum(1 for row in rows if set(row) == {"inputs", "invalid"} and row["invalid"])
                    results = sum(1 for row in rows if "binding" in row and "utilization" in row)
                    if invalid + results != len(rows):
                        raise Failure("a JSON row is neither a result nor an invalid point")
                    if invalid and b"invalid" not in r.err:
                        raise Failure("invalid points without a warning on stderr")
                    warnings = [l for l in r.err.split(b"\n") if l and not l.startswith(b"pipesim: note: ")]
                    if not invalid and warnings:
                        raise Failure(f"a warning with no invalid point: {r.err!r}")
            self.attempt(f"sweep with refused points #{n}", one)

    # --- class 3: output never lost silently ------------------------------------------
    def class3(self):
        plan = self.file("plan.toml", 'use = "p4d-resnet50-nvme"\n')
        plan2 = self.file("plan2.toml", 'use = "p4d-resnet50-nfs"\n[require]\nmin_utilization = "10%"\n')
        commands = [["diagnose"], ["sweep", "--batch", "32..1024"], ["compare", plan, plan2], ["check", plan, plan2],
                    ["presets"], ["presets", "reference"], ["presets", "--keys"]]
        for cmd in commands:
            fmts = ["table"] if cmd[0] == "presets" else FORMATS + (["junit"] if cmd[0] == "check" else [])
            for fmt in fmts:
                args = cmd + ([] if cmd[0] == "presets" else ["--format", fmt])

                def full(args=args):
                    with open("/dev/full", "wb") as sink:
                        r = self.check(self.run(args, stdout=sink), codes=(2,), stdout_checked=False)
                    if b"cannot write" not in r.err:
                        raise Failure(f"a full disk not reported: {r.err!r}")
                self.attempt(f"{' '.join(args)} > /dev/full", full)

                def closed(args=args):
                    # The child's stdout closed: run through a shell that closes it.
                    r = subprocess.run(["sh", "-c", '"$0" "$@" >&-', self.binary] + args, cwd=self.tmp,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIME_LIMIT)
                    self.runs += 1
                    self.check(Run(["sh", "-c", "... >&-"] + args, r.returncode, r.stdout, r.stderr, 0), codes=(2,))
                self.attempt(f"{' '.join(args)} >&-", closed)

        before = open(plan, "rb").read()
        targets = ["/dev/full", self.tmp, os.path.join(self.tmp, "no-such-dir", "j.xml"), plan, "new.toml",
                   "./plan.toml", os.path.join(self.tmp, "..", os.path.basename(self.tmp), "plan2.toml")]
        for target in targets:
            def junit(target=target):
                r = self.check(self.run(["check", plan, plan2, "--junit", target]), codes=(2,))
                if open(plan, "rb").read() != before:
                    raise Failure("the plan file was changed")
                if os.path.exists(os.path.join(self.tmp, "new.toml")):
                    raise Failure("a .toml file was written")
            self.attempt(f"--junit {target}", junit)

        def junit_written_whole():
            out = os.path.join(self.tmp, "report.xml")
            for _ in range(3):
                r = self.check(self.run(["check", plan, plan2, "--junit", out]), codes=(0, 1, 4))
                xml.dom.minidom.parse(out)
                leftovers = [f for f in os.listdir(self.tmp) if f.startswith("report.xml") and f != "report.xml"]
                if leftovers:
                    raise Failure(f"temporary files left: {leftovers}")
        self.attempt("--junit written whole", junit_written_whole)

    # --- class 4: ambiguous grids ---------------------------------------------------------
    def class4(self):
        twins = [("--batch", "32,64", "pipeline.batch_size"), ("--workers", "4,8", "pipeline.workers"),
                 ("--sample-size", "100KB,1MB", "workload.sample_size")]
        for flag, values, key in twins:
            def twin(flag=flag, values=values, key=key):
                for args in (["--vary", f"{key}=1,2", flag, values], [flag, values, "--vary", f"{key}=3,4"],
                             ["--vary", f"{key}=1,2", "--vary", f"{key}=5"]):
                    self.check(self.run(["sweep"] + args), codes=(2,))
            self.attempt(f"{flag} twice", twin)
        fields = ["storage.read_bandwidth=1GB/s,100GB/s", "transform.device=cpu,decoder", "cpu.cores=4,96",
                  "storage.cache_hit=0,0.5", "model.precision=fp16,fp32", "accelerator.count=1,8"]
        for n in range(20 * self.scale):
            def grid(n=n):
                args = ["sweep", self.rng.choice(PLANS + ["reference"])]
                for f in self.rng.sample(fields, self.rng.randint(1, 3)):
                    args += ["--vary", f]
                fmt = self.rng.choice(["csv", "json", "table", "markdown"])
                r = self.check(self.run(args + ["--format", fmt]), fmt)
                if r.code == 0 and fmt in ("table", "markdown"):
                    lines = [l for l in r.out.decode().splitlines() if l.strip() and not l.startswith(("#", "Sweep"))]
                    widths = {len(l.split("|")) for l in lines if l.startswith("|")}
                    if len(widths) > 1:
                        raise Failure(f"markdown rows of different widths: {sorted(widths)}")
            self.attempt(f"grid #{n}", grid)

    # --- class 5: the embedded default is never shadowed -----------------------------------
    def class5(self):
        clean = self.tmp
        shadow = os.path.join(self.tmp, "shadow")
        os.makedirs(shadow)
        names = ["reference"] + self.rng.sample(PLANS, 3)
        for name in names:
            kind = self.rng.choice(["file", "dir", "toml", "garbage"])
            if kind == "dir":
                os.makedirs(os.path.join(shadow, name), exist_ok=True)
            elif kind == "file":
                self.file(f"shadow/{name}", 'use = "dgx-h100-unet3d-nvme"\n')
            elif kind == "toml":
                self.file(f"shadow/{name}.toml", "this is not toml = = =\n")
            else:
                self.file(f"shadow/{name}", b"\xff\xfe\x00garbage")
        for args in [["diagnose"], ["sweep", "--batch", "64,128", "--format", "csv"]] + [["diagnose", n] for n in names]:
            def same(args=args):
                want = self.check(self.run(args, cwd=clean), codes=(0,))
                got = self.check(self.run(args, cwd=shadow), codes=(0,))
                if want.out != got.out:
                    raise Failure("a file or folder in the current directory changed the answer")
            self.attempt(f"shadowed {' '.join(args)}", same)
        def directory():
            os.makedirs(os.path.join(shadow, "adir"), exist_ok=True)
            self.check(self.run(["diagnose", "./adir"], cwd=shadow), codes=(2,))
        self.attempt("a directory as a scenario", directory)

    # --- class 6: output that parses whatever names hold -----------------------------------
    def nasty_name(self):
        pool = ["a", "Z", " ", ",", "\"", "\\", "|", "<", "&", "]]>", "'", "\n", "\r", "\t", "\x1b[31m", "\x00",
                "\x7f", "\u0085", "\u009b", "\u202e", "\u2066", "\ufffe", "\uffff", "\U0010ffff", "\U0001f600",
                "e\u0301", "FAIL", "PASS", "\u00e9", "\u4e2d"]
        return "".join(self.rng.choice(pool) for _ in range(self.rng.randint(1, 12)))

    @staticmethod
    def toml_string(s):
        out = []
        for ch in s:
            if ch in "\"\\" or ord(ch) < 0x20 or 0x7f <= ord(ch) <= 0x9f or ord(ch) in (0xfffe, 0xffff) or ord(ch) >= 0xfdd0 and ord(ch) <= 0xfdef:
                out.append(f"\\u{ord(ch):04x}" if ord(ch) <= 0xffff else f"\\U{ord(ch):08x}")
            else:
                out.append(ch)
        return '"' + "".join(out) + '"'

    def class6(self):
        for n in range(10 * self.scale):
            def names(n=n):
                name = self.nasty_name()
                body = f'name = {self.toml_string(name)}\ndescription = {self.toml_string(self.nasty_name())}\n'
                body += f'use = "{self.rng.choice(PLANS)}"\n[require]\nmin_utilization = "{self.rng.randint(10, 99)}%"\n'
                a = self.file(f"n{n}.toml", body)
                b = self.file(f"m{n}.toml", body.replace("min_utilization", "max_epoch_time = \"1 s\"\n#"))
                for cmd in (["diagnose", a], ["check", a, b], ["compare", a, b], ["sweep", a, "--batch", "64,128"]):
                    fmts = FORMATS + (["junit"] if cmd[0] == "check" else [])
                    for fmt in fmts:
                        self.check(self.run(cmd + ["--format", fmt]), fmt, codes=(0, 1, 2, 4) if cmd[0] == "check" else (0,))
            self.attempt(f"names #{n}", names)
        for n in range(6 * self.scale):
            def file_names(n=n):
                raw = bytes(self.rng.choice([0x1b, 0x07, 0x0d, 0x0a, 0x7f, 0x80, 0xff, 0xc3, 0xa9, 0xe2, 0x80, 0xae,
                                             ord("a"), ord(","), ord('"'), ord("|")]) for _ in range(self.rng.randint(1, 8)))
                fname = b"p" + raw + b".toml"
                path = self.file(fname, b'use = "p4d-resnet50-nvme"\n[pipeline]\nbatch_size = "many"\n')
                self.check(self.run(["diagnose", path]), codes=(2,))
                good = self.file(b"g" + raw + b".toml", b'use = "p4d-resnet50-nvme"\n[require]\nmin_utilization = "50%"\n')
                for fmt in ("junit", "json", "csv", "table"):
                    self.check(self.run(["check", good, "--format", fmt]), fmt, codes=(0, 1, 4))
            self.attempt(f"file names #{n}", file_names)
        def raw_bytes_in_strings():
            for blob in (b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\xef\xbf\xbe"):
                self.file("raw.toml", b'name = "x' + blob + b'"\nuse = "reference"\n')
                self.check(self.run(["diagnose", "raw.toml", "--format", "json"]), "json")
        self.attempt("raw bytes in strings", raw_bytes_in_strings)

    # --- class 7: messages that do not contradict themselves --------------------------------
    def class7(self):
        def whole_numbers():
            for field in ("pipeline.batch_size", "pipeline.workers", "accelerator.count", "cluster.nodes"):
                n = self.rng.randint(1, 64)
                for v in (f"{n}.0000000001", f"{n - 1}.9999999999", f"{n}.5"):
                    r = self.check(self.run(["diagnose", "--set", f"{field}={v}"]), codes=(2,))
                    shown = re.search(rb"got (\S+)\s*$", r.err)
                    if not shown or float(shown.group(1)) == round(float(shown.group(1))):
                        raise Failure(f"{v} shown as a whole number: {r.err!r}")
        self.attempt("values shown at their limits", whole_numbers)

        def decimal_steps():
            from decimal import Decimal
            for _ in range(6 * self.scale):
                places = self.rng.randint(1, 3)
                q = Decimal(1).scaleb(-places)
                step = Decimal(self.rng.randint(1, 30)) * q
                start = Decimal(self.rng.randint(0, 20)) * q
                count = self.rng.randint(1, 8)
                end = start + step * count
                if end >= 1:
                    continue
                r = self.check(self.run(["sweep", "p4d-resnet50-nvme", "--vary", f"storage.cache_hit={start}..{end}:+{step}",
                                         "--format", "json"]), "json", codes=(0,))
                got = [row["inputs"]["storage.cache_hit"] for row in json.loads(r.out)["rows"]]
                want = [float(start + step * i) for i in range(count + 1)]
                if got != want:
                    raise Failure(f"{start}..{end}:+{step} gave {got}, not {want}")
        self.attempt("stepped ranges land on their decimals", decimal_steps)

        def byte_order_mark():
            for preset in self.rng.sample(PLANS, 2):
                plain = self.file("plain.toml", f'use = "{preset}"\n')
                bom = self.file("bom.toml", b"\xef\xbb\xbf" + f'use = "{preset}"\n'.encode())
                a = self.check(self.run(["diagnose", plain, "--format", "csv"]), "csv", codes=(0,))
                b = self.check(self.run(["diagnose", bom, "--format", "csv"]), "csv", codes=(0,))
                if a.out != b.out:
                    raise Failure("a byte-order mark changed the answer")
        self.attempt("byte-order mark", byte_order_mark)

        def quoted_keys():
            self.file("q.toml", 'use = "reference"\n"pipeline.batch_size" = 64\n')
            r = self.check(self.run(["diagnose", "q.toml"]), codes=(2,))
            if b"quoted" not in r.err:
                raise Failure(f"a quoted dotted key not explained: {r.err!r}")
        self.attempt("quoted dotted key", quoted_keys)

        def commands():
            for word in ("diagnos", "swep", "chekc", "frobnicate", "x" * 5000, "\x1b[2J"):
                r = self.check(self.run([word]), codes=(2,))
                if b"unknown command" not in r.err or len(r.err) > 1000:
                    raise Failure(f"unknown command not named (or echoed whole): {r.err[:300]!r}")
        self.attempt("unknown commands", commands)

        def far_names():
            for key in ("storage.xyz", "cpu.q", "pipeline.zz", "abc"):
                r = self.check(self.run(["diagnose", "--set", f"{key}=1"]), codes=(2,))
                if b"did you mean" in r.err:
                    raise Failure(f"a suggestion for a name that is not close: {r.err!r}")
        self.attempt("no suggestion for far names", far_names)

        def special_files():
            for path in ("/proc/self/status", "/proc/cpuinfo", "/dev/null", "/dev/zero", "/dev/stdin"):
                r = self.check(self.run(["diagnose", path]), codes=(2,))
                if path.startswith("/proc") and b":1:" not in r.err:
                    raise Failure(f"{path} was not read: {r.err!r}")
        self.attempt("special files", special_files)

    # --- class 8: the measurement commands and values at the model's extremes ---------------
    def class8(self):
        def quick(r, limit=5.0):
            # Searches are logarithmic and reads bounded: far under TIME_LIMIT, even sanitized.
            if r.seconds > limit:
                raise Failure(f"took {r.seconds:.1f} s (at most {limit:.0f}): {r.describe()}")
            return r

        def deep_keys():
            parts = self.rng.choice([40, 20_000, 200_000])
            header = self.file("deep_header.toml", "[" + ".".join(["a"] * parts) + "]\n")
            dotted = self.file("deep_dotted.toml", ".".join(["a"] * parts) + " = 1\n")
            self.file("uses_deep.toml", 'use = "deep_header.toml"\n')
            for args in (["diagnose", header], ["diagnose", dotted], ["diagnose", "uses_deep.toml"]):
                r = self.check(self.run(args), codes=(2,))
                if b"dotted parts" not in r.err:
                    raise Failure(f"deep key not named: {r.err[:300]!r}")
            with open(header, "rb") as f:
                self.check(self.run(["diagnose", "-"], stdin=f), codes=(2,))
            # check goes on with the other plans: the deep one is reported beside them.
            self.check(self.run(["check", "p4d-resnet50-nvme", header]), codes=(2,), stdout_checked=False)
        self.attempt("deep dotted keys", deep_keys)

        def no_threads():
            # A thread stack larger than the address space can hold: every new thread fails to
            # start (as under a pids limit); the main thread runs on. Nothing may abort.
            def limit():
                resource.setrlimit(resource.RLIMIT_STACK, (1 << 40, resource.RLIM_INFINITY))
            os.makedirs(os.path.join(self.tmp, "files"), exist_ok=True)
            for i in range(4):
                self.file(f"files/f{i}", os.urandom(4096))
            self.check(self.run(["sweep", "--jobs", "64", "--workers", "1..3000:+1", "--format", "csv"],
                                preexec_fn=limit), "csv", codes=(0,))
            for args in (["calibrate", "storage", "files", "--time", "0.02", "--concurrency", "1,64"],
                         ["calibrate", "decode", "--threads", "1,64", "--time", "0.02", "--images", "4"],
                         ["calibrate", "memory", "--threads", "16", "--time", "0.01"]):
                self.check(self.run(args, preexec_fn=limit), "toml", codes=(0, 2))
        self.attempt("threads that cannot start", no_threads)

        def searches():
            for args in (["diagnose", "--set", "workload.transform_cost=1e12s", "--set", "transform.cv=0.5",
                          "--set", "storage.read_bandwidth=1GB/s"],
                         ["diagnose", "p4d-resnet50-nvme", "--set", "pipeline.worker_batch_overhead=1e6s",
                          "--set", "transform.cv=1"],
                         ["diagnose", "p4d-resnet50-nvme", "--set", "pipeline.workers=1e9", "--set",
                          "pipeline.loop_cpu_share=0.5", "--set", "pipeline.receive_time=1ms"],
                         ["diagnose", "p4d-resnet50-nvme", "--set", "pipeline.workers=1e15", "--set",
                          "pipeline.loop_cpu_share=0.5", "--set", "pipeline.receive_time=1e6s"]):
                quick(self.check(self.run(args + ["--format", "json"]), "json", codes=(0,)))
        self.attempt("searches bounded in the model's extremes", searches)

        def endless_inputs():
            fifo = os.path.join(self.tmp, "fifo")
            if not os.path.exists(fifo):
                os.mkfifo(fifo)
            for path in ("/dev/zero", fifo):
                quick(self.check(self.run(["simulate", "--sample-times", path]), codes=(2,)))
                quick(self.check(self.run(["attribute", "--log", path]), codes=(2,)))
            with open(os.path.join(self.tmp, "files", "sparse"), "wb") as f:
                f.truncate(50 << 30)
            quick(self.check(self.run(["calibrate", "storage", "files", "--time", "0.05", "--concurrency", "1,2"]),
                             "toml", codes=(0, 2)), 20.0)
            os.makedirs(os.path.join(self.tmp, "jpegs"), exist_ok=True)
            with open(os.path.join(self.tmp, "jpegs", "big.jpg"), "wb") as f:
                f.truncate(8 << 30)
            quick(self.check(self.run(["calibrate", "decode", "jpegs", "--time", "0.02", "--threads", "1"]),
                             codes=(2,)))
            # Each measuring thread's buffer grows to the largest image: 4096 of them over 12
            # synthetic images would hold 5.2 GB. Refused before a thread starts.
            r = quick(self.check(self.run(["calibrate", "decode", "--threads", "1,4096", "--time", "0.02",
                                           "--images", "12"]), codes=(2,)), 20.0)
            if b"threads would each hold" not in r.err:
                raise Failure(f"the decode buffers are not bounded: {r.err[:300]!r}")
        self.attempt("inputs that never end", endless_inputs)

        def extremes():
            for kv in ("pipeline.epoch_overhead=1e17 s", "pipeline.worker_warmup_time=1e21 s",
                       "pipeline.worker_start_time=1e15 s", "cpu.scaling_contention=1e15",
                       "cpu.scaling_coherency=1e15"):
                for fmt in ("json", "table"):
                    self.check(self.run(["simulate", "p4d-resnet50-nvme", "--set", kv, "--format", fmt]), fmt)
            log = self.file("steps.jsonl", "".join(f'{{"data_time": 0.01, "time": 0.1{i % 3}}}\n' for i in range(20)))
            for batch in ("1e308", "0", "-1", "2.5"):
                self.check(self.run(["attribute", "--log", log, "--batch", batch]), codes=(2,))
        self.attempt("values past what a clock or a batch holds", extremes)

        def clobbering():
            os.makedirs(os.path.join(self.tmp, "save"), exist_ok=True)
            kept = self.file("save/00001.jpg", b"mine")
            outside = os.path.join(self.tmp, "outside.jpg")
            link = os.path.join(self.tmp, "save", "00002.jpg")
            if not os.path.lexists(link):
                os.symlink(outside, link)
            self.check(self.run(["calibrate", "decode", "--save-synthetic", "save", "--images", "4", "--time", "0.02",
                                 "--threads", "1"]), codes=(2,))
            if open(kept, "rb").read() != b"mine" or os.path.exists(outside) or os.path.exists(
                    os.path.join(self.tmp, "save", "00000.jpg")):
                raise Failure("--save-synthetic wrote over a file, through a link, or a part of its set")
            log = self.file("keep.jsonl", '{"data_time": 0.01, "time": 0.1}\n' * 5)
            times = self.file("times.svg", "3 ms\n4 ms\n")
            for args in (["attribute", "--log", log, "-o", log],
                         ["simulate", "--sample-times", times, "--plot", times],
                         ["simulate", "--sample-times", times, "--trace", times]):
                self.check(self.run(args), codes=(2,))
            if open(log).read() != '{"data_time": 0.01, "time": 0.1}\n' * 5 or open(times).read() != "3 ms\n4 ms\n":
                raise Failure("an input was written over")
        self.attempt("outputs never replace inputs", clobbering)

        def wrong_figures():
            csv_log = self.file("quoted.csv", 'epoch,"lr, group 0",data_time,time\n' +
                                "".join(f"1,0.5,0.01,0.{i % 2 + 1}\n" for i in range(10)))
            r = self.check(self.run(["attribute", "--log", csv_log, "--skip", "0", "--format", "json"]), "json",
                           codes=(0,))
            mean = json.loads(r.out)["time_s"]["mean"]
            if abs(mean - 0.15) > 1e-9:
                raise Failure(f"a quoted header cell with a comma shifted the columns: time mean {mean}")
            self.check(self.run(["sweep", "p4d-resnet50-nvme", "--simulate", "--batches", "5", "--workers", "4,8"]),
                       codes=(2,))
            toml = self.run(["attribute", "--batch", "256", "--workers", "8", "--device-cached", "10",
                             "--host-cached", "9.99999999999999", "--sample-cached", "9.8", "--full", "5",
                             "--sample-size", "100kB", "--device-sample-size", "600000GB", "--format", "toml"])
            self.check(toml, "toml", codes=(0,))
            path = self.file("attributed.toml", toml.out)
            self.check(self.run(["diagnose", path]), codes=(0,))
        self.attempt("figures that are right or refused", wrong_figures)

    # --- class 9: names that are commands or markup elsewhere; values read once ----------------
    def class9(self):
        plan = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "configs", "plans",
                                 "p4d-resnet50-nvme.toml")).read()
        blanks = ["", " ", "\t", "\u00a0", "\u2003", "\u3000"]
        starts = ["::stop-commands::tok", "::error file=x::forged", "=HYPERLINK(\"http://x\")", "+SUM(1)", "@x",
                  "-cmd", "<img src=x onerror=alert(1)>", "**bold** [link](http://x) `code`", "# heading"]

        def names():
            for _ in range(4 * self.scale):
                start = self.rng.choice(starts)
                name = self.rng.choice(blanks) + start + self.rng.choice(["", " tail", "::more"])
                # The plan's file named after it, and its name set to it.
                fname = name.replace("/", "_").replace("\"", "_") + ".toml"
                body = re.sub(r'^name = .*$', lambda _: 'name = ' + json.dumps(name), plan, count=1, flags=re.M)
                path = self.file(fname, body)
                bad = self.file("bad" + fname, "bogus = 1\n" + body)
                rel = "./" + fname
                for fmt in FORMATS + ["github"]:
                    self.check(self.run(["check", rel, "--format", fmt]), fmt, codes=(0, 1, 4))
                    self.check(self.run(["check", rel, "./bad" + fname, "--format", fmt]), fmt, codes=(2,),
                               stdout_checked=False)
                for fmt in FORMATS:
                    self.check(self.run(["diagnose", path, "--format", fmt]), fmt, codes=(0,))
                    self.check(self.run(["compare", rel, "p4d-resnet50-nfs", "--format", fmt]), fmt, codes=(0,))
                for fmt in ("table", "markdown"):
                    self.check(self.run(["simulate", path, "--batches", "200", "--format", fmt]), fmt, codes=(0,))
                self.check(self.run(["diagnose", "./bad" + fname]), codes=(2,))
                md = self.run(["diagnose", path, "--format", "markdown"]).out.decode()
                if "<img" in md or "**bold**" in md:
                    raise Failure(f"a name reached Markdown as markup: {name!r}")
        self.attempt("names that are workflow commands, formulas or markup", names)

        def suffixes():
            for _ in range(6 * self.scale):
                n = self.rng.choice([2, 3, 50, 30000])
                value = self.rng.choice(["0", "1", "12.5"]) + " " + " ".join(self.rng.choice("kMG") for _ in range(n))
                self.check(self.run(["diagnose", "--set", f"pipeline.batch_size={value}"]), codes=(2,))
                path = self.file("suffixes.toml", f'use = ["p4d-resnet50-nvme"]\n[pipeline]\nbatch_size = "{value}"\n')
                self.check(self.run(["check", path, "p4d-resnet50-nfs"]), codes=(2,), stdout_checked=False)
        self.attempt("a count suffix is taken once", suffixes)

        def rounding():
            # 0.9 ms of compute over 1 ms of transform per sample: exactly 90% at every batch size.
            for batch in (3, 7, 256, self.rng.randint(1, 4096)):
                path = self.file("ninety.toml", f"""name = "exactly 90%"
[pipeline]
batch_size = {batch}
workers = 1
[model]
measured_per_sample = "0.9 ms"
[workload]
sample_size = "100 kB"
[cpu]
worker_sample_rate = "1000 samples/s"
[require]
min_utilization = "90%"
""")
                r = self.check(self.run(["check", path, "--format", "json"]), "json", codes=(0, 1, 4))
                if r.code == 1:
                    raise Failure(f"exactly 90% failed min_utilization = 90% at batch {batch}")
        self.attempt("rounding decides no verdict", rounding)


def classes():
    """The classes this suite has: its methods class1, class2 ..."""
    return sorted(int(name[5:]) for name in dir(Suite) if name.startswith("class") and name[5:].isdigit())


def main():
    if sys.argv[1:] == ["--classes"]:  # for CMake: one test per class
        print(";".join(str(c) for c in classes()))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binary")
    ap.add_argument("cls", type=int, choices=classes(), metavar="CLASS")
    ap.add_argument("--seed", type=int, default=int(os.environ.get("PIPESIM_HOSTILE_SEED", "10")))
    ap.add_argument("--scale", type=int, default=1, help="more generated cases per class")
    a = ap.parse_args()
    suite = Suite(os.path.abspath(a.binary), a.seed, a.scale)
    try:
        getattr(suite, f"class{a.cls}")()
    finally:
        shutil.rmtree(suite.tmp, ignore_errors=True)
    for f in suite.failures:
        print(f"FAIL {f}\n")
    print(f"class {a.cls}: {suite.runs} runs, {len(suite.failures)} failures (seed {a.seed})")
    return 1 if suite.failures else 0


if __name__ == "__main__":
    sys.exit(main())
