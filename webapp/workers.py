"""Several worker processes behind one port (pre-fork, POSIX only).

cheroot serves with threads in one process, and one process uses one core for
Python's work (reading photos, replaying games). `run_workers` forks N worker
processes that each run their own server on the same port: every worker binds it
with `SO_REUSEPORT`, and the kernel spreads new connections over them. The parent
keeps the port bound (not listening, so it takes no connection) for the workers it
may have to start again, starts a worker again when one dies, and stops them all
on Ctrl+C or SIGTERM. Workers share nothing but what their `start` function opens
(the database server, the photo folder).
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import time
import traceback
from collections.abc import Callable
from typing import NoReturn, TextIO

READY_WAIT_S = 120.0  # for every worker to listen (each builds its app)
STOP_WAIT_S = 15.0  # for workers to finish their requests after SIGTERM
MIN_UPTIME_S = 10.0  # a worker that dies sooner counts as failing to start
MAX_FAST_FAILURES = 5


class _Stop(Exception):
    """Raised in the parent by SIGINT/SIGTERM, to leave its wait."""


def reserve_port(host: str, port: int) -> socket.socket:
    """Bind (without listening) `host:port` with SO_REUSEPORT: a taken port fails here,
    before any worker starts, and port 0 becomes the port every worker binds."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def _worker(index: int, start: Callable[[int, Callable[[], None]], int], ready_fd: int) -> NoReturn:
    """The child: serve until SIGTERM/SIGINT, then leave without running the parent's cleanup."""
    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        if not stopping:  # once: a second signal must not break the graceful stop
            stopping = True
            raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def ready() -> None:
        os.write(ready_fd, b"1")
        os.close(ready_fd)

    code = 1
    try:
        code = start(index, ready)
    except KeyboardInterrupt:
        code = 0
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


def run_workers(
    count: int,
    start: Callable[[int, Callable[[], None]], int],
    *,
    on_ready: Callable[[], None] = lambda: None,
    err: TextIO = sys.stderr,
) -> int:
    """Run `start(index, ready)` in `count` forked processes until a signal stops them.

    `start` builds its server, calls `ready()` once it listens, serves, and returns
    an exit code (or raises KeyboardInterrupt when stopped). `on_ready` runs in the
    parent once every worker is ready (the banner). Returns the parent's exit code.
    """
    children: dict[int, tuple[int, float]] = {}  # pid -> (index, started)
    read_fd, write_fd = os.pipe()

    def spawn(index: int) -> None:
        pid = os.fork()
        if pid == 0:
            try:  # never back into the parent's code, even for a signal in the first instant
                os.close(read_fd)
                _worker(index, start, write_fd)
            finally:
                os._exit(1)
        children[pid] = (index, time.monotonic())

    def raise_stop(signum: int, frame: object) -> None:
        raise _Stop

    old = {sig: signal.signal(sig, raise_stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    code = 0
    try:
        for i in range(count):
            spawn(i)
        _wait_ready(read_fd, count, children)
        on_ready()
        fast_failures = 0
        while True:
            pid, status = os.wait()
            if pid not in children:
                continue
            index, started = children.pop(pid)
            how = _describe(status)
            if time.monotonic() - started < MIN_UPTIME_S:
                fast_failures += 1
                if fast_failures >= MAX_FAST_FAILURES:
                    print(f"dicecam serve: worker {index} {how} {fast_failures} times right after starting; "
                          "stopping", file=err)
                    code = 1
                    break
            else:
                fast_failures = 0
            print(f"dicecam serve: worker {index} {how}; starting it again", file=err)
            spawn(index)
    except _Stop:
        code = 0
    except ChildProcessError:
        code = 1
    except RuntimeError as exc:  # a worker did not become ready
        print(f"dicecam serve: {exc}", file=err)
        code = 1
    finally:
        for sig, handler in old.items():
            signal.signal(sig, signal.SIG_IGN if sig == signal.SIGINT else handler)
        _stop_all(children)
        os.close(read_fd)
        os.close(write_fd)
        for sig, handler in old.items():
            signal.signal(sig, handler)
    return code


def _wait_ready(read_fd: int, count: int, children: dict[int, tuple[int, float]]) -> None:
    deadline = time.monotonic() + READY_WAIT_S
    got = 0
    os.set_blocking(read_fd, False)
    while got < count:
        try:
            got += len(os.read(read_fd, count - got))
            continue
        except BlockingIOError:
            pass
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid in children:
            index, _ = children.pop(pid)
            raise RuntimeError(f"worker {index} {_describe(status)} before it was ready")
        if time.monotonic() > deadline:
            raise RuntimeError(f"only {got} of {count} workers were ready after {READY_WAIT_S:.0f} s")
        time.sleep(0.05)


def _describe(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"was killed ({signal.Signals(os.WTERMSIG(status)).name})"
    return f"exited with code {os.waitstatus_to_exitcode(status)}"


def _stop_all(children: dict[int, tuple[int, float]]) -> None:
    """SIGTERM every worker, wait for them, SIGKILL whoever is still there."""
    for pid in children:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + STOP_WAIT_S
    while children and time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            children.clear()
            break
        if pid:
            children.pop(pid, None)
        else:
            time.sleep(0.05)
    for pid in list(children):
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        children.pop(pid, None)
