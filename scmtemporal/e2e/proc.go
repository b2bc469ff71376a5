package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// proc is a child process whose stderr (and stdout, once read) goes to a
// log file.
type proc struct {
	name string
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
	err  error         // its exit, once done is closed
}

// startProc starts name with args and env added to this process's
// environment, its stderr appended to logPath. When wantLine is not
// empty, it waits (within ctx) for the first stdout line that starts with
// wantLine and returns the lines read so far; the rest of stdout goes to the
// log too.
func startProc(ctx context.Context, name, logPath string, env []string, wantLine string, path string, args ...string) (*proc, []string, error) {
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(path, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stdout io.ReadCloser
	if wantLine != "" {
		if stdout, err = cmd.StdoutPipe(); err != nil {
			logf.Close()
			return nil, nil, err
		}
	} else {
		cmd.Stdout = logf
	}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	p := &proc{name: name, cmd: cmd, done: make(chan struct{})}
	lines := make(chan string, 64) // the first lines; later ones go only to the log
	if stdout != nil {
		go forwardLines(stdout, logf, lines)
	}
	go func() {
		p.err = cmd.Wait()
		logf.Close()
		close(p.done)
	}()
	if wantLine == "" {
		return p, nil, nil
	}
	read, err := p.awaitLine(ctx, lines, wantLine)
	if err != nil {
		p.kill()
		return nil, read, fmt.Errorf("%s (log %s): %w", name, logPath, err)
	}
	return p, read, nil
}

// forwardLines copies stdout's lines to the log and sends them on lines
// while its buffer has room: the first lines, which awaitLine reads.
func forwardLines(r io.Reader, log io.Writer, lines chan<- string) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		fmt.Fprintln(log, sc.Text())
		select {
		case lines <- sc.Text():
		default:
		}
	}
	close(lines)
}

// awaitLine returns the lines read until one starts with want.
func (p *proc) awaitLine(ctx context.Context, lines <-chan string, want string) ([]string, error) {
	var read []string
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				<-p.done
				return read, fmt.Errorf("exited (%v) before printing %q", p.err, want)
			}
			read = append(read, l)
			if strings.HasPrefix(l, want) {
				return read, nil
			}
		case <-ctx.Done():
			return read, fmt.Errorf("printed no line %q: %w", want, ctx.Err())
		}
	}
}

// kill sends SIGKILL to the process's group and waits for it.
func (p *proc) kill() {
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.done
}

// stop sends SIGTERM and waits up to grace before it kills the group.
func (p *proc) stop(grace time.Duration) {
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(grace):
		p.kill()
	}
}

// exited reports whether the process has ended.
func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

var errNoFreePort = errors.New("no free port")
