package notify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/godbus/dbus/v5"
)

// The freedesktop notification service
// (https://specifications.freedesktop.org/notification-spec/latest/).
const (
	fdoName  = "org.freedesktop.Notifications"
	fdoPath  = dbus.ObjectPath("/org/freedesktop/Notifications")
	fdoIface = "org.freedesktop.Notifications"
)

// dbusNotifier talks to the notification server on the session bus over a
// private connection of its own.
//
// It connects only to the address in DBUS_SESSION_BUS_ADDRESS, with
// dbus.Dial, and only over unix:, tcp: or nonce-tcp: transports: it never
// runs dbus-launch (godbus's SessionBus and SessionBusPrivate do when the
// variable is empty), never starts a bus and never leaves a process
// behind. Every call has a deadline, so a server that never answers costs
// at most the timeout. The id each Notify returns is passed as
// replaces_id to the next one, so a new burst replaces the last
// notification instead of stacking.
type dbusNotifier struct {
	address string
	appName string

	conn      *dbus.Conn
	capsKnown bool
	markup    bool   // the server reads body markup: escape & < >
	owner     string // the unique bus name capsKnown and markup are of
	lastID    uint32
}

func newDBusNotifier(address, appName string) *dbusNotifier {
	return &dbusNotifier{address: strings.TrimSpace(address), appName: appName}
}

func (n *dbusNotifier) target() string { return "freedesktop notifications on the D-Bus session bus" }

func (n *dbusNotifier) probe(ctx context.Context) error { return n.connect(ctx) }

// usableAddress reports whether a bus address names at least one
// transport that is connected to, not launched.
func usableAddress(addr string) bool {
	for _, a := range strings.Split(addr, ";") {
		t, _, ok := strings.Cut(a, ":")
		if ok && (t == "unix" || t == "tcp" || t == "nonce-tcp") {
			return true
		}
	}
	return false
}

func (n *dbusNotifier) connect(ctx context.Context) error {
	if n.conn != nil {
		if n.conn.Connected() {
			return nil
		}
		_ = n.conn.Close()
		n.conn, n.capsKnown = nil, false
	}
	if n.address == "" {
		return fmt.Errorf("%w: no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)", errUnavailable)
	}
	if !usableAddress(n.address) {
		return fmt.Errorf("%w: DBUS_SESSION_BUS_ADDRESS names no unix:, tcp: or nonce-tcp: transport (nothing is launched)", errUnavailable)
	}
	conn, err := dbus.Dial(n.address)
	if err != nil {
		return fmt.Errorf("connecting to the D-Bus session bus: %w", err)
	}
	done := make(chan error, 1)
	go func() {
		err := conn.Auth(nil)
		if err == nil {
			err = conn.Hello()
		}
		done <- err
	}()
	select {
	case err = <-done:
	case <-ctx.Done():
		_ = conn.Close() // unblocks Auth or Hello
		return fmt.Errorf("the D-Bus session bus did not answer: %w", ctx.Err())
	}
	if err != nil {
		_ = conn.Close()
		return fmt.Errorf("authenticating to the D-Bus session bus: %w", err)
	}
	n.conn = conn
	return nil
}

func (n *dbusNotifier) show(ctx context.Context, note Notification) (string, error) {
	if err := n.connect(ctx); err != nil {
		return "", err
	}
	obj := n.conn.Object(fdoName, fdoPath)
	// The capabilities are those of one server: when another takes the
	// name (a markup-capable daemon replacing a plain one), ask again, or
	// it would receive unescaped markup.
	var owner string
	if err := n.conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.GetNameOwner", 0, fdoName).Store(&owner); err != nil {
		return "", n.callErr(ctx, err)
	}
	if owner != n.owner {
		n.owner, n.capsKnown, n.lastID = owner, false, 0
	}
	if !n.capsKnown {
		var caps []string
		if err := obj.CallWithContext(ctx, fdoIface+".GetCapabilities", 0).Store(&caps); err != nil {
			return "", n.callErr(ctx, err)
		}
		n.markup, n.capsKnown = slices.Contains(caps, "body-markup"), true
	}
	body := note.Body
	if n.markup {
		body = markupEscape(body)
	}
	urgency, icon := byte(1), "dialog-information"
	if note.Urgent {
		urgency, icon = 2, "dialog-warning"
	}
	hints := map[string]dbus.Variant{
		"urgency":  dbus.MakeVariant(urgency),
		"category": dbus.MakeVariant("x-descriptorpin.finding"),
	}
	var id uint32
	err := obj.CallWithContext(ctx, fdoIface+".Notify", 0,
		n.appName, n.lastID, icon, note.Summary, body, []string{}, hints, int32(-1)).Store(&id)
	if err != nil {
		return "", n.callErr(ctx, err)
	}
	n.lastID = id
	return fmt.Sprintf("notification %d", id), nil
}

// callErr describes a failed call; a connection that broke is dropped so
// the next call reconnects.
func (n *dbusNotifier) callErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("the notification server did not answer: %w", ctx.Err())
	}
	var de dbus.Error
	if errors.As(err, &de) && (de.Name == "org.freedesktop.DBus.Error.ServiceUnknown" || de.Name == "org.freedesktop.DBus.Error.NameHasNoOwner") {
		return fmt.Errorf("no notification server (%s) on the session bus", fdoName)
	}
	if !n.conn.Connected() {
		_ = n.conn.Close()
		n.conn, n.capsKnown = nil, false
	}
	return fmt.Errorf("calling the notification server: %w", err)
}

func (n *dbusNotifier) close() error {
	if n.conn == nil {
		return nil
	}
	err := n.conn.Close()
	n.conn = nil
	return err
}

// markupEscape makes plain text safe in a freedesktop body that is read as
// markup.
func markupEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;").Replace(s)
}
