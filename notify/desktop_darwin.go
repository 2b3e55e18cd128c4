//go:build darwin

package notify

// platformNotifier: macOS shows a Notification Center notification through
// osascript.
func platformNotifier(opt DesktopOptions) notifier { return osascriptNotifier(opt.AppName) }
