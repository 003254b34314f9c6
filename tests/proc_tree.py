"""Processes below a process, from /proc, and the memory of a command's whole process tree.

``python tests/proc_tree.py COMMAND...`` runs COMMAND and prints one JSON line on stdout:
``{"status": exit status, "peak": bytes, "maxrss": bytes}``: ``peak`` is the resident memory of
COMMAND and every process below it, summed, sampled every 20 ms; ``maxrss`` is ``ru_maxrss`` of
the largest process (``wait4``). It is run as a small process of its own so that the command is
forked from it: a child forked from a big process (a test runner) counts the parent's pages
until it execs, and ``ru_maxrss`` keeps that high-water mark.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time


def tree_rss(pid: int) -> int:
    """The resident memory (bytes) of ``pid`` and every process below it, from /proc."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    page = os.sysconf("SC_PAGE_SIZE")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            with open(f"/proc/{entry}/statm", "rb") as f:
                rss[int(entry)] = int(f.read().split()[1]) * page
        except (OSError, IndexError, ValueError):
            continue
        parents[int(entry)] = int(fields[1])
    tree, frontier = {pid}, [pid]
    while frontier:
        parent = frontier.pop()
        for child, p in parents.items():
            if p == parent and child not in tree:
                tree.add(child)
                frontier.append(child)
    return sum(rss.get(p, 0) for p in tree)


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid`` (from /proc)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    parents[int(entry)] = int(f.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = set(), [pid]
    while frontier:
        parent = frontier.pop()
        for child, p in parents.items():
            if p == parent and child not in found:
                found.add(child)
                frontier.append(child)
    return found


def alive(pid: int) -> bool:
    """``pid`` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def measure(command: list[str], timeout: float) -> dict[str, int]:
    process = subprocess.Popen(command)
    peak, deadline = 0, time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid == process.pid:
            break
        peak = max(peak, tree_rss(process.pid))
        if time.monotonic() > deadline:
            process.kill()
        time.sleep(0.02)
    process.returncode = os.waitstatus_to_exitcode(status)
    return {"status": process.returncode, "peak": peak, "maxrss": usage.ru_maxrss * 1024}


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1:], 300)))
