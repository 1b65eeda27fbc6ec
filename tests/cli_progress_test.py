#!/usr/bin/env python3
"""The progress line of a long run: on a terminal's stderr (a pty here) `chaiba werewolf` with several
games draws "werewolf: N/M games, R games/s" in place (\\r, erase to the end of the line) and clears
it at the end; with stderr a pipe (tests, logs) no such line and no \\r reach either stream, and
stdout is the same either way.
Usage: tests/cli_progress_test.py PATH_TO_CHAIBA"""
import os
import pty
import re
import subprocess
import sys

GAMES = 6
ARGS = ["werewolf", "--players", "bot*5", "--games", str(GAMES), "--seed", "3"]


def run_piped(binary):
    r = subprocess.run([binary] + ARGS, capture_output=True, timeout=300, env=dict(os.environ, TERM="xterm"))
    return r.returncode, r.stdout, r.stderr


def run_on_pty(binary):
    """stdout to a pipe, stderr to a pseudo-terminal; returns (exit code, stdout, what the terminal got)."""
    master, slave = pty.openpty()
    p = subprocess.Popen([binary] + ARGS, stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL,
                         env=dict(os.environ, TERM="xterm"))
    os.close(slave)
    terminal = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: every writer closed the terminal
            break
        if not chunk:
            break
        terminal += chunk
    out = p.stdout.read()
    p.wait(timeout=300)
    os.close(master)
    return p.returncode, out, terminal


def main():
    binary = sys.argv[1]
    failures = []
    rc, piped_out, piped_err = run_piped(binary)
    if rc != 0:
        failures.append("piped run: exit %d: %s" % (rc, piped_err[-500:]))
    if re.search(rb"games/s, ETA|\r", piped_err + piped_out) or b"werewolf: " in piped_err:
        failures.append("piped run: a progress line in the output: %r" % piped_err[-300:])
    if not re.search(rb"^summary: %d games" % GAMES, piped_out, re.M):
        failures.append("piped run: no summary line: %r" % piped_out[-300:])

    rc, tty_out, terminal = run_on_pty(binary)
    if rc != 0:
        failures.append("pty run: exit %d: %r" % (rc, terminal[-500:]))
    drawn = re.findall(rb"\r\x1b\[Kwerewolf: (\d+)/%d games, [0-9.]+ games/s" % GAMES, terminal)
    if not drawn:
        failures.append("pty run: no progress line on the terminal: %r" % terminal[-500:])
    elif any(int(n) > GAMES for n in drawn):
        failures.append("pty run: a count over the total: %r" % drawn)
    if not terminal.endswith(b"\r\x1b[K"):
        failures.append("pty run: the progress line is not cleared at the end: %r" % terminal[-100:])
    # The games' lines do not depend on where stderr goes (their wall times do).
    strip = lambda text: re.sub(rb"[0-9.]+ s|[0-9.]+ games/s", b"T", text)
    if strip(tty_out) != strip(piped_out):
        failures.append("stdout differs with stderr on a terminal:\n%r\n%r" % (tty_out[-300:], piped_out[-300:]))

    for f in failures:
        print("FAIL " + f)
    if failures:
        sys.exit(1)
    print("progress: drawn %d time(s) on a terminal, absent in a pipe" % len(drawn))


if __name__ == "__main__":
    main()
