#!/usr/bin/env bash
# The checkpoint goal, ROUNDS times, alternating: Korf's #ID (default 60) with Manhattan on one
# thread, `solve --checkpoint 1 --checkpoint-file F`, killed (SIGKILL) after 6 s twice and then
# resumed to its end, against the same search run clean (no checkpoint). Prints the clean run's
# wall time, the last resume's, their ratio, and checks that both give the same answer and
# counts (the whole JSON but the times).
#
#   scripts/checkpoint-resume.sh [ID] [ROUNDS]
#
# Needs python3 besides cargo. Run it on a quiet machine.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
id="${1:-60}"
rounds="${2:-3}"
(cd "$root" && cargo build --release --quiet)
bin="$root/target/release/idabench"
start=$(awk -F, -v id="$id" '$1 == id { print $4 }' "$root/datasets/korf100.csv")
[ -n "$start" ] || { echo "checkpoint-resume: no instance $id in datasets/korf100.csv" >&2; exit 2; }
goal="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
solve=("$bin" solve --size 4x4 --start "$start" --goal "$goal" --heuristic manhattan
       --jobs 1 --split off --format json)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
for r in $(seq "$rounds"); do
  t0=$(now); "${solve[@]}" --checkpoint 0 > "$work/clean.json"; t1=$(now)
  clean=$(echo "$t1 - $t0" | bc)
  rm -f "$work/c.ckpt"
  for kill in 1 2; do
    # In a subshell, so that the shell does not report the kill.
    ( timeout -s KILL 6 "${solve[@]}" --checkpoint 1 --checkpoint-file "$work/c.ckpt" \
      > /dev/null 2>&1 ) 2>/dev/null || true
  done
  t0=$(now); "${solve[@]}" --checkpoint 1 --checkpoint-file "$work/c.ckpt" > "$work/resumed.json"; t1=$(now)
  last=$(echo "$t1 - $t0" | bc)
  python3 - "$work/clean.json" "$work/resumed.json" "$clean" "$last" "$r" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    for k in ("time_s", "time_cpu_s"):
        d.pop(k)
if a != b:
    sys.exit("checkpoint-resume: the resumed search's answer or counts differ from the clean run's")
clean, last = float(sys.argv[3]), float(sys.argv[4])
print(f"round {sys.argv[5]}: clean {clean:.2f} s, last resume {last:.2f} s, ratio {last / clean:.2f}"
      f" ({b['nodes_generated']} nodes, same counts and path)")
PY
done
