#!/usr/bin/env bash
# bench/sources.sh: what watching the clients' tool sources costs the
# service. Behind the "Watching client sources" section of
# docs/benchmarks.md; not part of `make bench` (it runs for minutes).
#
#   bash bench/sources.sh              # 10 minutes; markdown on stdout
#   DURATION=180 bash bench/sources.sh # a shorter run
#
# Builds descriptorpin, makes a fake home with VS Code's state.vscdb (WAL
# mode, held open by a writer, as VS Code does), Claude Desktop's mcp.log
# and a Cursor mcps/ folder (the fixtures of engine/sources/testdata), and
# runs `descriptorpin watch` over it with discover: true while a writer
# (python3's sqlite3 module) plays a busy VS Code and a busy Claude
# Desktop for DURATION seconds:
#   - VS Code flushes an unrelated key every 0.5 s (its storage flushes
#     for reasons that have nothing to do with MCP), and every 30 s
#     rewrites mcpToolCache with the same value (a server restart);
#   - Claude Desktop's log grows by 10 lines a second (tool calls and
#     their results), with a tools/list exchange every 60 s (same list).
# Then it reports the service's CPU time (user + system, from
# /proc/PID/stat), its peak RSS and the events it wrote.
#
# PAD_MB=N first fills the database with N MiB of other keys, as a used
# VS Code's is: every flush then copies that much.
#
# Needs Linux (/proc) and python3 with its sqlite3 module.
set -euo pipefail
DURATION=${DURATION:-600}
PAD_MB=${PAD_MB:-0} # other keys in state.vscdb, MiB (a used VS Code's is often several)
cd "$(dirname "$0")/.."
root=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dpsrc.XXXXXX")
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
say() { printf 'sources-bench: %s\n' "$*" >&2; }

go build -o "$tmp/descriptorpin" ./cmd/descriptorpin
home=$tmp/home
fix=$root/engine/sources/testdata
mkdir -p "$home/.config/Claude/logs" "$home/.cursor" "$home/.config/Code/User/globalStorage" "$tmp/state"
cp "$fix/claude_desktop_mcp.log" "$home/.config/Claude/logs/mcp.log"
cp -r "$fix/cursor/mcps" "$home/.cursor/mcps"
db=$home/.config/Code/User/globalStorage/state.vscdb

cat >"$tmp/writer.py" <<'EOF'
import sqlite3, sys, time
db, cache, log, duration = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3], float(sys.argv[4])
ready = sys.argv[5] if len(sys.argv) > 5 else None
con = sqlite3.connect(db, isolation_level=None)
con.execute("PRAGMA user_version = 1")
con.execute("CREATE TABLE IF NOT EXISTS ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)")
con.execute("PRAGMA journal_mode=WAL")
con.execute("INSERT INTO ItemTable VALUES ('mcpToolCache', ?)", (cache,))
if ready:
    pad = int(sys.argv[6])
    for k in range(pad * 16):  # 64 KiB values, as extension state is
        con.execute("INSERT INTO ItemTable VALUES (?, ?)", ("ext.state.%d" % k, "p" * 65536))
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    open(ready, "w").close()
    sys.exit(0)
call = '%s [filesystem] [info] Message from client: {"method":"tools/call","params":{"name":"read_text_file","arguments":{"path":"/tmp/x%d"}},"jsonrpc":"2.0","id":%d} { metadata: undefined }\n'
res = '%s [filesystem] [info] Message from server: {"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"%s"}]}} { metadata: undefined }\n'
lst = ('%s [filesystem] [info] Message from client: {"method":"tools/list","params":{},"jsonrpc":"2.0","id":%d} { metadata: undefined }\n'
       '%s [filesystem] [info] Message from server: {"jsonrpc":"2.0","id":%d,"result":{"tools":[{"name":"read_text_file","title":"Read Text File","description":"Read the complete contents of a file as text.","inputSchema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]},"annotations":{"readOnlyHint":true}},{"name":"list_directory","description":"Get a detailed listing of all files and directories in a specified path.","inputSchema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}]}} { metadata: undefined }\n')
start = time.time()
i, n = 0, 0
with open(log, "a", buffering=1) as f:
    while time.time() - start < duration:
        t = time.time() - start
        now = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
        i += 1
        if i % 5 == 0:  # every 0.5 s: a flush of something else
            con.execute("INSERT INTO ItemTable VALUES ('workbench.panel.state', ?)", (str(time.time()) * 40,))
        if i % 300 == 0:  # every 30 s: the tool cache rewritten, same value
            con.execute("INSERT INTO ItemTable VALUES ('mcpToolCache', ?)", (cache,))
        n += 1
        f.write(call % (now, n, 1000 + n) if n % 2 else res % (now, 1000 + n - 1, "x" * 200))
        if i % 600 == 0:  # every 60 s: a tools/list exchange, same list
            f.write(lst % (now, 9000 + i, now, 9000 + i))
        time.sleep(0.1)
print(n)
EOF
python3 "$tmp/writer.py" "$db" "$fix/vscode_mcpToolCache.json" "$home/.config/Claude/logs/mcp.log" 0 "$tmp/ready" "$PAD_MB"
# A writer that keeps the database open in WAL mode for the whole run.

cat >"$tmp/config.yaml" <<EOF
pin: $tmp/pin.json
state_dir: $tmp/state
discover: true
log:
  file: $tmp/state/events.jsonl
  stderr: false
notify:
  desktop:
    enabled: false
EOF
HOME=$home PATH=/nonexistent "$tmp/descriptorpin" watch --config "$tmp/config.yaml" 2>"$tmp/stderr" &
svc=$!
pids+=("$svc")
for _ in $(seq 100); do [ -s "$tmp/state/state.json" ] && break; sleep 0.1; done
[ -s "$tmp/state/state.json" ] || { say "the service did not start"; cat "$tmp/stderr" >&2; exit 1; }
sleep 2 # the start rescan and the first sight are done
tck=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$svc/stat"; }
c0=$(cpu)
t0=$(date +%s.%N)
say "running for ${DURATION}s"
lines=$(python3 "$tmp/writer.py" "$db" "$fix/vscode_mcpToolCache.json" "$home/.config/Claude/logs/mcp.log" "$DURATION")
sleep 1
c1=$(cpu)
t1=$(date +%s.%N)
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$svc/status")
kids=$(cat /proc/$svc/task/*/children | wc -w)
events=$(wc -l <"$tmp/state/events.jsonl")
opened=$(grep -c '"finding-opened"' "$tmp/state/events.jsonl" || true)
logsize=$(stat -c %s "$home/.config/Claude/logs/mcp.log")
dbsize=$(stat -c %s "$db")
walsize=$(stat -c %s "$db-wal" 2>/dev/null || echo 0)
awk -v c0="$c0" -v c1="$c1" -v tck="$tck" -v t0="$t0" -v t1="$t1" -v hwm="$hwm" -v ev="$events" -v op="$opened" \
	-v lines="$lines" -v kids="$kids" -v logsize="$logsize" -v dbsize="$dbsize" -v walsize="$walsize" 'BEGIN {
	cpu = (c1 - c0) / tck; wall = t1 - t0
	printf "| measure | value |\n|---|---|\n"
	printf "| wall time | %.0f s |\n", wall
	printf "| service CPU (user + system) | %.2f s |\n", cpu
	printf "| share of one core | %.3f %% |\n", 100 * cpu / wall
	printf "| peak RSS | %.1f MiB |\n", hwm / 1024
	printf "| log lines appended | %d (%.1f MiB log at the end) |\n", lines, logsize / 1048576
	printf "| VS Code writes | %d flushes, %d tool-cache rewrites (db %.1f MiB, WAL %.1f MiB) |\n", wall * 2, int(wall / 30), dbsize / 1048576, walsize / 1048576
	printf "| events written | %d (%d finding-opened) |\n", ev, op
	printf "| child processes | %d |\n", kids
}'
