# PNG and PDF are the SVG figure converted by rsvg-convert: a PNG at twice the SVG's pixels, a PDF;
# without rsvg-convert on PATH, one line naming what to install, exit 2, and no file written.
set -e
python3 - "$CASE_TMP/sweep.png" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
width, height = struct.unpack(">II", data[16:24])
assert width == 1520, width
assert height > 1000, height
PY
"$PIPESIM" diagnose --plot "$CASE_TMP/diagnose.pdf" > /dev/null
head -c 5 "$CASE_TMP/diagnose.pdf" | grep -q '%PDF-'
set +e
PATH=/nonexistent "$PIPESIM" diagnose --plot "$CASE_TMP/none.png" > "$CASE_TMP/out" 2> "$CASE_TMP/err"
status=$?
set -e
[ "$status" = 2 ]
[ ! -s "$CASE_TMP/out" ]
[ "$(wc -l < "$CASE_TMP/err")" = 1 ]
grep -q 'apt-get install librsvg2-bin' "$CASE_TMP/err"
[ ! -e "$CASE_TMP/none.png" ]
