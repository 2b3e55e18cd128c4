//go:build !darwin && !windows

package notify

// platformNotifier: Linux and the BSDs use the freedesktop notification
// service on the D-Bus session bus named by DBUS_SESSION_BUS_ADDRESS.
func platformNotifier(opt DesktopOptions) notifier {
	return newDBusNotifier(opt.Getenv("DBUS_SESSION_BUS_ADDRESS"), opt.AppName)
}
