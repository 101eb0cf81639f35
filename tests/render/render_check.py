#!/usr/bin/env python3
"""Renders each kind of pipesim figure in headless Chromium and checks the picture.

    render_check.py PIPESIM [OUT_DIR]

For each figure: the SVG parses as XML, Chromium renders it to a PNG of the SVG's own size,
and the PNG is not blank (enough pixels that are not white) and shows the colours the figure
draws (the binding wall's, the series'). Chromium also lays the figure out in a page whose
script measures every text as drawn: each must lie inside the figure (a long title or a label at
the edge is not cut off) and no two may overlap. The PNGs stay in OUT_DIR (default: a temporary
folder) for a person to look at.
"""
import html
import json
import os
import re
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
    # Simulated beside the closed forms (dashed lines, rings); workers on a linear x axis.
    "sweep-simulate": (["sweep", "--batch", "32,64", "--workers", "2..12:+2", "--simulate", "--set", "transform.cv=0.5"],
                       ["#0072B2", "#E69F00"]),
    # Workers on x as the swept axis with the most values; a crossover at the right edge.
    "sweep-edge": (["sweep", "--workers", "2..12:+2", "--batch", "32", "--set", "cpu.cores=16"], ["#0072B2"]),
}
# The HTML reports, rendered as a page (the figure inline, the words, the scenario).
PAGES = {"diagnose-report": FIGURES["diagnose"], "sweep-report": FIGURES["sweep"],
         "simulate-report": FIGURES["simulate"], "compare-report": FIGURES["compare"]}


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    sys.exit("render_check: chromium is not installed (apt-get install chromium)")


# Measures each text of an inline SVG as laid out and writes what is wrong into the page.
LAYOUT_SCRIPT = """<script>
const svg = document.querySelector('svg');
const width = +svg.getAttribute('width'), height = +svg.getAttribute('height');
const boxes = [...svg.querySelectorAll('text')].map(t => [t.textContent, t.getBoundingClientRect()]);
const outside = boxes.filter(([, b]) => b.left < -0.5 || b.right > width + 0.5 || b.top < -0.5 ||
                                         b.bottom > height + 0.5).map(([s]) => s);
const overlap = [];
for (let i = 0; i < boxes.length; i++)
  for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i][1], b = boxes[j][1];
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
      overlap.push(boxes[i][0] + ' / ' + boxes[j][0]);
  }
document.body.setAttribute('data-layout', JSON.stringify({outside, overlap}));
</script>"""


def layout_problems(browser, svg_path, out):
    """The texts of the figure that Chromium lays out outside it, and the pairs that overlap."""
    with open(svg_path, encoding="utf-8") as f:
        body = f.read().split("?>", 1)[1]
    page = os.path.join(out, os.path.basename(svg_path) + ".layout.html")
    with open(page, "w", encoding="utf-8") as f:
        f.write('<!DOCTYPE html><html><body style="margin:0">' + body + LAYOUT_SCRIPT + "</body></html>")
    with tempfile.TemporaryDirectory() as profile:
        dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                              "--dump-dom", "file://" + os.path.abspath(page)],
                             capture_output=True, text=True, timeout=120).stdout
    found = re.search(r'data-layout="([^"]*)"', dom)
    if not found:
        return ["Chromium did not lay the figure out"]
    result = json.loads(html.unescape(found.group(1)))
    return ([f"text outside the figure: {t!r}" for t in result["outside"]] +
            [f"texts overlap: {t!r}" for t in result["overlap"]])


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
        if ext == ".svg":
            failures += [f"{name}: {p}" for p in layout_problems(browser, svg, out)]
    for f in failures:
        print("render_check: " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
