# The piped scenario is the one diagnosed, and compare names it "stdin".
set -e
printf 'use = ["reference"]\n[pipeline]\nbatch_size = 64\n' | "$PIPESIM" diagnose - | grep -q '^batch 64 | 8 workers'
printf 'use = ["reference"]\n' | "$PIPESIM" compare - p4d-resnet50-nvme | head -1 | grep -Eq '^ +stdin +p4d-resnet50-nvme$'
