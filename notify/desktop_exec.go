package notify

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
	"unicode/utf16"
)

// The macOS and Windows backends run a program with a fixed script and
// pass the notification's text as data (arguments, environment), never
// as script text, so nothing in a descriptor can become AppleScript or
// PowerShell. They compile on every OS (and their argument building is
// tested on Linux); desktop_darwin.go and desktop_windows.go choose them.

// execNotifier runs a program per notification.
type execNotifier struct {
	program string                                                           // looked up in PATH
	name    string                                                           // for target()
	command func(ctx context.Context, path string, n Notification) *exec.Cmd // builds the command
}

func (e *execNotifier) target() string { return e.name }

func (e *execNotifier) probe(context.Context) error {
	if _, err := exec.LookPath(e.program); err != nil {
		return fmt.Errorf("%w: %s not found", errUnavailable, e.program)
	}
	return nil
}

func (e *execNotifier) show(ctx context.Context, n Notification) (string, error) {
	path, err := exec.LookPath(e.program)
	if err != nil {
		return "", fmt.Errorf("%w: %s not found", errUnavailable, e.program)
	}
	cmd := e.command(ctx, path, n)
	// The context kills the program; WaitDelay stops waiting for pipes a
	// grandchild might hold.
	cmd.WaitDelay = time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return "", fmt.Errorf("%s did not finish: %w", e.program, ctx.Err())
	}
	if err != nil {
		msg := strings.TrimSpace(string(out))
		var ee *exec.ExitError
		if errors.As(err, &ee) && msg != "" {
			return "", fmt.Errorf("%s failed: %s", e.program, oneLine(msg, 300))
		}
		return "", fmt.Errorf("%s failed: %w", e.program, err)
	}
	return "shown by " + e.program, nil
}

func (e *execNotifier) close() error { return nil }

// osascriptNotifier shows a Notification Center notification. The text is
// passed as arguments to a fixed `on run argv` handler; the first argument
// is the fixed title, so no later one is read as an osascript option.
// Notification Center cannot replace a notification from osascript: each
// burst is its own.
func osascriptNotifier(appName string) *execNotifier {
	return &execNotifier{
		program: "osascript",
		name:    "Notification Center (osascript)",
		command: func(ctx context.Context, path string, n Notification) *exec.Cmd {
			return exec.CommandContext(ctx, path, osascriptArgs(appName, n)...)
		},
	}
}

func osascriptArgs(appName string, n Notification) []string {
	return []string{
		"-e", "on run argv",
		"-e", "display notification (item 3 of argv) with title (item 1 of argv) subtitle (item 2 of argv)",
		"-e", "end run",
		appName, n.Summary, n.Body,
	}
}

// toastScript is the fixed PowerShell script that shows a Windows toast.
// The text arrives in environment variables and becomes XML text nodes
// (CreateTextNode), never markup. The tag and group make each toast
// replace the previous one. The app id is Windows PowerShell's, which is
// registered on every Windows 10 and 11.
const toastScript = `$ErrorActionPreference = 'Stop'
[Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime] | Out-Null
[Windows.Data.Xml.Dom.XmlDocument, Windows.Data.Xml.Dom.XmlDocument, ContentType = WindowsRuntime] | Out-Null
$xml = New-Object Windows.Data.Xml.Dom.XmlDocument
$xml.LoadXml('<toast><visual><binding template="ToastGeneric"><text></text><text></text><text></text></binding></visual></toast>')
$t = $xml.GetElementsByTagName('text')
$t.Item(0).AppendChild($xml.CreateTextNode($env:DESCRIPTORPIN_TOAST_APP)) | Out-Null
$t.Item(1).AppendChild($xml.CreateTextNode($env:DESCRIPTORPIN_TOAST_TITLE)) | Out-Null
$t.Item(2).AppendChild($xml.CreateTextNode($env:DESCRIPTORPIN_TOAST_BODY)) | Out-Null
if ($env:DESCRIPTORPIN_TOAST_URGENT -eq '1') { $xml.DocumentElement.SetAttribute('scenario', 'reminder') }
$toast = [Windows.UI.Notifications.ToastNotification]::new($xml)
$toast.Tag = 'descriptorpin'
$toast.Group = 'descriptorpin'
$app = '{1AC14E77-02E7-4E5D-B744-2EB1AE5198B7}\WindowsPowerShell\v1.0\powershell.exe'
[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier($app).Show($toast)
`

// toastNotifier shows a Windows toast through PowerShell.
func toastNotifier(appName string) *execNotifier {
	return &execNotifier{
		program: "powershell.exe",
		name:    "Windows toast (PowerShell)",
		command: func(ctx context.Context, path string, n Notification) *exec.Cmd {
			cmd := exec.CommandContext(ctx, path, toastArgs()...)
			cmd.Env = append(cmd.Environ(), toastEnv(appName, n)...)
			hideWindow(cmd)
			return cmd
		},
	}
}

func toastArgs() []string {
	return []string{"-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-EncodedCommand", encodePowerShell(toastScript)}
}

func toastEnv(appName string, n Notification) []string {
	urgent := "0"
	if n.Urgent {
		urgent = "1"
	}
	return []string{
		"DESCRIPTORPIN_TOAST_APP=" + envSafe(appName),
		"DESCRIPTORPIN_TOAST_TITLE=" + envSafe(n.Summary),
		"DESCRIPTORPIN_TOAST_BODY=" + envSafe(n.Body),
		"DESCRIPTORPIN_TOAST_URGENT=" + urgent,
	}
}

// envSafe removes the NUL an environment value cannot hold (the text is
// already escaped, so there is none; this is the belt).
func envSafe(s string) string { return strings.ReplaceAll(s, "\x00", "") }

// encodePowerShell is the -EncodedCommand form of a script: base64 of its
// UTF-16LE.
func encodePowerShell(script string) string {
	u := utf16.Encode([]rune(script))
	b := make([]byte, 2*len(u))
	for i, c := range u {
		b[2*i], b[2*i+1] = byte(c), byte(c>>8)
	}
	return base64.StdEncoding.EncodeToString(b)
}
