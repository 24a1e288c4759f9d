"""Soak run of seed 000's settings through the shipped ./tokenpulse; see README.md beside this file."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tpbench import LAUNCHER, ROOT, cpu_s, free_port, rss_mb, wait_ready  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--minutes", type=float, default=20.0)
    p.add_argument("--rate", type=float, default=4.0)
    p.add_argument("--sample-s", type=float, default=30.0)
    p.add_argument("--warmup-s", type=float, default=120.0, help="samples before this are not judged for flatness")
    p.add_argument("--out", default=None)
    p.add_argument("--tokenizer", default=None, help="default: ../shared's Qwen3 folder when present, else gpt2")
    p.add_argument("extra", nargs="*", help="further bench flags, after --")
    a = p.parse_args()
    out = a.out or tempfile.mkdtemp(prefix="tokenpulse-soak-")
    os.makedirs(out, exist_ok=True)
    subprocess.run([LAUNCHER, "--version"], check=True, stdout=subprocess.DEVNULL)  # builds the jar if needed

    tokenizer = a.tokenizer or os.path.join(ROOT, "..", "shared", "data", "tokenizers", "qwen3")
    if not a.tokenizer and not os.path.isdir(tokenizer):
        tokenizer = "gpt2"
    port = free_port()
    sim_log = open(os.path.join(out, "simulate.log"), "w")
    sim = subprocess.Popen([LAUNCHER, "simulate", "--profile", "deterministic", "--ttft-ms", "100", "--gap-ms", "30",
                            "--port", str(port), "--model", "sim-model"], stdout=sim_log, stderr=subprocess.STDOUT)
    try:
        wait_ready(f"http://127.0.0.1:{port}/health", 120, "soak: the simulator")
        bench_cmd = [LAUNCHER, "bench", "--base-url", f"http://127.0.0.1:{port}", "--model", "sim-model",
                     "--tokenizer", tokenizer, "--dataset-name", "random", "--random-input-len", "1024",
                     "--random-output-len", "128", "--ignore-eos", "--request-rate", str(a.rate),
                     "--duration-minutes", str(a.minutes), "--percentile-metrics", "ttft,tpot,itl,e2el,token_latency",
                     "--save-result", "--result-dir", out, "--result-filename", "soak.json",
                     "--data-dir", os.path.join(out, "platform"), "--metrics-port", "0", "--disable-tqdm", *a.extra]
        print("soak: " + " ".join(bench_cmd), flush=True)
        bench = subprocess.Popen(bench_cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines = []  # (monotonic time, line)

        def read():
            for line in bench.stdout:
                lines.append((time.monotonic(), line.rstrip("\n")))
                print(line, end="", flush=True)
        reader = threading.Thread(target=read, daemon=True)
        reader.start()

        t0 = time.monotonic()
        samples = []  # (elapsed s, rss MB, cpu s)
        next_sample = t0
        while bench.poll() is None:
            now = time.monotonic()
            if now >= next_sample:
                try:
                    samples.append((now - t0, rss_mb(bench.pid), cpu_s(bench.pid)))
                    print(f"soak: t={now - t0:7.0f} s  bench RSS {samples[-1][1]:7.1f} MB  CPU {samples[-1][2]:8.1f} s",
                          flush=True)
                except (FileNotFoundError, ProcessLookupError):
                    pass
                next_sample += a.sample_s
            time.sleep(0.2)
        # the child is reaped by poll(); its whole CPU is the last sample plus the tail, so read it from rusage
        reader.join(5)
        cpu_total = samples[-1][2] if samples else float("nan")
        sim_cpu = cpu_s(sim.pid)
    finally:
        sim.terminate()
        sim.wait(30)

    print()
    print("==== soak summary ====")
    text = [l for _, l in lines]
    result_path = os.path.join(out, "soak.json")
    if bench.returncode != 0 or not os.path.exists(result_path):
        print(f"bench exited {bench.returncode}; no result file. Last lines:")
        print("\n".join(text[-5:]))
        sys.exit(1)
    result = json.load(open(result_path))
    undelivered = [l for l in text if "not delivered" in l]
    print(f"records not delivered: {undelivered[0] if undelivered else 0}")
    start_t = next(t for t, l in lines if l.startswith("Initial test run completed"))
    block_t = next(t for t, l in lines if "Serving Benchmark Result" in l)
    last_response_t = start_t + result["duration"]
    print(f"requests: {result['completed']} completed, {result['failed']} failed in {result['duration']:.1f} s")
    print(f"time from the last response to the block: {block_t - last_response_t:.2f} s"
          " (schedule start taken as the 'Starting main benchmark run' line)")
    events = result["total_output_tokens"]  # the simulator streams one token per event
    print(f"bench CPU: {cpu_total:.1f} s for {events} streamed events = {1e6 * cpu_total / events:.0f} us per event"
          f" (simulator: {sim_cpu:.1f} s)")
    judged = [s for s in samples if s[0] >= a.warmup_s]
    if judged:
        rss = [s[1] for s in judged]
        mid = statistics.median(rss)
        print(f"bench RSS after {a.warmup_s:.0f} s warm-up: {min(rss):.0f}..{max(rss):.0f} MB, median {mid:.0f} MB,"
              f" {100 * (min(rss) - mid) / mid:+.1f} % / {100 * (max(rss) - mid) / mid:+.1f} % of it")
    print(f"files: {out}")


if __name__ == "__main__":
    main()
