package report

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
	"github.com/descriptorpin/descriptorpin/engine/launch"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/engine/scan"
)

// SARIF identifiers.
const (
	SARIFSchema    = "https://json.schemastore.org/sarif-2.1.0.json"
	SARIFVersion   = "2.1.0"
	InformationURI = "https://github.com/descriptorpin/descriptorpin"
	// FingerprintKey names the partial fingerprint that carries a
	// finding's stable id (a poison signal's id for poison results).
	FingerprintKey = "descriptorpin/v1"
	// AutomationID is run.automationDetails.id: the category
	// "descriptorpin" (the part before the last slash, as GitHub code
	// scanning reads it) with no run id, so the log stays deterministic.
	AutomationID = "descriptorpin/"
)

// SARIF renders a report as a SARIF 2.1.0 log with one run, for code
// scanning (GitHub, GitLab, Azure DevOps). Rendering is deterministic: no
// timestamps, no invented paths, rules sorted by id.
//
// Rules: one per class (id = class: MUTATION, ADDED, REMOVED, SHADOW,
// TRANSPORT), one per transport rule ("TRANSPORT/stdio_launch") and one per
// poison signal ("POISON/concealment"): every signal of the report's rule
// set plus any other that appears in a finding.
//
// Results: one per finding, except POISON, which gives one result per
// signal so each can be triaged on its own. Severity maps to level:
// critical and high to "error", medium to "warning", low to "note".
// Findings a pin accepted are results too, with an external suppression,
// so code scanning shows them as dismissed rather than losing them. Each
// result carries the finding's stable id as partialFingerprints
// ["descriptorpin/v1"].
//
// Messages are one line with untrusted text made visible by
// sanitize.Text, and the whole log is written with the characters
// sanitize.NeedsEscape reports as \uXXXX escapes.
func SARIF(r *scan.Report, tool ToolInfo) []byte {
	rules := sarifRules(r)
	index := make(map[string]int, len(rules))
	for i, rl := range rules {
		index[rl.id] = i
	}
	ruleValues := make([]jsonv.Value, 0, len(rules))
	for _, rl := range rules {
		ruleValues = append(ruleValues, rl.value())
	}

	results := []jsonv.Value{}
	for i := range r.Findings {
		results = appendResults(results, r, &r.Findings[i], index, false)
	}
	for i := range r.Accepted {
		results = appendResults(results, r, &r.Accepted[i], index, true)
	}

	fullName := "DescriptorPin"
	if tool.Version != "" {
		fullName += " " + tool.Version
	}
	driver := newObject().
		set("name", jstr(tool.Name)).
		set("fullName", jstr(sanitize.Text(fullName))).
		set("informationUri", jstr(InformationURI)).
		set("rules", jarr(ruleValues))
	driver.opt("version", tool.Version)

	run := newObject().
		set("tool", newObject().set("driver", driver.value()).value()).
		set("automationDetails", newObject().set("id", jstr(AutomationID)).value()).
		set("results", jarr(results))

	root := newObject().
		set("$schema", jstr(SARIFSchema)).
		set("version", jstr(SARIFVersion)).
		set("runs", jarr([]jsonv.Value{run.value()}))
	return render(root.value())
}

// SARIFLevel maps a severity to a SARIF result level.
func SARIFLevel(s engine.Severity) string {
	switch s {
	case engine.Critical, engine.High:
		return "error"
	case engine.Medium:
		return "warning"
	case engine.Low:
		return "note"
	}
	return "warning"
}

// RuleID is the SARIF rule id of a finding that is not POISON: the class,
// or "TRANSPORT/<rule>" for a transport finding naming its rule. A POISON
// finding's results use PoisonRuleID per signal.
func RuleID(f *engine.Finding) string {
	if f.Class == engine.Transport && f.Rule != "" {
		return string(engine.Transport) + "/" + f.Rule
	}
	return string(f.Class)
}

// PoisonRuleID is the SARIF rule id of one poison signal.
func PoisonRuleID(signal string) string { return string(engine.Poison) + "/" + signal }

// SecuritySeverity is a rule's properties["security-severity"]: the CVSS-like
// score GitHub code scanning turns into Critical (9.0 and up), High (7.0 to
// 8.9), Medium (4.0 to 6.9) or Low (below 4.0).
func SecuritySeverity(s engine.Severity) string {
	switch s {
	case engine.Critical:
		return "9.5"
	case engine.High:
		return "8.0"
	case engine.Medium:
		return "5.5"
	}
	return "3.0"
}

// sarifRule is one reportingDescriptor.
type sarifRule struct {
	id, name, short, full, help string
	level                       string
	severity                    engine.Severity // properties["security-severity"]
}

func (rl sarifRule) value() jsonv.Value {
	return newObject().
		set("id", jstr(rl.id)).
		set("name", jstr(rl.name)).
		set("shortDescription", newObject().set("text", jstr(rl.short)).value()).
		set("fullDescription", newObject().set("text", jstr(rl.full)).value()).
		set("help", newObject().set("text", jstr(rl.help)).value()).
		set("helpUri", jstr(InformationURI)).
		set("defaultConfiguration", newObject().set("level", jstr(rl.level)).value()).
		set("properties", newObject().
			set("tags", jarr([]jsonv.Value{jstr("security"), jstr("mcp")})).
			set("security-severity", jstr(SecuritySeverity(rl.severity))).value()).
		value()
}

// classRules describes the rule of each class. POISON has no rule of its
// own: each signal is one.
var classRules = map[engine.Class]sarifRule{
	engine.Mutation: {
		name:  "DescriptorMutation",
		short: "A pinned tool's descriptor changed after approval",
		full: "The canonical descriptor of a tool no longer matches the hash pinned when it was approved: its description, " +
			"input or output schema, title, annotations or another pinned field changed (a possible rug pull). " +
			"The result names each changed field and, inside a schema, the JSON path of the change.",
		help: "Review the changed fields. If the change is expected, approve the tool again so the pin records the new " +
			"descriptor; if not, disable the server in the MCP client before the model reads the changed text.",
		level:    "error",
		severity: engine.High,
	},
	engine.Launch: {
		name:  "LaunchConfigChanged",
		short: "A server's launch config differs from the pinned one",
		full: "The command, arguments, URL, transport, or the set of environment or header keys with which a client " +
			"launches or reaches a server changed after approval. A stdio server is a command line, so this is a rug pull of its own.",
		help:     "Review the change in the client config. If it is expected, approve the server again; if not, revert the config.",
		level:    "error",
		severity: engine.High,
	},
	engine.Added: {
		name:     "UnpinnedTool",
		short:    "A tool is not in the pin",
		full:     "A server exposes a tool that was never approved: it is absent from the pin, so nothing has reviewed its description or schema.",
		help:     "Review the new tool's descriptor and approve it (pin it) if it is expected.",
		level:    "warning",
		severity: engine.Medium,
	},
	engine.Removed: {
		name:     "RemovedToolOrServer",
		short:    "A pinned tool is no longer present",
		full:     "A tool recorded in the pin is not exposed by its server any more.",
		help:     "If the tool was retired on purpose, update the pin; otherwise check the server's configuration.",
		level:    "note",
		severity: engine.Low,
	},
	engine.Shadow: {
		name:  "ToolNameShadowing",
		short: "One tool name is claimed by several servers",
		full: "Two or more servers that the same client sees expose a tool of the same name. The client's resolution " +
			"order decides which one runs, so a later server can shadow a trusted tool.",
		help:     "Rename or remove one of the tools, or accept the collision in the pin if every claimant is trusted.",
		level:    "warning",
		severity: engine.Medium,
	},
	engine.Transport: {
		name:     "TransportReview",
		short:    "A server's transport or launch line deserves review",
		full:     "A server's transport or launch configuration is one that should be reviewed before it is trusted.",
		help:     "Review the server's launch configuration in the client config, then accept it in the pin if it is expected.",
		level:    "note",
		severity: engine.Low,
	},
}

// transportRules describes the transport rules the engine knows; they are
// listed whether or not they fired, so the rule set of a run is stable.
var transportRules = map[string]sarifRule{
	"stdio_launch": {
		name:  "StdioLaunch",
		short: "A server is launched as a local subprocess",
		full:  "The server uses the stdio transport: it is " + launch.TransportNote + ".",
		help: "Check the command, arguments and environment the client config launches. Accept the finding in the pin " +
			"once reviewed; the acceptance lapses if the launch config changes.",
		level:    "note",
		severity: engine.Low,
	},

	"unpinned_package": {
		name:     "UnpinnedPackage",
		short:    "A package runner launches a package without an exact version",
		full:     "npx, uvx, pnpm dlx, bunx, yarn dlx or pipx run start a package with no exact version (or a floating tag, a range, a git or URL source), or docker run starts an image without a digest: what runs can change with no edit to the config.",
		help:     "Pin the exact version (pkg@1.2.3, pkg==1.2.3) or the image digest (@sha256:...).",
		level:    "warning",
		severity: engine.Medium,
	},
	"shell_command": {
		name:     "ShellCommand",
		short:    "A server is launched through a shell command string or sudo",
		full:     "The launch line runs a shell with -c (or cmd /c, powershell -Command), pipes a download into a shell, or uses sudo: the config holds a script, not a program.",
		help:     "Launch the server's program directly with its arguments.",
		level:    "error",
		severity: engine.High,
	},
	"plaintext_remote": {
		name:     "PlaintextRemote",
		short:    "A remote server is reached over unencrypted http:// or ws://",
		full:     "A server on another host is reached without TLS: anyone on the path can read and change the tool list and the calls.",
		help:     "Use https:// or wss://.",
		level:    "warning",
		severity: engine.Medium,
	},
	"inline_secret": {
		name:     "InlineSecret",
		short:    "A secret is written inline in a client config",
		full:     "An env value, header, argument or URL query holds a token-shaped value or a value whose key names a secret. It is reported by key name; the value is never shown.",
		help:     "Move the secret to the environment or the client's secret store and reference it (${env:VAR}, ${input:...}).",
		level:    "error",
		severity: engine.High,
	},
	"writable_config": {
		name:     "WritableConfig",
		short:    "A client config file is writable by other users",
		full:     "Whoever can write the client config decides what the client launches.",
		help:     "chmod go-w the file.",
		level:    "error",
		severity: engine.High,
	},
	"unknown_transport": {
		name:     "UnknownTransport",
		short:    "A server declares a transport DescriptorPin does not know",
		full:     "The transport is none of stdio, http, sse, streamable-http and ws, so its risk cannot be judged.",
		help:     "Check the client config.",
		level:    "note",
		severity: engine.Low,
	},
}

// poisonRules describes the poison signals of both rule sets.
var poisonRules = map[string]sarifRule{
	"imperative_opener": {
		name:  "ImperativeOpener",
		short: "A sentence in text the model reads opens with an imperative",
		full:  "Tool text that documents behaviour describes it; a sentence that opens with a command (\"always call\", \"ignore\", \"never tell\") instructs the model instead.",
	},
	"second_person_model": {
		name:  "SecondPersonModel",
		short: "Tool text addresses the model or assistant",
		full:  "Tool text that speaks to the model or assistant (\"you are an AI assistant\", \"the model must\") is an instruction, not documentation.",
	},
	"tool_reference": {
		name:  "ToolReference",
		short: "Tool text references another tool by an identifier",
		full:  "Tool text that tells the model to call another tool by an identifier-shaped name can chain tools the user did not ask for.",
	},
	"concealment": {
		name:  "Concealment",
		short: "Tool text instructs to hide something from the user",
		full:  "Tool text that tells the model not to mention, reveal or show something to the user, or to act silently, is a classic tool-poisoning instruction.",
	},
	"priority_override": {
		name:  "PriorityOverride",
		short: "Tool text claims precedence over other instructions",
		full:  "Tool text that asks the model to ignore previous instructions or claims priority over them tries to override the user and the system prompt.",
	},
	"hidden_channel": {
		name:  "HiddenChannel",
		short: "Tool text contains out-of-band instruction markers",
		full:  "Markers such as <IMPORTANT>, [SYSTEM] or chat-template tokens suggest an instruction block hidden inside documentation.",
	},
}

// sarifRules lists the rules of a run, sorted by id.
func sarifRules(r *scan.Report) []sarifRule {
	byID := map[string]sarifRule{}
	for c, rl := range classRules {
		rl.id = string(c)
		byID[rl.id] = rl
	}
	for name, rl := range transportRules {
		rl.id = string(engine.Transport) + "/" + name
		byID[rl.id] = rl
	}
	for _, pr := range detect.PoisonRules(r.Rules) {
		byID[PoisonRuleID(pr.Name)] = poisonRule(pr.Name, pr.Weight)
	}
	for _, fs := range [][]engine.Finding{r.Findings, r.Accepted} {
		for i := range fs {
			f := &fs[i]
			if f.Class == engine.Poison {
				for _, sg := range f.Signals {
					if _, ok := byID[PoisonRuleID(sg.Name)]; !ok {
						byID[PoisonRuleID(sg.Name)] = poisonRule(sg.Name, sg.Weight)
					}
				}
				continue
			}
			id := RuleID(f)
			if _, ok := byID[id]; ok {
				continue
			}
			if f.Class == engine.Transport {
				byID[id] = sarifRule{
					id:       id,
					name:     camel(f.Rule),
					short:    "Transport rule " + f.Rule + " fired",
					full:     "The transport rule " + f.Rule + " fired on a server's launch configuration. " + classRules[engine.Transport].full,
					help:     classRules[engine.Transport].help,
					level:    SARIFLevel(f.Severity),
					severity: f.Severity,
				}
				continue
			}
			byID[id] = sarifRule{
				id:       id,
				name:     camel(string(f.Class)),
				short:    "Finding class " + string(f.Class),
				full:     "A finding of class " + string(f.Class) + " was reported; the result message describes it.",
				help:     "Review the finding and the file it names.",
				level:    SARIFLevel(f.Severity),
				severity: f.Severity,
			}
		}
	}
	out := make([]sarifRule, 0, len(byID))
	for _, rl := range byID {
		// Ids and names can carry a rule or class name from a finding.
		rl.id = sanitize.Text(rl.id)
		rl.name = sanitize.Text(rl.name)
		rl.short = sanitize.Text(rl.short)
		rl.full = sanitize.Text(rl.full)
		out = append(out, rl)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

func poisonRule(name string, weight int) sarifRule {
	rl, ok := poisonRules[name]
	if !ok {
		rl = sarifRule{
			name:  camel(name),
			short: "Poison signal " + name,
			full:  "The poison signal " + name + " fired on text the model reads.",
		}
	}
	rl.id = PoisonRuleID(name)
	rl.name = "Poison" + rl.name
	rl.full += fmt.Sprintf(" Signal weight %d. A finding's severity is set by the harm of its signals (docs/detection.md), and the result level follows that severity.", weight)
	rl.help = "Read the tool's text as the model would. If it instructs rather than documents, disable the server; " +
		"if the signal is a false positive, accept it in the pin (the acceptance lapses when the descriptor changes)."
	// Ranked for code scanning by what the signal alone gives a finding:
	// a harmful signal (secrets, files, hiding, overriding, commands) is
	// high, a suspicious shape medium, a note or context low.
	rl.severity = detect.SignalSeverity(name, weight)
	rl.level = SARIFLevel(rl.severity)
	return rl
}

// camel turns "stdio_launch" or "MUTATION" into "StdioLaunch" or "Mutation".
func camel(s string) string {
	var b strings.Builder
	up := true
	for _, r := range strings.ToLower(s) {
		if r == '_' || r == '-' || r == ' ' || r == '/' || r == '.' {
			up = true
			continue
		}
		if up && r >= 'a' && r <= 'z' {
			r -= 'a' - 'A'
		}
		up = false
		b.WriteRune(r)
	}
	return b.String()
}

// appendResults appends the results of one finding: one per signal for
// POISON, one otherwise.
func appendResults(out []jsonv.Value, r *scan.Report, f *engine.Finding, index map[string]int, accepted bool) []jsonv.Value {
	if f.Class != engine.Poison {
		ruleID := sanitize.Text(RuleID(f))
		props := newObject().
			set("severity", jstr(f.Severity.String())).
			set("class", vis(string(f.Class)))
		props.opt("rule", sanitize.Text(f.Rule))
		props.opt("transport", sanitize.Text(f.Transport))
		if len(f.Servers) > 0 {
			items := make([]jsonv.Value, 0, len(f.Servers))
			for _, srv := range f.Servers {
				items = append(items, vis(srv))
			}
			props.set("servers", jarr(items))
		}
		if len(f.Changes) > 0 {
			items := make([]jsonv.Value, 0, len(f.Changes))
			for _, c := range f.Changes {
				items = append(items, vis(c.Path))
			}
			props.set("changedFields", jarr(items))
		}
		return append(out, result(r, f, ruleID, index[ruleID], f.ID, message(f), props, accepted))
	}
	for _, sg := range f.Signals {
		ruleID := sanitize.Text(PoisonRuleID(sg.Name))
		props := newObject().
			set("severity", jstr(f.Severity.String())).
			set("class", vis(string(f.Class))).
			set("score", jnum(f.Score)).
			set("signal", vis(sg.Name)).
			set("weight", jnum(sg.Weight)).
			set("field", vis(sg.Field))
		props.opt("findingId", sanitize.Text(f.ID))
		msg := fmt.Sprintf("POISON %s: signal %s (weight %d): %s in %s; tool score %d from %d %s",
			s(f.Subject), s(sg.Name), sg.Weight, s(sg.Detail), s(sg.Field), f.Score, len(f.Signals), plural(len(f.Signals), "signal", "signals", false))
		out = append(out, result(r, f, ruleID, index[ruleID], sg.ID, msg, props, accepted))
	}
	return out
}

func result(r *scan.Report, f *engine.Finding, ruleID string, ruleIndex int, id, msg string, props *object, accepted bool) jsonv.Value {
	res := newObject().
		set("ruleId", jstr(ruleID)).
		set("ruleIndex", jnum(ruleIndex)).
		set("level", jstr(SARIFLevel(f.Severity))).
		set("message", newObject().set("text", jstr(messageText(msg))).value()).
		set("properties", props.value())
	if id != "" {
		res.set("partialFingerprints", newObject().set(FingerprintKey, vis(id)).value())
	}
	loc := newObject()
	has := false
	if uri := artifactURI(r.File); uri != "" {
		// Code scanning needs a region with a startLine. A finding with no
		// line of its own (REMOVED: the tool is gone; SHADOW: the name is
		// claimed in several places) points at the file's first line.
		line := f.Line
		if line <= 0 {
			line = 1
		}
		phys := newObject().
			set("artifactLocation", newObject().set("uri", jstr(uri)).value()).
			set("region", newObject().set("startLine", jnum(line)).value())
		loc.set("physicalLocation", phys.value())
		has = true
	}
	if f.Subject != "" {
		kind := "member"
		if f.Class == engine.Transport {
			kind = "module" // the subject is a server
		}
		ll := newObject().set("fullyQualifiedName", vis(f.Subject)).set("kind", jstr(kind))
		loc.set("logicalLocations", jarr([]jsonv.Value{ll.value()}))
		has = true
	}
	if has {
		res.set("locations", jarr([]jsonv.Value{loc.value()}))
	}
	if accepted {
		sup := newObject().set("kind", jstr("external")).set("status", jstr("accepted")).set("justification", jstr("accepted in the pin"))
		res.set("suppressions", jarr([]jsonv.Value{sup.value()}))
	}
	return res.value()
}

// vis is a string value with untrusted text made visible. SARIF is read
// in viewers (code scanning pages, IDE panes) that decode the JSON and
// show the text, so every string that came from a descriptor or a config
// is written as sanitize.Text shows it, not only JSON-escaped.
func vis(v string) jsonv.Value { return jstr(sanitize.Text(v)) }

// message is the one-line summary of a finding other than POISON, shaped
// like the text report's header line.
func message(f *engine.Finding) string {
	switch f.Class {
	case engine.Mutation:
		m := fmt.Sprintf("MUTATION %s: pinned %s scanned %s", s(f.Subject), s(engine.Digest(f.PinnedHash)), s(engine.Digest(f.ScannedHash)))
		if n := len(f.Changes) + f.ChangesOmitted; n > 0 {
			paths := make([]string, 0, len(f.Changes))
			for _, c := range f.Changes {
				paths = append(paths, s(c.Path))
			}
			m += fmt.Sprintf("; %d changed %s: %s", n, plural(n, "field", "fields", false), strings.Join(paths, ", "))
			if f.ChangesOmitted > 0 {
				m += fmt.Sprintf(" and %d more", f.ChangesOmitted)
			}
		}
		return m
	case engine.Added, engine.Removed, engine.Launch:
		return FindingLines(f, detect.RulesDefault, TextOptions{})[0]
	case engine.Shadow:
		names := make([]string, len(f.Servers))
		for i, n := range f.Servers {
			names[i] = s(n)
		}
		return fmt.Sprintf("SHADOW %s: claimed by %d servers (%s); client resolution order decides the winner", s(f.Subject), len(f.Servers), strings.Join(names, ", "))
	case engine.Transport:
		return fmt.Sprintf("TRANSPORT %s: %s", s(f.Subject), s(f.Detail))
	}
	m := fmt.Sprintf("%s %s", s(string(f.Class)), s(f.Subject))
	if f.Detail != "" {
		m += ": " + s(f.Detail)
	}
	return m
}

// messageText makes a result message plain text that a SARIF viewer
// shows as it is: SARIF (§3.11.6) reads "[text](target)" in message.text
// as an embedded link, to a URI or to a location by index, so a
// description saying "[see docs](https://evil.example/x)" would become a
// live link. Every '[' and ']' is escaped with a backslash, the form the
// spec gives for literal brackets, and a backslash that would otherwise
// escape one is doubled.
func messageText(m string) string {
	if !strings.ContainsAny(m, "[]") {
		return m
	}
	var b strings.Builder
	for i := 0; i < len(m); i++ {
		c := m[i]
		switch {
		case c == '[' || c == ']':
			b.WriteByte('\\')
		case c == '\\' && i+1 < len(m) && (m[i+1] == '[' || m[i+1] == ']'):
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// artifactURI turns the file name the caller gave into a SARIF URI: a
// relative path stays a relative reference (code scanning resolves it
// against the repository root), cleaned so that "a/../b" and "./b" give
// the one URI "b"; an absolute path becomes a file URI ("file:///home/…",
// "file:///C:/…", "file://server/share/…" for UNC), since a relative
// reference must not begin with a slash (SARIF1004). Backslashes become
// slashes and characters a URI cannot hold are percent-encoded.
func artifactURI(file string) string {
	if file == "" {
		return ""
	}
	p := strings.ReplaceAll(file, `\`, "/")
	prefix := ""
	drive := len(p) >= 3 && p[1] == ':' && p[2] == '/' && ((p[0] >= 'a' && p[0] <= 'z') || (p[0] >= 'A' && p[0] <= 'Z'))
	switch {
	case drive:
		prefix = "file:///"
		p = p[:2] + path.Clean(p[2:])
	case strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "///"):
		prefix = "file:" // UNC: //server/share/...
		p = "/" + path.Clean(p[1:])
	case strings.HasPrefix(p, "/"):
		prefix = "file://"
		p = path.Clean(p)
	default:
		p = path.Clean(p)
	}
	const upperHex = "0123456789ABCDEF"
	var b strings.Builder
	b.WriteString(prefix)
	for i := 0; i < len(p); i++ {
		c := p[i]
		if uriAllowed(c) || (c == ':' && drive && i == 1) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(upperHex[c>>4])
		b.WriteByte(upperHex[c&0xf])
	}
	return b.String()
}

// uriAllowed reports whether c may appear unescaped in a URI path:
// unreserved characters, sub-delims, '@' and '/'. ':' is left out so a
// relative path's first segment is never read as a scheme.
func uriAllowed(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("-._~!$&'()*+,;=@/", c) >= 0
}
