//go:build ignore

// capture is the MCP client behind capture.sh. It has two modes:
//
//	go run capture.go probe -out FILE -timeout 60s -- CMD [ARGS...]
//	    starts CMD over stdio, sends initialize, notifications/initialized
//	    and tools/list (following nextCursor), and writes the server's
//	    answers to FILE: every tool object as the exact bytes the server
//	    sent (json.RawMessage, so key order, numbers and escapes survive).
//
//	go run capture.go merge -tsv servers.tsv -results DIR -out tools.json
//	    joins the probe files of the servers in the TSV into one inventory
//	    in DescriptorPin's format, servers sorted by name, tools in server
//	    order, and prints a markdown table of the counts.
//
// It uses only the standard library and the project's canon package (for
// the same duplicate-name rule as the inventory parser).
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/descriptorpin/descriptorpin/engine/canon"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: capture probe|merge ...")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "probe":
		err = probe(os.Args[2:])
	case "merge":
		err = merge(os.Args[2:])
	default:
		err = fmt.Errorf("unknown mode %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture:", err)
		os.Exit(1)
	}
}

// ---- probe ----

type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   json.RawMessage `json:"error,omitempty"`
}

type probeOut struct {
	Command         []string          `json:"command"`
	ProtocolVersion string            `json:"protocolVersion,omitempty"`
	ServerInfo      json.RawMessage   `json:"serverInfo,omitempty"`
	Capabilities    json.RawMessage   `json:"capabilities,omitempty"`
	Pages           int               `json:"pages"`
	NonJSONLines    int               `json:"nonJsonStdoutLines"`
	Tools           []json.RawMessage `json:"tools"`
}

func probe(args []string) error {
	fs := flag.NewFlagSet("probe", flag.ExitOnError)
	out := fs.String("out", "", "file to write")
	timeout := fs.Duration("timeout", 60*time.Second, "time for the whole exchange")
	proto := fs.String("protocol", "2025-06-18", "protocolVersion to offer")
	fs.Parse(args)
	cmdline := fs.Args()
	if *out == "" || len(cmdline) == 0 {
		return errors.New("probe needs -out and a command")
	}
	cmd := exec.Command(cmdline[0], cmdline[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	defer func() {
		stdin.Close()
		select {
		case <-exited:
		case <-time.After(2 * time.Second):
		}
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(3 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	}()

	var wmu sync.Mutex
	send := func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		wmu.Lock()
		defer wmu.Unlock()
		_, err = stdin.Write(append(b, '\n'))
		return err
	}

	responses := make(chan message, 16)
	readErr := make(chan error, 1)
	nonJSON := 0
	var nmu sync.Mutex
	go func() {
		r := bufio.NewReaderSize(stdout, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			line = bytes.TrimSpace(line)
			if len(line) > 0 {
				var m message
				if line[0] != '{' || json.Unmarshal(line, &m) != nil {
					nmu.Lock()
					nonJSON++
					nmu.Unlock()
				} else if m.Method != "" && len(m.ID) > 0 {
					// A request from the server: answer ping, refuse the rest.
					if m.Method == "ping" {
						send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{}})
					} else {
						send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
					}
				} else if m.Method == "" {
					responses <- m
				}
			}
			if err != nil {
				readErr <- err
				return
			}
		}
	}()

	deadline := time.After(*timeout)
	nextID := 0
	call := func(method string, params any) (json.RawMessage, error) {
		nextID++
		id := nextID
		if err := send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
			return nil, fmt.Errorf("%s: write: %v", method, err)
		}
		want := fmt.Sprint(id)
		for {
			select {
			case m := <-responses:
				if string(m.ID) != want {
					continue
				}
				if len(m.Error) > 0 {
					return nil, fmt.Errorf("%s: error %s", method, m.Error)
				}
				return m.Result, nil
			case err := <-readErr:
				return nil, fmt.Errorf("%s: server closed stdout (%v)", method, err)
			case <-exited:
				// Drain anything already read before the exit was seen.
				select {
				case m := <-responses:
					if string(m.ID) == want && len(m.Error) == 0 {
						return m.Result, nil
					}
				case <-time.After(500 * time.Millisecond):
				}
				return nil, fmt.Errorf("%s: server exited (%v)", method, cmd.ProcessState)
			case <-deadline:
				return nil, fmt.Errorf("%s: timed out after %v", method, *timeout)
			}
		}
	}

	res := probeOut{Command: cmdline}
	initRes, err := call("initialize", map[string]any{
		"protocolVersion": *proto,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "descriptorpin-capture", "version": "1.0.0"},
	})
	if err != nil {
		return err
	}
	var ir struct {
		ProtocolVersion string          `json:"protocolVersion"`
		ServerInfo      json.RawMessage `json:"serverInfo"`
		Capabilities    json.RawMessage `json:"capabilities"`
	}
	if err := json.Unmarshal(initRes, &ir); err != nil {
		return fmt.Errorf("initialize result: %v", err)
	}
	res.ProtocolVersion, res.ServerInfo, res.Capabilities = ir.ProtocolVersion, ir.ServerInfo, ir.Capabilities
	if err := send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); err != nil {
		return err
	}
	cursor := ""
	for {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		lr, err := call("tools/list", params)
		if err != nil {
			return err
		}
		var page struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor *string           `json:"nextCursor"`
		}
		if err := json.Unmarshal(lr, &page); err != nil {
			return fmt.Errorf("tools/list result: %v", err)
		}
		res.Pages++
		res.Tools = append(res.Tools, page.Tools...)
		if page.NextCursor == nil || *page.NextCursor == "" || res.Pages >= 100 {
			break
		}
		cursor = *page.NextCursor
	}
	nmu.Lock()
	res.NonJSONLines = nonJSON
	nmu.Unlock()
	if res.Tools == nil {
		res.Tools = []json.RawMessage{}
	}
	return writeJSON(*out, res)
}

func writeJSON(path string, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	var ind bytes.Buffer
	if err := json.Indent(&ind, bytes.TrimSpace(buf.Bytes()), "", "  "); err != nil {
		return err
	}
	ind.WriteByte('\n')
	return os.WriteFile(path, ind.Bytes(), 0o644)
}

// ---- merge ----

type invServer struct {
	Name      string            `json:"name"`
	Transport string            `json:"transport"`
	Command   string            `json:"command"`
	Args      []string          `json:"args"`
	Tools     []json.RawMessage `json:"tools"`
}

// Slug is the file name capture.sh gives a package's results.
func Slug(pkg string) string {
	return strings.NewReplacer("@", "", "/", "__").Replace(pkg)
}

func merge(args []string) error {
	fs := flag.NewFlagSet("merge", flag.ExitOnError)
	tsv := fs.String("tsv", "servers.tsv", "sources")
	results := fs.String("results", "", "directory of probe files")
	out := fs.String("out", "tools.json", "inventory to write")
	fs.Parse(args)
	f, err := os.Open(*tsv)
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return err
	}
	var servers []invServer
	type row struct{ name, status, note string }
	var rows []row
	total := 0
	for i, line := range strings.Split(string(data), "\n") {
		if i == 0 || strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 2 {
			return fmt.Errorf("%s:%d: fewer than 2 columns", *tsv, i+1)
		}
		pkg, ver := cols[0], cols[1]
		name := pkg + "@" + ver
		file := filepath.Join(*results, Slug(pkg)+".json")
		b, err := os.ReadFile(file)
		if err != nil {
			reason := "no result"
			if st, err := os.ReadFile(filepath.Join(*results, Slug(pkg)+".status")); err == nil {
				reason = strings.TrimSpace(string(st))
			}
			rows = append(rows, row{name, "failed", reason})
			continue
		}
		var p probeOut
		if err := json.Unmarshal(b, &p); err != nil {
			return fmt.Errorf("%s: %v", file, err)
		}
		if len(p.Tools) == 0 {
			rows = append(rows, row{name, "failed", "tools/list returned no tools"})
			continue
		}
		seen := map[string]bool{}
		var tools []json.RawMessage
		var dropped []string
		for _, t := range p.Tools {
			var nt struct {
				Name string `json:"name"`
			}
			json.Unmarshal(t, &nt)
			k := canon.Strip(nt.Name)
			if seen[k] {
				dropped = append(dropped, nt.Name)
				continue
			}
			seen[k] = true
			tools = append(tools, t)
		}
		note := ""
		if len(dropped) > 0 {
			note = fmt.Sprintf("dropped %d duplicate tool name(s): %s", len(dropped), strings.Join(dropped, ", "))
		}
		if p.Pages > 1 {
			note = strings.TrimSpace(note + fmt.Sprintf(" %d pages", p.Pages))
		}
		rows = append(rows, row{name, fmt.Sprint(len(tools)), note})
		total += len(tools)
		servers = append(servers, invServer{
			Name: name, Transport: "stdio", Command: "npx",
			Args: []string{"-y", name}, Tools: tools,
		})
	}
	sort.Slice(servers, func(i, j int) bool { return servers[i].Name < servers[j].Name })
	if err := writeJSON(*out, map[string]any{"servers": servers}); err != nil {
		return err
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].name < rows[j].name })
	fmt.Println("| server | tools | notes |")
	fmt.Println("| --- | ---: | --- |")
	ok := 0
	for _, r := range rows {
		if r.status != "failed" {
			ok++
			fmt.Printf("| `%s` | %s | %s |\n", r.name, r.status, r.note)
		}
	}
	fmt.Printf("\n%d servers, %d tools\n\nFailed:\n\n", ok, total)
	for _, r := range rows {
		if r.status == "failed" {
			fmt.Printf("- `%s`: %s\n", r.name, r.note)
		}
	}
	return nil
}
