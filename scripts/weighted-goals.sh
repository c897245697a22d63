#!/usr/bin/env bash
# Repeats the measurement behind docs/weighted-tiles.md: every threshold policy with Manhattan on
# datasets/heavy15.csv (heavy and unit costs) and datasets/inverse15.csv (inverse-heavy and unit
# costs; steps 1 and 2 left out there, see the page), then, per dataset and cost model, the
# geometric mean of nodes generated per policy and bts's nodes over next's, on every instance
# and on those where next needs more than 100 iterations.
#
#   scripts/weighted-goals.sh [OUT]
#
# Reports go to OUT (default: a temporary directory), runs named heavy15 and inverse15; with
# IDABENCH_BIN the binary is that one, else it is built (cargo build --release). About 15
# minutes of CPU on two cores, most of it next and eda under inverse-heavy and heavy costs.
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-$(mktemp -d)}
bin=${IDABENCH_BIN:-target/release/idabench}
[ -n "${IDABENCH_BIN:-}" ] || cargo build --release --quiet

"$bin" run datasets/heavy15.csv --heuristic manhattan --step 1,2,next,cr,eda,bts \
  --cost heavy,unit --out "$out" --name heavy15 --quiet > /dev/null
"$bin" run datasets/inverse15.csv --heuristic manhattan --step next,cr,eda,bts \
  --cost inverse-heavy,unit --out "$out" --name inverse15 --quiet > /dev/null

python3 - "$out/heavy15/runs.csv" "$out/inverse15/runs.csv" <<'EOF'
import csv, math, sys
from collections import defaultdict

def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))

for path in sys.argv[1:]:
    rows = list(csv.DictReader(open(path)))
    assert all(r["status"] == "solved" for r in rows), f"{path}: not every job solved"
    for model in dict.fromkeys(r["cost_model"] for r in rows):
        jobs = defaultdict(dict)
        for r in rows:
            if r["cost_model"] == model:
                jobs[r["instance"]][r["step"]] = r
        steps = list(dict.fromkeys(r["step"] for r in rows if r["cost_model"] == model))
        nodes = lambda i, s: int(jobs[i][s]["nodes_generated"])
        iterations = [int(j["next"]["iterations"]) for j in jobs.values()]
        print(f"{rows[0]['dataset']} {model}: {len(jobs)} instances, next's iterations "
              f"at most {max(iterations)}")
        hard = [i for i in jobs if int(jobs[i]["next"]["iterations"]) > 100]
        for name, ids in (("every instance", list(jobs)), ("next > 100 iterations", hard)):
            if not ids:
                print(f"  {name}: none")
                continue
            means = "  ".join(f"{s} {geomean([nodes(i, s) for i in ids]):.0f}" for s in steps)
            ratios = sorted((nodes(i, "bts") / nodes(i, "next"), i) for i in ids)
            total = sum(nodes(i, "bts") for i in ids) / sum(nodes(i, "next") for i in ids)
            within = sum(r <= 0.1 for r, _ in ratios)
            print(f"  {name} ({len(ids)}): geometric mean nodes: {means}")
            print(f"    bts/next: total {total:.4f}, geometric mean "
                  f"{geomean([r for r, _ in ratios]):.4f}, worst {ratios[-1][0]:.4f} "
                  f"(instance {ratios[-1][1]}), best {ratios[0][0]:.4f}, "
                  f"at most 1/10 on {within}")
EOF
