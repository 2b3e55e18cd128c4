package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/installer"
)

// The service's units and packaging files, checked the way systemd and the
// config loader read them. The install/uninstall behaviour itself is in
// testdata/script/service_systemd.txtar.

const recorderScript = `#!/bin/sh
echo "$*" >> "$SYSTEMCTL_LOG"
case "$1" in is-active) echo active ;; list-unit-files) echo "descriptorpin.service enabled enabled" ;; esac
exit 0
`

// installUserUnit runs 'service install --manager systemd' with bin, a
// temporary HOME (home) and a systemctl recorder, and returns the unit.
func installUserUnit(t *testing.T, bin, home string) string {
	t.Helper()
	fake := t.TempDir()
	if err := os.WriteFile(filepath.Join(fake, "systemctl"), []byte(recorderScript), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "service", "install", "--manager", "systemd", "--no-start")
	cmd.Env = []string{"HOME=" + home, "PATH=" + fake + string(os.PathListSeparator) + os.Getenv("PATH"),
		"SYSTEMCTL_LOG=" + filepath.Join(fake, "log")}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("service install: %v\n%s", err, out)
	}
	return filepath.Join(home, ".config", "systemd", "user", "descriptorpin.service")
}

// systemdVerify runs systemd-analyze verify on a unit and fails on any
// output: verify exits 0 on warnings such as an unknown key.
func systemdVerify(t *testing.T, unit string, user bool) {
	t.Helper()
	args := []string{"verify", unit}
	if user {
		args = append([]string{"--user"}, args...)
	}
	cmd := exec.Command("systemd-analyze", args...)
	run := t.TempDir() // a user-mode check needs a runtime directory
	if err := os.Chmod(run, 0o700); err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+run, "SYSTEMD_LOG_COLOR=0")
	out, err := cmd.CombinedOutput()
	if err != nil || len(out) > 0 {
		data, _ := os.ReadFile(unit)
		t.Fatalf("systemd-analyze %s: %v\n%s\nthe unit:\n%s", strings.Join(args, " "), err, out, data)
	}
}

func needSystemdAnalyze(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("systemd units are checked on Linux")
	}
	if _, err := exec.LookPath("systemd-analyze"); err != nil {
		t.Skip("systemd-analyze is not on PATH (Debian: apt-get install systemd); .ci/package-check runs this check in CI")
	}
}

// TestGeneratedUserUnitVerifies: the unit install writes passes
// systemd-analyze verify, also when the binary's path and the config's path
// hold a space, a % (a systemd specifier) and a $ (a variable).
func TestGeneratedUserUnitVerifies(t *testing.T) {
	needSystemdAnalyze(t)
	odd := filepath.Join(t.TempDir(), "bin dir %i $USER")
	if err := os.MkdirAll(odd, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(odd, "descriptorpin")
	copyFile(t, filepath.Join(binDir, "descriptorpin"), bin, 0o755)
	home := filepath.Join(t.TempDir(), "home 100% $HOME")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	unit := installUserUnit(t, bin, home)
	systemdVerify(t, unit, true)
	data, err := os.ReadFile(unit)
	if err != nil {
		t.Fatal(err)
	}
	want := `ExecStart="` + installer.SystemdEscapeExec(bin) + `" "watch" "--config" "` + installer.SystemdEscape(filepath.Join(home, ".config", "descriptorpin", "config.yaml")) + `"`
	if !strings.Contains(string(data), want+"\n") {
		t.Errorf("unit lacks\n%s\ngot:\n%s", want, data)
	}
}

// TestPackagedUnitVerifies: the unit the packages install passes
// systemd-analyze verify (with ExecStart pointed at a binary that exists),
// and says what the generated user unit says, directive for directive,
// apart from the command line.
func TestPackagedUnitVerifies(t *testing.T) {
	needSystemdAnalyze(t)
	src, err := os.ReadFile("../../packaging/systemd/descriptorpin.service")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "\nExecStart=/usr/bin/descriptorpin watch\n") {
		t.Fatalf("the packaged unit should run '/usr/bin/descriptorpin watch' (no --config: per-user paths differ)")
	}
	unit := filepath.Join(t.TempDir(), "descriptorpin.service")
	patched := strings.ReplaceAll(string(src), "/usr/bin/descriptorpin", filepath.Join(binDir, "descriptorpin"))
	if err := os.WriteFile(unit, []byte(patched), 0o644); err != nil {
		t.Fatal(err)
	}
	systemdVerify(t, unit, true)

	generated := installUserUnit(t, filepath.Join(binDir, "descriptorpin"), t.TempDir())
	a, b := directives(t, unit), directives(t, generated)
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("packaged and generated units differ:\npackaged:\n%s\ngenerated:\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
}

// directives are a unit's section headers and settings, without comments
// and ExecStart.
func directives(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "ExecStart=") {
			continue
		}
		out = append(out, l)
	}
	return out
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestDryRunPlansTheUnitInstallWrites: the unit 'service install --dry-run'
// shows is, byte for byte, the unit kardianos/service then writes, also
// with a space, a % and a $ in the paths; and the dry run writes nothing.
func TestDryRunPlansTheUnitInstallWrites(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("kardianos/service offers systemd on Linux only")
	}
	home := filepath.Join(t.TempDir(), "home 100% $HOME")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(binDir, "descriptorpin"), "service", "install", "--manager", "systemd", "--dry-run")
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("service install --dry-run: %v\n%s", err, out)
	}
	if entries, _ := os.ReadDir(home); len(entries) > 0 {
		t.Fatalf("the dry run created %v in the home directory", entries)
	}
	var planned strings.Builder
	for _, l := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(l, "            | "); ok {
			planned.WriteString(rest + "\n")
		}
	}
	written, err := os.ReadFile(installUserUnit(t, filepath.Join(binDir, "descriptorpin"), home))
	if err != nil {
		t.Fatal(err)
	}
	if planned.String() != string(written) {
		t.Errorf("the dry run planned\n%s\ninstall wrote\n%s", planned.String(), written)
	}
}
