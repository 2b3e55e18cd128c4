#!/usr/bin/env bash
# bench/run.sh: `make bench`. One run measures the current tree end to end
# and prints one markdown report; with --write it also replaces the
# generated block of docs/benchmarks.md (and of docs/benchmarks-service.md)
# with it, so those figures are regenerated, never hand-edited.
#
#   bash bench/run.sh            # print the report (stdout); progress on stderr
#   bash bench/run.sh --write    # print it and write it into the docs (make bench)
#
# What one run does, in about two and a half minutes on 2 cores:
#
#  1. builds descriptorpin, bench/floor, bench/gen and bench/service from
#     the tree into a temp dir;
#  2. generates the inventories (bench/gen, deterministic): 20,000 tools
#     (400 servers x 50, about 14 MB compact), the same with 40 changed
#     descriptions, 40,000 tools (800 x 50), and 1,000 tools (20 x 50) with
#     a one-description change for the service;
#  3. makes the pins of the scans, untimed: pin, then the stdio transports
#     accepted (approve --accept, as a maintained pin does), so that a
#     default-rules scan of the clean inventory exits 0;
#  4. times every command of the table RUNS times (5), in RUNS rounds of
#     every row in table order, so that both sizes and every command meet
#     the machine alike (the growth ratios compare runs of the same
#     rounds): the floor (bench/floor: read, encoding/json into any,
#     SHA-256), pin (into a file of its own), scan with the default and
#     the reference rules, scan of the changed copy, and floor, pin and
#     both scans again at 40,000 tools; best and median wall time, best
#     CPU time (user + system) and the largest peak RSS of the runs (GNU
#     time, /usr/bin/time; installed with apt-get when missing and
#     running as root), with the 1-minute load average at each row's
#     first run;
#  5. meanwhile (started before 4) measures an idle service: bench/service
#     -skip-latency, a daemon watching 50 small files for IDLE_WINDOW (30 s):
#     its RSS, CPU (schedstat) and wake-ups (voluntary + involuntary
#     context switches over all its threads), next to an idle Go process.
#     An idle process's counters are its own, so the timings of 4 running
#     beside it does not change them; the CPU it takes is nil;
#  6. then, with nothing else of its own running, the change latency:
#     bench/service -skip-idle, CHANGES (50) one-tool changes of a watched
#     1,000-tool file, rename -> event line, debounce (100ms) subtracted;
#  7. the engine's go test benchmarks (detection alone and the pipeline):
#     go test -run '^$' -bench . -benchmem ./engine/detect/ ./engine/scan/.
#
# Settings (environment): RUNS=5, CHANGES=50, DEBOUNCE=100ms,
# IDLE_WINDOW=30s, GOBENCHTIME=500ms (go test -benchtime; GOBENCH=0 skips
# them), BENCH_TIMEOUT=120 (seconds one run may take), SERVERS=400
# TOOLS=50 (the 20,000-tool shape; the growth run doubles SERVERS),
# MUTATE=40, SEQUENTIAL=1 (the idle window after the timings instead of
# beside them; 30 s longer).
#
# Figures are reported against the targets of issue 16, never asserted:
# the script fails only when a command fails or exits with an unexpected
# status. Every process it starts is stopped, and its temp dir removed, on
# exit, Ctrl-C included.
set -euo pipefail

WRITE=""
case ${1:-} in
--write) WRITE=1 ;;
"") ;;
*)
	echo "usage: bash bench/run.sh [--write]" >&2
	exit 2
	;;
esac

RUNS=${RUNS:-5}
CHANGES=${CHANGES:-50}
DEBOUNCE=${DEBOUNCE:-100ms}
IDLE_WINDOW=${IDLE_WINDOW:-30s}
GOBENCH=${GOBENCH:-1}
GOBENCHTIME=${GOBENCHTIME:-500ms}
TIMEOUT=${BENCH_TIMEOUT:-120}
SERVERS=${SERVERS:-400}
TOOLS=${TOOLS:-50}
MUTATE=${MUTATE:-40}
SEQUENTIAL=${SEQUENTIAL:-}

cd "$(dirname "$0")/.."
root=$(pwd)
t_start=$(date +%s)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dpbench.XXXXXX")
idle_pid=""
cleanup() {
	trap - EXIT INT TERM
	if [[ -n "$idle_pid" ]] && kill -0 "$idle_pid" 2>/dev/null; then
		kill -TERM "$idle_pid" 2>/dev/null || true # it stops its own daemons
		for _ in $(seq 1 50); do
			kill -0 "$idle_pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$idle_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

say() { printf 'bench: %s\n' "$*" >&2; }
load1() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo n/a; }
load3() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a; }

# GNU time gives CPU time and peak RSS for each run.
gnutime=""
if ! { [[ -x /usr/bin/time ]] && /usr/bin/time -f %M true >/dev/null 2>&1; }; then
	if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
		say "installing GNU time (Debian package time)"
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time; } >&2 || true
	fi
fi
if [[ -x /usr/bin/time ]] && /usr/bin/time -f %M true >/dev/null 2>&1; then
	gnutime=/usr/bin/time
else
	say "no GNU time: CPU time from bash, peak RSS not measured"
fi

load_start=$(load3)
commit=$(git describe --always --dirty 2>/dev/null || echo unknown)
branch=$(git rev-parse --abbrev-ref HEAD 2>/dev/null || echo unknown)
cpu_model=$(grep -m1 '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || true)
mem=$(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo 2>/dev/null || echo "? GiB")

say "building into $tmp (tree $commit)"
t0=$(date +%s%N)
CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$tmp/descriptorpin" ./cmd/descriptorpin # as make package builds it
go build -o "$tmp/floor" ./bench/floor
go build -o "$tmp/gen" ./bench/gen
go build -o "$tmp/service" ./bench/service
build_s=$(awk -v n=$(($(date +%s%N) - t0)) 'BEGIN {printf "%.1f", n / 1e9}')
dp="$tmp/descriptorpin"
export SOURCE_DATE_EPOCH=1767225600 # reproducible pins

S2=$((SERVERS * 2))
N1=$((SERVERS * TOOLS))
N2=$((S2 * TOOLS))
t_gen0=$(date +%s)
say "generating ${SERVERS}x${TOOLS}, ${S2}x${TOOLS} and 20x50 tools"
"$tmp/gen" -servers "$SERVERS" -tools "$TOOLS" -o "$tmp/inv1.json"
"$tmp/gen" -servers "$SERVERS" -tools "$TOOLS" -mutate "$MUTATE" -o "$tmp/inv1-mutated.json"
"$tmp/gen" -servers "$S2" -tools "$TOOLS" -o "$tmp/inv2.json"
"$tmp/gen" -servers 20 -tools 50 -o "$tmp/svc.json"
"$tmp/gen" -servers 20 -tools 50 -mutate 1 -o "$tmp/svc-mutated.json"
mb() { awk -v b="$(wc -c <"$1")" 'BEGIN {printf "%.1f", b / 1e6}'; }

# accept_stdio INV PIN: accept the stdio transports of INV in PIN (the
# pin the timed `pin` runs wrote), as a maintained pin does.
accept_stdio() {
	local inv=$1 pin=$2 ids args=()
	set +e
	"$dp" scan "$inv" -p "$pin" --show-ids >"$tmp/ids" 2>&1
	set -e
	mapfile -t ids < <(grep -E '^(\[[a-z]+\] )?TRANSPORT ' "$tmp/ids" | grep -Eo '\[id [0-9a-f]+\]' | grep -Eo '[0-9a-f]{16}' || true)
	for id in "${ids[@]}"; do args+=(--accept "$id"); done
	if ((${#args[@]} > 0)); then
		"$dp" approve "$inv" -p "$pin" "${args[@]}" --approved-by bench@example.com --note "stdio launches reviewed" >/dev/null
	fi
}
t_gen=$(date +%s)

# The idle window beside the timings (or, with SEQUENTIAL=1, after them).
idle_run() {
	mkdir -p "$tmp/idle-work"
	"$tmp/service" -bin "$dp" -work "$tmp/idle-work" -skip-latency -idle-window "$IDLE_WINDOW" \
		-debounce "$DEBOUNCE" -summary "$tmp/idle.sum" >"$tmp/idle.md" 2>"$tmp/idle.err"
}
idle_load=""
if [[ -z "$SEQUENTIAL" ]]; then
	idle_load=$(load1)
	say "idle service: $IDLE_WINDOW window, in the background"
	idle_run &
	idle_pid=$!
	# Time nothing until its daemons are up and its window has started.
	for _ in $(seq 1 300); do
		grep -q 'window started' "$tmp/idle.err" 2>/dev/null && break
		kill -0 "$idle_pid" 2>/dev/null || break
		sleep 0.1
	done
fi

# one CMD...: one run under the timeout (and GNU time). Sets rc, wall_ms,
# cpu_s, rss_kb (empty without GNU time).
one() {
	local t0 t1 line pre=()
	rss_kb=""
	cpu_s=""
	rm -f "$tmp/time"
	if [[ -n "$gnutime" ]]; then pre=("$gnutime" -o "$tmp/time" -f '%U %S %M'); fi
	set +e
	t0=$(date +%s%N)
	if [[ -n "$gnutime" ]]; then
		"${pre[@]}" timeout -k 5 "$TIMEOUT" "$@" >"$tmp/out" 2>"$tmp/err"
		rc=$?
	else
		local TIMEFORMAT='%U %S'
		{ time timeout -k 5 "$TIMEOUT" "$@" >"$tmp/out" 2>"$tmp/err"; } 2>"$tmp/time"
		rc=$?
	fi
	t1=$(date +%s%N)
	set -e
	wall_ms=$(((t1 - t0) / 1000000))
	line=$(grep -E '^[0-9.]+ [0-9.]+( [0-9]+)?$' "$tmp/time" 2>/dev/null | tail -1 || true)
	if [[ -n "$line" ]]; then
		cpu_s=$(awk '{printf "%.2f", $1 + $2}' <<<"$line")
		if [[ -n "$gnutime" ]]; then rss_kb=$(awk '{print $3}' <<<"$line"); fi
	fi
	return 0
}

# Results by key: best and median wall ms, best CPU s, peak RSS MiB, load.
declare -A BEST MED CPU RSS LOAD RUNSOK NOTE WANT PEAK
failed=0

# The rows, in the order of the table. Each row's command is the array
# CMD_<key>; WANT[key] is its expected exit status.
ROWS=()
# row KEY WANT CMD...: declare a row.
row_def() {
	local key=$1
	WANT[$key]=$2
	shift 2
	declare -g -a "CMD_$key=()"
	local -n c="CMD_$key"
	c=("$@")
	ROWS+=("$key")
}

# run_row KEY: one run of the row's command; a failed or timed-out run
# stops the row (NOTE).
run_row() {
	local key=$1
	local -n c="CMD_$key"
	[[ -n "${NOTE[$key]:-}" ]] && return
	[[ -z "${LOAD[$key]:-}" ]] && LOAD[$key]=$(load1)
	one "${c[@]}"
	if [[ $rc -eq 124 || $rc -eq 137 ]]; then
		NOTE[$key]="timed out after ${TIMEOUT}s"
		failed=1
		return
	fi
	if [[ $rc -ne ${WANT[$key]} ]]; then
		NOTE[$key]="exit $rc, want ${WANT[$key]}: $(head -c 200 "$tmp/err" | tr '\n|' '  ')"
		say "  $key: ${NOTE[$key]}"
		failed=1
		return
	fi
	echo "$wall_ms" >>"$tmp/walls.$key"
	if [[ -n "$cpu_s" ]]; then echo "$cpu_s" >>"$tmp/cpus.$key"; fi
	if [[ -n "$rss_kb" ]] && ((rss_kb > ${PEAK[$key]:-0})); then PEAK[$key]=$rss_kb; fi
}

# summarize KEY: best and median wall time, best CPU, largest peak RSS.
summarize() {
	local key=$1
	[[ -n "${NOTE[$key]:-}" || ! -s "$tmp/walls.$key" ]] && return
	read -r BEST[$key] MED[$key] < <(sort -n "$tmp/walls.$key" | awk '{a[NR]=$1} END {
		m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2
		printf "%d %d\n", a[1], m }')
	CPU[$key]=$( [[ -s "$tmp/cpus.$key" ]] && sort -n "$tmp/cpus.$key" | head -1 || echo "")
	RSS[$key]=$( ((${PEAK[$key]:-0} > 0)) && awk -v k="${PEAK[$key]}" 'BEGIN {printf "%.0f", k / 1024}' || echo "")
	RUNSOK[$key]=$(wc -l <"$tmp/walls.$key")
}

t_timings=$(date +%s)
# The scans' pins are made once, untimed, with their stdio transports
# accepted (accept_stdio); the timed pin runs write a pin of their own.
pins_ok=1
for n in 1 2; do
	inv=$tmp/inv$n.json
	if ! "$dp" pin "$inv" -o "$tmp/pin$n.json" --force >/dev/null 2>"$tmp/err"; then
		pins_ok=""
		say "pin of $inv failed: $(head -c 200 "$tmp/err")"
		failed=1
		continue
	fi
	accept_stdio "$inv" "$tmp/pin$n.json"
done
row_def floor1 0 "$tmp/floor" "$tmp/inv1.json"
row_def pin1 0 "$dp" pin "$tmp/inv1.json" -o "$tmp/pin1-timed.json" --force
row_def scan1 0 "$dp" scan "$tmp/inv1.json" -p "$tmp/pin1.json"
row_def ref1 1 "$dp" scan "$tmp/inv1.json" -p "$tmp/pin1.json" --rules reference
row_def mut1 1 "$dp" scan "$tmp/inv1-mutated.json" -p "$tmp/pin1.json"
row_def floor2 0 "$tmp/floor" "$tmp/inv2.json"
row_def pin2 0 "$dp" pin "$tmp/inv2.json" -o "$tmp/pin2-timed.json" --force
row_def scan2 0 "$dp" scan "$tmp/inv2.json" -p "$tmp/pin2.json"
row_def ref2 1 "$dp" scan "$tmp/inv2.json" -p "$tmp/pin2.json" --rules reference
if [[ -z "$pins_ok" ]]; then
	for k in scan1 ref1 mut1 scan2 ref2; do NOTE[$k]="not run: no pin"; done
fi
# Rounds: every row once per round, in table order, so each size and
# each command meets the machine as the others do (the growth ratios
# compare runs of the same rounds, not rows timed a minute apart).
for ((round = 1; round <= RUNS; round++)); do
	say "timing: round $round of $RUNS"
	for k in "${ROWS[@]}"; do run_row "$k"; done
done
for k in "${ROWS[@]}"; do summarize "$k"; done
timings_s=$(($(date +%s) - t_timings))

if [[ -n "$idle_pid" ]]; then
	say "waiting for the idle window to end"
	set +e
	wait "$idle_pid"
	idle_rc=$?
	set -e
	idle_pid=""
else
	idle_load=$(load1)
	say "idle service: $IDLE_WINDOW window"
	set +e
	idle_run
	idle_rc=$?
	set -e
fi
if [[ $idle_rc -ne 0 ]]; then
	say "idle run failed (exit $idle_rc):"
	tail -5 "$tmp/idle.err" >&2
	failed=1
fi

t_lat=$(date +%s)
lat_load=$(load1)
say "service latency: $CHANGES one-tool changes of a 1,000-tool file, debounce $DEBOUNCE"
mkdir -p "$tmp/lat-work"
set +e
"$tmp/service" -bin "$dp" -inv "$tmp/svc.json" -mutated "$tmp/svc-mutated.json" -work "$tmp/lat-work" \
	-skip-idle -changes "$CHANGES" -debounce "$DEBOUNCE" -noop-wait 1s -summary "$tmp/lat.sum" >"$tmp/lat.md" 2>"$tmp/lat.err"
lat_rc=$?
set -e
lat_load_end=$(load1)
if [[ $lat_rc -ne 0 ]]; then
	say "latency run failed (exit $lat_rc):"
	tail -5 "$tmp/lat.err" >&2
	failed=1
fi

lat_s=$(($(date +%s) - t_lat))
t_gobench=$(date +%s)
gobench_load=""
if [[ "$GOBENCH" != 0 ]]; then
	gobench_load=$(load1)
	say "go test benchmarks (-benchtime $GOBENCHTIME)"
	set +e
	go test -run '^$' -bench . -benchmem -benchtime "$GOBENCHTIME" ./engine/detect/ ./engine/scan/ >"$tmp/gobench" 2>&1
	gb_rc=$?
	set -e
	if [[ $gb_rc -ne 0 ]]; then
		say "go test benchmarks failed:"
		tail -5 "$tmp/gobench" >&2
		failed=1
	fi
fi
gobench_s=$(($(date +%s) - t_gobench))
load_end=$(load3)
total_s=$(($(date +%s) - t_start))

# sum KEY FILE: the value of KEY in a summary file, or n/a.
sum() { awk -v k="$1" '$1 == k {print $2; f = 1} END {if (!f) print "n/a"}' "$2" 2>/dev/null || echo n/a; }
# ratio A B: A / B with one decimal and an x, or n/a.
ratio() { awk -v a="${1:-}" -v b="${2:-}" 'BEGIN {if (a == "" || b == "" || b + 0 == 0) print "n/a"; else printf "%.1fx\n", a / b}'; }
ratio2() { awk -v a="${1:-}" -v b="${2:-}" 'BEGIN {if (a == "" || b == "" || b + 0 == 0) print "n/a"; else printf "%.2fx\n", a / b}'; }
# verdict VALUE LIMIT: "met" when VALUE (with or without x) <= LIMIT.
verdict() { awk -v v="${1%x}" -v l="$2" 'BEGIN {if (v == "n/a" || v == "") print "not measured"; else print (v + 0 <= l + 0) ? "met" : "**not met**"}'; }

report() {
	local k label target
	echo "_Generated by \`make bench\` (\`bash bench/run.sh --write\`) on $(date -u +%Y-%m-%d) from tree \`$commit\` (branch $branch). Do not edit by hand: run it again._"
	echo
	echo "- Machine: $(nproc) CPUs, ${cpu_model:-unknown CPU}, $mem RAM, Linux $(uname -r), $(go version | awk '{print $3, $4}')."
	echo "- Load average (1, 5, 15 min) at the start: $load_start; at the end: $load_end. The machine is shared (other engineers' builds and tests), so the 1-minute load at the start of each row is beside it."
	echo "- Whole run: ${total_s} s: build ${build_s} s, generating $((t_gen - t_gen0)) s, timings ${timings_s} s (the idle window beside them), latency ${lat_s} s, go test benchmarks ${gobench_s} s."
	echo "- Inventories (bench/gen, compact JSON): $N1 tools ($SERVERS servers x $TOOLS) $(mb "$tmp/inv1.json") MB, its format-2 pin $(mb "$tmp/pin1.json") MB; $N2 tools $(mb "$tmp/inv2.json") MB, pin $(mb "$tmp/pin2.json") MB."
	echo "- Each command ran $RUNS times, in $RUNS rounds of every row in table order (so both sizes meet the machine alike): best and median wall time, the best CPU time (user + system) and the largest peak RSS of the runs ($([[ -n "$gnutime" ]] && echo "GNU time" || echo "bash time; no peak RSS")). x floor is against the floor's best at the same size; load is the 1-minute load average at the row's first run."
	echo
	echo "| command | tools | best ms | median ms | best x floor | CPU s | CPU x floor | peak RSS MiB | RSS x floor | target | load |"
	echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |"
	row() { # key label tools floorkey target-text limit
		local k=$1 f=$4 t=$5 lim=$6 bx cx rx v
		if [[ -n "${NOTE[$k]:-}" ]]; then
			echo "| $2 | $3 | ${NOTE[$k]} | | | | | | | $t | ${LOAD[$k]:-} |"
			return
		fi
		bx=$(ratio "${BEST[$k]:-}" "${BEST[$f]:-}")
		cx=$(ratio "${CPU[$k]:-}" "${CPU[$f]:-}")
		rx=$(ratio "${RSS[$k]:-}" "${RSS[$f]:-}")
		v=""
		if [[ -n "$lim" ]]; then
			v="$t: time $(verdict "$bx" "$lim"), RSS $(verdict "$rx" 2.5)"
		else
			v=$t
		fi
		if [[ $k == floor* ]]; then bx=1.0x cx=1.0x rx=1.0x; fi
		echo "| $2 | $3 | ${BEST[$k]:-} | ${MED[$k]:-} | $bx | ${CPU[$k]:-n/a} | $cx | ${RSS[$k]:-n/a} | $rx | $v | ${LOAD[$k]} |"
	}
	row floor1 "floor: read, encoding/json into any, SHA-256" "$N1" floor1 "" ""
	row pin1 "descriptorpin pin (format 2, --force)" "$N1" floor1 "≤ 2x, RSS ≤ 2.5x" 2
	row scan1 "descriptorpin scan, default rules (clean, exit 0)" "$N1" floor1 "≤ 2x, RSS ≤ 2.5x" 2
	row ref1 "descriptorpin scan --rules reference (exit 1)" "$N1" floor1 "≤ 2x, RSS ≤ 2.5x" 2
	row mut1 "descriptorpin scan, default rules, $MUTATE changed (exit 1)" "$N1" floor1 "" ""
	row floor2 "floor" "$N2" floor2 "" ""
	row pin2 "descriptorpin pin" "$N2" floor2 "" ""
	row scan2 "descriptorpin scan, default rules" "$N2" floor2 "" ""
	row ref2 "descriptorpin scan --rules reference" "$N2" floor2 "" ""
	echo
	echo "Growth: twice the tools ($N1 → $N2), best wall time and best CPU time (target: at most 2.2x)."
	echo
	echo "| command | wall $N2 / $N1 | CPU $N2 / $N1 | peak RSS $N2 / $N1 | target ≤ 2.2x |"
	echo "| --- | ---: | ---: | ---: | --- |"
	for k in floor pin scan ref; do
		local w c r
		w=$(ratio2 "${BEST[${k}2]:-}" "${BEST[${k}1]:-}")
		c=$(ratio2 "${CPU[${k}2]:-}" "${CPU[${k}1]:-}")
		r=$(ratio2 "${RSS[${k}2]:-}" "${RSS[${k}1]:-}")
		label=$k
		[[ $k == scan ]] && label="scan, default rules"
		[[ $k == ref ]] && label="scan --rules reference"
		echo "| $label | $w | $c | $r | wall $(verdict "$w" 2.2), CPU $(verdict "$c" 2.2) |"
	done
	echo
	local L=$tmp/lat.sum I=$tmp/idle.sum
	echo "The service (\`descriptorpin watch\`, bench/service; details in [benchmarks-service.md](benchmarks-service.md)):"
	echo
	echo "| measurement | figure | target | load |"
	echo "| --- | --- | --- | ---: |"
	echo "| one-tool change in a watched $(sum lat_tools "$L")-tool file ($(awk -v b="$(sum lat_bytes "$L")" 'BEGIN {printf "%.2f", b / 1e6}') MB) → event line written, debounce ($(sum lat_debounce_ms "$L") ms) subtracted, over $(sum lat_n "$L") changes | p50 $(sum lat_p50_ms "$L") ms, p90 $(sum lat_p90_ms "$L") ms, **p99 $(sum lat_p99_ms "$L") ms** (min $(sum lat_min_ms "$L"), max $(sum lat_max_ms "$L")) | p99 ≤ 10 ms: $(verdict "$(sum lat_p99_ms "$L")" 10) | $lat_load → $lat_load_end |"
	echo "| … of which the watcher's delivery (rename → the event's @timestamp, debounce subtracted, ms resolution) | p50 $(sum lat_stamp_p50_ms "$L") ms, p99 $(sum lat_stamp_p99_ms "$L") ms | | |"
	echo "| daemon CPU per change (schedstat, all threads) | $(sum lat_cpu_per_change_ms "$L") ms | | |"
	echo "| idle daemon, $(sum idle_targets "$I") watched files, $(sum idle_window_s "$I") s window: RSS | $(sum idle_rss_mb "$I") MiB (peak $(sum idle_hwm_mb "$I"); anon $(sum idle_anon_mb "$I") + file $(sum idle_file_mb "$I")) | ≤ 20 MB (19.1 MiB): $(verdict "$(sum idle_rss_mb "$I")" 19.07) | $idle_load |"
	echo "| idle daemon: CPU in the window | $(sum idle_cpu_ms "$I") ms | | |"
	echo "| idle daemon: wake-ups in the window (voluntary + involuntary context switches, $(sum idle_threads "$I") threads) | $(sum idle_wakeups "$I"); an idle Go process: $(sum base_wakeups "$I"); GCs $(sum idle_gcs "$I"), event lines $(sum idle_lines "$I"), state.json rewritten: $(sum idle_state_rewritten "$I"); its next wake-ups at the window's start: $(sum idle_next_wake "$I" | tr '_' ' ') | no wake-ups but its timers | |"
	if [[ -z "$SEQUENTIAL" ]]; then
		echo
		echo "The idle window ran beside the timings above (its counters are the daemon's own; \`SEQUENTIAL=1\` runs it alone), the latency run alone after them."
	fi
	if [[ "$GOBENCH" != 0 && -s "$tmp/gobench" ]]; then
		echo
		echo "Engine benchmarks: \`go test -run '^\$' -bench . -benchmem -benchtime $GOBENCHTIME ./engine/detect/ ./engine/scan/\` (load $gobench_load at the start; one run, so read ±20%). Inventories from bench/invgen at 1,000 tools (20 x 50, $(mb "$tmp/svc.json") MB) unless the name says otherwise."
		echo
		echo "| benchmark | ms/op | MB/s | B/op | allocs/op |"
		echo "| --- | ---: | ---: | ---: | ---: |"
		awk '/^Benchmark/ {
			name = $1; sub(/^Benchmark/, "", name); sub(/-[0-9]+$/, "", name)
			ns = ""; mbs = ""; bop = ""; al = ""
			for (i = 3; i < NF; i++) {
				if ($(i+1) == "ns/op") ns = $i
				if ($(i+1) == "MB/s") mbs = $i
				if ($(i+1) == "B/op") bop = $i
				if ($(i+1) == "allocs/op") al = $i
			}
			printf "| %s | %.3f | %s | %s | %s |\n", name, ns / 1e6, mbs, bop, al
		}' "$tmp/gobench"
		if grep -q 'engine/detect.*no test files\|^ok.*engine/detect' "$tmp/gobench" && ! grep -q '^pkg: .*engine/detect' "$tmp/gobench"; then
			echo
			echo "(./engine/detect/ has no benchmarks of its own; detection alone is \`DetectPoison\` above.)"
		fi
	fi
}

report >"$tmp/report.md"
cat "$tmp/report.md"

# The service's detailed tables, for docs/benchmarks-service.md.
{
	echo "_Generated by \`make bench\` on $(date -u +%Y-%m-%d) from tree \`$commit\`, beside the figures in [benchmarks.md](benchmarks.md). Machine: $(nproc) CPUs, ${cpu_model:-unknown CPU}; load average $load_start at the start of the whole run, $load_end at its end (1-minute load $lat_load → $lat_load_end over the latency run)._"
	echo
	sed 's/^### /#### /' "$tmp/lat.md" 2>/dev/null || true
	sed 's/^### /#### /' "$tmp/idle.md" 2>/dev/null || true
} >"$tmp/service.md"

# replace DOC FILE: put FILE between the markers of DOC.
replace() {
	local doc=$1 block=$2 begin='<!-- make bench: begin' end='<!-- make bench: end'
	if ! grep -q "^$begin" "$doc" || ! grep -q "^$end" "$doc"; then
		say "$doc has no generated block (lines starting '$begin' and '$end'); not written"
		failed=1
		return
	fi
	awk -v b="$begin" -v e="$end" -v f="$block" '
		index($0, b) == 1 { print; while ((getline l < f) > 0) print l; skip = 1; next }
		index($0, e) == 1 { skip = 0 }
		!skip { print }' "$doc" >"$tmp/doc" && cat "$tmp/doc" >"$doc"
	say "wrote $doc"
}
if [[ -n "$WRITE" ]]; then
	replace "$root/docs/benchmarks.md" "$tmp/report.md"
	replace "$root/docs/benchmarks-service.md" "$tmp/service.md"
fi
say "done in ${total_s} s"
exit "$failed"
