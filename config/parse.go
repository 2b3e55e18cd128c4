package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/redact"
	"go.yaml.in/yaml/v3"
)

// ErrTooLarge is returned (wrapped) for a config over MaxFileSize bytes.
var ErrTooLarge = errors.New("config file too large")

// Parse reads a YAML config from r, starting from Default() and overlaying
// every key the YAML sets. An empty document gives the defaults. Unknown
// keys, duplicate keys, aliases, several documents and values of the wrong
// type or form are errors (*FieldError, with the line). Path fields are
// expanded (see Expand) and cleaned. A key with a null value keeps its
// default, except that a bare ~ on a path field is an error (YAML reads it
// as null; the writer most likely meant the home directory, spelt "~").
// Parse does not validate; call Validate.
func Parse(r io.Reader) (Config, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return Config{}, fmt.Errorf("reading config: %w", err)
	}
	if len(data) > MaxFileSize {
		return Config{}, fmt.Errorf("reading config: %w: more than %d bytes", ErrTooLarge, MaxFileSize)
	}
	cfg, errs := parseBytes(data, Default(), Expand)
	if len(errs) > 0 {
		return Config{}, joinErrs(errs)
	}
	return cfg, nil
}

// Load reads, parses and validates the config file at path. The file must
// be a regular file of at most MaxFileSize bytes (checked before reading
// it). Every *FieldError it returns names the file ("config.yaml:7: unknown
// key …"); other errors wrap the os error, so errors.Is(err,
// fs.ErrNotExist) tells a missing file.
func Load(path string) (Config, error) {
	data, err := readFile(path)
	if err != nil {
		return Config{}, err
	}
	cfg, errs := parseBytes(data, Default(), relativeTo(path))
	if len(errs) > 0 {
		for _, e := range errs {
			e.File = path
		}
		return Config{}, joinErrs(errs)
	}
	cfg.source = path
	if err := cfg.Validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// relativeTo is Expand for a file on disk: a path that is still relative
// after expansion ("pin: pin.json", "targets: [{path: ./inv.json}]") is
// taken relative to the directory of the config file, as a person writing
// it next to the file means it, not to the service's working directory.
// This is the one place config paths are resolved.
func relativeTo(file string) func(string) (string, error) {
	dir := filepath.Dir(file)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return func(p string) (string, error) {
		x, err := Expand(p)
		if err != nil || x == "" || filepath.IsAbs(x) || filepath.VolumeName(x) != "" {
			return x, err
		}
		return filepath.Join(dir, x), nil
	}
}

// readFile reads a config file, refusing anything but a regular file of at
// most MaxFileSize bytes.
func readFile(path string) ([]byte, error) {
	// Stat before opening: opening a FIFO would block.
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("loading config: %s: no such file (%w)", path, fs.ErrNotExist)
	}
	if err != nil {
		return nil, fmt.Errorf("loading config: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("loading config: %s: not a regular file", path)
	}
	if fi.Size() > MaxFileSize {
		return nil, fmt.Errorf("loading config: %s: %w: %d bytes, the limit is %d", path, ErrTooLarge, fi.Size(), MaxFileSize)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("loading config: %w", err)
	}
	defer f.Close()
	// The file may have grown since the Stat.
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("loading config: %w", err)
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("loading config: %s: %w: more than %d bytes", path, ErrTooLarge, MaxFileSize)
	}
	return data, nil
}

// maxErrors is how many errors Parse and Validate report at most; the rest
// are counted in one last error.
const maxErrors = 20

// joinErrs returns nil, the only error, or the errors joined (at most
// maxErrors of them, and a count of the others).
func joinErrs(errs []*FieldError) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	all := make([]error, 0, min(len(errs), maxErrors+1))
	for i, e := range errs {
		if i == maxErrors {
			all = append(all, &FieldError{File: e.File, Msg: fmt.Sprintf("and %d more errors", len(errs)-maxErrors)})
			break
		}
		all = append(all, e)
	}
	return errors.Join(all...)
}

// parser walks the YAML node tree onto a Config, collecting errors.
type parser struct {
	cfg    *Config
	errs   []*FieldError
	expand func(string) (string, error)
}

// field is one key of a mapping and the function that decodes its value
// (never null) into place.
type field struct {
	key    string
	decode func(v *yaml.Node, path string)
	isPath bool // a path field: a bare "~" is ambiguous there
}

// pathField marks f as a path field.
func pathField(f field) field {
	f.isPath = true
	return f
}

// parseBytes overlays the YAML document in data onto base.
func parseBytes(data []byte, base Config, expand func(string) (string, error)) (Config, []*FieldError) {
	cfg := base
	cfg.lines = map[string]int{}
	// Slices in base must not be shared with the result.
	cfg.Targets = append([]Target(nil), base.Targets...)
	cfg.Notify.Webhooks = append([]Webhook(nil), base.Notify.Webhooks...)

	doc, ferr := decodeSingle(data)
	if ferr != nil {
		return Config{}, []*FieldError{ferr}
	}
	if doc == nil {
		return cfg, nil // empty: the defaults
	}
	p := &parser{cfg: &cfg, expand: expand}
	var stateDirSet, logFileSet bool
	root := doc
	if doc.Kind == yaml.DocumentNode {
		if len(doc.Content) == 0 {
			return cfg, nil
		}
		root = doc.Content[0]
	}
	if isNull(root) {
		return cfg, nil // "---" or "~" alone
	}
	p.mapping(root, "", []field{
		pathField(field{key: "pin", decode: func(v *yaml.Node, path string) { p.path(v, path, &cfg.Pin) }}),
		pathField(field{key: "state_dir", decode: func(v *yaml.Node, path string) {
			stateDirSet = true
			p.path(v, path, &cfg.StateDir)
		}}),
		{key: "discover", decode: func(v *yaml.Node, path string) { p.bool(v, path, &cfg.Discover) }},
		{key: "trust_on_first_use", decode: func(v *yaml.Node, path string) { p.bool(v, path, &cfg.TrustOnFirstUse) }},
		{key: "rules", decode: func(v *yaml.Node, path string) { p.str(v, path, (*string)(&cfg.Rules)) }},
		{key: "debounce", decode: func(v *yaml.Node, path string) { p.duration(v, path, &cfg.Debounce) }},
		{key: "rescan_interval", decode: func(v *yaml.Node, path string) { p.duration(v, path, &cfg.RescanInterval) }},
		{key: "targets", decode: func(v *yaml.Node, path string) {
			cfg.Targets = nil
			p.sequence(v, path, func(item *yaml.Node, path string) {
				t := Target{Kind: KindAuto}
				p.mapping(item, path, []field{
					pathField(field{key: "path", decode: func(v *yaml.Node, path string) { p.path(v, path, &t.Path) }}),
					{key: "kind", decode: func(v *yaml.Node, path string) { p.str(v, path, (*string)(&t.Kind)) }},
				})
				cfg.Targets = append(cfg.Targets, t)
			})
		}},
		{key: "log", decode: func(v *yaml.Node, path string) {
			l := &cfg.Log
			p.mapping(v, path, []field{
				pathField(field{key: "file", decode: func(v *yaml.Node, path string) {
					logFileSet = true
					p.path(v, path, &l.File)
				}}),
				{key: "stderr", decode: func(v *yaml.Node, path string) { p.bool(v, path, &l.Stderr) }},
				{key: "format", decode: func(v *yaml.Node, path string) { p.str(v, path, (*string)(&l.Format)) }},
				{key: "level", decode: func(v *yaml.Node, path string) { p.str(v, path, (*string)(&l.Level)) }},
				{key: "max_size_mb", decode: func(v *yaml.Node, path string) { p.int(v, path, &l.MaxSizeMB) }},
				{key: "max_backups", decode: func(v *yaml.Node, path string) { p.int(v, path, &l.MaxBackups) }},
			})
		}},
		{key: "notify", decode: func(v *yaml.Node, path string) {
			n := &cfg.Notify
			p.mapping(v, path, []field{
				{key: "desktop", decode: func(v *yaml.Node, path string) {
					d := &n.Desktop
					p.mapping(v, path, []field{
						{key: "enabled", decode: func(v *yaml.Node, path string) { p.bool(v, path, &d.Enabled) }},
						{key: "min_severity", decode: func(v *yaml.Node, path string) { p.severity(v, path, &d.MinSeverity) }},
					})
				}},
				{key: "webhooks", decode: func(v *yaml.Node, path string) {
					n.Webhooks = nil
					p.sequence(v, path, func(item *yaml.Node, path string) {
						w := defaultWebhook()
						p.mapping(item, path, []field{
							{key: "name", decode: func(v *yaml.Node, path string) { p.str(v, path, &w.Name) }},
							{key: "url", decode: func(v *yaml.Node, path string) { p.str(v, path, &w.URL) }},
							{key: "format", decode: func(v *yaml.Node, path string) { p.str(v, path, (*string)(&w.Format)) }},
							pathField(field{key: "secret_file", decode: func(v *yaml.Node, path string) { p.path(v, path, &w.SecretFile) }}),
							{key: "secret_env", decode: func(v *yaml.Node, path string) { p.str(v, path, &w.SecretEnv) }},
							{key: "min_severity", decode: func(v *yaml.Node, path string) { p.severity(v, path, &w.MinSeverity) }},
							{key: "timeout", decode: func(v *yaml.Node, path string) { p.duration(v, path, &w.Timeout) }},
						})
						n.Webhooks = append(n.Webhooks, w)
					})
				}},
			})
		}},
		{key: "capture", decode: func(v *yaml.Node, path string) {
			c := &cfg.Capture
			p.mapping(v, path, []field{
				{key: "enabled", decode: func(v *yaml.Node, path string) { p.bool(v, path, &c.Enabled) }},
				{key: "interval", decode: func(v *yaml.Node, path string) { p.duration(v, path, &c.Interval) }},
				{key: "timeout", decode: func(v *yaml.Node, path string) { p.duration(v, path, &c.Timeout) }},
				{key: "allow_exec", decode: func(v *yaml.Node, path string) { p.bool(v, path, &c.AllowExec) }},
				{key: "identify_as", decode: func(v *yaml.Node, path string) {
					c.IdentifyAs = nil
					p.sequence(v, path, func(item *yaml.Node, path string) {
						var id string
						p.str(item, path, &id)
						c.IdentifyAs = append(c.IdentifyAs, id)
					})
				}},
				{key: "configs", decode: func(v *yaml.Node, path string) {
					c.Configs = nil
					p.sequence(v, path, func(item *yaml.Node, path string) {
						var cc CaptureConfig
						p.mapping(item, path, []field{
							pathField(field{key: "path", decode: func(v *yaml.Node, path string) { p.path(v, path, &cc.Path) }}),
							pathField(field{key: "output", decode: func(v *yaml.Node, path string) { p.path(v, path, &cc.Output) }}),
						})
						c.Configs = append(c.Configs, cc)
					})
				}},
			})
		}},
	})
	if len(p.errs) > 0 {
		return Config{}, p.errs
	}
	// Moving state_dir moves the default event log with it.
	if stateDirSet && !logFileSet && cfg.StateDir != "" {
		cfg.Log.File = filepath.Join(cfg.StateDir, DefaultLogFileName)
	}
	return cfg, nil
}

// decodeSingle decodes the one YAML document in data; nil means there is
// none (an empty or comment-only file).
func decodeSingle(data []byte) (doc *yaml.Node, ferr *FieldError) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var first yaml.Node
	if err := safeDecode(dec, &first); err != nil {
		if err == io.EOF {
			return nil, nil
		}
		return nil, yamlError(err)
	}
	var second yaml.Node
	switch err := safeDecode(dec, &second); {
	case err == io.EOF:
		return &first, nil
	case err != nil:
		return nil, yamlError(err)
	default:
		// The document node's line is its "---" separator.
		return nil, &FieldError{Line: second.Line, Msg: `multiple YAML documents are not supported (remove the "---" separator)`}
	}
}

// safeDecode decodes one document into a node, turning a panic inside the
// YAML library into an error: a malformed file must never crash the service.
func safeDecode(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: internal error: %v", r)
		}
	}()
	return dec.Decode(n)
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError turns a YAML syntax error into a *FieldError with its line.
func yamlError(err error) *FieldError {
	msg := err.Error()
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &FieldError{Line: line, Msg: "invalid YAML: " + m[2], Err: err}
	}
	return &FieldError{Msg: "invalid YAML: " + strings.TrimPrefix(msg, "yaml: "), Err: err}
}

func (p *parser) fail(n *yaml.Node, path, msg string) {
	p.errs = append(p.errs, &FieldError{Line: n.Line, Field: path, Msg: msg})
}

// mapping decodes the mapping n with the given fields, reporting unknown
// and duplicate keys.
func (p *parser) mapping(n *yaml.Node, path string, fields []field) {
	if n.Kind != yaml.MappingNode {
		p.fail(n, path, "must be a mapping of keys to values, not "+describe(n))
		return
	}
	if _, ok := p.cfg.lines[path]; !ok {
		p.cfg.lines[path] = n.Line
	}
	seen := make(map[string]int, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.fail(k, path, "keys must be plain words, not "+describe(k))
			continue
		}
		name := k.Value
		if first, dup := seen[name]; dup {
			p.fail(k, path, fmt.Sprintf("duplicate key %s (first set on line %d)", quoteKey(name), first))
			continue
		}
		seen[name] = k.Line
		var f *field
		for j := range fields {
			if fields[j].key == name {
				f = &fields[j]
				break
			}
		}
		if f == nil {
			msg := "unknown key " + quoteKey(name)
			if s := suggest(name, fields); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			p.fail(k, path, msg)
			continue
		}
		child := name
		if path != "" {
			child = path + "." + name
		}
		p.cfg.lines[child] = k.Line
		switch {
		case v.Kind == yaml.AliasNode:
			p.fail(v, child, "aliases are not supported")
		case isNull(v) && v.Value == "~" && f.isPath:
			// YAML reads a bare ~ as null, which would silently keep the
			// default where the writer most likely meant the home directory.
			p.fail(v, child, `a bare ~ is YAML null: quote it ("~") for the home directory, or leave the key out for the default`)
		case isNull(v):
			// A null value keeps the default.
		default:
			f.decode(v, child)
		}
	}
}

// sequence decodes each item of the sequence n with item.
func (p *parser) sequence(n *yaml.Node, path string, item func(v *yaml.Node, path string)) {
	if n.Kind != yaml.SequenceNode {
		p.fail(n, path, "must be a list, not "+describe(n))
		return
	}
	for i, v := range n.Content {
		child := fmt.Sprintf("%s[%d]", path, i)
		p.cfg.lines[child] = v.Line
		if v.Kind == yaml.AliasNode {
			p.fail(v, child, "aliases are not supported")
			continue
		}
		item(v, child)
	}
}

// scalar returns the value of n if it is a scalar with one of the tags.
func (p *parser) scalar(n *yaml.Node, path, want string, tags ...string) (string, bool) {
	if n.Kind == yaml.ScalarNode {
		tag := n.ShortTag()
		for _, t := range tags {
			if tag == t {
				return n.Value, true
			}
		}
	}
	p.fail(n, path, "must be "+want+", not "+describe(n))
	return "", false
}

func (p *parser) str(n *yaml.Node, path string, dst *string) {
	if s, ok := p.scalar(n, path, "a string", "!!str", "!!int", "!!float", "!!timestamp"); ok {
		*dst = s
	}
}

// severity reads one of the severity names (engine.Severity's text form).
func (p *parser) severity(n *yaml.Node, path string, dst *engine.Severity) {
	var s string
	p.str(n, path, &s)
	if n.Kind != yaml.ScalarNode {
		return
	}
	if v, ok := engine.ParseSeverity(s); ok {
		*dst = v
		return
	}
	p.fail(n, path, severityMsg(s))
}

// severityMsg is the error for a value that is not a severity name.
func severityMsg(got string) string {
	words := make([]string, len(engine.Severities))
	for i, v := range engine.Severities {
		words[i] = v.String()
	}
	return fmt.Sprintf("must be one of %s (got %s)", strings.Join(words, ", "), quote(got))
}

func (p *parser) bool(n *yaml.Node, path string, dst *bool) {
	s, ok := p.scalar(n, path, "true or false", "!!bool")
	if !ok {
		return
	}
	switch strings.ToLower(s) {
	case "true":
		*dst = true
	case "false":
		*dst = false
	default: // an explicit "!!bool yes", say
		p.fail(n, path, "must be true or false, not "+quote(s))
	}
}

func (p *parser) int(n *yaml.Node, path string, dst *int) {
	if _, ok := p.scalar(n, path, "a whole number", "!!int"); !ok {
		return
	}
	var v int
	if err := n.Decode(&v); err != nil {
		p.fail(n, path, "must be a whole number in range, not "+quote(n.Value))
		return
	}
	*dst = v
}

func (p *parser) duration(n *yaml.Node, path string, dst *time.Duration) {
	s, ok := p.scalar(n, path, "a duration such as 150ms, 10s or 5m", "!!str", "!!int", "!!float")
	if !ok {
		return
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		p.fail(n, path, fmt.Sprintf("invalid duration %s: want a number and a unit, such as 150ms, 10s or 5m", quote(s)))
		return
	}
	*dst = d
}

// path decodes a path field: expanded, then cleaned. An empty string stays
// empty.
func (p *parser) path(n *yaml.Node, path string, dst *string) {
	var s string
	p.str(n, path, &s)
	if s == "" {
		*dst = ""
		return
	}
	x, err := p.expand(s)
	if err != nil {
		p.errs = append(p.errs, &FieldError{Line: n.Line, Field: path, Msg: err.Error(), Err: err})
		return
	}
	if x == "" {
		*dst = ""
		return
	}
	*dst = filepath.Clean(x)
}

// isNull reports whether n is a YAML null ("", "~", "null").
func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// describe names the kind of a node for error messages, without its value.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.DocumentNode:
		return "a document"
	}
	switch n.ShortTag() {
	case "!!str":
		return "a string"
	case "!!int":
		return "a number"
	case "!!float":
		return "a number"
	case "!!bool":
		return "a boolean"
	case "!!null":
		return "null"
	case "!!timestamp":
		return "a timestamp"
	case "!!binary":
		return "binary data"
	}
	return "a value tagged " + quote(n.ShortTag())
}

// quote quotes a value from the file for an error message, shortened so a
// huge value cannot flood the error.
func quote(s string) string {
	const max = 64
	if len(s) > max {
		cut := max
		for cut > 0 && !isRuneStart(s[cut]) {
			cut--
		}
		return strconv.Quote(s[:cut]) + "…"
	}
	return strconv.Quote(s)
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// quoteKey quotes a key for an error message; a key that looks like a URL
// (a misplaced webhook URL, say) is redacted.
func quoteKey(k string) string {
	if strings.Contains(k, "://") {
		return quote(redact.Endpoint(k) + "/…")
	}
	return quote(k)
}

// suggest returns the known key closest to name, if it is close enough to
// be a typo.
func suggest(name string, fields []field) string {
	if len(name) > 64 {
		return ""
	}
	best, bestDist := "", 3
	for _, f := range fields {
		if d := editDistance(strings.ToLower(name), f.key); d < bestDist {
			best, bestDist = f.key, d
		}
	}
	if best == "" || bestDist*2 >= len(best) {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// LoadOrDefault reads the named config; with no name, the default config
// file if it exists, else the built-in defaults (validated, since the
// per-OS default paths must make sense on this machine).
func LoadOrDefault(path string) (Config, error) {
	if path != "" {
		return Load(path)
	}
	def, err := DefaultPath()
	if err == nil {
		cfg, lerr := Load(def)
		if lerr == nil || !errors.Is(lerr, fs.ErrNotExist) {
			return cfg, lerr
		}
	}
	cfg := Default()
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("the built-in defaults do not validate on this machine: %w", err)
	}
	return cfg, nil
}
