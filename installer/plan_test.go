package installer

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/config"
)

// testConfig is a loaded config with the given per-OS directories.
func testConfig(stateDir, pin, events string) config.Config {
	c := config.Default()
	c.StateDir, c.Pin, c.Log.File = stateDir, pin, events
	return c
}

var (
	systemdM  = Manager{Name: "systemd", Platform: "linux-systemd"}
	launchdM  = Manager{Name: "launchd", Platform: "darwin-launchd"}
	windowsM  = Manager{Name: "windows-service", Platform: "windows-service"}
	sysvM     = Manager{Name: "sysv", Platform: "unix-systemv"}
	linuxUser = Inputs{
		GOOS: "linux", Manager: systemdM, Euid: 1000, User: "alice", Home: "/home/alice",
		Executable: "/usr/bin/descriptorpin", ConfigPath: "/home/alice/.config/descriptorpin/config.yaml",
		Config:     testConfig("/home/alice/.local/state/descriptorpin", "/home/alice/.config/descriptorpin/pin.json", "/home/alice/.local/state/descriptorpin/events.jsonl"),
		Unit:       "/home/alice/.config/systemd/user/descriptorpin.service",
		RecordPath: "/home/alice/.config/descriptorpin/service-install.json",
	}
)

// TestBuildPlanPerOS: the plan says, for each OS's manager, which files are
// written with what, and which commands run, from the inputs alone.
func TestBuildPlanPerOS(t *testing.T) {
	linuxSystem := linuxUser
	linuxSystem.System, linuxSystem.Euid, linuxSystem.Unit = true, 0, "/etc/systemd/system/descriptorpin.service"
	noStart := linuxUser
	noStart.NoStart, noStart.ConfigExists = true, true
	darwin := Inputs{
		GOOS: "darwin", Manager: launchdM, Euid: 501, User: "alice", Home: "/Users/alice",
		Executable: "/opt/homebrew/bin/descriptorpin", ConfigPath: "/Users/alice/Library/Application Support/descriptorpin/config.yaml",
		Config:     testConfig("/Users/alice/Library/Application Support/descriptorpin/state", "/Users/alice/pin.json", ""),
		Unit:       "/Users/alice/Library/LaunchAgents/com.github.descriptorpin.plist",
		RecordPath: "/Users/alice/Library/Application Support/descriptorpin/service-install.json",
	}
	windows := Inputs{
		GOOS: "windows", Manager: windowsM, Euid: -1, User: `HOST\alice`,
		Executable: `C:\Program Files\descriptorpin\descriptorpin.exe`, ConfigPath: `C:\Users\alice\AppData\Roaming\descriptorpin\config.yaml`,
		Config:     testConfig(`C:\Users\alice\AppData\Local\descriptorpin`, `C:\Users\alice\pin.json`, `C:\Users\alice\events.jsonl`),
		RecordPath: `C:\Users\alice\AppData\Roaming\descriptorpin\service-install.json`,
		Env:        map[string]string{"USERPROFILE": `C:\Users\alice`, "APPDATA": `C:\Users\alice\AppData\Roaming`, "PATH": "not passed"},
	}

	for _, tc := range []struct {
		name         string
		in           Inputs
		kind         string
		args         []string
		unitHas      []string
		unitLacks    []string
		wantsLink    string
		stateDir     string
		commands     []string
		createConfig bool
	}{
		{
			name: "linux systemd user unit", in: linuxUser, kind: "systemd user unit",
			args: []string{"watch", "--config", linuxUser.ConfigPath},
			unitHas: []string{
				"# Written by 'descriptorpin service install'.\n",
				"\nDescription=" + serviceDescription + "\n",
				"\nExecStart=\"/usr/bin/descriptorpin\" \"watch\" \"--config\" \"/home/alice/.config/descriptorpin/config.yaml\"\n",
				"\nRestart=on-failure\n", "\nRestartPreventExitStatus=2\n", "\n[Install]\nWantedBy=default.target\n",
			},
			unitLacks:    []string{"{{", "User=", "multi-user"},
			wantsLink:    "/home/alice/.config/systemd/user/default.target.wants/descriptorpin.service",
			commands:     []string{"systemctl --user enable descriptorpin.service", "systemctl --user daemon-reload", "systemctl --user start descriptorpin.service"},
			createConfig: true,
		},
		{
			name: "linux systemd system unit", in: linuxSystem, kind: "systemd system unit",
			args:         []string{"watch", "--config", linuxUser.ConfigPath},
			unitHas:      []string{"\nUser=alice\nExecStart=", "\nWantedBy=multi-user.target\n"},
			unitLacks:    []string{"{{", "default.target"},
			wantsLink:    "/etc/systemd/system/multi-user.target.wants/descriptorpin.service",
			commands:     []string{"systemctl enable descriptorpin.service", "systemctl daemon-reload", "systemctl start descriptorpin.service"},
			createConfig: true,
		},
		{
			name: "linux systemd, config there, --no-start", in: noStart, kind: "systemd user unit",
			args:      []string{"watch", "--config", linuxUser.ConfigPath},
			unitHas:   []string{"WantedBy=default.target"},
			wantsLink: "/home/alice/.config/systemd/user/default.target.wants/descriptorpin.service",
			commands:  []string{"systemctl --user enable descriptorpin.service", "systemctl --user daemon-reload"},
		},
		{
			name: "darwin launchd agent", in: darwin, kind: "launchd LaunchAgent",
			args: []string{"watch", "--config", darwin.ConfigPath},
			unitHas: []string{
				"\t<key>Label</key>\n\t<string>com.github.descriptorpin</string>\n",
				"\t\t<string>/opt/homebrew/bin/descriptorpin</string>\n\t\t<string>watch</string>\n\t\t<string>--config</string>\n\t\t<string>/Users/alice/Library/Application Support/descriptorpin/config.yaml</string>\n\t</array>\n",
				// Restarted after a failing exit only, as packaging/launchd's
				// plist: KeepAlive true would restart a clean exit too.
				"\t<key>KeepAlive</key>\n\t<dict>\n\t\t<key>SuccessfulExit</key>\n\t\t<false/>\n\t</dict>\n",
				"\t<key>ThrottleInterval</key>\n\t<integer>10</integer>\n", "\t<key>RunAtLoad</key>\n\t<true/>\n",
				"\t<key>StandardErrorPath</key>\n\t<string>/Users/alice/Library/Application Support/descriptorpin/state/com.github.descriptorpin.err.log</string>\n",
			},
			unitLacks:    []string{"{{", "EnvironmentVariables", "UserName", "<key>KeepAlive</key>\n\t<true/>"},
			stateDir:     darwin.Config.StateDir,
			commands:     []string{"launchctl load /Users/alice/Library/LaunchAgents/com.github.descriptorpin.plist"},
			createConfig: true,
		},
		{
			name: "windows service", in: windows, kind: "Windows service",
			args:         []string{"service", "run", "--config", windows.ConfigPath},
			commands:     []string{`create the Windows service "descriptorpin": automatic (delayed) start, restart 10s after a failure, failure count reset after 1h`, "sc.exe start descriptorpin"},
			createConfig: true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := BuildPlan(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if p.Kind != tc.kind {
				t.Errorf("kind %q, want %q", p.Kind, tc.kind)
			}
			if !reflect.DeepEqual(p.Arguments, tc.args) {
				t.Errorf("arguments %q, want %q", p.Arguments, tc.args)
			}
			for _, s := range tc.unitHas {
				if !strings.Contains(p.UnitContent, s) {
					t.Errorf("unit lacks %q:\n%s", s, p.UnitContent)
				}
			}
			for _, s := range tc.unitLacks {
				if strings.Contains(p.UnitContent, s) {
					t.Errorf("unit has %q:\n%s", s, p.UnitContent)
				}
			}
			if p.WantsLink != tc.wantsLink || p.StateDir != tc.stateDir {
				t.Errorf("wants link %q, state dir %q; want %q, %q", p.WantsLink, p.StateDir, tc.wantsLink, tc.stateDir)
			}
			if !reflect.DeepEqual(p.Commands, tc.commands) {
				t.Errorf("commands\n%q\nwant\n%q", p.Commands, tc.commands)
			}
			if p.CreateConfig != tc.createConfig || (p.ConfigContent == ExampleConfigFor(tc.in.Manager)) != tc.createConfig {
				t.Errorf("create config %v (content %d bytes), want %v", p.CreateConfig, len(p.ConfigContent), tc.createConfig)
			}
			again, _ := BuildPlan(tc.in)
			if !reflect.DeepEqual(p, again) {
				t.Error("the same inputs gave two plans")
			}
		})
	}
}

func TestBuildPlanLaunchdPlistIsWellFormed(t *testing.T) {
	in := Inputs{GOOS: "darwin", Manager: launchdM, Home: "/Users/a&b", Executable: "/x/<dp>", ConfigPath: "/c/\"q\".yaml",
		Config: testConfig("", "/p.json", ""), Unit: "/Users/a&b/Library/LaunchAgents/com.github.descriptorpin.plist"}
	p, err := BuildPlan(in)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(strings.NewReader(p.UnitContent))
	dec.Strict = false // the DOCTYPE
	var text []string
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if cd, ok := tok.(xml.CharData); ok && strings.TrimSpace(string(cd)) != "" {
			text = append(text, string(cd))
		}
	}
	for _, want := range []string{"/x/<dp>", "/c/\"q\".yaml", "/Users/a&b/com.github.descriptorpin.err.log"} {
		found := false
		for _, s := range text {
			found = found || s == want
		}
		if !found {
			t.Errorf("the plist does not carry %q (no state dir: the logs go to the home directory): %q", want, text)
		}
	}
}

func TestBuildPlanRefuses(t *testing.T) {
	sysv := linuxUser
	sysv.Manager = sysvM
	forced := sysv
	forced.Manager.Forced = true
	notRoot := linuxUser
	notRoot.System = true
	for _, tc := range []struct {
		name     string
		in       Inputs
		msg      string
		hintHas  string
		hintLack string
	}{
		{"a manager without per-user services, detected", sysv, "sysv has no per-user services", "--manager systemd", ""},
		{"a manager without per-user services, named", forced, "sysv has no per-user services", "--system", "--manager systemd"},
		{"--system without root", notRoot, "--system installs a system-wide service and needs root", "sudo", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := BuildPlan(tc.in)
			e, ok := err.(*Error)
			if !ok {
				t.Fatalf("err = %v, want an *Error", err)
			}
			if e.Msg != tc.msg || !strings.Contains(e.Hint, tc.hintHas) || (tc.hintLack != "" && strings.Contains(e.Hint, tc.hintLack)) {
				t.Errorf("got %q (hint %q)", e.Msg, e.Hint)
			}
		})
	}
}

// TestRenderPerOS: --dry-run shows each file with its contents and each
// command, and says nothing is changed.
func TestRenderPerOS(t *testing.T) {
	darwin := linuxUser
	darwin.GOOS, darwin.Manager, darwin.Unit = "darwin", launchdM, "/Users/alice/Library/LaunchAgents/com.github.descriptorpin.plist"
	windows := linuxUser
	windows.GOOS, windows.Manager, windows.Unit, windows.Env = "windows", windowsM, "", map[string]string{"USERPROFILE": `C:\Users\alice`}
	exists := linuxUser
	exists.ConfigExists, exists.PinExists, exists.UnitFound = true, true, UnitOurs
	foreign := linuxUser
	foreign.UnitFound = UnitForeign
	for _, tc := range []struct {
		name  string
		in    Inputs
		has   []string
		lacks []string
	}{
		{"linux systemd user unit", linuxUser, []string{
			"Would install the DescriptorPin service (systemd user unit); --dry-run: nothing is changed.\n",
			"  write     /home/alice/.config/descriptorpin/config.yaml (the commented default config, mode 0600)\n",
			// No earlier unit: nothing is replaced (issue 11).
			"  write     /home/alice/.config/systemd/user/descriptorpin.service (mode 0644):\n",
			"            | ExecStart=\"/usr/bin/descriptorpin\" \"watch\" \"--config\" \"/home/alice/.config/descriptorpin/config.yaml\"\n",
			"            | WantedBy=default.target\n",
			"  link      /home/alice/.config/systemd/user/default.target.wants/descriptorpin.service -> /home/alice/.config/systemd/user/descriptorpin.service\n",
			"  record    /home/alice/.config/descriptorpin/service-install.json (what install created, for uninstall)\n",
			"  run       systemctl --user enable descriptorpin.service\n  run       systemctl --user daemon-reload\n  run       systemctl --user start descriptorpin.service\n",
			"  enabled   starts at every login (WantedBy=default.target)\n",
			"  runs      /usr/bin/descriptorpin watch --config /home/alice/.config/descriptorpin/config.yaml\n",
			"(not there yet: the first start pins what is installed now",
			"  journalctl --user -u descriptorpin -f\n",
			"loginctl enable-linger alice\n",
		}, []string{"register", "not started", "replacing"}},
		{"linux, config and pin there", exists, []string{
			"  config    /home/alice/.config/descriptorpin/config.yaml (exists, left as it is)\n",
			"  pin       /home/alice/.config/descriptorpin/pin.json\n",
			"  write     /home/alice/.config/systemd/user/descriptorpin.service (mode 0644, replacing one install wrote before):\n",
		}, []string{"default config", "not there yet"}},
		{"linux, a unit install did not write", foreign, []string{
			"  write     /home/alice/.config/systemd/user/descriptorpin.service (mode 0644; a file install did not write is there: install will refuse to replace it):\n",
		}, []string{"replacing"}},
		{"darwin launchd agent", darwin, []string{
			"(launchd LaunchAgent)",
			"  mkdir     /home/alice/.local/state/descriptorpin (the agent's output goes there)\n",
			"            | \t<string>com.github.descriptorpin</string>\n",
			"  run       launchctl load /Users/alice/Library/LaunchAgents/com.github.descriptorpin.plist\n",
			"  enabled   starts at login, restarted after a failing exit (RunAtLoad, KeepAlive SuccessfulExit false)\n",
		}, []string{"loginctl", "link "}},
		{"windows service", windows, []string{
			"  register  Windows service \"descriptorpin\" (no file: the service control manager keeps it)\n",
			"  env       USERPROFILE=C:\\Users\\alice\n",
			"  run       sc.exe start descriptorpin\n",
			"  runs      /usr/bin/descriptorpin service run --config ",
			"A Windows service cannot show toast notifications",
		}, []string{"| ", "loginctl"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := BuildPlan(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			Render(&b, p)
			out := b.String()
			for _, s := range tc.has {
				if !strings.Contains(out, s) {
					t.Errorf("render lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tc.lacks {
				if strings.Contains(out, s) {
					t.Errorf("render has %q:\n%s", s, out)
				}
			}
		})
	}
}

// Issue 11: the agent install writes restarts after a failing exit only,
// the policy of packaging/launchd's template (and docs/operations.md), and
// the plist kardianos writes on a Mac is the one the plan shows.
func TestLaunchdRestartPolicyIsPackagings(t *testing.T) {
	pkg, err := os.ReadFile(filepath.Join("..", "packaging", "launchd", "com.github.descriptorpin.plist"))
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range []string{launchdKeepAlive, launchdThrottle} {
		if !strings.Contains(string(pkg), block) {
			t.Errorf("packaging/launchd's plist lacks %q: the two policies differ", block)
		}
		if !strings.Contains(launchdPlist, strings.TrimPrefix(block, "\t")) {
			t.Errorf("the template install hands kardianos lacks %q", block)
		}
	}
	c := serviceConfig(Manager{Name: "launchd"}, false, "/opt/bin/descriptorpin", "/Users/a/c.yaml", "/Users/a/state", "a", nil)
	if got, _ := c.Option["LaunchdConfig"].(string); got != launchdPlist {
		t.Error("serviceConfig does not hand kardianos launchdPlist")
	}
	if _, set := c.Option["KeepAlive"]; set {
		t.Error("KeepAlive is still set as kardianos' bool (restarting a clean exit too)")
	}
	// launchdPlist filled in as kardianos does for this config (no env,
	// chroot, user name or working directory) is renderLaunchd's output.
	filled := strings.NewReplacer(
		"\t{{if EnvVars}}<key>EnvironmentVariables</key>\n\t<dict>\n{{range EnvVars}}{{.}}\n{{end}}\t</dict>\n\t{{end}}", "\t",
		"{{Name | html}}", c.Name, "{{Path | html}}", c.Executable,
		"{{range Arguments}}\t\t<string>{{. | html}}</string>\n{{end}}", "\t\t<string>watch</string>\n\t\t<string>--config</string>\n\t\t<string>/Users/a/c.yaml</string>\n",
		"\t{{if ChRoot}}<key>RootDirectory</key>\n\t<string>{{ChRoot | html}}</string>\n\t{{end}}", "\t",
		"{{RunAtLoad}}", "true", "{{SessionCreate}}", "false",
		"{{if StandardErrorPath}}", "", "{{StandardErrorPath | html}}", "/Users/a/state/"+c.Name+".err.log",
		"{{end}}{{if StandardOutPath}}", "", "{{StandardOutPath | html}}", "/Users/a/state/"+c.Name+".out.log",
		"{{end}}<key>ThrottleInterval</key>", "<key>ThrottleInterval</key>",
		"\t{{if UserName}}<key>UserName</key>\n\t<string>{{UserName | html}}</string>\n\t{{end}}{{if WorkingDirectory}}<key>WorkingDirectory</key>\n\t<string>{{WorkingDirectory | html}}</string>\n\t{{end}}", "\t",
	).Replace(launchdPlist)
	if got := renderLaunchd(c, "/Users/a/state"); got != filled {
		t.Errorf("renderLaunchd differs from the installed template:\n--- rendered\n%s\n--- template\n%s", got, filled)
	}
}
