package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The command line end to end, with the test binary standing in for plumb-power-loss: mount in
// the background, write, status, drop, status, unmount.
func TestCommandLine(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	backing, mnt, ctl := filepath.Join(dir, "backing"), filepath.Join(dir, "mnt"), filepath.Join(dir, "ctl")
	os.Mkdir(backing, 0o755)
	cli := func(args ...string) (string, error) {
		cmd := exec.Command(exe, args...)
		cmd.Env = append(os.Environ(), "PLUMB_POWER_LOSS_RUN_MAIN=1")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := cli("mount", "--backing", backing, "--mountpoint", mnt, "--control", ctl); err != nil {
		t.Fatalf("mount: %v: %s", err, out)
	} else if !strings.Contains(out, "mounted over") && !strings.Contains(out, " mounted ") {
		t.Errorf("mount said %q", out)
	}
	defer cli("unmount", "--control", ctl, "--mountpoint", mnt)

	durable(t, filepath.Join(mnt, "kept"), "kept")
	write(t, filepath.Join(mnt, "lost"), "lost data", false)
	out, err := cli("status", "--control", ctl)
	if err != nil || !strings.Contains(out, "unsynced_bytes=9\n") || !strings.Contains(out, "pending_names=1\n") {
		t.Fatalf("status: %v: %s", err, out)
	}
	out, err = cli("drop", "--control", ctl)
	if err != nil || !strings.Contains(out, "dropped_bytes=9\n") || !strings.Contains(out, "undone_names=1\n") {
		t.Fatalf("drop: %v: %s", err, out)
	}
	expectContent(t, filepath.Join(mnt, "kept"), "kept")
	expectGone(t, filepath.Join(mnt, "lost"))

	out, err = cli("unmount", "--control", ctl)
	if err != nil {
		t.Fatalf("unmount: %v: %s", err, out)
	}
	if mounted(mnt) {
		t.Fatalf("%s is still mounted", mnt)
	}
	if _, err := os.Stat(filepath.Join(backing, trashName)); err == nil {
		t.Errorf("unmount left %s in the backing directory", trashName)
	}
	expectContent(t, filepath.Join(backing, "kept"), "kept")

	// With nothing answering, the commands say so in one line and fail.
	out, err = cli("status", "--control", ctl)
	if err == nil || strings.Count(strings.TrimSpace(out), "\n") != 0 {
		t.Errorf("status with no layer: %v: %q", err, out)
	}
}

func mounted(dir string) bool {
	deadline := time.Now().Add(5 * time.Second)
	for {
		data, _ := os.ReadFile("/proc/self/mounts")
		found := false
		for _, line := range strings.Split(string(data), "\n") {
			if f := strings.Fields(line); len(f) > 1 && f[1] == dir {
				found = true
			}
		}
		if !found || time.Now().After(deadline) {
			return found
		}
		time.Sleep(50 * time.Millisecond)
	}
}
