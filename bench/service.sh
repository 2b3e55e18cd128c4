#!/usr/bin/env bash
# bench/service.sh: the service (descriptorpin watch) measured with the real
# binary, behind docs/benchmarks-service.md. Linux only (/proc, inotify).
#
# Builds descriptorpin (as make package does), bench/gen and bench/service
# into a temp dir, generates a 1,000-tool inventory (20 servers x 50
# tools) and a copy with one changed description, and runs bench/service,
# which
#
#   1. renames the changed and the clean inventory over a watched, pinned
#      target, alternately, CHANGES times, and reports rename -> event line
#      (and rename -> the event's @timestamp): min, p50, p90, p99, max, with
#      and without the debounce (150ms);
#   2. measures a daemon watching 50 small inventories (10 directories x 5)
#      for IDLE_WINDOW: CPU time, RSS, peak RSS, context switches summed over
#      its threads; beside it the same daemon under GODEBUG=gctrace=1 (to
#      count GCs) and an idle Go process (the runtime's own floor).
#
# The idle window runs while the latency run goes on (another daemon, other
# directories), so the whole thing takes as long as the longer of the two:
# about 75 s plus the build on a 2-CPU machine (each change costs about
# 0.3 s of wall time at 1,000 tools). SEQUENTIAL=1 runs them one after the
# other (a minute more).
#
# Settings (environment):
#   CHANGES=200           renames in the latency run
#   IDLE_WINDOW=60s       idle measurement window
#   TAIL=inotify          how the event log is followed: inotify | poll (1ms)
#   SEQUENTIAL=           1: idle window after the latency run, not during it
#   IDLE_GODEBUG=         GODEBUG for the measured idle daemon
#
# Prints markdown on stdout, progress on stderr. Figures are reported, never
# asserted. Every process it starts is stopped and the temp dir removed on
# exit, including on Ctrl-C or SIGTERM.
set -euo pipefail

CHANGES=${CHANGES:-200}
IDLE_WINDOW=${IDLE_WINDOW:-60s}
TAIL=${TAIL:-inotify}
SEQUENTIAL=${SEQUENTIAL:-}
IDLE_GODEBUG=${IDLE_GODEBUG:-}

cd "$(dirname "$0")/.."
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dpservice.XXXXXX")
harness=""
cleanup() {
	trap - EXIT INT TERM
	if [[ -n "$harness" ]] && kill -0 "$harness" 2>/dev/null; then
		kill -TERM "$harness" 2>/dev/null || true # it stops its daemons (SIGTERM, then SIGKILL)
		for _ in $(seq 1 100); do
			kill -0 "$harness" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$harness" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

say() { printf '%s\n' "$*" >&2; }

if [[ "$(uname -s)" != Linux ]]; then
	say "service.sh: Linux only (it reads /proc and uses inotify)"
	exit 2
fi

say "building into $tmp"
# descriptorpin is built as make package builds what ships (static, no
# cgo: no libc mapped into the process, about 1.5 MiB of RSS).
CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$tmp/descriptorpin" ./cmd/descriptorpin
go build -o "$tmp/gen" ./bench/gen
go build -o "$tmp/service" ./bench/service

say "generating 20x50 tools"
"$tmp/gen" -servers 20 -tools 50 -o "$tmp/inventory.json"
"$tmp/gen" -servers 20 -tools 50 -mutate 1 -o "$tmp/inventory-mutated.json"

cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || true)
echo "## descriptorpin watch: change-to-event latency and idle cost"
echo
echo "- machine: $(nproc) CPUs, ${cpu:-unknown CPU}, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo) RAM, Linux $(uname -r)"
echo "- $(go version)"
echo "- tree: $(git describe --always --dirty 2>/dev/null || echo unknown)"
echo "- load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
if awk -v n="$(nproc)" '{exit !($1 > n / 2)}' /proc/loadavg; then
	say "warning: the machine is busy (load $(cut -d' ' -f1 /proc/loadavg) on $(nproc) CPUs); latencies will include waiting for a CPU"
	echo "- **warning: the machine was busy when the run started; the latencies include waiting for a CPU**"
fi
echo

args=(-bin "$tmp/descriptorpin" -inv "$tmp/inventory.json" -mutated "$tmp/inventory-mutated.json"
	-work "$tmp/work" -changes "$CHANGES" -idle-window "$IDLE_WINDOW" -tail "$TAIL")
[[ -n "$SEQUENTIAL" ]] && args+=(-sequential)
[[ -n "$IDLE_GODEBUG" ]] && args+=(-godebug "$IDLE_GODEBUG")
mkdir -p "$tmp/work"

# In the background so that the traps run at once on a signal.
start=$(date +%s)
"$tmp/service" "${args[@]}" &
harness=$!
rc=0
wait "$harness" || rc=$?
harness=""
echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg). Whole run: $(($(date +%s) - start)) s (plus the build)."
exit "$rc"
