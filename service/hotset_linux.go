package service

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// releaseText drops this process's resident pages of its own executable's
// read-only mappings (its code and read-only data: clean pages of the
// binary's file, never written). Start-up touched most of them, every
// package's init and the first scan, and an idle service needs few of
// them again: the kernel reads back the ones that are used (from the
// page cache, a minor fault) when they are. Written mappings (data, bss)
// and every anonymous one are left alone. Best effort: any error leaves
// things as they are.
func releaseText() {
	exe, err := os.Executable()
	if err != nil {
		return
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return
	}
	for _, line := range bytes.Split(maps, []byte{'\n'}) {
		// start-end perms offset dev inode path
		f := bytes.Fields(line)
		if len(f) != 6 || string(f[5]) != exe || (string(f[1]) != "r-xp" && string(f[1]) != "r--p") {
			continue
		}
		lo, hi, ok := bytes.Cut(f[0], []byte{'-'})
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(string(lo), 16, 64)
		end, err2 := strconv.ParseUint(string(hi), 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			continue
		}
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, uintptr(start), uintptr(end-start), syscall.MADV_DONTNEED)
	}
}

// residentBytes returns this process's resident set (VmRSS in
// /proc/self/status), in bytes.
func residentBytes() (int64, bool) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	return vmRSS(status)
}

// vmRSS reads the VmRSS line of a /proc/PID/status text ("VmRSS:
// 10340 kB"), in bytes.
func vmRSS(status []byte) (int64, bool) {
	for _, line := range bytes.Split(status, []byte{'\n'}) {
		rest, ok := bytes.CutPrefix(line, []byte("VmRSS:"))
		if !ok {
			continue
		}
		f := bytes.Fields(rest)
		if len(f) != 2 || string(f[1]) != "kB" {
			return 0, false
		}
		n, err := strconv.ParseInt(string(f[0]), 10, 64)
		if err != nil || n < 0 {
			return 0, false
		}
		return n << 10, true
	}
	return 0, false
}
