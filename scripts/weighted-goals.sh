#!/usr/bin/env bash
# Repeats the measurement behind docs/weighted-tiles.md: every threshold policy with Manhattan on
# datasets/heavy15.csv (heavy and unit costs) and datasets/inverse15.csv (inverse-heavy and unit
# costs; steps 1 and 2 left out there, see the page), then, per dataset and cost model, the
# geometric mean of nodes generated per policy and bts's nodes over next's, on every instance
# and on those where next needs more than 100 iterations, and from iterations.csv why bts's
# share is what it is.
#
#   scripts/weighted-goals.sh [OUT]
#
# Reports go to OUT (default: a temporary directory), runs named heavy15 and inverse15; with
# IDABENCH_BIN the binary is that one, else it is built (cargo build --release). About 15
# minutes of CPU on two cores, most of it next and eda under inverse-heavy and heavy costs. With
# REUSE=1 the runs already in OUT are read again instead.
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-$(mktemp -d)}
bin=${IDABENCH_BIN:-target/release/idabench}
[ -n "${IDABENCH_BIN:-}" ] || [ "${REUSE:-}" = 1 ] || cargo build --release --quiet

if [ "${REUSE:-}" != 1 ]; then
  "$bin" run datasets/heavy15.csv --heuristic manhattan --step 1,2,next,cr,eda,bts \
    --cost heavy,unit --out "$out" --name heavy15 --quiet > /dev/null
  "$bin" run datasets/inverse15.csv --heuristic manhattan --step next,cr,eda,bts \
    --cost inverse-heavy,unit --out "$out" --name inverse15 --quiet > /dev/null
fi

python3 - "$out/heavy15" "$out/inverse15" <<'EOF'
import csv, math, sys
from collections import defaultdict

def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))

for run in sys.argv[1:]:
    rows = list(csv.DictReader(open(f"{run}/runs.csv")))
    assert all(r["status"] == "solved" for r in rows), f"{run}: not every job solved"
    iterations = defaultdict(list)
    for r in csv.DictReader(open(f"{run}/iterations.csv")):
        iterations[(r["instance"], r["variant"])].append(r)
    for model in dict.fromkeys(r["cost_model"] for r in rows):
        jobs = defaultdict(dict)
        for r in rows:
            if r["cost_model"] == model:
                jobs[r["instance"]][r["step"]] = r
        steps = list(dict.fromkeys(r["step"] for r in rows if r["cost_model"] == model))
        nodes = lambda i, s: int(jobs[i][s]["nodes_generated"])
        its = lambda i, s: iterations[(i, jobs[i][s]["variant"])]

        def floor(i):
            """The share of next's nodes in its last complete iteration: every policy here that
            proves a cost optimal searches an iteration at least that large, so this is a floor
            under its share of next's nodes. None when next's first iteration solved."""
            counts = [int(x["nodes_generated"]) for x in its(i, "next")]
            return counts[-2] / sum(counts) if len(counts) > 1 else None

        most = max(int(j["next"]["iterations"]) for j in jobs.values())
        print(f"{rows[0]['dataset']} {model}: {len(jobs)} instances, next's iterations "
              f"at most {most}")
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
            for name, side in (("at most 1/10", [i for r, i in ratios if r <= 0.1]),
                               ("above 1/10", [i for r, i in ratios if r > 0.1])):
                if side:
                    n = [int(jobs[i]["next"]["iterations"]) for i in side]
                    f = [x for x in map(floor, side) if x is not None] or [math.nan]
                    print(f"      {name}: next needs {min(n)} to {max(n)} iterations, "
                          f"floor {min(f):.4f} to {max(f):.4f}")
        # From iterations.csv, on the instances where next needs more than 100 iterations (on
        # every one when there are none): how fast next's iterations grow, the floor, and what
        # bts spends its nodes on.
        ids = hard or list(jobs)
        growth = []
        floors = [x for x in map(floor, ids) if x is not None]
        spent, many = defaultdict(list), defaultdict(list)
        for i in ids:
            counts = [int(x["nodes_generated"]) for x in its(i, "next")]
            growth += [b / a for a, b in zip(counts[:-2], counts[1:-1]) if a > 1000]
            # next's last bound is the cheapest cost, in the bounds' units: a bts iteration
            # at that bound or above, not given up, found a solution.
            cheapest = int(its(i, "next")[-1]["bound"])
            kinds = ("unbudgeted", "completed probes", "given-up probes", "first solution",
                     "after it")
            share, count = dict.fromkeys(kinds, 0), dict.fromkeys(kinds, 0)
            for x in its(i, "bts"):
                n, budget = int(x["nodes_generated"]), x["budget"]
                if count["first solution"]:
                    kind = "after it"
                elif budget and n >= int(budget):
                    kind = "given-up probes"
                elif int(x["bound"]) >= cheapest:
                    kind = "first solution"
                else:
                    kind = "completed probes" if budget else "unbudgeted"
                share[kind] += n
                count[kind] += 1
            for kind in kinds:
                spent[kind].append(share[kind] / nodes(i, "bts"))
                many[kind].append(count[kind])
        print(f"  {'next > 100 iterations' if hard else 'every instance'}, from iterations.csv:")
        if growth:
            print(f"    next's growth over iterations of more than 1,000 nodes: geometric mean "
                  f"{geomean(growth):.3f}")
        print(f"    floor (next's last complete iteration over its total): geometric mean "
              f"{geomean(floors):.4f}, least {min(floors):.4f}, most {max(floors):.4f}")
        print("    bts's iterations, mean share of its nodes (mean count): " + ", ".join(
            f"{kind} {sum(v) / len(v):.3f} ({sum(many[kind]) / len(ids):.1f})"
            for kind, v in spent.items()))
EOF
