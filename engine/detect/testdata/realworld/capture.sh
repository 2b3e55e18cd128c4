#!/usr/bin/env bash
# Captures the real tools/list output of the npm MCP servers in servers.tsv
# and writes tools.json beside this script.
#
#   engine/detect/testdata/realworld/capture.sh            # every row
#   engine/detect/testdata/realworld/capture.sh PKG...     # only these rows, then merge
#   MERGE_ONLY=1 engine/detect/testdata/realworld/capture.sh
#
# Environment: WORK (scratch dir, default /tmp/rwcapture; kept, so a second
# run reuses the npm installs), JOBS (servers at once, default 2), TIMEOUT
# (initialize + tools/list per server, default 60s), INSTALL_TIMEOUT
# (seconds per npm install, default 600).
#
# Each package is installed at its exact version into its own prefix under
# WORK (never into the repository), started over stdio with a scratch HOME
# and an empty working directory, and asked initialize,
# notifications/initialized and tools/list (following nextCursor) by
# capture.go, which keeps every tool object byte for byte as sent.
# servers.tsv columns (tab-separated, '-' for none):
#   package  version  bin  args  env  license  notes
# args are split on spaces; {DIR} stands for the empty working directory.
# env is space-separated KEY=value pairs (dummy values: nothing is reached);
# in values {DIR}, {KUBECONFIG} and {GOOGLE_OAUTH_KEYS} stand for that dir
# and for dummy credential files this script writes under WORK.
set -u -o pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${WORK:-/tmp/rwcapture}
JOBS=${JOBS:-2}
TIMEOUT=${TIMEOUT:-60s}
INSTALL_TIMEOUT=${INSTALL_TIMEOUT:-600}
TSV="$HERE/servers.tsv"
export WORK TIMEOUT INSTALL_TIMEOUT TSV

slug() { local s=${1//@/}; echo "${s//\//__}"; }

one() { # one TSV line (tab-separated fields as $1..$7)
	local pkg=$1 ver=$2 bin=$3 args=$4 envs=$5
	local s; s=$(slug "$pkg")
	local prefix="$WORK/pkgs/$s" home="$WORK/home/$s" dir="$WORK/dir/$s" res="$WORK/results"
	rm -f "$res/$s.json" "$res/$s.status"
	if [ ! -f "$prefix/.installed-$ver" ]; then
		rm -rf "$prefix"; mkdir -p "$prefix"
		local npmflags=(--prefix "$prefix" --no-save --no-audit --no-fund --no-package-lock --loglevel=error)
		if ! PUPPETEER_SKIP_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 timeout "$INSTALL_TIMEOUT" \
			npm install "${npmflags[@]}" "$pkg@$ver" >"$res/$s.install.log" 2>&1; then
			# An install script that fetches a binary fails offline: try without scripts.
			echo "--- retry with --ignore-scripts" >>"$res/$s.install.log"
			rm -rf "$prefix"; mkdir -p "$prefix"
			if ! PUPPETEER_SKIP_DOWNLOAD=1 timeout "$INSTALL_TIMEOUT" \
				npm install "${npmflags[@]}" --ignore-scripts "$pkg@$ver" >>"$res/$s.install.log" 2>&1; then
				echo "install failed: $(grep -m1 -i 'err' "$res/$s.install.log" | cut -c1-200)" >"$res/$s.status"
				echo "FAIL  $pkg@$ver (install)"; return
			fi
		fi
		touch "$prefix/.installed-$ver"
	fi
	local pj="$prefix/node_modules/$pkg/package.json"
	# meta: installed version, licence, chosen bin
	local meta
	meta=$(node -e '
		const p = require(process.argv[1]); const want = process.argv[2];
		let lic = p.license ?? (p.licenses ? p.licenses.map(l => l.type || l).join(" OR ") : "(none)");
		if (typeof lic === "object") lic = lic.type;
		let bin = p.bin, name = p.name.replace(/^@[^/]+\//, "");
		if (typeof bin === "string") bin = name;
		else if (bin && want !== "-" && bin[want]) bin = want;
		else if (bin && bin[name]) bin = name;
		else if (bin) bin = Object.keys(bin)[0];
		else bin = "";
		console.log([p.version, lic, bin].join("\t"));
	' "$pj" "$bin") || { echo "no package.json" >"$res/$s.status"; echo "FAIL  $pkg@$ver (package.json)"; return; }
	echo "$meta" >"$res/$s.meta"
	local iver lic b; IFS=$'\t' read -r iver lic b <<<"$meta"
	b=${b##*/} # npm links a scoped bin name ("@scope/x") as .bin/x
	if [ "$iver" != "$ver" ]; then echo "installed $iver, not $ver" >"$res/$s.status"; echo "FAIL  $pkg@$ver (version $iver)"; return; fi
	if [ -z "$b" ]; then echo "package has no bin" >"$res/$s.status"; echo "FAIL  $pkg@$ver (no bin)"; return; fi
	rm -rf "$home" "$dir"; mkdir -p "$home" "$dir"
	local argv=() e=()
	[ "$args" != "-" ] && for a in $args; do argv+=("${a//\{DIR\}/$dir}"); done
	[ "$envs" != "-" ] && for kv in $envs; do
		kv=${kv//\{DIR\}/$dir}; kv=${kv//\{KUBECONFIG\}/$WORK/dummy-kubeconfig}
		e+=("${kv//\{GOOGLE_OAUTH_KEYS\}/$WORK/dummy-gcp-oauth.keys.json}")
	done
	if (cd "$dir" && env -i PATH="$prefix/node_modules/.bin:$(dirname "$(command -v node)"):/usr/local/bin:/usr/bin:/bin" \
		HOME="$home" TMPDIR="$home" LANG=C.UTF-8 NO_COLOR=1 "${e[@]}" \
		"$WORK/capture" probe -timeout "$TIMEOUT" -out "$res/$s.json" -- \
		"$prefix/node_modules/.bin/$b" "${argv[@]}") 2>"$res/$s.stderr"; then
		echo "OK    $pkg@$ver ($(grep -c '^    {' "$res/$s.json" 2>/dev/null || echo '?') tools)"
	else
		echo "probe failed: $(grep '^capture:' "$res/$s.stderr" | tail -1 | cut -c10-300)" >"$res/$s.status"
		echo "FAIL  $pkg@$ver ($(cat "$res/$s.status"))"
	fi
}
export -f one slug

mkdir -p "$WORK/results"
# Dummy credential files for servers that refuse to start without one
# (placeholders {KUBECONFIG} and {GOOGLE_OAUTH_KEYS} in the env column).
cat >"$WORK/dummy-kubeconfig" <<'KUBE'
apiVersion: v1
kind: Config
clusters: [{name: dummy, cluster: {server: "https://127.0.0.1:9"}}]
users: [{name: dummy, user: {token: dummy}}]
contexts: [{name: dummy, context: {cluster: dummy, user: dummy, namespace: default}}]
current-context: dummy
KUBE
echo '{"installed":{"client_id":"dummy.apps.googleusercontent.com","client_secret":"dummy","redirect_uris":["http://localhost"]}}' >"$WORK/dummy-gcp-oauth.keys.json"
( cd "$HERE" && go build -o "$WORK/capture" capture.go ) || exit 1

if [ -z "${MERGE_ONLY:-}" ]; then
	want=" $* "
	tail -n +2 "$TSV" | grep -v '^#' | grep -v '^[[:space:]]*$' | while IFS=$'\t' read -r pkg ver bin args envs lic notes; do
		if [ $# -eq 0 ] || [[ "$want" == *" $pkg "* ]]; then
			printf '%s\0%s\0%s\0%s\0%s\0' "$pkg" "$ver" "$bin" "$args" "$envs"
		fi
	done | xargs -0 -n 5 -P "$JOBS" bash -c 'one "$@"' _
fi

( cd "$HERE" && "$WORK/capture" merge -tsv "$TSV" -results "$WORK/results" -out "$HERE/tools.json" ) | tee "$WORK/summary.md"
