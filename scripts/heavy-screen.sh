#!/usr/bin/env bash
# Looks for heavy 15-puzzles on which next with Manhattan needs more than 100 iterations at a
# cost a dataset could bear (docs/weighted-tiles.md): 1,050 candidates (150 random walks each of
# 40, 50, 70, 80, 120 and 160 moves, and 150 uniform random states), searched by next with
# Manhattan under heavy costs up to 20 million nodes each; then, for the 40 that reached the
# most iterations without a solution, the cheapest cost by next with pdb-663 (up to 300 million
# nodes), which bounds the iterations next with Manhattan needs: f keeps the parity of the
# start's estimate under heavy moves, so next needs at most (cost - estimate) / 2 + 1.
#
#   scripts/heavy-screen.sh [OUT]
#
# Candidates and reports go to OUT (default: a temporary directory); with IDABENCH_BIN the
# binary is that one, else it is built (cargo build --release). About 4 minutes of CPU.
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-$(mktemp -d)}
bin=${IDABENCH_BIN:-target/release/idabench}
[ -n "${IDABENCH_BIN:-}" ] || cargo build --release --quiet

pool=()
for walk in 40 50 70 80 120 160; do
  "$bin" generate --size 4x4 --count 150 --seed "88$walk" --walk "$walk" --out "$out/p$walk.csv"
  pool+=("$out/p$walk.csv")
done
"$bin" generate --size 4x4 --count 150 --seed 8899 --out "$out/prand.csv"
pool+=("$out/prand.csv")

"$bin" run "${pool[@]}" --heuristic manhattan --step next --cost heavy --max-nodes 20000000 \
  --out "$out" --name screen --quiet > /dev/null

# The 40 unsolved candidates that reached the most iterations, as a dataset of their own.
python3 - "$out" "${pool[@]}" <<'EOF'
import csv, os, sys
out, files = sys.argv[1], sys.argv[2:]
rows = list(csv.DictReader(open(f"{out}/screen/runs.csv")))
stopped = sorted((r for r in rows if r["status"] == "node_limit"),
                 key=lambda r: -int(r["iterations"]))[:40]
starts = {}
for f in files:
    name = os.path.basename(f)[:-4]
    for r in csv.DictReader(open(f)):
        starts[(name, r["id"])] = r
with open(f"{out}/top40.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(next(iter(starts.values())).keys()))
    w.writeheader()
    for r in stopped:
        row = dict(starts[(r["dataset"], r["instance"])])
        row["id"] = f"{r['dataset']}-{r['instance']}"
        w.writerow(row)
EOF

"$bin" run "$out/top40.csv" --heuristic pdb-663 --step next --cost heavy \
  --max-nodes 300000000 --out "$out" --name cheapest --quiet > /dev/null

python3 - "$out" <<'EOF'
import csv, math, sys
from collections import Counter, defaultdict
out = sys.argv[1]
rows = list(csv.DictReader(open(f"{out}/screen/runs.csv")))
solved = [r for r in rows if r["status"] == "solved"]
print(f"{len(rows)} candidates: {dict(Counter(r['status'] for r in rows))}")
print(f"  most iterations of a solved one: {max(int(r['iterations']) for r in solved)}; "
      f"reached by any within 20 million nodes: {max(int(r['iterations']) for r in rows)}")
counts = defaultdict(list)
for r in csv.DictReader(open(f"{out}/screen/iterations.csv")):
    counts[(r["dataset"], r["instance"])].append(int(r["nodes_generated"]))
# Growth over the last ten complete iterations, where those hold 100,000 nodes or more.
growth = sorted((c[-2] / c[-12]) ** 0.1 for c in counts.values()
                if len(c) >= 13 and c[-12] >= 100_000)
print(f"  growth per iteration over the last ten complete ones ({len(growth)} candidates): "
      f"least {growth[0]:.3f}, median {growth[len(growth) // 2]:.3f}")
screen = {f"{r['dataset']}-{r['instance']}": r for r in rows}
bounds = []
for r in csv.DictReader(open(f"{out}/cheapest/runs.csv")):
    s = screen[r["instance"]]
    if r["status"] == "solved":
        most = (round(float(r["cost"])) - int(s["initial_h"])) // 2 + 1
        bounds.append((most, r["instance"], s["iterations"]))
bounds.sort(reverse=True)
print(f"  the 40 stopped with the most iterations: {len(bounds)} costs found; next with "
      f"Manhattan needs at most: " + ", ".join(f"{m} ({i}, {it} reached)" for m, i, it in bounds[:5])
      + f", ...; more than 100 at most on {sum(m > 100 for m, _, _ in bounds)}")
EOF
