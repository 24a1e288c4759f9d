"""CPU of ./tokenpulse bench's default pipeline per streamed event; see README.md beside this file."""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tpbench import LAUNCHER, ROOT, thread_cpu, start_simulator as start_process  # noqa: E402

GAP_MS = 20.0  # one stream sends 50 events/s; the rate is set by the number of streams
TTFT_MS = 50.0
MAIN_RUN_LINE = "Initial test run completed"

# Thread groups, first match wins, matched on the Java thread name (jcmd) or else the kernel's
# 15-character copy of it. Threads that exited before a sample count under "exited/unnamed".
GROUPS = [
    ("C2 compiler", r"^C2 CompilerThre"),
    ("C1 compiler", r"^C1 CompilerThre"),
    ("GC", r"^(GC Thread|G1 |GC |Parallel|ZGC|ZWorker|ZDirector|ZStat|ZDriver)"),
    ("VM thread (safepoints, Serial GC)", r"^VM Thread"),
    ("Streams producer network", r"StreamThread-\d+-producer"),
    ("bench producer network", r"^kafka-producer-network-thread"),
    ("stream thread", r"StreamThread-\d+$"),
    ("tp-http (client I/O)", r"^tp-http"),
    ("tp-kafka-sender (publisher)", r"^tp-kafka-sender"),
    ("consumers' heartbeats", r"^kafka-coordinator-heartbeat-thread"),
    ("broker request handlers", r"^data-plane-kafka-request-handler"),
    ("broker network", r"^data-plane-kafka-(network-thread|socket-acceptor)"),
    ("broker transactions and groups", r"^(TxnMarker|AddPartitionsToTxn|transaction-|group-coordinator)"),
    ("broker other (KRaft, purgatory, log)", r"^(kafka-|raft-|broker-|controller-|LogCleaner|ExpirationReaper|"
                                             r"executor-|ThrottledChannelReaper|quorum|share-|log-|metadata|"
                                             r"RemoteLog|ReplicaFetcher|data-plane-kafka|EventProcessor|"
                                             r"BrokerLifecycle|BrokerToController|node-|ClientQuotas|scheduler|"
                                             r"QuorumController|persister)"),
    ("progress bar", r"^ProgressBar"),
    ("main", r"^(main|java)$"),
]


def group_of(name):
    for group, pattern in GROUPS:
        if re.search(pattern, name):
            return group
    return "others"


def sample(pid):
    """(process CPU s, {tid: (comm, CPU s)}) read from /proc."""
    return thread_cpu(pid)


def java_names(pid):
    """{tid: full Java thread name} from jcmd Thread.print (empty when jcmd is missing or fails)."""
    try:
        out = subprocess.run(["jcmd", str(pid), "Thread.print"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return {}
    names = {}
    for m in re.finditer(r'^"(.*?)".*?nid=(0x[0-9a-f]+)', out, re.M):
        names[int(m.group(2), 16)] = m.group(1)
    return names


def by_group(before, after, names):
    """CPU s per thread group between two samples; threads gone by `after` are in the total's rest."""
    total = after[0] - before[0]
    groups, threads = {}, {}
    for tid, (comm, cpu) in after[1].items():
        start = before[1].get(tid, (comm, 0.0))[1]
        name = names.get(tid, comm)
        g = group_of(name)
        groups[g] = groups.get(g, 0.0) + cpu - start
        kind = re.sub(r"\d+", "N", name)
        threads[kind] = threads.get(kind, 0.0) + cpu - start
    groups["exited/unnamed"] = total - sum(groups.values())
    return total, groups, dict(sorted(threads.items(), key=lambda kv: -kv[1])[:25])


class SendLog:
    """Counts the simulator's send-log lines (one per streamed event) as the file grows."""

    def __init__(self, path):
        self.path, self.offset, self.lines = path, 0, 0

    def count(self):
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except FileNotFoundError:
            return self.lines
        self.offset += len(data)
        self.lines += data.count(b"\n")
        return self.lines


def start_simulator(out, name, ttft_ms, command):
    send_log = os.path.join(out, f"{name}.sends.csv")
    proc, port = start_process(out, name, command, "--profile", "deterministic", "--ttft-ms", str(ttft_ms),
                               "--gap-ms", str(GAP_MS), "--model", "sim-model", "--send-log", send_log)
    return proc, port, send_log


def run_bench(variant, out, tag, port, send_log, bench_args, window):
    """Runs one bench; returns its numbers. window = (start s after the main run began, length s)."""
    name, command, variant_args = variant
    result_name = f"{tag}-{name}.json"
    cmd = shlex.split(command) + [
        "bench", "--base-url", f"http://127.0.0.1:{port}", "--model", "sim-model", "--ignore-eos",
        "--save-result", "--result-dir", out, "--result-filename", result_name,
        "--data-dir", os.path.join(out, f"platform-{tag}-{name}"), *bench_args, *shlex.split(variant_args)]
    load = os.getloadavg()
    log = open(os.path.join(out, f"{tag}-{name}.log"), "w")
    t0 = time.monotonic()
    bench = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    marks = {}
    started = threading.Event()

    def read():
        for line in bench.stdout:
            log.write(line)
            if MAIN_RUN_LINE in line and not started.is_set():
                marks["startup"] = (time.monotonic() - t0, sample(bench.pid))
                started.set()
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    counter = SendLog(send_log)
    res = {"variant": name, "load": load}
    try:
        if not started.wait(300):
            raise RuntimeError("no main run within 300 s")
        startup_names = java_names(bench.pid)  # outside the steady window below
        res["startup_s"], startup_sample = marks["startup"]
        res["startup_cpu"], res["startup_groups"], res["startup_threads"] = by_group((0.0, {}), startup_sample, startup_names)
        if window:
            begin, length = window
            time.sleep(max(0.0, begin - (time.monotonic() - t0 - res["startup_s"])))
            events_a, a, ta = counter.count(), sample(bench.pid), time.monotonic()
            time.sleep(length)
            events_b, b, tb = counter.count(), sample(bench.pid), time.monotonic()
            if bench.poll() is not None:
                raise RuntimeError("bench ended inside the steady window; give it more --num-prompts")
            names = java_names(bench.pid)
            res["window_s"], res["events"] = tb - ta, events_b - events_a
            res["window_cpu"], res["window_groups"], res["window_threads"] = by_group(a, b, names)
    finally:
        _, status, usage = os.wait4(bench.pid, 0)
        bench.returncode = os.waitstatus_to_exitcode(status)
        reader.join(5)
        log.close()
    res["total_cpu"] = usage.ru_utime + usage.ru_stime
    res["wall_s"] = time.monotonic() - t0
    path = os.path.join(out, result_name)
    if bench.returncode != 0 or not os.path.exists(path):
        # e.g. the aggregator could not catch up within --summary-timeout-s: what was measured stands
        res["failed"] = f"bench exited {bench.returncode}, see {log.name}"
        res["total_events"] = None
        return res
    result = json.load(open(path))
    res["total_events"] = result["total_output_tokens"]
    res["client_cpu"] = {k: v for k, v in result.items() if k.startswith("client_")}
    return res


def run_peer(out, tag, port, prompts, output_len, streams):
    """vLLM's client alone (bench/hotpath/peer.py) on the same load: its line, or why there is none."""
    try:
        import aiohttp  # noqa: F401  (the peer's own import; checked here to say what is missing)
    except ImportError:
        return "no peer: python3-aiohttp is not installed"
    peer = os.path.join(ROOT, "bench", "hotpath", "peer.py")
    done = subprocess.run([sys.executable, peer, str(port), "sim-model", "inf", str(prompts), "32", str(output_len),
                           str(streams)], capture_output=True, text=True)
    with open(os.path.join(out, f"{tag}-peer.log"), "w") as log:
        log.write(done.stdout + done.stderr)
    return done.stdout.strip() if done.returncode == 0 else f"peer exited {done.returncode}, see {log.name}"


def print_run(tag, r):
    load = "/".join(f"{x:.1f}" for x in r["load"])
    print(f"  {tag:<8} {r['variant']:<14} load {load:<14} start-up {r['startup_cpu']:5.2f} s CPU"
          f" in {r['startup_s']:5.1f} s", end="")
    if "window_cpu" in r:
        cores = r["window_cpu"] / r["window_s"]
        rate = r["events"] / r["window_s"]
        per_event = 1e6 * r["window_cpu"] / r["events"] if r["events"] else float("nan")
        print(f" | steady {rate:7.0f} ev/s  {cores:5.3f} cores  {per_event:6.0f} us/event", end="")
    if r.get("failed"):
        print(f" | whole run {r['total_cpu']:6.1f} s CPU, FAILED: {r['failed']}", flush=True)
    else:
        after = 1e6 * (r["total_cpu"] - r["startup_cpu"]) / max(1, r["total_events"])
        print(f" | whole run {r['total_cpu']:6.1f} s CPU, {r['total_events']} events,"
              f" {after:.0f} us/event after start-up", flush=True)


def print_groups(results, key, scale_name, scale):
    groups = sorted({g for r in results if key + "_groups" in r for g in r[key + "_groups"]},
                    key=lambda g: -max(r[key + "_groups"].get(g, 0) for r in results if key + "_groups" in r))
    header = "".join(f"{r['tag'] + '/' + r['variant']:>22}" for r in results if key + "_groups" in r)
    print(f"    {'thread group (' + scale_name + ')':<38}{header}")
    for g in groups:
        row = "".join(f"{scale(r, r[key + '_groups'].get(g, 0.0)):22.3f}" for r in results if key + "_groups" in r)
        print(f"    {g:<38}{row}")


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--rates", default="500,2000,20000", help="events/s offered (streams = rate / 50); empty: none")
    p.add_argument("--idle", action=argparse.BooleanOptionalAction, default=True,
                   help="also a run that waits on a slow server (20 s TTFT)")
    p.add_argument("--warm-s", type=float, default=10.0, help="seconds of load before the steady window")
    p.add_argument("--window-s", type=float, default=20.0, help="length of the steady window")
    p.add_argument("--output-len", type=int, default=100, help="events per request")
    p.add_argument("--variant", action="append", default=[],
                   help="NAME::COMMAND[::BENCH FLAGS] run in turn for each scenario (default: default::./tokenpulse)")
    p.add_argument("--peer", action=argparse.BooleanOptionalAction, default=True,
                   help="after bench, vLLM's client alone on the same load (bench/hotpath/peer.py)")
    p.add_argument("--simulator", default=LAUNCHER, help="the command that runs `simulate` (default: ./tokenpulse)")
    p.add_argument("--out", default=None)
    p.add_argument("--tokenizer", default=None, help="default: testdata's Qwen3 folder, else gpt2")
    p.add_argument("extra", nargs="*", help="further bench flags, after --")
    a = p.parse_args()
    out = a.out or tempfile.mkdtemp(prefix="tokenpulse-cpu-")
    os.makedirs(out, exist_ok=True)
    variants = [tuple((v.split("::", 2) + [""])[:3]) for v in a.variant] or [("default", LAUNCHER, "")]
    # builds the jar if needed
    subprocess.run([*shlex.split(a.simulator), "--version"], check=True, stdout=subprocess.DEVNULL)
    tokenizer = a.tokenizer or os.path.join(ROOT, "testdata", "tokenizers", "qwen3")
    if not a.tokenizer and not os.path.isdir(tokenizer):
        tokenizer = "gpt2"
    common = ["--tokenizer", tokenizer, "--dataset-name", "random", "--random-input-len", "32",
              "--request-rate", "inf", "--metrics-port", "0", *a.extra]
    print(f"cpu: {os.cpu_count()} cores, output in {out}; bench {' '.join(common)}", flush=True)
    results = []
    sim, port, send_log = start_simulator(out, "sim", TTFT_MS, a.simulator)
    try:
        for rate in [int(x) for x in a.rates.split(",") if x]:
            streams = max(1, round(rate * GAP_MS / 1000))
            request_s = (TTFT_MS + (a.output_len - 1) * GAP_MS) / 1000
            prompts = int((a.warm_s + a.window_s + 5) * streams / request_s) + streams
            tag = f"{rate}/s"
            print(f"cpu: {tag}: {streams} streams x {1000 / GAP_MS:.0f} events/s, {prompts} requests", flush=True)
            for v in variants:
                r = run_bench(v, out, f"r{rate}", port, send_log,
                              [*common, "--random-output-len", str(a.output_len), "--max-concurrency", str(streams),
                               "--num-prompts", str(prompts)],
                              (a.warm_s, a.window_s))
                r["tag"] = tag
                results.append(r)
                print_run(tag, r)
                json.dump(results, open(os.path.join(out, "cpu.json"), "w"), indent=1)
            if a.peer:
                print(f"  {tag:<8} {run_peer(out, f'r{rate}', port, prompts, a.output_len, streams)}", flush=True)
    finally:
        sim.terminate()
        sim.wait(30)
    if a.idle:
        ttft_ms = 20000
        slow, port, send_log = start_simulator(out, "slow", ttft_ms, a.simulator)
        try:
            print(f"cpu: idle: one request at a time, TTFT {ttft_ms / 1000:.0f} s", flush=True)
            for v in variants:
                r = run_bench(v, out, "idle", port, send_log,
                              [*common, "--random-output-len", "2", "--max-concurrency", "1", "--num-prompts", "1"],
                              (3.0, ttft_ms / 1000 - 6.0))
                r["tag"] = "idle"
                results.append(r)
                print_run("idle", r)
                json.dump(results, open(os.path.join(out, "cpu.json"), "w"), indent=1)
        finally:
            slow.terminate()
            slow.wait(30)

    print()
    print("==== CPU from start to the first timed request (s) ====")
    print_groups(results, "startup", "CPU s", lambda r, v: v)
    steady = [r for r in results if r["tag"] != "idle" and "window_cpu" in r]
    if steady:
        print("==== steady state (us of CPU per streamed event) ====")
        print_groups(steady, "window", "us/event", lambda r, v: 1e6 * v / max(1, r["events"]))
    idle = [r for r in results if r["tag"] == "idle"]
    if idle:
        print("==== idle (cores) ====")
        print_groups(idle, "window", "cores", lambda r, v: v / r["window_s"])
    json.dump(results, open(os.path.join(out, "cpu.json"), "w"), indent=1)
    print(f"files: {out}")


if __name__ == "__main__":
    main()
