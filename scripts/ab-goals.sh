#!/usr/bin/env bash
# Repeats the measurement behind "How sensitive ab is" (docs/compare-and-ab.md): identical
# builds, and builds made 1%, 3%, 10% or 30% slower per expansion (the inject-slowdown
# feature), judged by `ab` (paired, --jobs 2) and by `run` + `run` + `compare` (unpaired, each
# run --jobs 2), on Korf's 13 instances of datasets/korf13.csv with Manhattan and linear
# conflict. Prints one line per repetition and a tally per case.
#
#   scripts/ab-goals.sh [REPS] [ROUNDS] [CASES]
#
# REPS (default 5) repetitions of each case; ROUNDS (default 40) rounds of each `ab`; CASES
# (default "same slow10 slow3 unpaired-same unpaired-slow10 unpaired-slow3") which cases to run,
# from same, slow1, slow3, slow10, slow30, each also as unpaired-CASE. Thresholds: 1.02 for
# same and slow3, 1.05 for slow10 and slow30, 1.00 for slow1.
# The build goes to target/ab-goals (or $CARGO_TARGET_DIR), unless IDABENCH_BIN names one made
# with --features inject-slowdown; reports go to a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."

reps=${1:-5}
rounds=${2:-40}
cases=${3:-"same slow10 slow3 unpaired-same unpaired-slow10 unpaired-slow3"}
target=${CARGO_TARGET_DIR:-target/ab-goals}
dataset=datasets/korf13.csv
variants=(--heuristic manhattan,linear-conflict)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ -n ${IDABENCH_BIN:-} ]]; then
  cp "$IDABENCH_BIN" "$work/idabench"
else
  cargo build --release --quiet --features inject-slowdown --target-dir "$target"
  cp "$target/release/idabench" "$work/idabench"
fi
# A build slowed by P percent per expansion: the same binary with IDABENCH_SLOWDOWN=P.
for p in 0 1 3 10 30; do
  printf '#!/bin/sh\nIDABENCH_SLOWDOWN=%s exec %s "$@"\n' "$p" "$work/idabench" > "$work/slow$p"
  chmod +x "$work/slow$p"
done

# The overall row of a compare/ab CSV: ratio, interval and verdict.
overall() { awk -F, '$12 == "overall" { printf "%s [%s, %s] %s", $8, $9, $10, $11 }'; }

# case -> (slowdown percent of the current build, threshold)
setting() {
  case "$1" in
    *same) echo "0 1.02" ;;
    *slow10) echo "10 1.05" ;;
    *slow30) echo "30 1.05" ;;
    *slow3) echo "3 1.02" ;;
    *slow1) echo "1 1.00" ;;
  esac
}

for c in $cases; do
  read -r slow threshold < <(setting "$c")
  declare -A tally=()
  for rep in $(seq 1 "$reps"); do
    start=$(date +%s.%N)
    status=0
    if [[ $c == unpaired-* ]]; then
      # Two runs minutes apart are what `compare` judges; here they follow each other.
      "$work/slow0" run "$dataset" "${variants[@]}" --jobs 2 --quiet --out "$work" --name "a-$c-$rep" > /dev/null
      "$work/slow$slow" run "$dataset" "${variants[@]}" --jobs 2 --quiet --out "$work" --name "b-$c-$rep" > /dev/null
      line=$("$work/idabench" compare "$work/a-$c-$rep" "$work/b-$c-$rep" --time-threshold "$threshold" \
        --format csv 2> /dev/null | overall) || status=$?
    else
      line=$("$work/slow0" ab --baseline "$work/slow0" --current "$work/slow$slow" "$dataset" \
        "${variants[@]}" --rounds "$rounds" --jobs 2 --threshold "$threshold" --format csv --quiet \
        --out "$work" --name "ab-$c-$rep" | overall) || status=$?
    fi
    seconds=$(echo "$(date +%s.%N) - $start" | bc)
    verdict=${line##* }
    verdict=${verdict:-error}
    tally[$verdict]=$(( ${tally[$verdict]:-0} + 1 ))
    printf '%-16s rep %2d: %s (%.0f s)\n' "$c" "$rep" "$line" "$seconds"
  done
  printf '%-16s threshold %s, %s reps:' "$c" "$threshold" "$reps"
  for v in "${!tally[@]}"; do printf ' %s %s' "$v" "${tally[$v]}"; done
  echo
  unset tally
done
