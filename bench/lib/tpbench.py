"""What the benchmark scripts under bench/ share: ports, readiness, /proc CPU and memory, a simulator.

Imported by bench/cpu/cpu.py, bench/soak/soak.py and bench/accuracy/accuracy.py (they put this
folder on sys.path); plain Python 3, no packages beyond the standard library.
"""
import os
import shlex
import socket
import subprocess
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
LAUNCHER = os.path.join(ROOT, "tokenpulse")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(url, timeout_s, who="the server"):
    """Waits until url answers 200; exits the script with one line when it does not in time."""
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"{who} did not answer {url} within {timeout_s} s")


def read_stat(path):
    """(command name, user + system CPU s) of one /proc/PID/stat or /proc/PID/task/TID/stat."""
    with open(path) as f:
        text = f.read()
    comm = text[text.index("(") + 1:text.rindex(")")]
    fields = text.rsplit(")", 1)[1].split()
    return comm, (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def cpu_s(pid):
    return read_stat(f"/proc/{pid}/stat")[1]


def rss_mb(pid):
    """Resident set size in MiB (VmRSS)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def thread_cpu(pid):
    """(process CPU s, {tid: (comm, CPU s)}) read from /proc."""
    total = cpu_s(pid)
    threads = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            threads[int(tid)] = read_stat(f"/proc/{pid}/task/{tid}/stat")
        except (FileNotFoundError, ProcessLookupError, ValueError):
            pass
    return total, threads


def start_simulator(out, name, command, *flags):
    """`tokenpulse simulate` in a process of its own on a free port, logging to out/NAME.simulate.log.

    Returns (process, port) once /health answers.
    """
    port = free_port()
    log = open(os.path.join(out, f"{name}.simulate.log"), "w")
    proc = subprocess.Popen([*shlex.split(command), "simulate", "--port", str(port), *flags],
                            stdout=log, stderr=subprocess.STDOUT)
    wait_ready(f"http://127.0.0.1:{port}/health", 120, "the simulator")
    return proc, port


def stop(proc, timeout_s=30):
    """SIGTERM, then SIGKILL after timeout_s; returns the exit code."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.returncode
