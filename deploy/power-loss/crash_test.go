package main

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

const (
	recordSize = 64
	syncEvery  = 7 // records between fdatasyncs
)

// record is the i-th record the appender writes: its number, then a letter that depends on it.
func record(i int) []byte {
	r := []byte(fmt.Sprintf("%08d:", i))
	r = append(r, bytes.Repeat([]byte{byte('a' + i%26)}, recordSize-len(r)-1)...)
	return append(r, '\n')
}

// appender is the program the crash test kills: it appends records to path, each in two
// write(2) calls cut at a random point (so a kill can fall inside a record), fdatasyncs after
// every syncEvery records and then says how many records are durable.
func appender(path string) int {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	seed, _ := strconv.ParseInt(os.Getenv("PLUMB_POWER_LOSS_SEED"), 10, 64)
	rng := rand.New(rand.NewSource(seed))
	out := bufio.NewWriter(os.Stdout)
	for i := 0; ; i++ {
		r := record(i)
		cut := rng.Intn(len(r) + 1)
		if _, err := f.Write(r[:cut]); err != nil {
			return 1
		}
		if _, err := f.Write(r[cut:]); err != nil {
			return 1
		}
		if (i+1)%syncEvery == 0 {
			if err := unix.Fdatasync(int(f.Fd())); err != nil {
				return 1
			}
			fmt.Fprintf(out, "synced %d\n", i+1)
			out.Flush()
		}
	}
}

// A program killed mid-write, then a power loss: the file holds exactly the records up to some
// fsync the program made (at least the last one it saw return), never a torn record, zeros or
// bytes it did not write.
func TestCrashMidWrite(t *testing.T) {
	tl := mountForTest(t, namesStrict)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	for round := 0; round < 6; round++ {
		p := tl.path(fmt.Sprintf("log-%d", round))
		durable(t, p, "")

		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), "PLUMB_POWER_LOSS_APPENDER="+p,
			"PLUMB_POWER_LOSS_SEED="+strconv.Itoa(rng.Int()))
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		reported := make(chan int, 1)
		go func() {
			last := 0
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				if n, err := strconv.Atoi(strings.TrimPrefix(sc.Text(), "synced ")); err == nil {
					last = n
				}
			}
			reported <- last
		}()
		// Let it run a while (the first round only briefly), then kill it and wait until it is
		// gone: a power loss stops every program at once.
		time.Sleep(time.Duration(5+rng.Intn(300)) * time.Millisecond * time.Duration(min(round, 1)))
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		lastSynced := <-reported
		held := tl.m.l.status()

		tl.drop(t)
		got, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(got)%recordSize != 0 {
			t.Fatalf("round %d: %d bytes, not a whole number of records", round, len(got))
		}
		n := len(got) / recordSize
		for i := 0; i < n; i++ {
			if r := got[i*recordSize : (i+1)*recordSize]; !bytes.Equal(r, record(i)) {
				t.Fatalf("round %d: record %d is %q, want %q", round, i, r, record(i))
			}
		}
		if n%syncEvery != 0 || n < lastSynced {
			t.Fatalf("round %d: %d records survive; want a multiple of %d and at least %d (the last fsync reported)",
				round, n, syncEvery, lastSynced)
		}
		t.Logf("round %d: killed after %d records synced (reported), %d survive the drop; before it: %s",
			round, lastSynced, n, strings.ReplaceAll(held, "\n", " "))
	}
}
