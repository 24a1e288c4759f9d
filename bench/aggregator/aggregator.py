"""Throughput of `tokenpulse aggregate` on its own, through the shipped ./tokenpulse; see README.md beside this file.

1. Fill: `platform` on a fresh data dir; `bench --simulate` publishes a run to it while no aggregator
   runs (bench then waits --summary-timeout-s 1 for a summary that cannot come, and ends without one).
2. Measure: `aggregate` on that platform, timed from its "Aggregator running" line (Kafka Streams
   state RUNNING) until the run's RunSummary is readable on `run-summaries` (read_committed, by
   examples/python-consumer started before the aggregate). Prints chunk events/s over that time, the
   aggregate process's CPU (/proc) and cores, its busiest threads, the load average before and after,
   start-up (process start -> RUNNING) apart, and the verdict against 100 000 events/s.
"""
import argparse
import calendar
import json
import os
import re
import shlex
import subprocess
import sys
import threading
import time
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tpbench import (CONSUMER, LAUNCHER, Platform, chunk_events, cpu_s, default_tokenizer, fill_run, free_port,  # noqa: E402
                     load_average, scrape, stop, thread_cpu, workdir)

GOAL_EVENTS_PER_S = 100_000  # issue 14: aggregator throughput on its own
RUNNING = re.compile(r"^Aggregator running")
ISO = re.compile(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)?")


def launcher_opts():
    """The JVM options ./tokenpulse gives `aggregate` (its opts=... and c1=... lines, as for every client
    command), so that --jfr and --java-opts only add to them."""
    with open(LAUNCHER) as f:
        text = f.read()
    return " ".join(re.search(rf'^{name}="([^"]*)"', text, re.MULTILINE).group(1) for name in ("opts", "c1"))


def watch(proc, log_path, pattern, seen):
    """Copies proc's output to log_path from a thread that notes in seen the monotonic time ("at") and the
    proc's CPU ("cpu_s") when a line first matches pattern (a file polled every 0.2 s would blur it)."""

    def copy():
        with open(log_path, "w") as log:
            for line in proc.stdout:
                if "at" not in seen and pattern.search(line):
                    seen["at"] = time.monotonic()
                    seen["cpu_s"] = cpu_s(proc.pid) if proc.poll() is None else float("nan")
                log.write(line)
                log.flush()

    threading.Thread(target=copy, daemon=True).start()
    return seen


def start_summary_watch(connection, out, run_id):
    """examples/python-consumer on run-summaries (read_committed: the summary exists once its transaction
    commits, as bench sees it), started before the aggregate; notes when the run's summary arrives."""
    proc = subprocess.Popen(["/usr/bin/python3", CONSUMER, *connection, "--topic", "tokenpulse.run-summaries",
                             "--group-id", f"aggthru-{run_id}", "--max-records", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return proc, watch(proc, os.path.join(out, "summaries.log"), re.compile(f'"run_id": "{re.escape(run_id)}"'), {})


def epoch_ns(iso):
    """Nanoseconds since the epoch of an ISO time as `jfr print --json` writes it (2026-11-26T09:10:00.123456789Z)."""
    m = ISO.match(iso)
    zone = m.group(3) or "Z"
    offset_s = 0 if zone == "Z" else (1 if zone[0] == "+" else -1) * (int(zone[1:3]) * 3600 + int(zone[4:6]) * 60)
    seconds = calendar.timegm(time.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S")) - offset_s
    return seconds * 10**9 + int((m.group(2) or ".0")[1:].ljust(9, "0")[:9])


def jfr_events(jfr, events, since_ns, until_ns):
    """The values of the recording's events of those types between the two wall-clock times."""
    text = subprocess.run(["jfr", "print", "--json", "--stack-depth", "64", "--events", events, jfr],
                          capture_output=True, text=True, check=True).stdout
    return [e["values"] for e in json.loads(text)["recording"]["events"]
            if since_ns <= epoch_ns(e["values"]["startTime"]) <= until_ns]


def frames(values):
    return [f"{f['method']['type']['name']}.{f['method']['name']}" for f in values["stackTrace"]["frames"]]


def seconds(duration):
    """Seconds of an ISO-8601 duration as jfr prints it (PT0.1016S, PT1M2.5S)."""
    m = re.match(r"PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?", duration)
    return int(m.group(1) or 0) * 3600 + int(m.group(2) or 0) * 60 + float(m.group(3) or 0)


def top_frames(jfr, since_ns, until_ns, out):
    """From the recording, between the two wall-clock times: the busiest threads, the methods on top of
    the stack (self) and anywhere on it (total) by share of execution samples, and where the stream
    thread waited (parks and monitor waits over the profile's 10 ms threshold, by the Kafka or
    TokenPulse frames that waited: e.g. the exactly-once commit's flush and transaction calls)."""
    samples = jfr_events(jfr, "jdk.ExecutionSample", since_ns, until_ns)
    threads, self_frames, total_frames = Counter(), Counter(), Counter()
    for v in samples:
        threads[(v.get("sampledThread") or {}).get("javaName", "?")] += 1
        stack = frames(v)
        if stack:
            self_frames[stack[0]] += 1
        total_frames.update(set(stack))
    n = max(len(samples), 1)
    lines = [f"JFR execution samples in the catch-up: {len(samples)}"]
    for title, counts in (("threads", threads), ("self (top of stack)", self_frames),
                          ("total (on the stack)", total_frames)):
        lines.append(f"  {title}:")
        lines += [f"    {100 * c / n:5.1f} %  {name}" for name, c in counts.most_common(15)]
    waits = Counter()
    for v in jfr_events(jfr, "jdk.ThreadPark,jdk.JavaMonitorWait", since_ns, until_ns):
        if "StreamThread" in ((v.get("eventThread") or {}).get("javaName") or ""):
            ours = [f for f in frames(v) if not f.startswith(("java/", "jdk/"))]
            waits[" < ".join(ours[:3])] += seconds(v["duration"])
    lines.append(f"  the stream thread waited {sum(waits.values()):.1f} s of the catch-up in:")
    lines += [f"    {s:6.1f} s  {where}" for where, s in waits.most_common(8)]
    with open(os.path.join(out, "jfr-top.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return lines


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--events", type=int, default=500_000, help="chunk events to publish (>= 500 000 by default)")
    p.add_argument("--output-len", type=int, default=100, help="chunk events a request (--random-output-len)")
    p.add_argument("--max-concurrency", type=int, default=200)
    p.add_argument("--speedup", type=float, default=50.0, help="--simulate-speedup of the fill")
    p.add_argument("--progress-s", type=float, default=0.0,
                   help="read the aggregate's chunk count from /metrics every S s during the catch-up (0: only"
                        " at the end; a scrape costs the aggregate CPU)")
    p.add_argument("--timeout-s", type=float, default=1800.0, help="longest wait for the summary")
    p.add_argument("--jfr", action="store_true",
                   help="record the aggregate with JFR (settings=profile) and print the catch-up's top frames")
    p.add_argument("--java-opts", default="",
                   help="JVM options added to the launcher's for the aggregate only (-XX:TieredStopAtLevel=4: with C2)")
    p.add_argument("--aggregate-args", default="",
                   help="more aggregate flags, e.g. \"--stream-threads 2\"")
    p.add_argument("--tokenizer", default=None, help="default: testdata's Qwen3 folder")
    p.add_argument("--out", default=None)
    a = p.parse_args()
    out, env = workdir(a.out, "tokenpulse-aggthru-")
    run_id = f"aggthru-{time.strftime('%H%M%S')}"
    print(f"aggregator: {run_id}, files in {out}, {load_average()}", flush=True)
    platform = Platform(LAUNCHER, os.path.join(out, "platform"), os.path.join(out, "platform"), env)
    aggregate = watcher = None
    try:
        connection = platform.start()
        code, fill_s, events = fill_run(LAUNCHER, connection, out, env, run_id, a.events, a.output_len,
                                        a.max_concurrency, a.speedup, default_tokenizer(a.tokenizer))
        last = open(os.path.join(out, "bench.log")).read().strip().splitlines()[-1]
        print(f"aggregator: fill done in {fill_s:.1f} s, bench exit code {code} (no aggregator: no summary"
              f" expected); last line: {last}", flush=True)
        if " 0 records not delivered" not in last:
            raise SystemExit(f"the fill did not deliver every record to Kafka; see {out}/bench.log")
        jfr = os.path.join(out, "aggregate.jfr")
        java_opts = f"{launcher_opts()} {a.java_opts}".strip()
        if a.jfr:
            java_opts += f" -XX:StartFlightRecording=filename={jfr},settings=profile,jdk.ExecutionSample#period=1ms,dumponexit=true"
        agg_env = dict(env, TOKENPULSE_JAVA_OPTS=java_opts)
        watcher, summary = start_summary_watch(connection, out, run_id)
        load_before = load_average()
        port = free_port()
        started = time.monotonic()
        aggregate = subprocess.Popen([LAUNCHER, "aggregate", *connection, "--metrics-port", str(port),
                                      *shlex.split(a.aggregate_args)],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=agg_env, text=True)
        running = watch(aggregate, os.path.join(out, "aggregate.log"), RUNNING, {})
        url = f"http://127.0.0.1:{port}/metrics"
        # A group of stream threads is RUNNING when the last has its tasks: the first may have begun
        before_running = chunk_events(scrape(url) or {}, run_id)
        progress = []  # (s since RUNNING, chunk events counted), every --progress-s
        next_scrape = 0.0
        while "at" not in summary:
            now = time.monotonic()
            if aggregate.poll() is not None:
                raise SystemExit(f"the aggregator exited {aggregate.returncode}; see {out}/aggregate.log")
            if watcher.poll() is not None and "at" not in summary:
                time.sleep(0.1)  # its last line may still be in the pipe
                if "at" not in summary:
                    raise SystemExit(f"the summary consumer exited {watcher.returncode}; see {out}/summaries.log")
            if now - started > a.timeout_s:
                raise SystemExit(f"no summary of {run_id} within {a.timeout_s:g} s; see {out}/aggregate.log")
            if "at" in running and a.progress_s and now >= next_scrape:
                progress.append((now - running["at"], chunk_events(scrape(url) or {}, run_id)))
                next_scrape = now + a.progress_s
            time.sleep(0.01)
        done_cpu = cpu_s(aggregate.pid)
        _, threads = thread_cpu(aggregate.pid)
        done_wall_ns = time.time_ns()
        load_after = load_average()
        running_wall_ns = done_wall_ns - int((time.monotonic() - running["at"]) * 1e9)
        counted = chunk_events(scrape(url) or {}, run_id)
    finally:
        if aggregate:
            stop(aggregate)
        if watcher:
            stop(watcher)
        platform.stop()

    catchup_s = summary["at"] - running["at"]
    catchup_cpu = done_cpu - running["cpu_s"]
    rate = (events - before_running) / catchup_s
    print()
    print(f"==== aggregator throughput: {run_id}, {events} chunk events ({events // a.output_len} requests of"
          f" {a.output_len}) ====")
    print(f"load before: {load_before}; after: {load_after}")
    print(f"start-up (process start -> RUNNING): {running['at'] - started:.2f} s, {running['cpu_s']:.1f} s of CPU")
    print(f"catch-up (RUNNING -> the run's summary read from run-summaries): {catchup_s:.2f} s,"
          f" {catchup_cpu:.1f} s of CPU = {catchup_cpu / catchup_s:.2f} cores")
    print(f"chunk events counted by the aggregator: {counted:.0f} of {events}, {before_running:.0f} of them"
          f" before RUNNING (not in the rate)")
    print(f"process start -> summary: {summary['at'] - started:.2f} s")
    # the steady part: from the first to the last poll that saw the count move, less the ends' ramp
    moving = [(t, c) for t, c in progress if 0 < c < events]
    if len(moving) >= 2 and moving[-1][0] > moving[0][0]:
        print(f"while the count moved ({moving[0][0]:.1f} -> {moving[-1][0]:.1f} s after RUNNING):"
              f" {(moving[-1][1] - moving[0][1]) / (moving[-1][0] - moving[0][0]):,.0f} events/s")
    busiest = sorted(threads.values(), key=lambda x: -x[1])[:8]
    print("busiest threads, CPU s over the process's life: "
          + ", ".join(f"{name} {s:.1f}" for name, s in busiest))
    print(f"chunk events/s: {rate:,.0f}")
    ok = rate >= GOAL_EVENTS_PER_S and counted == events
    print(f"{'PASS' if ok else 'FAIL'}: >= {GOAL_EVENTS_PER_S:,} chunk events/s (issue 14), every event counted")
    json.dump({"run_id": run_id, "events": events, "counted": counted, "catchup_s": catchup_s,
               "catchup_cpu_s": catchup_cpu, "startup_s": running["at"] - started, "events_per_s": rate,
               "before_running": before_running, "start_to_summary_s": summary["at"] - started,
               "progress": progress, "load_before": load_before, "load_after": load_after},
              open(os.path.join(out, "aggregator.json"), "w"))
    if a.jfr and os.path.exists(jfr):
        print("\n".join(top_frames(jfr, running_wall_ns, done_wall_ns, out)))
    print(f"files: {out}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
