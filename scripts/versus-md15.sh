#!/usr/bin/env bash
# Per-node speed against md15, a Korf-style C program that generates the same tree as idabench's
# Manhattan search with step 2 (see ../shared/reference/peers/README.md): both solve Korf's #1, 2,
# 4, 5, 6 and 8 (436,646,476 nodes with the starts), alternating, ROUNDS times; the best time of
# each gives the ratio. Linear conflict's node rate on the same six is compared with md15's too.
#
#   scripts/versus-md15.sh [PATH/TO/md15.c] [ROUNDS]
#
# Needs gcc and python3 besides cargo. Run it on a quiet machine.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
src="${1:-$root/../shared/reference/peers/md15.c}"
rounds="${2:-3}"
[ -f "$src" ] || { echo "versus-md15: no md15.c at '$src' (give its path as the first argument)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O3 -march=native -o "$work/md15" "$src"
(cd "$root" && cargo build --release --quiet)
bin="$root/target/release/idabench"

# The six instances: a dataset for idabench, bare tiles for md15.
python3 - "$root/datasets/korf100.csv" "$work" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["id"] in ("1", "2", "4", "5", "6", "8")]
with open(sys.argv[2] + "/six.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
    w.writeheader()
    w.writerows(rows)
with open(sys.argv[2] + "/six.txt", "w") as f:
    f.writelines(r["start"] + "\n" for r in rows)
PY

# Wall seconds of a command; the run fails if the command does.
seconds() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" > /dev/null || { echo "versus-md15: '$*' failed" >&2; return 1; }
  t1=$(date +%s.%N)
  python3 -c "print(f'{$t1 - $t0:.3f}')"
}
md15() {
  "$work/md15" < "$work/six.txt" 2> "$work/md15.total"
  [ "$(cat "$work/md15.total")" = "total 436646470" ] || { echo "versus-md15: md15 generated another tree: $(cat "$work/md15.total")" >&2; return 1; }
}
run() { # heuristic name
  rm -rf "$work/out/$2"
  "$bin" run "$work/six.csv" --heuristic "$1" --step 2 --jobs 1 --out "$work/out" --name "$2" --quiet
}
best_c=; best_m=; best_l=
for i in $(seq "$rounds"); do
  c=$(seconds md15) || exit 1
  m=$(seconds run manhattan "m$i") || exit 1
  l=$(seconds run linear-conflict "l$i") || exit 1
  echo "round $i: md15 ${c} s, idabench manhattan ${m} s, idabench linear-conflict ${l} s"
  best_c=$(python3 -c "print(min(x for x in [$c, ${best_c:-1e9}]))")
  best_m=$(python3 -c "print(min(x for x in [$m, ${best_m:-1e9}]))")
  best_l=$(python3 -c "print(min(x for x in [$l, ${best_l:-1e9}]))")
done
python3 - "$work/out" "$best_c" "$best_m" "$best_l" <<'PY'
import csv, glob, sys
out, c, m, l = sys.argv[1], *map(float, sys.argv[2:])
def nodes(name):
    return sum(int(r["nodes_generated"]) for r in csv.DictReader(open(f"{out}/{name}/runs.csv")))
mn, ln = nodes("m1"), nodes("l1")
assert mn == 436646476, f"the Manhattan tree changed: {mn} nodes"
print(f"manhattan, step 2: {mn:,} nodes; md15 {c:.3f} s, idabench {m:.3f} s: idabench at {c / m:.2f}x md15's speed")
print(f"linear conflict, step 2: {ln:,} nodes in {l:.3f} s: {ln / l / 1e6:.1f} M nodes/s, {(ln / l) / (mn / c):.2f}x md15's Manhattan node rate")
PY
