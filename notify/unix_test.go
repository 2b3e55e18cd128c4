package notify

import (
	"net"
	"path/filepath"
	"sync"
	"testing"
)

// listenUnix accepts connections on a unix socket and never answers.
func listenUnix(t *testing.T, dir string) (net.Listener, string) {
	t.Helper()
	path := filepath.Join(dir, "silent.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Skip("no unix sockets:", err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return ln, path
}
