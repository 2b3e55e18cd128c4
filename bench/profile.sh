#!/usr/bin/env bash
# bench/profile.sh: where a 20,000-tool scan and pin spend their CPU, from
# the real binary. Behind the "Where the time goes" section of
# docs/benchmarks.md; not part of `make bench` (it needs perf).
#
#   bash bench/profile.sh        # about 30 s; markdown on stdout
#
# Builds descriptorpin (with symbols) and bench/gen into a temp dir,
# generates the 400 x 50 inventory, pins it and accepts its stdio
# transports (as bench/run.sh does), then runs `perf record -g` (999 Hz)
# over one `scan` (default rules), one `scan --rules reference` and one
# `pin`, and prints, for each, the share of all samples (both CPUs, GC
# workers included) spent in a fixed list of functions and their callees
# (perf report --children). Shares overlap: a callee counts in its caller.
#
# Needs perf (Debian: linux-perf) and permission to use it
# (kernel.perf_event_paranoid <= 2 for your own processes).
set -euo pipefail
SERVERS=${SERVERS:-400}
TOOLS=${TOOLS:-50}
cd "$(dirname "$0")/.."
if ! command -v perf >/dev/null 2>&1; then
	echo "profile.sh: perf is not installed (Debian package linux-perf)" >&2
	exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dpprof.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
say() { printf 'profile: %s\n' "$*" >&2; }

go build -o "$tmp/descriptorpin" ./cmd/descriptorpin
go build -o "$tmp/gen" ./bench/gen
dp=$tmp/descriptorpin
export SOURCE_DATE_EPOCH=1767225600
"$tmp/gen" -servers "$SERVERS" -tools "$TOOLS" -o "$tmp/inv.json"
"$dp" pin "$tmp/inv.json" -o "$tmp/pin.json" --approved-by b@example.com --note b >/dev/null
"$dp" scan "$tmp/inv.json" -p "$tmp/pin.json" --show-ids >"$tmp/ids" || true
args=()
for id in $(grep -E '^(\[[a-z]+\] )?TRANSPORT ' "$tmp/ids" | grep -Eo '\[id [0-9a-f]+\]' | grep -Eo '[0-9a-f]{16}' || true); do args+=(--accept "$id"); done
if ((${#args[@]} > 0)); then "$dp" approve "$tmp/inv.json" -p "$tmp/pin.json" "${args[@]}" --approved-by b@example.com --note b >/dev/null; fi

# The functions reported, and what they stand for. Prefix match on the
# symbol after "github.com/descriptorpin/descriptorpin/".
m='github.com/descriptorpin/descriptorpin/'
rows=(
	"main.run|the command, all of it (the rest is the runtime's background GC and the kernel)"
	"main.loadPin|pin: read, parse and verify the pin file"
	"${m}engine/pin.(*pinReader).tool|… per pinned tool: encode the stored descriptor (reused buffer) and check its hash"
	"main.loadInventory|inventory: read and parse the file"
	"${m}engine/clientconfig.ParseWith|… first parsed as an MCP client config (service.ParseAny tries that first)"
	"${m}engine/inventory.Parse|… parsed as an inventory (once: ParseAny skims the top-level keys first)"
	"${m}engine/jsonv.Parse|JSON parsing (jsonv), wherever it is called from"
	"${m}engine/scan.Scan|scan: compare with the pin and detect"
	"${m}engine/scan.compare|… compare: canonical encoding of every tool and its hash"
	"${m}engine/pin.Describe|canonical descriptor of a tool (canon encode + SHA-256), wherever called"
	"${m}engine/canon.Append|canonical JSON encoding"
	"crypto/sha256.Sum256|SHA-256"
	"${m}engine/detect.Poisons|detection: the poison rules over every model-visible text"
	"${m}engine/detect.Normalize|… text normalisation before matching"
	"${m}engine/detect.(*signal).Match|… the rules' patterns"
	"${m}engine/detect.ModelTexts|… collecting the texts a model reads"
	"${m}engine/pin.Build|pin: build the pin from the inventory"
	"${m}engine/pin.(*Pin).Marshal|pin: encode the pin file (indented canonical JSON)"
	"${m}internal/fileio.WriteAtomicWith|pin: write the file (atomic rename, fsync)"
	"${m}engine/report.Text|report: text output"
	"runtime.gcBgMarkWorker|garbage collector, marking (background workers)"
	"runtime.mallocgc|allocation"
	"asm_exc_page_fault|kernel: page faults (fresh heap memory)"
)

profile() { # label perf-args...
	local label=$1 data=$tmp/perf.data load
	shift
	load=$(cut -d' ' -f1 /proc/loadavg)
	say "perf record: $label"
	perf record -q -F 999 -g -o "$data" -- "$@" >/dev/null 2>"$tmp/perf.err" || true
	perf report -i "$data" --children --sort symbol --stdio -g none 2>/dev/null | grep -v '^#' | grep '%' >"$tmp/report"
	echo "#### \`${label}\` (load $load at the start)"
	echo
	echo "| function (and its callees) | what it is | share of samples |"
	echo "| --- | --- | ---: |"
	local r sym what pct
	for r in "${rows[@]}"; do
		sym=${r%%|*}
		what=${r#*|}
		pct=$(awk -v s="$sym" '{ for (i = 1; i <= NF; i++) if ($i == "[.]" || $i == "[k]") { if ($(i+1) == s) { print $1; exit } } }' "$tmp/report")
		[[ -z "$pct" ]] && continue
		echo "| \`${sym#"$m"}\` | $what | $pct |"
	done
	echo
}

echo "_bench/profile.sh on $(date -u +%Y-%m-%d), tree \`$(git describe --always --dirty)\`, $(nproc) CPUs, $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); $((SERVERS * TOOLS)) tools, $(awk -v b="$(wc -c <"$tmp/inv.json")" 'BEGIN {printf "%.1f", b / 1e6}') MB._"
echo
profile "descriptorpin scan INV -p PIN" "$dp" scan "$tmp/inv.json" -p "$tmp/pin.json"
profile "descriptorpin scan INV -p PIN --rules reference" "$dp" scan "$tmp/inv.json" -p "$tmp/pin.json" --rules reference
profile "descriptorpin pin INV -o PIN --force" "$dp" pin "$tmp/inv.json" -o "$tmp/pin2.json" --force
