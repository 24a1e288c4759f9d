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
import os
import random
import re
import shlex
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tpbench import (add_client_args, parse_client_args, free_port, percentile, read_topics,  # noqa: E402
                     start_simulator, stop)

PREFIX = "trace-"
BENCH_LINE = re.compile(r"^Trace send lateness \(ms\): .*")


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
    """{request index: received_unix_ns} of the main run's requests (the initial test request has another id)."""
    received = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            rid = row["request_id"]
            if rid.startswith(PREFIX) and rid[len(PREFIX):].isdigit():
                received[int(rid[len(PREFIX):])] = int(row["received_unix_ns"])
    return received


def read_run(command, data_dir, run_id, out):
    """(schedule_start_epoch_ns, {request index: (scheduled_offset_ns, sent_offset_ns)}) from bench's topics."""
    start, requests = None, {}
    for value in read_topics(command, data_dir, ["tokenpulse.runs", "tokenpulse.requests"], out, run_id):
        if value.get("run_id") != run_id:
            continue
        event = value["event"]
        if "schedule_start_epoch_ns" in event:
            start = event["schedule_start_epoch_ns"]
        elif "sent_offset_ns" in event and "success" not in event:  # RequestStarted, not RequestFinished
            requests[value["request_index"]] = (event["scheduled_offset_ns"], event["sent_offset_ns"])
    if start is None:
        raise SystemExit(f"trace: no RunStarted of {run_id} in {data_dir}")
    return start, requests


def stats(values):
    return {"median": percentile(values, 50), "p99": percentile(values, 99), "max": max(values) if values else None}


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
    add_client_args(p)
    a, out = parse_client_args(p, "tokenpulse-trace-")
    run_id = f"trace-{time.strftime('%H%M%S')}"
    trace = os.path.join(out, f"{run_id}.trace.jsonl")
    times = write_trace(trace, a.rate, a.duration_s, a.input_len, a.output_len, a.seed)
    print(f"trace: {len(times)} requests over {a.duration_s:g} s at {a.rate:g} req/s; results in {out}", flush=True)

    send_log = os.path.join(out, f"{run_id}.sends.csv")
    sim, port = start_simulator(out, run_id, a.simulator, "--profile", "deterministic", "--ttft-ms", str(a.ttft_ms),
                                "--gap-ms", str(a.gap_ms), "--model", "sim-model", "--send-log", send_log)
    data_dir = os.path.join(out, f"{run_id}.platform")
    cmd = [*shlex.split(a.bench), "bench", "--base-url", f"http://127.0.0.1:{port}", "--model", "sim-model",
           "--tokenizer", a.tokenizer, "--dataset-name", "trace", "--dataset-path", trace,
           "--trace-time-scale", str(a.trace_time_scale), "--num-prompts", str(len(times)), "--ignore-eos",
           "--disable-tqdm", "--request-id-prefix", PREFIX, "--run-id", run_id, "--data-dir", data_dir,
           "--metrics-port", str(free_port()), *a.extra]
    load_before = os.getloadavg()[0]
    bench_log = os.path.join(out, f"{run_id}.bench.log")
    try:
        with open(bench_log, "w") as log:
            code = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT).returncode
    finally:
        stop(sim)  # its shutdown hook writes the rest of the send log
    load_after = os.getloadavg()[0]
    if code != 0:
        raise SystemExit(f"trace: bench exited {code}; see {bench_log}")
    bench_line = next((line.strip() for line in open(bench_log) if BENCH_LINE.match(line)), "(no send-lateness line)")

    received = read_receipts(send_log)
    start_ns, requests = read_run(a.bench, data_dir, run_id, out)
    server_ms, bench_ms, schedule_err_us, unpaired, rows = [], [], [], 0, []
    for i, ms in enumerate(times):
        trace_offset_ns = round((ms - times[0]) * a.trace_time_scale * 1e6)
        if i not in received or i not in requests:
            unpaired += 1
            continue
        scheduled_ns, sent_ns = requests[i]
        server_ms.append((received[i] - (start_ns + trace_offset_ns)) / 1e6)
        bench_ms.append((sent_ns - scheduled_ns) / 1e6)
        schedule_err_us.append(abs(scheduled_ns - trace_offset_ns) / 1e3)
        rows.append((i, ms, bench_ms[-1], server_ms[-1]))
    if not server_ms:
        raise SystemExit(f"trace: no request paired; see {send_log} and {bench_log}")
    server, client = stats(server_ms), stats(bench_ms)
    within = server["p99"] <= a.limit_ms
    result = {"requests": len(times), "paired": len(server_ms), "unpaired": unpaired, "rate": a.rate,
              "duration_s": a.duration_s, "load_before": load_before, "load_after": load_after,
              "server_receipt_minus_trace_ms": server, "bench_sent_minus_scheduled_ms": client,
              "max_schedule_minus_trace_us": max(schedule_err_us), "limit_ms": a.limit_ms, "within": within}
    json.dump(result, open(os.path.join(out, "trace.json"), "w"), indent=1)
    with open(os.path.join(out, "requests.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["request_index", "trace_ms", "bench_sent_minus_trace_ms", "server_receipt_minus_trace_ms"])
        w.writerows(rows)
    print(f"bench's own line: {bench_line}")
    print(f"paired {len(server_ms)} of {len(times)} requests; load average {load_before:.1f} before, "
          f"{load_after:.1f} after; bench's schedule vs the trace: max {max(schedule_err_us):.1f} µs apart")
    print(f"server receipt - trace time (ms): median {server['median']:.3f}, P99 {server['p99']:.3f}, "
          f"max {server['max']:.3f}")
    print(f"bench sent - trace time (ms):     median {client['median']:.3f}, P99 {client['p99']:.3f}, "
          f"max {client['max']:.3f}")
    verdict = "within" if within else "NOT within"
    print(f"verdict: P99 {server['p99']:.3f} ms is {verdict} {a.limit_ms:g} ms at {a.rate:g} req/s"
          + ("" if load_before < 1.5 else f" (load average {load_before:.1f}: not a quiet machine)"))


if __name__ == "__main__":
    main()
