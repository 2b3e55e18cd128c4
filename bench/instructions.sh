#!/usr/bin/env bash
# Instructions per 1,000 bench tools for detection alone, by rule set:
# BenchmarkPoison (engine/detect/bench_test.go) run under valgrind's
# cachegrind once with 1 iteration and once with 21, GOGC=off, and the
# difference divided by 20: setup and the first iteration cancel out.
# Instruction counts do not move with the machine's load (to about
# 0.2 %), so they compare trees where wall time on a shared VM cannot.
# Usage: bench/instructions.sh   (needs valgrind: apt-get install valgrind)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/detect.test" ./engine/detect
refs() { # rules iterations
  GOGC=off valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    "$tmp/detect.test" -test.run='^$' -test.bench="^BenchmarkPoison/rules=$1\$" \
    -test.benchtime="$2x" -test.cpu=1 2>&1 >/dev/null | awk '/I *refs:/ {gsub(",", "", $NF); print $NF}'
}
for rules in default reference; do
  one=$(refs "$rules" 1)
  many=$(refs "$rules" 21)
  awk -v r="$rules" -v a="$one" -v b="$many" 'BEGIN { printf "%-9s %.1f M instructions per 1,000 tools\n", r, (b - a) / 20 / 1e6 }'
done
