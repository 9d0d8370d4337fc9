// Command plumb-power-loss is a power-loss layer for a broker node's data directory: a FUSE
// filesystem that passes everything through to a real directory but keeps what was written and
// not yet fsynced in memory, and on command drops it, as a power failure would. README.md says
// exactly what it makes durable when.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

const (
	exitOK     = 0
	exitError  = 1
	exitUsage  = 2
	exitNoFUSE = 3
)

const usage = `usage:
  plumb-power-loss mount   --backing DIR --mountpoint DIR --control SOCKET
                           [--names strict|journaled] [--writeback DURATION] [--log FILE] [--debug]
  plumb-power-loss serve   (the same flags as mount; stays in the foreground)
  plumb-power-loss drop    --control SOCKET
  plumb-power-loss sync    --control SOCKET
  plumb-power-loss status  --control SOCKET
  plumb-power-loss unmount --control SOCKET [--mountpoint DIR]
  plumb-power-loss check
exit status: 0 done, 1 failed, 2 usage, 3 FUSE not available here
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "mount":
		return cmdMount(args[1:], stdout, stderr)
	case "serve":
		return cmdServe(args[1:], stderr)
	case "drop", "sync", "status":
		return cmdAsk(args[0], args[1:], stdout, stderr)
	case "unmount":
		return cmdUnmount(args[1:], stdout, stderr)
	case "check":
		if err := fuseWorks(); err != nil {
			return fail(stderr, err)
		}
		fmt.Fprintln(stdout, "plumb-power-loss: FUSE works here")
		return exitOK
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "plumb-power-loss: unknown command %q\n%s", args[0], usage)
	return exitUsage
}

// fail prints err as the one line the command says, and picks the exit status.
func fail(stderr io.Writer, err error) int {
	fmt.Fprintln(stderr, "plumb-power-loss: "+strings.ReplaceAll(err.Error(), "\n", "; "))
	if errors.Is(err, errNoFUSE) {
		return exitNoFUSE
	}
	return exitError
}

type mountFlags struct {
	cfg       mountConfig
	control   string
	writeback time.Duration
	logPath   string
	readyFd   int
}

func parseMountFlags(name string, args []string, stderr io.Writer) (*mountFlags, error) {
	fl := flag.NewFlagSet(name, flag.ContinueOnError)
	fl.SetOutput(stderr)
	var mf mountFlags
	names := fl.String("names", "strict", "which fsync makes name changes durable: strict (a directory fsync) or journaled (any fsync)")
	fl.StringVar(&mf.cfg.backing, "backing", "", "the real directory (it holds exactly the durable state)")
	fl.StringVar(&mf.cfg.mountpoint, "mountpoint", "", "where programs see the layer (made if missing)")
	fl.StringVar(&mf.control, "control", "", "unix socket for drop, sync, status and unmount")
	fl.DurationVar(&mf.writeback, "writeback", 0, "make everything durable this often, as a kernel's writeback would (0: never)")
	fl.StringVar(&mf.logPath, "log", "", "mount: the layer's log (default: the control socket's path + .log)")
	fl.BoolVar(&mf.cfg.debug, "debug", false, "log every FUSE request")
	fl.IntVar(&mf.readyFd, "ready-fd", -1, "serve: descriptor to report the mount's outcome on (used by mount)")
	if err := fl.Parse(args); err != nil {
		return nil, err
	}
	var err error
	if mf.cfg.names, err = parseNamesRule(*names); err != nil {
		return nil, err
	}
	if mf.cfg.backing == "" || mf.cfg.mountpoint == "" || mf.control == "" {
		return nil, errors.New("--backing, --mountpoint and --control are all needed")
	}
	if fl.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fl.Arg(0))
	}
	if mf.logPath == "" {
		mf.logPath = mf.control + ".log"
	}
	return &mf, nil
}

// cmdMount starts the layer in the background (serve, in a session of its own, logging to
// --log) and returns once it is mounted, or with the reason it is not.
func cmdMount(args []string, stdout, stderr io.Writer) int {
	mf, err := parseMountFlags("mount", args, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "plumb-power-loss: %v\n", err)
		return exitUsage
	}
	exe, err := os.Executable()
	if err != nil {
		return fail(stderr, err)
	}
	logFile, err := os.OpenFile(mf.logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fail(stderr, err)
	}
	defer logFile.Close()
	r, w, err := os.Pipe()
	if err != nil {
		return fail(stderr, err)
	}
	cmd := exec.Command(exe, append([]string{"serve", "--ready-fd", "3"}, args...)...)
	cmd.ExtraFiles = []*os.File{w}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fail(stderr, err)
	}
	w.Close()

	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		lines <- strings.TrimSpace(line)
	}()
	var line string
	select {
	case line = <-lines:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		return fail(stderr, fmt.Errorf("the layer did not mount within 60 s; see %s", mf.logPath))
	}
	switch {
	case line == "ok":
		fmt.Fprintf(stdout, "plumb-power-loss: %s mounted over %s, control %s, pid %d\n",
			mf.cfg.mountpoint, mf.cfg.backing, mf.control, cmd.Process.Pid)
		cmd.Process.Release()
		return exitOK
	case strings.HasPrefix(line, "error "):
		cmd.Wait()
		code, msg, _ := strings.Cut(strings.TrimPrefix(line, "error "), " ")
		fmt.Fprintln(stderr, "plumb-power-loss: "+msg)
		if n, err := strconv.Atoi(code); err == nil {
			return n
		}
		return exitError
	}
	cmd.Wait()
	return fail(stderr, fmt.Errorf("the layer exited before mounting; see %s", mf.logPath))
}

// cmdServe mounts the layer and serves it until unmounted (by the control socket, or by
// SIGTERM or SIGINT, which unmount as cleanly as the unmount command does).
func cmdServe(args []string, stderr io.Writer) int {
	mf, err := parseMountFlags("serve", args, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "plumb-power-loss: %v\n", err)
		return exitUsage
	}
	var ready *os.File
	if mf.readyFd >= 0 {
		ready = os.NewFile(uintptr(mf.readyFd), "ready")
	}
	report := func(err error) int {
		code := fail(stderr, err)
		if ready != nil {
			fmt.Fprintf(ready, "error %d %s\n", code, strings.ReplaceAll(err.Error(), "\n", "; "))
			ready.Close()
		}
		return code
	}

	// Modes arrive with the program's umask already applied; the layer's own must not apply
	// a second time.
	unix.Umask(0)
	ln, err := listenControl(mf.control)
	if err != nil {
		return report(err)
	}
	defer os.Remove(mf.control)
	m, err := mountLayer(mf.cfg)
	if err != nil {
		ln.Close()
		return report(err)
	}
	log.Printf("mounted %s over %s (names %s, writeback %v), control %s",
		m.mountpoint, m.l.backing, m.l.names, mf.writeback, mf.control)

	done := make(chan struct{})
	go serveControl(ln, m, done)
	if mf.writeback > 0 {
		go func() {
			t := time.NewTicker(mf.writeback)
			defer t.Stop()
			for {
				select {
				case <-done:
					return
				case <-t.C:
					if err := m.l.syncAll(); err != nil {
						log.Printf("writeback: %v", err)
					}
				}
			}
		}()
	}
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	if ready != nil {
		fmt.Fprintln(ready, "ok")
		ready.Close()
	}

	for {
		select {
		case <-done:
			log.Printf("unmounted %s", m.mountpoint)
			return exitOK
		case s := <-signals:
			if err := m.unmount(); err != nil {
				log.Printf("%v: %v; still mounted", s, err)
				continue
			}
			ln.Close()
			log.Printf("%v: unmounted %s", s, m.mountpoint)
			return exitOK
		}
	}
}

func cmdAsk(cmd string, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fl.SetOutput(stderr)
	control := fl.String("control", "", "the layer's control socket")
	if err := fl.Parse(args); err != nil || *control == "" {
		fmt.Fprintf(stderr, "plumb-power-loss: %s needs --control SOCKET\n", cmd)
		return exitUsage
	}
	out, err := ask(*control, cmd)
	fmt.Fprint(stdout, out)
	if err != nil {
		return fail(stderr, err)
	}
	return exitOK
}

// cmdUnmount asks the layer to unmount. With --mountpoint, a mount whose layer no longer answers
// (it was killed) is detached instead: its unsynced data died with it.
func cmdUnmount(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("unmount", flag.ContinueOnError)
	fl.SetOutput(stderr)
	control := fl.String("control", "", "the layer's control socket")
	mountpoint := fl.String("mountpoint", "", "detach this mount if no layer answers")
	if err := fl.Parse(args); err != nil || *control == "" {
		fmt.Fprintln(stderr, "plumb-power-loss: unmount needs --control SOCKET")
		return exitUsage
	}
	_, err := ask(*control, "unmount")
	var unreachable *unreachableError
	if errors.As(err, &unreachable) && *mountpoint != "" {
		if derr := unix.Unmount(*mountpoint, unix.MNT_DETACH); derr != nil {
			return fail(stderr, fmt.Errorf("%v, and detaching %s failed: %v", err, *mountpoint, derr))
		}
		fmt.Fprintf(stdout, "plumb-power-loss: no layer answered; detached %s\n", *mountpoint)
		return exitOK
	}
	if err != nil {
		return fail(stderr, err)
	}
	return exitOK
}
