#!/usr/bin/env python3
"""Renders each kind of pipesim figure in headless Chromium and checks the picture.

    render_check.py PIPESIM [OUT_DIR]

For each figure: the SVG parses as XML, Chromium renders it to a PNG of the SVG's own size,
and the PNG is not blank (enough pixels that are not white) and shows the colours the figure
draws (the binding wall's, the series'). The PNGs stay in OUT_DIR (default: a temporary folder)
for a person to look at.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from PIL import Image

FIGURES = {
    "diagnose": (["diagnose", "--set", "pipeline.batch_size=32"], ["#D55E00", "#0072B2", "#009E73"]),
    "sweep": (["sweep", "--batch", "8..1024", "--workers", "8,16"], ["#0072B2", "#E69F00"]),
    "compare": (["compare", "p4d-resnet50-nvme", "8xa100-small-cpu"], ["#0072B2", "#E69F00"]),
    # More than 8 curves: a grid of small panels, points coloured by binding wall.
    "sweep-grid": (["sweep", "--batch", "8..1024", "--workers", "2..16:+2", "--vary", "cpu.cores=8,16"],
                   ["#0072B2", "#E69F00", "#444444"]),
    # The timeline (build batch, wait, compute) and the wait histogram (no-wait bar, bins).
    "simulate": (["simulate", "--set", "transform.cv=0.5"], ["#0072B2", "#D55E00", "#555555", "#999999"]),
}
# The HTML reports, rendered as a page (the figure inline, the words, the scenario).
PAGES = {"diagnose-report": FIGURES["diagnose"], "sweep-report": FIGURES["sweep"],
         "simulate-report": FIGURES["simulate"], "compare-report": FIGURES["compare"]}


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    sys.exit("render_check: chromium is not installed (apt-get install chromium)")


def rgb(hex_colour):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def main():
    pipesim = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="pipesim-render-")
    os.makedirs(out, exist_ok=True)
    browser = chromium()
    failures = []
    kinds = [(n, a, c, ".svg") for n, (a, c) in FIGURES.items()] + [(n, a, c, ".html") for n, (a, c) in PAGES.items()]
    for name, args, colours, ext in kinds:
        svg = os.path.join(out, name + ext)
        png = os.path.join(out, name + ".png")
        run = subprocess.run([pipesim] + args + ["--plot", svg], capture_output=True, text=True)
        if run.returncode != 0:
            failures.append(f"{name}: pipesim exited {run.returncode}: {run.stderr.strip()}")
            continue
        if ext == ".svg":
            root = ET.parse(svg).getroot()
            width, height = int(float(root.get("width"))), int(float(root.get("height")))
        else:
            width, height = 1000, 2400
        with tempfile.TemporaryDirectory() as profile:
            subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                            f"--user-data-dir={profile}", f"--window-size={width},{height}",
                            f"--screenshot={png}", "file://" + os.path.abspath(svg)],
                           capture_output=True, timeout=120)
        if not os.path.exists(png):
            failures.append(f"{name}: chromium wrote no PNG")
            continue
        image = Image.open(png).convert("RGB")
        pixels = list(image.getdata())
        inked = sum(1 for p in pixels if p != (255, 255, 255)) / len(pixels)
        present = set(pixels)
        missing = [c for c in colours if rgb(c) not in present]
        print(f"{name}: {image.size[0]}x{image.size[1]}, {inked:.1%} of the pixels drawn, "
              f"{len(present)} colours; {png}")
        if inked < 0.02:
            failures.append(f"{name}: nearly blank ({inked:.1%} of the pixels drawn)")
        if missing:
            failures.append(f"{name}: colours not drawn: {', '.join(missing)}")
    for f in failures:
        print("render_check: " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
