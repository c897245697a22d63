#!/usr/bin/env bash
# One hard instance on one thread and on two, alternating, ROUNDS times: Korf's #ID (default 60)
# with Manhattan, `solve --jobs 1 --split off` against `solve --jobs 2 --split auto`. Prints each
# wall time, checks that both print the same answer and counts, and gives the ratio of the medians.
#
#   scripts/split-speedup.sh [ID] [ROUNDS]
#
# Needs python3 besides cargo. Run it on a quiet machine.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
id="${1:-60}"
rounds="${2:-3}"
(cd "$root" && cargo build --release --quiet)
bin="$root/target/release/idabench"
start=$(awk -F, -v id="$id" '$1 == id { print $4 }' "$root/datasets/korf100.csv")
[ -n "$start" ] || { echo "split-speedup: no instance $id in datasets/korf100.csv" >&2; exit 2; }
goal="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for r in $(seq "$rounds"); do
  for mode in one two; do
    case $mode in
      one) args=(--jobs 1 --split off) ;;
      two) args=(--jobs 2 --split auto) ;;
    esac
    "$bin" solve --size 4x4 --start "$start" --goal "$goal" "${args[@]}" --format json > "$work/$mode.json"
    python3 - "$work/$mode.json" "$mode" "$r" >> "$work/times" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(sys.argv[2], d["time_s"], d["time_cpu_s"], d["nodes_generated"], d["path"])
PY
  done
done
python3 - "$work/times" "$id" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
for mode, wall, cpu, nodes, path in rows:
    print(f"{mode}: {float(wall):.3f} s wall, {float(cpu):.3f} s CPU, {nodes} nodes")
answers = {(nodes, path) for _, _, _, nodes, path in rows}
if len(answers) != 1:
    sys.exit("split-speedup: the two searches differ: " + repr(answers))
med = {m: statistics.median(float(r[1]) for r in rows if r[0] == m) for m in ("one", "two")}
print(f"Korf #{sys.argv[2]}: median {med['one']:.3f} s on one thread, {med['two']:.3f} s on two: "
      f"{med['one'] / med['two']:.2f}x")
PY
