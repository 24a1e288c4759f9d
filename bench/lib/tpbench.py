"""What the benchmark scripts under bench/ share: ports, readiness, /proc CPU and memory, a simulator,
a platform, /metrics, and pairing a run's chunk events with the simulator's send log.

Imported by bench/cpu/cpu.py, bench/soak/soak.py, bench/soak/cold.py, bench/accuracy/accuracy.py,
bench/trace/trace.py, bench/outage/outage.py, bench/shared-host/shared_host.py,
bench/aggregator/aggregator.py and bench/shards/shards.py (they put this folder on sys.path); plain Python 3, no
packages beyond the standard library (reading chunks back runs examples/python-consumer, which needs
Debian's python3-confluent-kafka and python3-avro).
"""
import csv
import json
import os
import re
import shlex
import socket
import subprocess
import tempfile
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
LAUNCHER = os.path.join(ROOT, "tokenpulse")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
CONSUMER = os.path.join(ROOT, "examples", "python-consumer", "consumer.py")
USE_THEM = re.compile(r"^Use them with: (--bootstrap-servers \S+ --schema-registry-url \S+)", re.MULTILINE)


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


def workdir(out, prefix):
    """(out or a new temporary folder, the environment for the processes started there): their own
    HOME keeps the Streams state, the spool and the default data dir out of other runs' way."""
    out = os.path.abspath(out or tempfile.mkdtemp(prefix=prefix))
    os.makedirs(out, exist_ok=True)
    subprocess.run([LAUNCHER, "--version"], check=True, stdout=subprocess.DEVNULL)  # builds the jar if needed
    return out, dict(os.environ, HOME=os.path.join(out, "home"))


def default_tokenizer(given):
    """given, else testdata's Qwen3 folder."""
    shared = os.path.join(ROOT, "testdata", "tokenizers", "qwen3")
    return given or (shared if os.path.isdir(shared) else "gpt2")


def load_average():
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def start_aggregate(connection, out, env, metrics_port):
    """`tokenpulse aggregate` on the platform at connection, logging to out/aggregate.log, once running."""
    log_path = os.path.join(out, "aggregate.log")
    with open(log_path, "w") as log:
        proc = subprocess.Popen([LAUNCHER, "aggregate", *connection, "--metrics-port", str(metrics_port)],
                                stdout=log, stderr=subprocess.STDOUT, env=env)
    wait_for_line(log_path, re.compile("^Aggregator running", re.MULTILINE), 180, proc, "the aggregator")
    return proc


def percentile(values, q):
    """numpy's default (linear) percentile, as vLLM's report uses."""
    if not values:
        return float("nan")
    s = sorted(values)
    pos = (len(s) - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def wait_for_line(path, pattern, timeout_s, proc, who):
    """The first match of pattern (compiled regex) in the file path, which proc is writing.

    Exits the script with one line when proc ends first or nothing matches within timeout_s.
    """
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        with open(path) as f:
            m = pattern.search(f.read())
        if m:
            return m
        if proc.poll() is not None:
            raise SystemExit(f"{who} exited {proc.returncode} before it was ready; see {path}")
        time.sleep(0.2)
    raise SystemExit(f"{who} was not ready within {timeout_s} s; see {path}")


class Platform:
    """`tokenpulse platform` in a process of its own on data_dir, with fixed ports, so that it can be
    stopped and started again where its clients expect it. Logs to log_prefix.N.log (N = start)."""

    def __init__(self, command, data_dir, log_prefix, env=None):
        self.command = shlex.split(command)
        self.data_dir = data_dir
        self.log_prefix = log_prefix
        self.env = env
        self.kafka_port = free_port()
        self.registry_port = free_port()
        self.proc = None
        self.starts = 0

    def start(self, timeout_s=180):
        """Starts it and returns its connection flags (--bootstrap-servers ... --schema-registry-url ...)."""
        self.starts += 1
        log = f"{self.log_prefix}.{self.starts}.log"
        with open(log, "w") as out:
            self.proc = subprocess.Popen(
                [*self.command, "platform", "--data-dir", self.data_dir, "--kafka-port", str(self.kafka_port),
                 "--registry-port", str(self.registry_port)], stdout=out, stderr=subprocess.STDOUT, env=self.env)
        return wait_for_line(log, USE_THEM, timeout_s, self.proc, "the platform").group(1).split()

    def kill(self, signal):
        """Sends signal (e.g. signal.SIGKILL) and waits for the process to end."""
        self.proc.send_signal(signal)
        self.proc.wait()

    def stop(self):
        return stop(self.proc) if self.proc else None


def read_send_log(path, prefix):
    """{request index: [(event, sent_unix_ns, due_ns, sent_ns)]} of the requests whose id is prefix + index
    (the main run's; the initial test request and warm-ups have other ids)."""
    sends = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            rid = row["request_id"]
            if not rid.startswith(prefix) or not rid[len(prefix):].isdigit():
                continue
            sends.setdefault(int(rid[len(prefix):]), []).append(
                (int(row["event"]), int(row["sent_unix_ns"]), int(row["due_ns"]), int(row["sent_ns"])))
    return sends


def consume(flags, topics, name):
    """The values (dicts) of topics (e.g. ["tokenpulse.chunks"]) on a running platform, read with
    examples/python-consumer until they are idle for 10 s."""
    topic_flags = [f for t in topics for f in ("--topic", t)]
    records = subprocess.run(
        ["/usr/bin/python3", CONSUMER, *flags, *topic_flags, "--group-id", f"bench-{name}-{time.time_ns()}",
         "--idle-timeout", "10"], capture_output=True, text=True, check=True).stdout
    return [json.loads(line)["value"] for line in records.splitlines()]


# A run's streamed events: one Chunk record each, or several in a ChunkBatch record (which
# examples/python-consumer prints as its chunks, one per event).
CHUNK_TOPICS = ("tokenpulse.chunks", "tokenpulse.chunk-batches")


def consume_chunks(flags, run_id):
    """({request index: {seq: arrived_epoch_ns}}, chunk events of the run read, repeats included) from a
    running platform, from both CHUNK_TOPICS."""
    chunks, count = {}, 0
    for value in consume(flags, CHUNK_TOPICS, run_id):
        if value["run_id"] == run_id:
            count += 1
            chunks.setdefault(value["request_index"], {})[value["seq"]] = value["arrived_epoch_ns"]
    return chunks, count


def read_topics(command, data_dir, topics, out, name):
    """consume of a finished run's topics, through a platform started on its data_dir."""
    platform = Platform(command, data_dir, os.path.join(out, f"{name}.platform"))
    try:
        return consume(platform.start(), topics, name)
    finally:
        platform.stop()


def read_chunks(command, data_dir, run_id, out):
    """consume_chunks of a run whose broker is down, through a platform started on its data_dir."""
    platform = Platform(command, data_dir, os.path.join(out, f"{run_id}.platform"))
    try:
        return consume_chunks(platform.start(), run_id)
    finally:
        platform.stop()


def pair(sends, chunks, indices=None):
    """TTFT errors (ms, one per request), absolute ITL errors (ms, one per gap), the unpaired events,
    over the requests in indices (default: all sent).

    TTFT error = client arrival of the first event - server send of it (wall clocks of two processes
    on one host); ITL error = |client gap - server gap| of the same two events (no clock offset in it).
    """
    ttft, itl, missing = [], [], 0
    for index in sends if indices is None else indices:
        arrived = chunks.get(index, {})
        sent = {e: unix for e, unix, _, _ in sends[index]}
        if 0 in sent and 0 in arrived:
            ttft.append((arrived[0] - sent[0]) / 1e6)
        for seq in sorted(arrived):
            if seq == 0:
                continue
            if seq in sent and seq - 1 in sent and seq - 1 in arrived:
                itl.append(abs((arrived[seq] - arrived[seq - 1]) - (sent[seq] - sent[seq - 1])) / 1e6)
        missing += sum(1 for seq in arrived if seq not in sent)
    return ttft, itl, missing


def scrape(url, timeout_s=5.0):
    """{series as written (name{labels}): value} of a Prometheus /metrics page; None when it does not answer."""
    try:
        with urllib.request.urlopen(url, timeout=timeout_s) as r:
            text = r.read().decode()
    except OSError:
        return None
    series = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            try:
                series[name] = float(value)
            except ValueError:
                pass
    return series


def add_client_args(parser):
    """The flags every client-timing script takes: the commands for bench and simulate, the tokenizer,
    the output folder and further bench flags after --."""
    parser.add_argument("--bench", default=LAUNCHER, help="the command that runs `bench` (default: ./tokenpulse)")
    parser.add_argument("--simulator", default=LAUNCHER,
                        help="the command that runs `simulate` (default: ./tokenpulse)")
    parser.add_argument("--tokenizer", default=None, help="default: testdata's Qwen3 folder, else gpt2")
    parser.add_argument("--out", default=None)
    parser.add_argument("extra", nargs="*", help="further bench flags, after --")


def parse_client_args(parser, prefix):
    """Parses the arguments (add_client_args') and prepares the run: the tokenizer's default, the
    output folder (a new temporary one named prefix... unless --out), and the jar (built if needed).
    Returns (args, out)."""
    a = parser.parse_args()
    a.tokenizer = default_tokenizer(a.tokenizer)
    out = a.out or tempfile.mkdtemp(prefix=prefix)
    os.makedirs(out, exist_ok=True)
    subprocess.run([*shlex.split(a.bench), "--version"], check=True, stdout=subprocess.DEVNULL)  # builds the jar
    return a, out



def fill_run(launcher, connection, out, env, run_id, events, output_len, max_concurrency, speedup, tokenizer):
    """Publishes a run of about `events` chunk events with bench and no aggregator (bench/aggregator,
    bench/scale-out): every request streams exactly output_len events; bench finds no summary after 1 s
    and ends with exit code 1 (expected). Returns bench's exit code, its wall time and the events."""
    num_prompts = -(-events // output_len)
    cmd = [*shlex.split(launcher), "bench", *connection, "--simulate", "--simulate-profile", "deterministic",
           "--simulate-speedup", str(speedup), "--tokenizer", tokenizer,
           "--dataset-name", "random", "--random-input-len", "32", "--random-output-len", str(output_len),
           "--ignore-eos", "--num-prompts", str(num_prompts), "--request-rate", "inf", "--max-concurrency",
           str(max_concurrency), "--summary-timeout-s", "1", "--run-id", run_id, "--metrics-port", "0",
           "--disable-tqdm"]
    print("fill: " + " ".join(cmd), flush=True)
    start = time.monotonic()
    with open(os.path.join(out, "bench.log"), "w") as log:
        code = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, env=env).returncode
    return code, time.monotonic() - start, num_prompts * output_len


def chunk_events(series, run_id):
    """The run's chunk events an aggregate counted, from its /metrics series (scrape)."""
    tag = f'run_id="{run_id}"'
    return sum(v for k, v in series.items() if k.startswith("tokenpulse_chunk_events_total{") and tag in k)
