# `pipesim help [COMMAND...]` prints what `pipesim [COMMAND...] --help` prints.
set -e
[ "$("$PIPESIM" help calibrate decode)" = "$("$PIPESIM" calibrate decode --help)" ]
[ "$("$PIPESIM" help)" = "$("$PIPESIM" --help)" ]
[ "$("$PIPESIM" help sweep)" = "$("$PIPESIM" sweep --help)" ]
