package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"
)

// The control endpoint is a unix socket. A client sends one command line (drop, sync, status,
// unmount) and reads the answer to the end: a first line "ok" or "error: why", then key=value
// lines.

// listenControl opens the control socket, refusing one another layer still answers on.
func listenControl(path string) (net.Listener, error) {
	if _, err := os.Stat(path); err == nil {
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			c.Close()
			return nil, fmt.Errorf("a layer already answers on %s", path)
		}
		os.Remove(path) // left by a layer that died
	}
	return net.Listen("unix", path)
}

// serveControl answers commands until unmount succeeds; then it closes done.
func serveControl(ln net.Listener, m *mount, done chan<- struct{}) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		line, _ := bufio.NewReader(c).ReadString('\n')
		reply, unmounted := answer(strings.TrimSpace(line), m)
		io.WriteString(c, reply)
		c.Close()
		if unmounted {
			ln.Close()
			close(done)
			return
		}
	}
}

func answer(cmd string, m *mount) (reply string, unmounted bool) {
	switch cmd {
	case "drop":
		r := m.l.drop()
		head := "ok"
		if len(r.errors) > 0 {
			head = "error: the drop could not undo every name change: " + strings.Join(r.errors, "; ")
		}
		return fmt.Sprintf("%s\ndropped_bytes=%d\ndropped_files=%d\nundone_names=%d\nopen_files=%d\n",
			head, r.bytes, r.files, r.names, r.openFiles), false
	case "sync":
		if err := m.l.syncAll(); err != nil {
			return "error: " + err.Error() + "\n", false
		}
		return "ok\n", false
	case "status":
		return "ok\n" + m.l.status() + "\nmountpoint=" + m.mountpoint + "\n", false
	case "unmount":
		if err := m.unmount(); err != nil {
			return "error: " + err.Error() + "\n", false
		}
		return "ok\n", true
	}
	return fmt.Sprintf("error: unknown command %q (drop, sync, status, unmount)\n", cmd), false
}

// ask sends one command to the layer at path and returns the lines after "ok", or an error
// holding the layer's "error: ..." line or why it could not be reached.
func ask(path, cmd string) (string, error) {
	c, err := net.DialTimeout("unix", path, 5*time.Second)
	if err != nil {
		return "", &unreachableError{fmt.Sprintf("no layer answers on %s: %v", path, err)}
	}
	defer c.Close()
	if _, err := io.WriteString(c, cmd+"\n"); err != nil {
		return "", err
	}
	all, err := io.ReadAll(c)
	if err != nil {
		return "", err
	}
	head, rest, _ := strings.Cut(string(all), "\n")
	if head != "ok" {
		if head == "" {
			head = "the layer closed the connection without answering"
		}
		return rest, fmt.Errorf("%s", strings.TrimPrefix(head, "error: "))
	}
	return rest, nil
}

// unreachableError: nothing answers on the control socket (no layer, or a dead one).
type unreachableError struct{ msg string }

func (e *unreachableError) Error() string { return e.msg }
