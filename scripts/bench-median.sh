#!/usr/bin/env bash
# Runs a criterion benchmark N times (default 5) and prints, for each benchmark, the
# median of criterion's per-run median estimates: on a shared or virtual machine a
# single run can be off by 10-20%.
#   scripts/bench-median.sh search reference 5
# The core's benches (search, field, next_hop) are the package `tilepath-benches`, which
# builds no Bevy; `mirror` is the plugin's (`tilepath-bevy-benches`).
set -euo pipefail
cd "$(dirname "$0")/.."
bench=${1:-search}
filter=${2:-}
runs=${3:-5}
package=tilepath-benches
[ "$bench" = mirror ] && package=tilepath-bevy-benches
target=${CARGO_TARGET_DIR:-target}
out=$(mktemp -d)
for i in $(seq 1 "$runs"); do
  touch "$out/stamp"
  cargo bench -p "$package" --bench "$bench" -- $filter >/dev/null 2>&1
  # Only the estimates this run wrote.
  find "$target/criterion" -path '*/new/estimates.json' -newer "$out/stamp" | while read -r f; do
    name=${f#"$target/criterion/"}
    name=${name%/new/estimates.json}
    median=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["median"]["point_estimate"])' "$f")
    echo "$name $median" >> "$out/run$i"
  done
done
python3 - "$out" <<'PY'
import sys, glob, statistics, collections
d = sys.argv[1]
vals = collections.defaultdict(list)
for f in glob.glob(d + "/run*"):
    for line in open(f):
        name, v = line.rsplit(" ", 1)
        vals[name].append(float(v))
def fmt(ns):
    for unit, div in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= div: return f"{ns/div:.3g} {unit}"
    return f"{ns:.3g} ns"
for name in sorted(vals):
    v = vals[name]
    print(f"{name:60s} {fmt(statistics.median(v)):>10s}  (n={len(v)}, min {fmt(min(v))}, max {fmt(max(v))})")
PY
