#!/usr/bin/env bash
# bench/run.sh: the scripted comparison behind docs/benchmarks.md.
#
# Builds descriptorpin and the floor program (bench/floor: read the file,
# decode it with encoding/json into an any, SHA-256 it), generates a
# 20,000-tool inventory (400 servers x 50 tools) and a copy with changed
# descriptions, pins the clean one, and times:
#
#   floor                       the least work any JSON tool does
#   pin                         descriptorpin pin --force to a temp pin
#   scan, default rules         clean inventory; exit 0 expected
#   scan, reference rules       clean inventory; exit 1 expected (the
#                               reference rules flag ordinary prose)
#   scan, mutated               default rules; exit 1 expected
#
# and prints a markdown table with the median, the minimum, the CPU time
# and peak RSS of one run, and the ratio to the floor. Timings use hyperfine when it is installed,
# else a loop over `date +%s%N`; peak RSS needs GNU time (/usr/bin/time,
# Debian package "time"). Nothing is installed here.
#
# Every run has a timeout, and a command is repeated (up to RUNS times)
# only while its runs fit in BENCH_BUDGET seconds, so the script ends in
# about two minutes even when the tool is slow. Settings (environment):
#
#   SERVERS=400 TOOLS=50    inventory shape
#   MUTATE=40               changed descriptions in the mutated copy
#   RUNS=10                 most runs per command
#   BENCH_BUDGET=12         seconds of repeated runs per command
#   BENCH_TIMEOUT=60        seconds one run may take
#   BENCH_NO_HYPERFINE=1    use the shell loop even if hyperfine exists
#
# Timing is reported, never asserted: the script fails only when a
# command fails or exits with an unexpected status.
set -euo pipefail

SERVERS=${SERVERS:-400}
TOOLS=${TOOLS:-50}
MUTATE=${MUTATE:-40}
RUNS=${RUNS:-10}
BUDGET=${BENCH_BUDGET:-12}
TIMEOUT=${BENCH_TIMEOUT:-60}

cd "$(dirname "$0")/.."
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dpbench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

say() { printf '%s\n' "$*" >&2; }

hyperfine=""
if [[ -z "${BENCH_NO_HYPERFINE:-}" ]] && command -v hyperfine >/dev/null 2>&1; then
	hyperfine=$(command -v hyperfine)
fi
gnutime=""
if [[ -x /usr/bin/time ]] && /usr/bin/time -f %M true >/dev/null 2>&1; then
	gnutime=/usr/bin/time
fi
have_timeout=""
if command -v timeout >/dev/null 2>&1; then
	have_timeout=1
fi

load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a)
say "building into $tmp"
go build -o "$tmp/descriptorpin" ./cmd/descriptorpin
go build -o "$tmp/floor" ./bench/floor
go build -o "$tmp/gen" ./bench/gen
dp="$tmp/descriptorpin"
inv="$tmp/inventory.json"
mut="$tmp/inventory-mutated.json"
pin="$tmp/pin.json"
export SOURCE_DATE_EPOCH=1767225600 # reproducible pins

say "generating ${SERVERS}x${TOOLS} tools"
"$tmp/gen" -servers "$SERVERS" -tools "$TOOLS" -o "$inv"
"$tmp/gen" -servers "$SERVERS" -tools "$TOOLS" -mutate "$MUTATE" -o "$mut"

# run [-rss] CMD...: one run under the timeout, with -rss also under GNU
# time. Sets rc, ms, and rss_kb and cpu_s (user + system seconds), which
# are empty without -rss or GNU time. Output goes to $tmp/out and $tmp/err.
run() {
	local t0 t1 pre=()
	rss_kb=""
	cpu_s=""
	if [[ $1 == -rss ]]; then
		shift
		if [[ -n "$gnutime" ]]; then
			rm -f "$tmp/rss"
			pre+=("$gnutime" -o "$tmp/rss" -f '%M %U %S')
		fi
	fi
	if [[ -n "$have_timeout" ]]; then pre+=(timeout -k 5 "$TIMEOUT"); fi
	t0=$(date +%s%N)
	set +e
	"${pre[@]}" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	set -e
	t1=$(date +%s%N)
	ms=$(((t1 - t0) / 1000000))
	if [[ -f "$tmp/rss" && ${#pre[@]} -gt 0 && ${pre[0]} == "$gnutime" ]]; then
		local line
		line=$(grep -E '^[0-9]+ [0-9.]+ [0-9.]+$' "$tmp/rss" | tail -1 || true)
		if [[ -n "$line" ]]; then
			rss_kb=${line%% *}
			cpu_s=$(awk '{printf "%.2f", $2 + $3}' <<<"$line")
		fi
	fi
}

# median_min FILE: prints "median min" of the numbers in FILE (one a line).
median_min() {
	sort -n "$1" | awk '{a[NR]=$1} END {
		m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2
		printf "%.0f %.0f\n", m, a[1]
	}'
}

rows=()
floor_ms=""
floor_cpu=n/a
failed=0

# measure LABEL WANT_EXIT CMD...: a probe run (the warm-up, and the one
# under GNU time for the peak RSS), then up to RUNS timed runs that fit in
# the budget. Appends a table row.
measure() {
	local label=$1 want=$2
	shift 2
	say "timing: $label"
	timed_out=""
	run -rss "$@"
	if [[ $rc -eq 124 || $rc -eq 137 ]]; then
		timed_out=1
		rows+=("| $label | 1 | > $((TIMEOUT * 1000)) (timed out) | | | | | | |")
		say "  timed out after ${TIMEOUT}s"
		return
	fi
	if [[ $rc -ne $want ]]; then
		rows+=("| $label | | exit $rc, want $want | | | | | | |")
		say "  unexpected exit $rc (want $want):"
		sed 's/^/    /' "$tmp/err" | head -5 >&2
		failed=1
		return
	fi
	local probe=$ms peak=${rss_kb:-0} cpu=${cpu_s:-n/a} n
	n=$((probe > 0 ? BUDGET * 1000 / probe : RUNS))
	if ((n > RUNS)); then n=$RUNS; fi
	: >"$tmp/times"
	if ((n < 2)); then
		n=1
		echo "$probe" >"$tmp/times"
	elif [[ -n "$hyperfine" ]]; then
		local cmd
		printf -v cmd '%q ' "$@"
		"$hyperfine" --runs "$n" -N -i --style none --export-json "$tmp/hf.json" -- "$cmd" >/dev/null
		# hyperfine reports seconds; the JSON has one "times" list.
		tr -d '\n ' <"$tmp/hf.json" | grep -Eo '"times":\[[^]]*\]' | head -1 |
			sed 's/^"times":\[//; s/\]$//' | tr ',' '\n' | awk 'NF {printf "%.3f\n", $1 * 1000}' >"$tmp/times"
	else
		local i
		for ((i = 0; i < n; i++)); do
			run "$@"
			echo "$ms" >>"$tmp/times"
		done
	fi
	local med min rss ratio="" cratio="n/a"
	read -r med min < <(median_min "$tmp/times")
	rss=$([[ -n "$gnutime" ]] && awk -v k="$peak" 'BEGIN {printf "%.0f", k / 1024}' || echo "n/a")
	if [[ -z "$floor_ms" ]]; then
		floor_ms=$med
		floor_cpu=$cpu
	fi
	ratio=$(awk -v a="$med" -v b="$floor_ms" 'BEGIN {printf "%.1fx", a / b}')
	if [[ $cpu != n/a && $floor_cpu != n/a ]]; then
		cratio=$(awk -v a="$cpu" -v b="$floor_cpu" 'BEGIN {printf "%.1fx", (b > 0) ? a / b : 0}')
	fi
	rows+=("| $label | $n | $med | $min | $cpu | $rss | $want | $ratio | $cratio |")
}

# The floor first: every ratio is against its median.
measure "floor: read, encoding/json into any, SHA-256" 0 "$tmp/floor" "$inv"
measure "descriptorpin pin (format 2, --force)" 0 "$dp" pin "$inv" -o "$tmp/pin-timed.json" --force

# Pin once for the scans, and accept the stdio transports on purpose, as
# a maintained pin does, so that a scan of the clean inventory is clean.
# When the timed pin hit the timeout this one would too: skip it.
have_pin=""
if [[ -n "$timed_out" ]]; then
	rc=124
else
	say "pinning once for the scans"
	run "$dp" pin "$inv" -o "$pin" --approved-by bench@example.com --note "benchmark baseline"
fi
if [[ $rc -eq 0 ]]; then
	run "$dp" scan "$inv" -p "$pin" --show-ids
	if [[ $rc -eq 0 || $rc -eq 1 ]]; then
		mapfile -t ids < <(grep '^TRANSPORT ' "$tmp/out" | grep -Eo '\[id [0-9a-f]+\]' | grep -Eo '[0-9a-f]{16}')
		if ((${#ids[@]} > 0)); then
			args=()
			for id in "${ids[@]}"; do args+=(--accept "$id"); done
			run "$dp" approve "$inv" -p "$pin" "${args[@]}" --approved-by bench@example.com --note "stdio launches reviewed"
		fi
		[[ $rc -eq 0 ]] && have_pin=1
	fi
fi
if [[ -z "$have_pin" ]]; then
	why="setup exit $rc"
	if [[ $rc -eq 124 || $rc -eq 137 ]]; then why="setup timed out after ${TIMEOUT}s"; fi
	say "  setting up the pin failed: $why; scans not timed"
	sed 's/^/    /' "$tmp/err" | head -5 >&2
	for label in "scan, default rules, clean" "scan, reference rules, clean" "scan, default rules, $MUTATE changed"; do
		rows+=("| descriptorpin $label | | not run: no pin ($why) | | | | | | |")
	done
else
	measure "descriptorpin scan, default rules, clean" 0 "$dp" scan "$inv" -p "$pin"
	measure "descriptorpin scan, reference rules, clean" 1 "$dp" scan "$inv" -p "$pin" --rules reference
	measure "descriptorpin scan, default rules, $MUTATE changed" 1 "$dp" scan "$mut" -p "$pin"
fi

tools=$((SERVERS * TOOLS))
inv_mb=$(awk -v b="$(wc -c <"$inv")" 'BEGIN {printf "%.1f", b / 1e6}')
pin_mb=""
[[ -s "$pin" ]] && pin_mb=$(awk -v b="$(wc -c <"$pin")" 'BEGIN {printf "%.1f", b / 1e6}')
timer="shell loop (date +%s%N)"
[[ -n "$hyperfine" ]] && timer="hyperfine $("$hyperfine" --version | awk '{print $2}')"

echo
echo "- Inventory: $tools tools on $SERVERS servers, $inv_mb MB; pin: ${pin_mb:-n/a} MB (format 2)."
echo "- Timer: $timer; up to $RUNS runs per command within ${BUDGET}s, after one warm-up run; timeout ${TIMEOUT}s a run."
echo "- Load average (1, 5, 15 min) at the start: $load0; at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a)."
echo "- CPU s and peak RSS are from the warm-up run (GNU time: user + system, max RSS)."
echo
echo "| command | runs | median ms | min ms | CPU s | peak RSS MiB | exit | median x floor | CPU x floor |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
printf '%s\n' "${rows[@]}"
echo
for r in "${rows[@]}"; do
	case $r in
	"| descriptorpin scan, default rules, clean |"*)
		ratio=$(awk -F'|' '{gsub(/[ x]/, "", $9); print $9}' <<<"$r")
		if [[ -n "$ratio" ]]; then
			verdict=$(awk -v r="$ratio" 'BEGIN {print (r <= 3.0) ? "met" : "NOT met"}')
			echo "scan/floor ratio (default rules, clean, median wall time): ${ratio}x; target 3x: $verdict"
		else
			echo "scan/floor ratio (default rules, clean): not measured; target 3x: NOT met"
		fi
		;;
	esac
done
exit "$failed"
