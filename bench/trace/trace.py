"""Trace replay timing of ./tokenpulse bench --dataset-name trace; see README.md beside this file.

Writes a Mooncake trace (Poisson arrivals at --rate, integer ms timestamps as Mooncake's, seeded),
starts `tokenpulse simulate --profile deterministic --send-log FILE` in a process of its own and
runs the shipped `./tokenpulse bench --dataset-name trace` against it. Then it reads the run's
RunStarted (schedule_start_epoch_ns) and RequestStarted records (scheduled_offset_ns,
sent_offset_ns) back from bench's data dir and pairs each request, by its x-request-id, with the
send log's received_unix_ns:

    server lateness = received_unix_ns - (schedule_start_epoch_ns + (timestamp_i - timestamp_0) * scale)
    bench lateness  = sent_offset_ns - scheduled_offset_ns   (what bench's own line reports)

Both processes anchor their wall clock once with Instant.now() (µs) and count monotonic time from
it, so the server lateness includes loopback transit and the request's read, and a few µs of
anchor error. The verdict is the issue's proof: P99 of the server lateness within --limit-ms.
"""
import argparse
import csv
import json
import math
import os
import random
import re
import shlex
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tpbench import (add_client_args, cpu_s, parse_client_args, free_port, percentile,  # noqa: E402
                     read_topics, start_simulator, stop, thread_cpu)

PREFIX = "trace-"
BENCH_LINE = re.compile(r"^Trace send lateness \(ms\): .*")
BENCH_CPU = "Client CPU during the run (cores):"
SAFEPOINT = re.compile(r"^\[(\d+)ms\] Safepoint \"(\w+)\".* Total: (\d+) ns")
# The launcher's options for a client command (./tokenpulse): C1 alone.
C1_ONLY = "-Xms256m -Xmx2g -XX:+UseG1GC -XX:TieredStopAtLevel=1"
TOTAL = "server_receipt_minus_trace_ms"
# The request's way from its trace time to the server, in order; the first two add up to the third.
STAGES = [("bench_sent_minus_trace_ms", "bench wrote it - trace time"),
          ("server_receipt_minus_sent_ms", "server receipt - bench wrote it"),
          (TOTAL, "server receipt - trace time"),
          ("simulator_send_lag_ms", "simulator's own first-event lag")]


def write_trace(path, rate, duration_s, input_len, output_len, seed):
    """Trace times in ms (Poisson arrivals, rounded down to whole ms as Mooncake's); one 512-token
    block per 512 input tokens, the first shared by every request, the rest each request's own."""
    rng = random.Random(seed)
    times, t = [], 0.0
    while t < duration_s * 1000:
        times.append(int(t))
        t += rng.expovariate(rate / 1000.0)
    blocks = max(1, input_len // 512)
    with open(path, "w") as f:
        for i, ms in enumerate(times):
            hash_ids = [0] + [1 + i * blocks + b for b in range(blocks - 1)]
            f.write(json.dumps({"timestamp": ms, "input_length": input_len, "output_length": output_len,
                                "hash_ids": hash_ids}) + "\n")
    return times


def read_receipts(path):
    """{request index: (received_unix_ns, the simulator's first-event send lag ns)} of the main run's
    requests (the initial test request and warm-ups have other ids). The send lag (event 0 sent - due)
    says how starved the simulator itself was: its due time counts from the receipt."""
    received = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            rid = row["request_id"]
            if row["event"] == "0" and rid.startswith(PREFIX) and rid[len(PREFIX):].isdigit():
                received[int(rid[len(PREFIX):])] = (int(row["received_unix_ns"]),
                                                   int(row["sent_ns"]) - int(row["due_ns"]))
    return received


def read_run(command, data_dir, run_id, out):
    """(schedule_start_epoch_ns, {request index: (scheduled_offset_ns, sent_offset_ns, connect_ns)}) from bench's
    topics."""
    start, requests = None, {}
    for value in read_topics(command, data_dir, ["tokenpulse.runs", "tokenpulse.requests"], out, run_id):
        if value.get("run_id") != run_id:
            continue
        event = value["event"]
        if "schedule_start_epoch_ns" in event:
            start = event["schedule_start_epoch_ns"]
        elif "sent_offset_ns" in event and "success" not in event:  # RequestStarted, not RequestFinished
            requests[value["request_index"]] = (event["scheduled_offset_ns"], event["sent_offset_ns"],
                                                 event["connect_ns"])
    if start is None:
        raise SystemExit(f"trace: no RunStarted of {run_id} in {data_dir}")
    return start, requests


def read_pauses(path):
    """[(start ms, end ms, whether GC)] of one JVM's safepoint pauses, wall clock; the log line is written
    at the end of the pause and says how long it lasted, reaching the safepoint included."""
    pauses = []
    if os.path.exists(path):
        for line in open(path):
            m = SAFEPOINT.match(line)
            if m:
                end_ms = int(m.group(1))
                pauses.append((end_ms - int(m.group(3)) / 1e6, end_ms, m.group(2).startswith(("G1", "Z")) or "Collect" in m.group(2)))
    return pauses


def thread_groups(before, after):
    """[(thread name without its number, CPU s between the two thread_cpu readings)], most first."""
    groups = {}
    for tid, (comm, cpu) in after.items():
        name = re.sub(r"[-#]?\d+$", "", comm).strip()
        groups[name] = groups.get(name, 0) + cpu - before.get(tid, (comm, 0))[1]
    return sorted(groups.items(), key=lambda g: -g[1])


def stats(values):
    return {"median": percentile(values, 50), "p99": percentile(values, 99), "max": max(values) if values else None}


def timer_baseline(rate, seconds, seed):
    """How late this machine wakes a plain sleeping thread at the trace's arrival rate, before anything of
    ours runs: the floor under every figure of the run (a virtual machine's timer and scheduler jitter)."""
    rng = random.Random(seed)
    due = time.monotonic() + 0.05
    late_ms = []
    for _ in range(int(rate * seconds)):
        due += rng.expovariate(rate)
        left = due - time.monotonic()
        if left > 0:
            time.sleep(left)
        late_ms.append((time.monotonic() - due) * 1000)
    return stats(late_ms)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rate", type=float, default=200.0, help="trace arrivals per second (Poisson)")
    p.add_argument("--duration-s", type=float, default=30.0, help="trace length in seconds")
    p.add_argument("--input-len", type=int, default=1024)
    p.add_argument("--output-len", type=int, default=4)
    p.add_argument("--trace-time-scale", type=float, default=1.0)
    p.add_argument("--ttft-ms", type=float, default=20.0)
    p.add_argument("--gap-ms", type=float, default=5.0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--limit-ms", type=float, default=2.0, help="the P99 bound of the verdict")
    p.add_argument("--head-s", type=float, default=3.0, help="the first seconds of the run, split from the rest")
    p.add_argument("--baseline-s", type=float, default=10.0,
                   help="seconds of the machine's own timer baseline before the run (0: none)")
    p.add_argument("--simulator-jit", choices=("c1", "c2"), default="c1",
                   help="the simulator JVM's compilers: c1 alone (default; bench's own setting) or c1 and c2 (the"
                        " launcher's for servers); c2 compiled for 3.6 of the simulator's 8.8 CPU s in a 10 s run")
    p.add_argument("--warmups", type=int, default=200,
                   help="bench's --num-warmups: requests before the timed run, which warm the simulator's JVM as a"
                        " served model is warm (0: none)")
    add_client_args(p)
    a, out = parse_client_args(p, "tokenpulse-trace-")
    run_id = f"trace-{time.strftime('%H%M%S')}"
    trace = os.path.join(out, f"{run_id}.trace.jsonl")
    times = write_trace(trace, a.rate, a.duration_s, a.input_len, a.output_len, a.seed)
    print(f"trace: {len(times)} requests over {a.duration_s:g} s at {a.rate:g} req/s; results in {out}", flush=True)
    baseline = timer_baseline(a.rate, a.baseline_s, a.seed) if a.baseline_s > 0 else None

    send_log = os.path.join(out, f"{run_id}.sends.csv")
    # Each JVM started from here logs its safepoint pauses (GC included) with wall-clock ms, to tell
    # which late requests were due while the bench or simulator JVM stood still.
    os.environ["JAVA_TOOL_OPTIONS"] = (os.environ.get("JAVA_TOOL_OPTIONS", "")
                                       + f" -Xlog:safepoint:file={out}/{run_id}.pauses-%p.log:timemillis").strip()
    # The launcher gives `simulate` both compilers (long-running servers); in a short run on a shared
    # machine C2's compiling is CPU taken from the client and the requests it serves.
    simulator = (a.simulator if a.simulator_jit == "c2"
                 else f"env TOKENPULSE_JAVA_OPTS='{C1_ONLY}' {a.simulator}")
    sim, port = start_simulator(out, run_id, simulator, "--profile", "deterministic", "--ttft-ms", str(a.ttft_ms),
                                "--gap-ms", str(a.gap_ms), "--model", "sim-model", "--send-log", send_log)
    data_dir = os.path.join(out, f"{run_id}.platform")
    cmd = [*shlex.split(a.bench), "bench", "--base-url", f"http://127.0.0.1:{port}", "--model", "sim-model",
           "--tokenizer", a.tokenizer, "--dataset-name", "trace", "--dataset-path", trace,
           "--trace-time-scale", str(a.trace_time_scale), "--num-prompts", str(len(times)), "--ignore-eos",
           "--disable-tqdm", "--request-id-prefix", PREFIX, "--run-id", run_id, "--data-dir", data_dir,
           "--metrics-port", str(free_port()), "--num-warmups", str(a.warmups), *a.extra]
    load_before = os.getloadavg()[0]
    bench_log = os.path.join(out, f"{run_id}.bench.log")
    sim_cpu_before = cpu_s(sim.pid)
    sim_threads_before = thread_cpu(sim.pid)[1]
    try:
        with open(bench_log, "w") as log:
            bench = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
            code = bench.wait()
        sim_cpu_s = cpu_s(sim.pid) - sim_cpu_before
        sim_threads = thread_groups(sim_threads_before, thread_cpu(sim.pid)[1])
    finally:
        del os.environ["JAVA_TOOL_OPTIONS"]
        stop(sim)  # its shutdown hook writes the rest of the send log
    load_after = os.getloadavg()[0]
    if code != 0:
        raise SystemExit(f"trace: bench exited {code}; see {bench_log}")
    bench_lines = open(bench_log).read().splitlines()
    bench_line = next((line.strip() for line in bench_lines if BENCH_LINE.match(line)), "(no send-lateness line)")
    bench_cpu = next((line.split(":")[1].strip() for line in bench_lines if line.startswith(BENCH_CPU)), "?")
    pauses = {who: read_pauses(os.path.join(out, f"{run_id}.pauses-{pid}.log"))
              for who, pid in (("bench", bench.pid), ("simulator", sim.pid))}

    received = read_receipts(send_log)
    start_ns, requests = read_run(a.bench, data_dir, run_id, out)
    rows, spans, schedule_err_us, unpaired = [], [], [], 0
    for i, ms in enumerate(times):
        trace_offset_ns = round((ms - times[0]) * a.trace_time_scale * 1e6)
        if i not in received or i not in requests:
            unpaired += 1
            continue
        (received_ns, sim_lag_ns), (scheduled_ns, sent_ns, connect_ns) = received[i], requests[i]
        schedule_err_us.append(abs(scheduled_ns - trace_offset_ns) / 1e3)
        due_ns = start_ns + trace_offset_ns
        # when each of the two stages began and ended, wall-clock ms, for the pauses
        spans.append(((due_ns / 1e6, (start_ns + sent_ns) / 1e6), ((start_ns + sent_ns) / 1e6, received_ns / 1e6)))
        rows.append({"request_index": i, "trace_ms": ms, "run_ms": trace_offset_ns / 1e6,
                     "bench_sent_minus_trace_ms": (sent_ns - scheduled_ns) / 1e6,
                     "server_receipt_minus_sent_ms": (received_ns - (start_ns + sent_ns)) / 1e6,
                     "server_receipt_minus_trace_ms": (received_ns - (start_ns + trace_offset_ns)) / 1e6,
                     "simulator_send_lag_ms": sim_lag_ns / 1e6, "connect_ms": connect_ns / 1e6})
    if not rows:
        raise SystemExit(f"trace: no request paired; see {send_log} and {bench_log}")
    total = stats([r[TOTAL] for r in rows])
    head = [r for r in rows if r["run_ms"] < a.head_s * 1000]
    rest = [r for r in rows if r["run_ms"] >= a.head_s * 1000]
    within = total["p99"] <= a.limit_ms
    result = {"requests": len(times), "paired": len(rows), "unpaired": unpaired, "rate": a.rate,
              "duration_s": a.duration_s, "warmups": a.warmups, "simulator_jit": a.simulator_jit,
              "load_before": load_before, "load_after": load_after, "bench_handoff_line": bench_line,
              "stages_ms": {name: stats([r[name] for r in rows]) for name, _ in STAGES},
              "head_s": a.head_s,
              "head_stages_ms": {name: stats([r[name] for r in head]) for name, _ in STAGES},
              "rest_stages_ms": {name: stats([r[name] for r in rest]) for name, _ in STAGES},
              "connects_during_run": sum(1 for r in rows if r["connect_ms"] > 0),
              "max_schedule_minus_trace_us": max(schedule_err_us), "limit_ms": a.limit_ms, "within": within}
    with open(os.path.join(out, "requests.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print(f"bench's own line: {bench_line}")
    print(f"paired {len(rows)} of {len(times)} requests; load average {load_before:.1f} before, "
          f"{load_after:.1f} after; bench's schedule vs the trace: max {max(schedule_err_us):.1f} µs apart; "
          f"{result['connects_during_run']} requests opened a connection when sent")
    if baseline:
        result["timer_baseline_ms"] = baseline
        print(f"this machine's own floor: a sleeping Python thread woken at the trace's rate for {a.baseline_s:g} s "
              f"before the run was late by median {baseline['median']:.3f} ms, P99 {baseline['p99']:.3f} ms, "
              f"max {baseline['max']:.3f} ms")
    print_split(rows, head, rest, a.head_s)
    run_ms = (start_ns / 1e6, max(end for _, (_, end) in spans))
    for stage, (who, column) in enumerate((("bench", STAGES[0][0]), ("simulator", STAGES[1][0]))):
        during = [p for p in pauses[who] if p[0] < run_ms[1] and p[1] > run_ms[0]]
        late = [spans[k][stage] for k, r in enumerate(rows) if r[column] > a.limit_ms]
        hit = sum(1 for lo, hi in late if any(p[0] < hi and p[1] > lo for p in during))
        longest = max((p[1] - p[0] for p in during), default=0)
        result[f"{who}_pauses"] = {"count": len(during), "gc": sum(1 for p in during if p[2]),
                                   "total_ms": sum(p[1] - p[0] for p in during), "max_ms": longest,
                                   "late": len(late), "late_in_a_pause": hit}
        print(f"{who} JVM pauses in the run: {len(during)} ({result[f'{who}_pauses']['gc']} GC), "
              f"{result[f'{who}_pauses']['total_ms']:.0f} ms in all, longest {longest:.1f} ms; of the {len(late)} "
              f"requests over {a.limit_ms:g} ms in '{STAGES[stage][1]}', {hit} overlap one")
    print(f"CPU: bench {bench_cpu} cores during the run (its own line); simulator {sim_cpu_s:.1f} s in all, "
          f"{sim_cpu_s / (run_ms[1] - run_ms[0]) * 1000:.2f} cores over the run, "
          f"{sim_cpu_s / len(times) * 1000:.2f} ms per trace request (warm-ups included); its threads: "
          + ", ".join(f"{name} {cpu:.1f} s" for name, cpu in sim_threads[:4]))
    result["simulator_cpu_s"] = sim_cpu_s
    result["simulator_thread_cpu_s"] = dict(sim_threads)
    json.dump(result, open(os.path.join(out, "trace.json"), "w"), indent=1)
    verdict = "within" if within else "NOT within"
    rest_p99 = stats([r[TOTAL] for r in rest])["p99"] if rest else float("nan")
    print(f"verdict: server receipt - trace time P99 {total['p99']:.3f} ms is {verdict} {a.limit_ms:g} ms at "
          f"{a.rate:g} req/s (after the first {a.head_s:g} s: P99 {rest_p99:.3f} ms)"
          + ("" if load_before < 1.5 else f" (load average {load_before:.1f}: not a quiet machine)"))


def print_split(rows, head, rest, head_s):
    """One line per stage: median / P99 over the run, then P99 of each of the first head_s seconds and the rest."""
    seconds = [[r for r in head if int(r["run_ms"] // 1000) == s] for s in range(math.ceil(head_s))]
    columns = [f"{s}-{s + 1} s" for s in range(len(seconds))] + ["rest"]
    print(f"{'stage (ms)':<34}{'median':>9}{'P99':>9}   P99 by second of the run: " + ", ".join(columns))
    for name, label in STAGES:
        whole = stats([r[name] for r in rows])
        parts = [stats([r[name] for r in group])["p99"] for group in (*seconds, rest)]
        print(f"{label:<34}{whole['median']:>9.3f}{whole['p99']:>9.3f}   "
              + ", ".join("-" if p != p else f"{p:.3f}" for p in parts))


if __name__ == "__main__":
    main()
