"""Aggregators as a group: how the catch-up of one run scales with the number of `aggregate` instances
when the topics have enough partitions; see README.md beside this file.

1. `platform` on a fresh data dir; the tokenpulse.* topics raised to --partitions (Partitions.java).
2. Fill: `bench --simulate` publishes --events chunk events while no aggregator runs (bench/aggregator's fill).
3. For each count M of --instances: M `aggregate` processes with their own HOME (Streams state) and a
   new application id (so each group starts from the run's first record), timed from their start until
   one of them shows the run's summary on its /metrics; then the chunk events each instance counted,
   its CPU, and the group's events/s.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tpbench import (LAUNCHER, Platform, chunk_events, cpu_s, fill_run, free_port, load_average, scrape,  # noqa: E402
                     stop, wait_for_line)

HERE = os.path.dirname(os.path.abspath(__file__))


def has_summary(series, run_id):
    tag = f'run_id="{run_id}"'
    return any(k.startswith("tokenpulse_summary_requests{") and tag in k for k in series)


def group(launcher, connection, out, run_id, m, timeout_s):
    """Starts m aggregates in one group; returns (s from start to the summary, s from the last RUNNING
    line to the summary, per-instance [(chunk events, CPU s)])."""
    procs, urls, logs = [], [], []
    started = time.monotonic()
    for i in range(m):
        home = os.path.join(out, f"home-{m}-{i}")
        os.makedirs(home, exist_ok=True)
        port = free_port()
        log = os.path.join(out, f"aggregate-{m}-{i}.log")
        with open(log, "w") as f:
            procs.append(subprocess.Popen(
                [*shlex.split(launcher), "aggregate", *connection, "--application-id", f"scaleout-{m}",
                 "--metrics-port", str(port)], stdout=f, stderr=subprocess.STDOUT, env=dict(os.environ, HOME=home)))
        urls.append(f"http://127.0.0.1:{port}/metrics")
        logs.append(log)
    try:
        for proc, log in zip(procs, logs):
            wait_for_line(log, re.compile("^Aggregator running", re.MULTILINE), 300, proc, "an aggregate")
        all_running = time.monotonic()
        while True:
            if time.monotonic() - started > timeout_s:
                raise SystemExit(f"no summary of {run_id} from {m} aggregates within {timeout_s} s; see {out}")
            if any(has_summary(scrape(u) or {}, run_id) for u in urls):
                done = time.monotonic()
                break
            time.sleep(0.5)
        per = [(chunk_events(scrape(u) or {}, run_id), cpu_s(p.pid)) for u, p in zip(urls, procs)]
    finally:
        for p in procs:
            stop(p)
    return done - started, done - all_running, per


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--events", type=int, default=2_000_000)
    p.add_argument("--output-len", type=int, default=100)
    p.add_argument("--max-concurrency", type=int, default=400)
    p.add_argument("--speedup", type=float, default=50.0)
    p.add_argument("--partitions", type=int, default=12)
    p.add_argument("--instances", default="1,3,6,12", help="aggregate counts to time, comma-separated")
    p.add_argument("--tokenizer", default="gpt2")
    p.add_argument("--timeout-s", type=float, default=600)
    p.add_argument("--out", default=None)
    a = p.parse_args()
    launcher = LAUNCHER
    out = os.path.abspath(a.out or tempfile.mkdtemp(prefix="tokenpulse-scaleout-"))
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, HOME=os.path.join(out, "home"))
    run_id = f"scaleout-{time.strftime('%H%M%S')}"
    print(f"scale-out: {run_id}, {os.cpu_count()} cores, files in {out}, {load_average()}", flush=True)
    platform = Platform(launcher, os.path.join(out, "platform"), os.path.join(out, "platform"), env)
    results = []
    try:
        connection = platform.start()
        jar = os.environ.get("TOKENPULSE_JAR", os.path.join(HERE, "..", "..", "cli", "target", "tokenpulse.jar"))
        subprocess.run(["java", "-cp", jar, os.path.join(HERE, "Partitions.java"), connection[1], str(a.partitions)],
                       check=True)
        code, fill_s, events = fill_run(launcher, connection, out, env, run_id, a.events, a.output_len,
                                        a.max_concurrency, a.speedup, a.tokenizer)
        last = open(os.path.join(out, "bench.log")).read().strip().splitlines()[-1]
        print(f"fill: {events} events in {fill_s:.1f} s ({events / fill_s:,.0f}/s), exit {code}; {last}", flush=True)
        if " 0 records not delivered" not in last:
            raise SystemExit(f"the fill did not deliver every record to Kafka; see {out}/bench.log")
        for m in (int(x) for x in a.instances.split(",")):
            total_s, after_running_s, per = group(launcher, connection, out, run_id, m, a.timeout_s)
            counted = sum(c for c, _ in per)
            cpu = sum(s for _, s in per)
            row = {"instances": m, "to_summary_s": total_s, "after_all_running_s": after_running_s,
                   "events_per_s": events / total_s, "counted": counted, "cpu_s": cpu,
                   "cpu_us_per_event": cpu / events * 1e6, "per_instance_events": [c for c, _ in per]}
            results.append(row)
            print(f"{m:3d} aggregates: summary {total_s:6.1f} s after start ({after_running_s:5.1f} s after all"
                  f" RUNNING), {events / total_s:9,.0f} events/s, CPU {cpu:6.1f} s ({cpu / events * 1e6:.1f} us/event"
                  f" incl. start-up), counted {counted:.0f}/{events}, per instance {[int(c) for c, _ in per]}",
                  flush=True)
    finally:
        platform.stop()
    json.dump({"run_id": run_id, "events": events, "partitions": a.partitions, "cores": os.cpu_count(),
               "results": results}, open(os.path.join(out, "scaleout.json"), "w"), indent=1)
    print(f"files: {out}; {load_average()}")


if __name__ == "__main__":
    main()
