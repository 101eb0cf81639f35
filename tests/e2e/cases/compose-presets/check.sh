# A composition is the scenario a file with `use = [A, B, C]` gives: the same answer as the
# plan file that uses the same presets, in diagnose and check too.
set -e
a="$("$PIPESIM" diagnose p4d-24xlarge+nvme-gen4+resnet50-imagenet-amp --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["utilization"])')"
b="$("$PIPESIM" diagnose p4d-resnet50-nvme --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["utilization"])')"
[ "$a" = "$b" ]
"$PIPESIM" diagnose p4d-24xlarge+nvme-gen4+resnet50-imagenet-amp | head -1 | grep -qx 'p4d-24xlarge+nvme-gen4+resnet50-imagenet-amp'
# (the p4d's A100 40GB judged on the A100 80GB's step, accepted as the plan file accepts it)
"$PIPESIM" check p4d-24xlarge+nvme-gen4+resnet50-imagenet-amp --require min_utilization=0.5 --require measured_elsewhere=true > /dev/null
