package installer

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/kardianos/service"

	"github.com/descriptorpin/descriptorpin/config"
)

// Inputs are everything a plan depends on. BuildPlan reads nothing else:
// no file, no environment variable, no clock.
type Inputs struct {
	GOOS    string  // runtime.GOOS of the host
	Manager Manager // as ChooseManager returned it
	System  bool    // a system-wide service
	Euid    int     // os.Geteuid(); -1 where there is none (Windows)
	User    string  // the installing account
	Home    string  // the home directory kardianos' launchd code uses

	Executable   string        // the binary the service runs
	ConfigPath   string        // the config it runs with
	ConfigExists bool          // false: install writes ExampleConfigFor there
	Config       config.Config // the config as loaded (or the example's)
	PinExists    bool          // the config's pin file is there

	Unit       string            // UnitPath ("" where the manager keeps no file)
	UnitFound  UnitFound         // what is at Unit now
	RecordPath string            // RecordPath
	Env        map[string]string // the installing user's environment (Windows profile variables)
	NoStart    bool              // enable only
}

// UnitFound is what is at the unit's path before install.
type UnitFound int

const (
	UnitNone    UnitFound = iota // nothing: install writes it
	UnitOurs                     // one install wrote before: install replaces it
	UnitForeign                  // a file install did not write: install refuses
)

// Plan is what install does, step by step: the files it writes and the
// commands the service manager runs. Apply carries it out; Render prints it.
type Plan struct {
	GOOS    string
	Manager Manager
	System  bool
	Kind    string // "systemd user unit", "launchd LaunchAgent", ...
	Name    string // the unit name, launchd label or Windows service name
	User    string

	Executable string
	Arguments  []string // after Executable

	Config        string        // the config file's path
	Cfg           config.Config // the config the service will run with
	CreateConfig  bool          // install writes ConfigContent to Config (mode 0600)
	PinExists     bool          // the config's pin is there already
	ConfigContent string

	Unit        string // the file the manager's install writes ("" on Windows)
	UnitFound   UnitFound
	UnitContent string // its contents ("" where kardianos' own template writes it)
	WantsLink   string // systemd: the link 'systemctl enable' makes
	StateDir    string // created first: launchd writes the agent's output there
	Record      string // the install record's path
	Commands    []string
	Start       bool // start (or restart) after enabling
	Follow      []string

	service *service.Config // what kardianos is given
}

// checkScope refuses a manager that cannot run the service in the scope
// asked for, before anything is looked at.
func checkScope(m Manager, system bool, goos string, euid int) error {
	if !system && !m.PerUser() && m.Name != "windows-service" {
		hint := "use --system for a system-wide service, or start 'descriptorpin watch' from your session's autostart"
		if !m.Forced && goos == "linux" {
			hint = "systemd is not running here (no /run/systemd/system); on a desktop with systemd this works as is. " +
				"To write the user unit anyway (an image build, a container), add --manager systemd; or use --system"
		}
		return &Error{Msg: fmt.Sprintf("%s has no per-user services", m.Name), Hint: hint}
	}
	if system && goos != "windows" && euid != 0 {
		return &Error{Msg: "--system installs a system-wide service and needs root", Hint: "sudo descriptorpin service install --system"}
	}
	return nil
}

// BuildPlan says what install would do with these inputs. It has no side
// effects: the same inputs give the same plan.
func BuildPlan(in Inputs) (*Plan, error) {
	m := in.Manager
	if err := checkScope(m, in.System, in.GOOS, in.Euid); err != nil {
		return nil, err
	}
	p := &Plan{
		GOOS: in.GOOS, Manager: m, System: in.System, Kind: kindOf(m, in.System), Name: NameFor(m), User: in.User,
		Executable: in.Executable, Arguments: ServiceArgs(m, in.ConfigPath),
		Config: in.ConfigPath, Cfg: in.Config, CreateConfig: !in.ConfigExists, PinExists: in.PinExists,
		Unit: in.Unit, UnitFound: in.UnitFound, WantsLink: "", Record: in.RecordPath, Start: !in.NoStart,
	}
	if p.CreateConfig {
		p.ConfigContent = ExampleConfigFor(m)
	}
	if wd := WantsDir(m, in.System, in.Unit); wd != "" {
		p.WantsLink = filepath.Join(wd, filepath.Base(in.Unit))
	}
	if m.Name == "launchd" && in.Config.StateDir != "" {
		p.StateDir = in.Config.StateDir
	}
	p.service = serviceConfig(m, in.System, in.Executable, in.ConfigPath, in.Config.StateDir, in.User, in.Env)
	switch m.Name {
	case "systemd":
		p.UnitContent = renderSystemd(p.service)
	case "launchd":
		logDir := in.Config.StateDir
		switch {
		case logDir != "":
		case in.System:
			logDir = "/var/log"
		default:
			logDir = in.Home
		}
		p.UnitContent = renderLaunchd(p.service, logDir)
	}
	p.Commands = commands(p)
	p.Follow = followLines(m, in.System, in.GOOS, in.Config)
	return p, nil
}

// commands are what the service manager is told, in order, as a person
// would type them.
func commands(p *Plan) []string {
	var out []string
	switch p.Manager.Name {
	case "systemd":
		ctl := "systemctl --user "
		if p.System {
			ctl = "systemctl "
		}
		out = append(out, ctl+"enable "+p.Name+".service", strings.TrimSpace(ctl+"daemon-reload"))
		if p.Start {
			out = append(out, ctl+"start "+p.Name+".service")
		}
	case "launchd":
		if p.Start {
			out = append(out, "launchctl load "+p.Unit)
		}
	case "windows-service":
		out = append(out, fmt.Sprintf("create the Windows service %q: automatic (delayed) start, restart 10s after a failure, failure count reset after 1h", p.Name))
		if p.Start {
			out = append(out, "sc.exe start "+p.Name)
		}
	default:
		out = append(out, p.Manager.Name+": install "+p.Name)
		if p.Start {
			out = append(out, p.Manager.Name+": start "+p.Name)
		}
	}
	return out
}

// cmdQuote is kardianos' cmd template function for systemd units.
func cmdQuote(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

// renderSystemd fills systemdUserUnit or systemdSystemUnit as kardianos'
// template engine does for this config (the unit test checks that every
// template action is covered; the CLI tests compare with the unit kardianos
// writes).
func renderSystemd(c *service.Config) string {
	tmpl, _ := c.Option["SystemdScript"].(string)
	user := ""
	if c.UserName != "" {
		user = "User=" + c.UserName + "\n"
	}
	exec := cmdQuote(c.Executable)
	for _, a := range c.Arguments {
		exec += " " + cmdQuote(a)
	}
	env := ""
	for _, k := range sortedKeys(c.EnvVars) {
		env += "Environment=" + k + "=" + c.EnvVars[k] + "\n"
	}
	return strings.NewReplacer(
		"{{Description}}", c.Description,
		"{{if UserName}}User={{UserName}}\n{{end}}", user,
		"{{Path | cmd}}{{range Arguments}} {{. | cmd}}{{end}}", exec,
		"{{range EnvVars}}{{.}}\n{{end}}", env,
	).Replace(tmpl)
}

// plistEscaper is kardianos' html template function for the plist.
var plistEscaper = strings.NewReplacer(`&`, "&amp;", `'`, "&#39;", `<`, "&lt;", `>`, "&gt;", `"`, "&#34;")

// renderLaunchd is kardianos' launchd plist for this config (no chroot,
// user name, working directory or environment; RunAtLoad on, restarted
// after a failing exit: launchdPlist filled in).
func renderLaunchd(c *service.Config, logDir string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>Disabled</key>
	<false/>
` + launchdKeepAlive + `	<key>Label</key>
	<string>` + plistEscaper.Replace(c.Name) + `</string>
	<key>ProgramArguments</key>
	<array>
		<string>` + plistEscaper.Replace(c.Executable) + "</string>\n")
	for _, a := range c.Arguments {
		b.WriteString("\t\t<string>" + plistEscaper.Replace(a) + "</string>\n")
	}
	logPath := func(kind string) string {
		return plistEscaper.Replace(fmt.Sprintf("%s/%s.%s.log", logDir, c.Name, kind))
	}
	b.WriteString(`	</array>
	<key>RunAtLoad</key>
	<true/>
	<key>SessionCreate</key>
	<false/>
	<key>StandardErrorPath</key>
	<string>` + logPath("err") + `</string>
	<key>StandardOutPath</key>
	<string>` + logPath("out") + `</string>
` + launchdThrottle + `	</dict>
</plist>
`)
	return b.String()
}

// inputs gathers what BuildPlan needs from this host: the config (loaded,
// or the example install would write), the executable, the user.
func (r *Runner) inputs() (Inputs, error) {
	in := Inputs{GOOS: runtime.GOOS, Manager: r.m, System: r.system, Euid: os.Geteuid(), User: r.opt.User,
		Unit: r.unit, RecordPath: r.recordPath, NoStart: r.opt.NoStart, Env: map[string]string{}}
	in.Home, _ = launchdHome()
	if r.unit != "" {
		if data, err := os.ReadFile(r.unit); err == nil {
			in.UnitFound = UnitForeign
			if r.ours(data) {
				in.UnitFound = UnitOurs
			}
		}
	}
	for _, k := range windowsProfileVars {
		if v := os.Getenv(k); v != "" {
			in.Env[k] = v
		}
	}
	var err error
	if in.ConfigPath, err = r.configPath(r.opt.Config); err != nil {
		return in, fmt.Errorf("finding the config path: %w", err)
	}
	if in.Executable, err = executablePath(); err != nil {
		return in, err
	}
	return in, nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
