"""Faults a three-broker cluster must survive (issue 31, item 2); see README.md beside this file.

`platform --brokers 3`, `simulate` (deterministic), `aggregate` and a seeded `bench` as separate
processes of the shipped ./tokenpulse; while bench sends, SCENARIO acts on the brokers through the
files each node leaves in its data dir (node.pid, node.command). Afterwards: every request and chunk
event once in Kafka (read_committed), nothing undelivered, the result file equal to `replay`'s. Exit
code 1 when a check fails.
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tpbench import (LAUNCHER, ROOT, free_port, load_average, start_aggregate, start_simulator, stop,  # noqa: E402
                     wait_for_line, workdir)

HERE = os.path.dirname(os.path.abspath(__file__))
JAR = os.environ.get("TOKENPULSE_JAR", os.path.join(ROOT, "cli", "target", "tokenpulse.jar"))
USE_THEM = re.compile(r"^Use them with: (--bootstrap-servers \S+ --schema-registry-url \S+)", re.MULTILINE)
BROKER = re.compile(r"^Broker (\d+): (\S+) \(pid (\d+), ", re.MULTILINE)
BACK = re.compile(r"Kafka is back: the records kept while it was away \((\d+) in all\)")
# requests each scenario sends at --rate 8 (110 to 225 s): long enough to outlast its faults on a loaded 2-core machine
REQUESTS = {"broker-back": 900, "controller": 900, "two-down": 1200, "rolling": 1800}


def log(message):
    print(f"faults: {time.strftime('%T')} {message}", flush=True)


class Node:
    """One broker of the platform, addressed through its data dir: signalled by the pid in node.pid,
    started again (after it is gone) from node.command with a stdin we keep open, as the platform does."""

    def __init__(self, data_dir, node_id):
        self.id = node_id
        self.dir = os.path.join(data_dir, f"node-{node_id}")
        self.proc = None

    def pid(self):
        with open(os.path.join(self.dir, "node.pid")) as f:
            return int(f.read().strip())

    def signal(self, sig, timeout_s=120):
        """Sends sig and waits until the process is gone; returns the seconds it took."""
        pid, start = self.pid(), time.monotonic()
        log(f"broker {self.id}: SIG{signal.Signals(sig).name[3:]} to pid {pid}")
        os.kill(pid, sig)
        while time.monotonic() - start < timeout_s:
            if self.proc is not None and self.proc.pid == pid:
                if self.proc.poll() is not None:
                    break
            elif not os.path.exists(f"/proc/{pid}") or _zombie(pid):
                break
            time.sleep(0.1)
        else:
            raise SystemExit(f"broker {self.id} (pid {pid}) did not end within {timeout_s} s")
        return time.monotonic() - start

    def start(self, timeout_s=180):
        """Starts the node again from its command file; returns the seconds until it is ready."""
        with open(os.path.join(self.dir, "node.command")) as f:
            command = f.read().splitlines()
        log_path = os.path.join(self.dir, "kafka-child.log")
        offset = os.path.getsize(log_path)
        start = time.monotonic()
        with open(log_path, "a") as out:
            self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT)
        with open(os.path.join(self.dir, "node.pid"), "w") as f:
            f.write(f"{self.proc.pid}\n")
        while time.monotonic() - start < timeout_s:
            with open(log_path) as f:
                f.seek(offset)
                text = f.read()
            if "\nREADY " in "\n" + text:
                took = time.monotonic() - start
                log(f"broker {self.id}: started again (pid {self.proc.pid}), ready after {took:.1f} s")
                return took
            if "\nFAILED " in "\n" + text or self.proc.poll() is not None:
                raise SystemExit(f"broker {self.id} did not start again; see {log_path}")
            time.sleep(0.2)
        raise SystemExit(f"broker {self.id} was not ready within {timeout_s} s; see {log_path}")

    def stop(self):
        """Stops a node we started (its stdin closes: a clean stop)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def _zombie(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


PROBE_CLASSES = None  # where ClusterProbe.java is compiled once (compile_probe)


def compile_probe(out):
    """Compiles ClusterProbe.java once: the source launcher would compile it at every question, tens of
    seconds on a loaded machine, which would move the faults."""
    global PROBE_CLASSES
    PROBE_CLASSES = os.path.join(out, "probe-classes")
    subprocess.run(["javac", "-cp", JAR, "-d", PROBE_CLASSES, os.path.join(HERE, "ClusterProbe.java")], check=True)


def probe(bootstrap, *question):
    """ClusterProbe's answer (one line); exits with its output when it fails."""
    r = subprocess.run(["java", "-XX:TieredStopAtLevel=1", "-cp", f"{JAR}:{PROBE_CLASSES}", "ClusterProbe",
                        bootstrap, *question], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"ClusterProbe {' '.join(question)} failed: {r.stdout.strip()} {r.stderr.strip()[-2000:]}")
    return r.stdout.strip()


def in_sync(bootstrap, timeout_s=240):
    took = probe(bootstrap, "in-sync", str(timeout_s))
    log(f"every partition has all its replicas in sync ({took} s of waiting)")
    return float(took)


def broker_back(nodes, bootstrap, a, events):
    leader = int(probe(bootstrap, "leader", "tokenpulse.chunk-batches"))
    events["killed"] = [leader]
    nodes[leader].signal(signal.SIGKILL)
    time.sleep(a.down_s)
    events["ready_s"] = [nodes[leader].start()]
    events["in_sync_s"] = in_sync(bootstrap)


def controller(nodes, bootstrap, a, events):
    active = int(probe(bootstrap, "controller"))
    events["killed"] = [active]
    nodes[active].signal(signal.SIGKILL)
    killed = time.monotonic()
    time.sleep(5)
    events["new_controller"] = int(probe(bootstrap, "controller"))
    log(f"active controller now node {events['new_controller']}")
    time.sleep(max(0.0, a.down_s - (time.monotonic() - killed)))
    events["ready_s"] = [nodes[active].start()]
    events["in_sync_s"] = in_sync(bootstrap)


def rolling(nodes, bootstrap, a, events):
    events["restarted"], events["stop_s"], events["ready_s"], events["in_sync_s"] = [], [], [], []
    for node_id in sorted(nodes):
        events["restarted"].append(node_id)
        events["stop_s"].append(round(nodes[node_id].signal(signal.SIGTERM), 1))
        events["ready_s"].append(round(nodes[node_id].start(), 1))
        events["in_sync_s"].append(in_sync(bootstrap))


def two_down(nodes, bootstrap, a, events):
    leader = int(probe(bootstrap, "leader", "tokenpulse.chunk-batches"))
    other = next(n for n in sorted(nodes) if n != leader)
    events["killed"] = [leader, other]
    for node_id in (leader, other):
        nodes[node_id].signal(signal.SIGKILL)
    log(f"two of three brokers down (min.insync.replicas 2): producers must wait or spool for {a.down_s:g} s")
    time.sleep(a.down_s)
    events["ready_s"] = [nodes[leader].start()]
    time.sleep(a.down_s)
    events["ready_s"].append(nodes[other].start())
    events["in_sync_s"] = in_sync(bootstrap)


SCENARIOS = {"broker-back": broker_back, "controller": controller, "rolling": rolling, "two-down": two_down}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenario", choices=sorted(SCENARIOS))
    p.add_argument("--requests", type=int, default=None, help="default: per scenario, 900 to 1800")
    p.add_argument("--rate", type=float, default=8.0, help="--request-rate")
    p.add_argument("--output-len", type=int, default=40)
    p.add_argument("--fault-after-s", type=float, default=10.0, help="after bench's main run starts")
    p.add_argument("--down-s", type=float, default=30.0, help="how long a killed broker stays down")
    p.add_argument("--out", default=None)
    a = p.parse_args()
    requests = a.requests or REQUESTS[a.scenario]
    out, env = workdir(a.out, f"tokenpulse-faults-{a.scenario}-")
    run_id = f"faults-{a.scenario}-{time.strftime('%H%M%S')}"
    log(f"{run_id}, files in {out}, {load_average()}")

    compile_probe(out)
    sim, port = start_simulator(out, "faults", LAUNCHER, "--profile", "deterministic", "--ttft-ms", "50",
                                "--gap-ms", "20")
    data_dir = os.path.join(out, "platform")
    platform_log = os.path.join(out, "platform.log")
    with open(platform_log, "w") as platform_out:
        platform = subprocess.Popen([LAUNCHER, "platform", "--brokers", "3", "--data-dir", data_dir,
                                     "--registry-port", str(free_port())],
                                    stdout=platform_out, stderr=subprocess.STDOUT, env=env)
    nodes = {}
    aggregate = None
    events = {}
    try:
        connection = wait_for_line(platform_log, USE_THEM, 300, platform, "the platform").group(1).split()
        bootstrap = connection[1]
        nodes = {int(m.group(1)): Node(data_dir, int(m.group(1))) for m in BROKER.finditer(open(platform_log).read())}
        aggregate = start_aggregate(connection, out, env, free_port())
        results = os.path.join(out, "results")
        bench_log = os.path.join(out, "bench.log")
        bench_cmd = [LAUNCHER, "bench", *connection, "--base-url", f"http://127.0.0.1:{port}",
                     "--model", "facebook/opt-125m", "--dataset-name", "random", "--random-input-len", "16",
                     "--random-output-len", str(a.output_len), "--ignore-eos", "--num-prompts", str(requests),
                     "--request-rate", str(a.rate), "--seed", "7", "--run-id", run_id, "--metrics-port", "0",
                     "--disable-tqdm", "--save-result", "--result-dir", results, "--result-filename", "bench.json"]
        log(" ".join(bench_cmd))
        with open(bench_log, "w") as blog:
            bench = subprocess.Popen(bench_cmd, stdout=blog, stderr=subprocess.STDOUT, env=env)
        wait_for_line(bench_log, re.compile("^Initial test run completed", re.MULTILINE), 300, bench, "bench")
        time.sleep(a.fault_after_s)
        fault_start = time.monotonic()
        SCENARIOS[a.scenario](nodes, bootstrap, a, events)
        events["fault_s"] = round(time.monotonic() - fault_start, 1)
        if bench.poll() is not None:
            log("bench ended before the cluster was whole again: the run did not outlast the fault")
            events["bench_ended_early"] = True
        bench.wait()
        log(f"bench ended with exit code {bench.returncode}")
        chunks = [int(x) for x in probe(bootstrap, "chunk-events", "tokenpulse.", run_id).split()]
        request_events = [int(x) for x in probe(bootstrap, "records", "tokenpulse.requests", run_id).split()]
        replay = subprocess.run([LAUNCHER, "replay", *connection, "--run-id", run_id, "--save-result",
                                 "--result-dir", results, "--result-filename", "replay.json"],
                                capture_output=True, text=True, env=env)
    finally:
        if aggregate:
            stop(aggregate)
        for node in nodes.values():
            node.stop()
        stop(platform, 120)
        stop(sim)

    text = open(bench_log).read()
    bench_json = json.load(open(os.path.join(results, "bench.json"))) if os.path.exists(
        os.path.join(results, "bench.json")) else {}
    replay_json = json.load(open(os.path.join(results, "replay.json"))) if os.path.exists(
        os.path.join(results, "replay.json")) else None
    scored = {k: v for k, v in bench_json.items() if not k.startswith("client_")}
    differing = sorted(k for k in set(scored) | set(replay_json or {}) if scored.get(k) != (replay_json or {}).get(k))
    spooled = [int(n) for n in BACK.findall(text)]
    expected = requests * a.output_len
    print()
    print(f"==== cluster faults: {a.scenario} ({run_id}); {load_average()} ====")
    print("\n".join(line for line in text.splitlines()[-14:] if not line.startswith("Namespace")))
    print(f"fault: {json.dumps(events)}")
    print(f"bench exit code {bench.returncode}; requests {bench_json.get('completed', 'no result file')}"
          f" completed of {requests}, output tokens {bench_json.get('total_output_tokens', '-')} of {expected}")
    print(f"chunk events read_committed: {chunks[0]} ({chunks[1]} distinct) of {expected};"
          f" request events: {request_events[0]} ({request_events[1]} distinct) of {2 * requests}")
    print(f"records spooled while Kafka could not take them: {spooled[-1] if spooled else 0};"
          f" not delivered: {bench_json.get('records_not_delivered', 0)}")
    print(f"replay: exit code {replay.returncode}; differs from bench's file in: {differing or 'nothing'}")
    verdicts = [
        ("bench exit code 0, every request and token", bench.returncode == 0
         and bench_json.get("completed") == requests and bench_json.get("total_output_tokens") == expected),
        ("every chunk event once (read_committed)", chunks == [expected, expected]),
        ("every request event once (read_committed)", request_events == [2 * requests, 2 * requests]),
        ("nothing undelivered", "records_not_delivered" not in bench_json),
        ("replay equals the result file", replay.returncode == 0 and not differing),
        ("the run outlasted the fault", not events.get("bench_ended_early")),
    ]
    for what, ok in verdicts:
        print(f"{'PASS' if ok else 'FAIL'}: {what}")
    json.dump({"scenario": a.scenario, "run_id": run_id, "requests": requests, "events": events,
               "chunks": chunks, "request_events": request_events, "spooled": spooled[-1] if spooled else 0,
               "verdicts": {w: ok for w, ok in verdicts}}, open(os.path.join(out, "faults.json"), "w"))
    print(f"files: {out}")
    sys.exit(0 if all(ok for _, ok in verdicts) else 1)


if __name__ == "__main__":
    main()
