# Runs trapscope's TUI on a pseudo-terminal and acts on it step by step,
# for tests/tui/signals.rs. By default as a job-control shell runs a job:
# this process leads the session the terminal controls, and the TUI is
# its own process group in the foreground, so that a stop can be
# continued. With --orphan first, the TUI leads a session of its own (as
# tmux or setsid start a command): its group is orphaned, and nothing
# should stop it. argv: the binary, [--orphan], then steps: a signal name
# (SIGTERM, ...) sent with kill, or key:HEX written to the terminal as
# typed. After each step it waits until the process stops or ends (or,
# after SIGCONT, until it has cleared the screen to draw it anew), and reports as JSON
# what the TUI wrote in the meantime and whether the terminal's mode
# (termios) equals the one from before the TUI started. No steps: wait
# for the process to end by itself.
import fcntl, json, os, pty, select, signal, struct, subprocess, sys, termios, time

exe, plan = sys.argv[1], sys.argv[2:]
orphan = plan[:1] == ["--orphan"]
if orphan:
    plan = plan[1:]
master, slave = pty.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 45, 160, 0, 0))
before = termios.tcgetattr(slave)


def controlling_terminal():
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def foreground_job():
    # A group of its own, then the terminal's foreground (a background
    # group taking it is sent SIGTTOU, held off while it does).
    os.setpgid(0, 0)
    old = signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    os.tcsetpgrp(0, os.getpid())
    signal.signal(signal.SIGTTOU, old)


env = dict(os.environ, TERM="xterm-256color")
if orphan:
    p = subprocess.Popen([exe], stdin=slave, stdout=slave, stderr=slave,
                         start_new_session=True, preexec_fn=controlling_terminal,
                         env=env, close_fds=True)
else:
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    p = subprocess.Popen([exe], stdin=slave, stdout=slave, stderr=slave,
                         preexec_fn=foreground_job, env=env, close_fds=True)
out = bytearray()


def pump(seconds):
    end = time.time() + seconds
    while time.time() < end:
        r, _, _ = select.select([master], [], [], 0.05)
        if r:
            try:
                d = os.read(master, 65536)
            except OSError:
                return
            if not d:
                return
            out.extend(d)


def status(st):
    if os.WIFSTOPPED(st):
        return "stopped"
    if os.WIFSIGNALED(st):
        return "signal %d" % os.WTERMSIG(st)
    return "exit %d" % os.WEXITSTATUS(st)


steps = []
end = time.time() + 60
# The first frame: the alternate screen, then a screenful.
while time.time() < end and not (b"\x1b[?1049h" in out and len(out) > 4000):
    pump(0.1)
pump(0.5)
for step in plan + ([] if plan else ["wait"]):
    # "wait" reports everything written, the first frame included.
    mark = len(out) if step != "wait" else 0
    if step.startswith("key:"):
        os.write(master, bytes.fromhex(step[4:]))
    elif step != "wait":
        os.kill(p.pid, getattr(signal, step))
    state = "running"
    end = time.time() + 20
    while time.time() < end:
        pump(0.1)
        pid, st = os.waitpid(p.pid, os.WUNTRACED | os.WNOHANG)
        if pid:
            state = status(st)
            break
        # Taken back and drawn anew: a full clear.
        if step == "SIGCONT" and b"\x1b[2J" in out[mark:]:
            break
    pump(0.3)
    steps.append({"step": step, "state": state,
                  "out": out[mark:].decode("latin-1"),
                  "same_tty": termios.tcgetattr(slave) == before})
    if not state.startswith("running") and state != "stopped":
        break
if p.poll() is None:
    p.kill()
print(json.dumps(steps))
