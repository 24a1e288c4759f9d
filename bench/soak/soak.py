"""Soak run of vLLM's published 20-minute benchmark_serving.py settings through the shipped ./tokenpulse; see README.md beside this file."""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tpbench import (LAUNCHER, Platform, cpu_s, default_tokenizer, free_port, load_average,  # noqa: E402
                     percentile, rss_mb, scrape, start_aggregate, start_simulator, stop, workdir)

FRESHNESS = "tokenpulse_aggregator_freshness_seconds"
IN_FLIGHT = "tokenpulse_client_requests_in_flight"
SENT = "tokenpulse_client_requests_sent_total"
SCORED = "tokenpulse_requests_total"
MAIN_RUN = "Initial test run completed"
BLOCK = "============ Serving Benchmark Result"
# What replay cannot know: when its file was written and bench's own measurements of itself (CPU, send
# lag, warm connections, ...: every client_ key, as acceptance's Tokenpulse.withoutClientCpu strips them).
NOT_REPLAYED = re.compile(r"^(date|client_\w*)$")


class LiveMetrics(threading.Thread):
    """Every second, until stopped: the aggregator's freshness gauge and request count, and bench's
    requests sent and in flight."""

    def __init__(self, aggregator_url, bench_url):
        super().__init__(daemon=True)
        self.urls = (aggregator_url, bench_url)
        # (monotonic s, freshness s, requests in flight, requests finished by the client,
        #  requests with metrics in the aggregator); None where a page did not answer
        self.samples = []
        self.halt = threading.Event()

    def run(self):
        while not self.halt.is_set():
            t = time.monotonic()
            aggregator = scrape(self.urls[0])
            bench = aggregator if self.urls[1] == self.urls[0] else scrape(self.urls[1])
            freshness = aggregator.get(FRESHNESS) if aggregator else None
            scored = total(aggregator, SCORED) if aggregator else None
            in_flight = total(bench, IN_FLIGHT) if bench else None
            finished = total(bench, SENT) - in_flight if bench else None
            self.samples.append((t, freshness, in_flight, finished, scored))
            self.halt.wait(max(0.0, 1.0 - (time.monotonic() - t)))

    def judged(self, since):
        """The samples from monotonic time since on taken while bench had requests in flight at this and
        the previous sample: with nothing in flight no chunk arrives, and the freshness gauge (now minus
        the newest chunk's arrival) grows by design."""
        return [cur for prev, cur in zip(self.samples, self.samples[1:])
                if cur[0] >= since and prev[2] and cur[2] and cur[1] is not None and cur[1] == cur[1]]


def total(series, name):
    return sum(v for k, v in series.items() if k.split("{")[0] == name)


def spread(values):
    mid = statistics.median(values)
    return min(values), mid, max(values), 100 * (min(values) - mid) / mid, 100 * (max(values) - mid) / mid


def without_unreplayable(result):
    return {k: v for k, v in result.items() if not NOT_REPLAYED.match(k)}


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--minutes", type=float, default=20.0)
    p.add_argument("--rate", type=float, default=4.0)
    p.add_argument("--input-len", type=int, default=1024, help="random prompt tokens a request")
    p.add_argument("--output-len", type=int, default=128, help="streamed events a request (--ignore-eos)")
    p.add_argument("--ttft-ms", type=float, default=100.0, help="the simulator's time to the first event")
    p.add_argument("--gap-ms", type=float, default=30.0, help="the simulator's time between events of a stream")
    p.add_argument("--sample-s", type=float, default=10.0, help="RSS and CPU sampling period")
    p.add_argument("--warmup-s", type=float, default=120.0,
                   help="RSS and freshness are judged from this long after the main run's start on")
    p.add_argument("--separate-aggregator", action="store_true",
                   help="platform, aggregate and bench as separate processes (issue 15 item 6)")
    p.add_argument("--rss-band-pct", type=float, default=10.0, help="allowed RSS spread around its median")
    p.add_argument("--freshness-limit-s", type=float, default=2.0, help="allowed P99 of the freshness gauge")
    p.add_argument("--first-s", type=float, default=60.0,
                   help="freshness is also judged over this long from the main run's start (a cold aggregator)")
    p.add_argument("--out", default=None)
    p.add_argument("--tokenizer", default=None, help="default: testdata's Qwen3 folder")
    p.add_argument("extra", nargs="*", help="further bench flags, after --")
    a = p.parse_args()
    out, env = workdir(a.out, "tokenpulse-soak-")
    tokenizer = default_tokenizer(a.tokenizer)
    run_id = f"soak-{time.strftime('%H%M%S')}"
    print(f"soak: {run_id}, files in {out}, {load_average()}", flush=True)

    sim, port = start_simulator(out, "soak", LAUNCHER, "--profile", "deterministic", "--ttft-ms", f"{a.ttft_ms:g}",
                                "--gap-ms", f"{a.gap_ms:g}", "--model", "sim-model")
    platform = aggregate = None
    watched = {}  # name -> pid, sampled for RSS and CPU
    bench_port = free_port()
    bench_url = f"http://127.0.0.1:{bench_port}/metrics"
    try:
        if a.separate_aggregator:
            platform = Platform(LAUNCHER, os.path.join(out, "platform"), os.path.join(out, "platform"), env)
            connection = platform.start()
            aggregator_port = free_port()
            aggregate = start_aggregate(connection, out, env, aggregator_port)
            aggregator_url = f"http://127.0.0.1:{aggregator_port}/metrics"
        else:
            connection = ["--data-dir", os.path.join(out, "platform")]
            aggregator_url = bench_url
        bench_cmd = [LAUNCHER, "bench", *connection, "--base-url", f"http://127.0.0.1:{port}", "--model", "sim-model",
                     "--tokenizer", tokenizer, "--dataset-name", "random", "--random-input-len", str(a.input_len),
                     "--random-output-len", str(a.output_len), "--ignore-eos", "--request-rate", str(a.rate),
                     "--duration-minutes", str(a.minutes), "--percentile-metrics", "ttft,tpot,itl,e2el,token_latency",
                     "--save-result", "--result-dir", out, "--result-filename", "soak.json", "--run-id", run_id,
                     "--metrics-port", str(bench_port), "--disable-tqdm", *a.extra]
        print("soak: " + " ".join(bench_cmd), flush=True)
        bench = subprocess.Popen(bench_cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        watched["bench"] = bench.pid
        if aggregate:
            watched["aggregate"] = aggregate.pid
        lines = []  # (monotonic time, line)
        cpu_marks = {}  # line -> {name: CPU s} when bench printed it: from the main run's start to the block

        def read():
            for line in bench.stdout:
                lines.append((time.monotonic(), line.rstrip("\n")))
                for mark in (MAIN_RUN, BLOCK):
                    if line.startswith(mark):
                        cpu_marks[mark] = {name: cpu_s(pid) for name, pid in watched.items()}
                print(line, end="", flush=True)
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        live = LiveMetrics(aggregator_url, bench_url)
        live.start()

        t0 = time.monotonic()
        samples = {name: [] for name in watched}  # name -> [(elapsed s, rss MB, cpu s)]
        next_sample = t0
        while bench.poll() is None:
            now = time.monotonic()
            if now >= next_sample:
                row = []
                for name, pid in watched.items():
                    try:
                        samples[name].append((now - t0, rss_mb(pid), cpu_s(pid)))
                        row.append(f"{name} RSS {samples[name][-1][1]:7.1f} MB CPU {samples[name][-1][2]:7.1f} s")
                    except (FileNotFoundError, ProcessLookupError):
                        pass
                print(f"soak: t={now - t0:6.0f} s  " + "  ".join(row), flush=True)
                next_sample += a.sample_s
            time.sleep(0.2)
        live.halt.set()
        reader.join(5)
        sim_cpu = cpu_s(sim.pid)

        result_path = os.path.join(out, "soak.json")
        replay_equal = None
        if os.path.exists(result_path):
            replay_cmd = [LAUNCHER, "replay", *connection, "--run-id", run_id, "--save-result", "--result-dir", out,
                          "--result-filename", "replay.json"]
            with open(os.path.join(out, "replay.log"), "w") as log:
                replayed = subprocess.run(replay_cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
            replay_path = os.path.join(out, "replay.json")
            if replayed.returncode == 0 and os.path.exists(replay_path):
                mine = without_unreplayable(json.load(open(result_path)))
                theirs = without_unreplayable(json.load(open(replay_path)))
                replay_equal = mine == theirs
                differing = sorted(k for k in mine.keys() | theirs.keys() if mine.get(k) != theirs.get(k))
            else:
                replay_equal, differing = False, [f"replay exited {replayed.returncode}, see replay.log"]
    finally:
        if aggregate:
            stop(aggregate)
        if platform:
            platform.stop()
        stop(sim)

    print()
    print("==== soak summary ====")
    mode = "separate platform, aggregate and bench" if a.separate_aggregator else "bench with its in-process pipeline"
    print(f"{run_id}: {mode}; {load_average()}")
    text = [l for _, l in lines]
    if bench.returncode != 0 or not os.path.exists(result_path):
        print(f"bench exited {bench.returncode}; no result file. Last lines:")
        print("\n".join(text[-5:]))
        sys.exit(1)
    result = json.load(open(result_path))
    undelivered = [l for l in text if "not delivered" in l]
    start_t = next(t for t, l in lines if l.startswith(MAIN_RUN))
    block_t = next(t for t, l in lines if l.startswith(BLOCK))
    events = result["total_output_tokens"]  # the simulator streams one token per event
    warm = start_t + a.warmup_s  # the main run starts after the JVM, the platform and the initial test request
    in_flight_all = live.judged(start_t)
    in_flight_warm = live.judged(warm)
    in_flight_first = [s for s in in_flight_all if s[0] < start_t + a.first_s]
    fresh = [s[1] for s in in_flight_warm]
    fresh_first = [s[1] for s in in_flight_first]
    verdicts = []

    print("| what | " + " | ".join(watched) + " |")
    print("|---|" + "---:|" * len(watched))
    # RSS under load: from the warm-up to the last response. After it the aggregator reads back and sorts
    # every request of the run for the summary, a transient of the run's size, not a trend.
    last_response_t = start_t + result["duration"]
    judged = {name: [s[1] for s in rows if warm <= t0 + s[0] <= last_response_t] for name, rows in samples.items()}
    cells = []
    for name in watched:
        if judged[name]:
            lo, mid, hi, down, up = spread(judged[name])
            cells.append(f"{lo:.0f} / {mid:.0f} / {hi:.0f} MB, {down:+.1f} % / {up:+.1f} %")
            verdicts.append((f"{name} RSS within ±{a.rss_band_pct:.0f} % of its median after warm-up",
                             -down <= a.rss_band_pct and up <= a.rss_band_pct))
        else:
            cells.append("no sample after warm-up")
            verdicts.append((f"{name} RSS sampled after warm-up", False))
    print(f"| RSS from {a.warmup_s:.0f} s into the main run to the last response, min / median / max, spread | "
          + " | ".join(cells) + " |")
    cpu = {name: cpu_marks[BLOCK][name] - cpu_marks[MAIN_RUN][name] for name in watched}
    print("| CPU from the main run's start to the block, per streamed event | " + " | ".join(
        f"{cpu[name]:.1f} s, {1e6 * cpu[name] / events:.0f} µs" for name in watched) + " |")
    print()
    print(f"requests: {result['completed']} completed, {result['failed']} failed in {result['duration']:.1f} s;"
          f" {events} streamed events; simulator CPU {sim_cpu:.1f} s")
    print(f"records not delivered: {undelivered[0] if undelivered else 0}")
    print(f"last response -> block: {block_t - (start_t + result['duration']):.2f} s"
          " (schedule start taken as the 'Initial test run completed' line, so a few ms high)")
    where = "the aggregator" if a.separate_aggregator else "bench"
    print("freshness in the main run's first 30 s (s after its start: gauge s): "
          + " ".join(f"{s[0] - start_t:.0f}: {s[1]:.2f}" for s in in_flight_all if s[0] < start_t + 30))
    for label, rows in ((f"after {a.warmup_s:.0f} s warm-up", in_flight_warm), (f"first {a.first_s:.0f} s", in_flight_first),
                        ("whole run", in_flight_all)):
        if not rows:
            continue
        values = [s[1] for s in rows]
        # requests finished at the client and not yet scored by the aggregator: how far the live request
        # meters (histograms, counts, windows) trail the client
        behind = [s[3] - s[4] for s in rows if s[3] is not None and s[4] is not None]
        print(f"freshness ({where}'s /metrics, {len(rows)} 1 s samples with requests in flight, {label}): median"
              f" {percentile(values, 50):.3f} s, P99 {percentile(values, 99):.3f} s, max {max(values):.3f} s;"
              f" requests finished and not yet scored: median {percentile(behind, 50):.0f}, P99"
              f" {percentile(behind, 99):.0f}, max {max(behind, default=float('nan')):.0f}"
              f" (÷ {a.rate:g} req/s: P99 {percentile(behind, 99) / a.rate:.1f} s)")
    verdicts.append((f"freshness P99 <= {a.freshness_limit_s:g} s while requests are in flight after warm-up",
                     bool(fresh) and percentile(fresh, 99) <= a.freshness_limit_s))
    verdicts.append((f"freshness P99 <= {a.freshness_limit_s:g} s while requests are in flight in the first"
                     f" {a.first_s:.0f} s (a freshly started aggregator)",
                     bool(fresh_first) and percentile(fresh_first, 99) <= a.freshness_limit_s))
    print(f"replay equal (without date and the client_ keys): {'yes' if replay_equal else 'no'}"
          + ("" if replay_equal else f"; differs in {', '.join(differing[:10])}"))
    verdicts.append(("replay's result file equals bench's", bool(replay_equal)))
    for what, ok in verdicts:
        print(f"{'PASS' if ok else 'FAIL'}: {what}")
    json.dump({"run_id": run_id, "separate_aggregator": a.separate_aggregator, "samples": samples,
               "live": live.samples, "main_run_start": start_t, "verdicts": verdicts}, open(os.path.join(out, "soak-samples.json"), "w"))
    print(f"files: {out}")
    sys.exit(0 if all(ok for _, ok in verdicts) else 1)


if __name__ == "__main__":
    main()
