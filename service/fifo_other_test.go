//go:build !unix

package service

import "testing"

func mkfifo(t *testing.T, _ string) { t.Skip("no FIFOs on this OS") }
