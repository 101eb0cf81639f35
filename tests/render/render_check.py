#!/usr/bin/env python3
"""Renders each kind of pipesim figure in headless Chromium and checks the picture.

    render_check.py PIPESIM [OUT_DIR]

For each figure: the SVG parses as XML, Chromium renders it to a PNG of the SVG's own size,
and the PNG is not blank (enough pixels that are not white) and shows the colours the figure
draws (the binding wall's, the series'). Chromium also lays the figure out in a page whose
script measures every text as drawn: each must lie inside the figure (a long title or a label at
the edge is not cut off), no two may overlap and none may lie across a curve; every text's colour
has at least 3:1 contrast on white; every curve the legend names shows somewhere under it. The figures of the manual are among the cases. The PNGs stay in OUT_DIR (default: a temporary
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
    # Eight curves with thirteen crossovers, some through ties, some close together: the badges and
    # their key.
    "sweep-crossovers": (["sweep", "--batch", "8..1024", "--workers", "1..64:+1"], ["#0072B2", "#000000"]),
    # Four of five curves the same in the throughput panel: stripes, named in one note of two lines.
    "sweep-coinciding": (["sweep", "--batch", "32..512", "--workers", "2..16:+2", "--x", "workers"],
                         ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9"]),
    # The figures of the manual (docs/manual/commands.md, "Pictures") not above.
    "compare-three": (["compare", "p4d-resnet50-nvme", "p4d-resnet50-nfs", "8xa100-small-cpu"],
                      ["#0072B2", "#E69F00", "#009E73"]),
    "simulate-docs": (["simulate", "--set", "pipeline.batch_size=16", "--set", "pipeline.workers=6", "--set",
                       "transform.cv=1.5"], ["#0072B2", "#D55E00"]),
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
// Text drawn across a curve (a polyline's segment through its box) cannot be read.
const segments = [];
for (const p of svg.querySelectorAll('polyline')) {
  const pts = p.getAttribute('points').trim().split(/\s+/).map(q => q.split(',').map(Number));
  for (let i = 1; i < pts.length; i++) segments.push([pts[i - 1], pts[i]]);
}
const crosses = (b, [[x1, y1], [x2, y2]]) => {
  // Clip the segment to the box (Liang-Barsky).
  let t0 = 0, t1 = 1;
  const dx = x2 - x1, dy = y2 - y1;
  for (const [p, q] of [[-dx, x1 - b.left], [dx, b.right - x1], [-dy, y1 - b.top], [dy, b.bottom - y1]]) {
    if (p === 0) { if (q < 0) return false; continue; }
    const r = q / p;
    if (p < 0) { if (r > t1) return false; if (r > t0) t0 = r; }
    else { if (r < t0) return false; if (r < t1) t1 = r; }
  }
  return true;
};
const overCurve = boxes.filter(([, b]) => segments.some(s => crosses({left: b.left + 1, right: b.right - 1,
                                                                        top: b.top + 1, bottom: b.bottom - 1}, s)))
                       .map(([t]) => t);
const overlap = [];
for (let i = 0; i < boxes.length; i++)
  for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i][1], b = boxes[j][1];
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
      overlap.push(boxes[i][0] + ' / ' + boxes[j][0]);
  }
document.body.setAttribute('data-layout', JSON.stringify({outside, overlap, overCurve}));
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
            [f"texts overlap: {t!r}" for t in result["overlap"]] +
            [f"text over a curve: {t!r}" for t in result["overCurve"]])


def rgb(hex_colour):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def luminance(hex_colour):
    """WCAG's relative luminance of an sRGB colour."""
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb(hex_colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def unseen_legend_entries(svg_path, image):
    """The curves' legend entries (a 3 px line each, over the panels) whose colour the picture
    shows nowhere under the legend: a curve hidden under others, which the legend names anyway."""
    root = ET.parse(svg_path).getroot()
    entries = [(l.get("stroke"), float(l.get("y1"))) for l in root.iter("{http://www.w3.org/2000/svg}line")
               if l.get("stroke-width") == "3"]
    if not entries:
        return []
    below = int(max(y for _, y in entries)) + 8
    width, height = image.size
    seen = {}
    for y in range(min(below, height), height):
        for x in range(width):
            p = image.getpixel((x, y))
            seen[p] = seen.get(p, 0) + 1
    return [colour for colour, _ in entries if seen.get(rgb(colour), 0) < 20]


def low_contrast(svg_path):
    """The texts whose colour has less than 3:1 contrast against the white the figures are drawn on."""
    bad = []
    for text in ET.parse(svg_path).getroot().iter("{http://www.w3.org/2000/svg}text"):
        fill = text.get("fill", "#222222")
        if re.fullmatch(r"#[0-9a-fA-F]{6}", fill) and (1.05 / (luminance(fill) + 0.05)) < 3:
            bad.append(f"{''.join(text.itertext())!r} in {fill}")
    return bad


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
            failures += [f"{name}: text contrast under 3:1 on white: {t}" for t in low_contrast(svg)]
            failures += [f"{name}: a legend entry with no visible mark: {c}" for c in unseen_legend_entries(svg, image)]
    for f in failures:
        print("render_check: " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
