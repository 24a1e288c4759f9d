"""What the benchmark scripts under bench/ share: ports, readiness, /proc CPU and memory, a simulator.

Imported by bench/cpu/cpu.py, bench/soak/soak.py, bench/accuracy/accuracy.py and
bench/trace/trace.py (they put this folder on sys.path); plain Python 3, no packages beyond the
standard library (read_topics runs the example consumer, which needs Debian's Kafka and Avro ones).
"""
import json
import os
import re
import shlex
import socket
import subprocess
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
LAUNCHER = os.path.join(ROOT, "tokenpulse")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
CONSUMER = os.path.join(ROOT, "examples", "python-consumer", "consumer.py")
USE_THEM = re.compile(r"^Use them with: (--bootstrap-servers \S+ --schema-registry-url \S+)")


def default_tokenizer():
    """../shared's Qwen3 folder when present, else gpt2."""
    shared = os.path.join(ROOT, "..", "shared", "data", "tokenizers", "qwen3")
    return shared if os.path.isdir(shared) else "gpt2"


def percentile(values, q):
    """numpy's default (linear) percentile, as vLLM's report uses."""
    if not values:
        return float("nan")
    s = sorted(values)
    pos = (len(s) - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def read_topics(command, data_dir, topics, out, name):
    """The values of a finished bench's topics (e.g. "tokenpulse.chunks"), as dicts, read back from its data dir.

    Starts `tokenpulse platform` on data_dir (logging to out/NAME.platform.log) and reads the topics
    with examples/python-consumer/consumer.py until they are idle for 10 s.
    """
    log = open(os.path.join(out, f"{name}.platform.log"), "w")
    platform = subprocess.Popen([*shlex.split(command), "platform", "--data-dir", data_dir,
                                 "--kafka-port", str(free_port()), "--registry-port", str(free_port())],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        flags = None
        deadline = time.time() + 180
        for line in platform.stdout:
            log.write(line)
            m = USE_THEM.match(line)
            if m:
                flags = m.group(1).split()
                break
            if time.time() > deadline:
                break
        if flags is None:
            raise SystemExit(f"the platform on {data_dir} did not start; see {log.name}")
        topic_flags = [f for t in topics for f in ("--topic", t)]
        records = subprocess.run(
            ["/usr/bin/python3", CONSUMER, *flags, *topic_flags,
             "--group-id", f"bench-{name}-{time.time_ns()}", "--idle-timeout", "10"],
            capture_output=True, text=True, check=True).stdout
    finally:
        stop(platform)
        log.close()
    return [json.loads(line)["value"] for line in records.splitlines()]


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
