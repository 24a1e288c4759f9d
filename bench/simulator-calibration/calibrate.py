#!/usr/bin/env python3
"""End-to-end calibration of the simulator's default profile against vLLM's published load sweep
(docs/simulator.md).

Starts `tokenpulse simulate` (default profile), runs `tokenpulse bench` once per point of the sweep
(random dataset, --ignore-eos, --request-rate inf), reads each result JSON and prints the
vLLM-vs-simulated table of mean TTFT and mean TPOT with relative errors.

With --speedup N every simulated time is divided by N, so the run is N times shorter; the measured
times are multiplied back by N before they are compared (client and HTTP overheads, which the
speedup does not shrink, are multiplied with them: compare a few points at --speedup 1).

Standard library only: it orchestrates two processes and does arithmetic on two JSON fields.
"""

import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODEL = "facebook/opt-125m"  # its tokenizer is built in (no download); the simulator counts prompts with the same


def sweep_points(path):
    """(requests, prompt tokens, output tokens, mean TTFT ms, mean TPOT ms) of every result block.

    The prompt length is the series' seq_length (the single-prompt series has none: total input tokens);
    the output length is what vLLM's run generated per request (~60 for 80-token prompts, ~120 for
    10 000), because its TPOT is (latency - TTFT) / (that length - 1).
    """
    points, seq_length = [], None
    for block in re.split(r"(?m)^(?=seq_length:|num_prompt|=+ Serving Benchmark Result)", open(path).read()):
        if block.startswith("seq_length:"):
            seq_length = int(block.split()[1])
        elif block.startswith("num_prompt:") or block.startswith("num_prompts:"):
            seq_length = None if block.startswith("num_prompt:") else seq_length
        field = lambda name: float(re.search(re.escape(name) + r":\s+([\d.]+)", block).group(1))
        if "Serving Benchmark Result" in block:
            requests = int(field("Successful requests"))
            prompt = seq_length or int(field("Total input tokens") / requests + 0.5)
            points.append((requests, prompt, int(field("Total generated tokens") / requests + 0.5),
                           field("Mean TTFT (ms)"), field("Mean TPOT (ms)")))
    return points


def start_simulator(tokenpulse, speedup, log_path):
    log = open(log_path, "w")
    sim = subprocess.Popen([tokenpulse, "simulate", "--port", "0", "--speedup", str(speedup), "--tokenizer", MODEL],
                           stdout=subprocess.PIPE, stderr=log, text=True)
    line = sim.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
    if not match:
        sim.kill()
        sys.exit("tokenpulse simulate did not print its address (see %s): %r" % (log_path, line))
    return sim, "http://127.0.0.1:" + match.group(1)


def run_point(args, base_url, requests, prompt, output, out_dir, attempt):
    name = "%dx%d_out%d_speedup%g_%d" % (requests, prompt, output, args.speedup, attempt)
    command = [args.tokenpulse, "bench", "--base-url", base_url, "--model", MODEL,
               "--dataset-name", "random", "--random-input-len", str(prompt), "--random-output-len", str(output),
               "--ignore-eos", "--request-rate", "inf", "--num-prompts", str(requests),
               "--data-dir", args.data_dir, "--metrics-port", "0",
               "--save-result", "--result-dir", out_dir, "--result-filename", name + ".json"]
    log_path = os.path.join(out_dir, name + ".log")
    with open(log_path, "w") as log:
        if subprocess.run(command, stdout=log, stderr=subprocess.STDOUT).returncode != 0:
            sys.exit("tokenpulse bench failed for %s: see %s" % (name, log_path))
    result = json.load(open(os.path.join(out_dir, name + ".json")))
    # The embedded broker logs this when the bench JVM (client included) was starved of CPU for seconds.
    stalled = "event queue overloaded" in open(log_path).read()
    return result["mean_ttft_ms"] * args.speedup, result["mean_tpot_ms"] * args.speedup, stalled


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speedup", type=float, default=1.0, help="simulated times / N; results x N (default 1)")
    parser.add_argument("--points", help="comma-separated REQUESTSxPROMPT, e.g. 1x80,64x80 (default: all)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs per point; the table shows the median (a loaded machine stalls some runs)")
    parser.add_argument("--output-len", type=int, help="output tokens of every point (default: the sweep's per point)")
    # --seed-file: the flag's first name, kept
    parser.add_argument("--sweep-file", "--seed-file", default=(glob.glob(os.path.join(ROOT, "testdata", "vllm", "load-sweep.txt"))
                                                               or [None])[0])
    parser.add_argument("--tokenpulse", default=os.path.join(ROOT, "tokenpulse"))
    parser.add_argument("--data-dir", default="/tmp/calib-platform", help="embedded platform of the bench runs")
    parser.add_argument("--out", default="/tmp/simulator-calibration", help="result JSONs and logs")
    args = parser.parse_args()
    if not args.sweep_file:
        sys.exit("vLLM's load sweep not found: pass --sweep-file PATH (testdata/vllm/load-sweep.txt)")
    points = sweep_points(args.sweep_file)
    if args.points:
        wanted = [tuple(int(v) for v in p.split("x")) for p in args.points.split(",")]
        unknown = [w for w in wanted if w not in [(p[0], p[1]) for p in points]]
        if unknown:
            sys.exit("--points: %s not in the sweep; its points are %s" % (
                unknown, ",".join("%dx%d" % p[:2] for p in points)))
        points = [p for p in points if (p[0], p[1]) in wanted]
    os.makedirs(args.out, exist_ok=True)

    sim, base_url = start_simulator(args.tokenpulse, args.speedup, os.path.join(args.out, "simulate.log"))
    rows, worst = [], 0.0
    started = time.time()
    try:
        print("load average at start: %.1f %.1f %.1f" % os.getloadavg(), flush=True)
        for requests, prompt, vllm_output, vllm_ttft, vllm_tpot in points:
            output = args.output_len or vllm_output
            runs = [run_point(args, base_url, requests, prompt, output, args.out, attempt)
                    for attempt in range(1, args.repeat + 1)]
            ttft, tpot = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
            stalled = sum(r[2] for r in runs)
            ttft_err, tpot_err = ttft / vllm_ttft - 1, tpot / vllm_tpot - 1
            worst = max(worst, abs(ttft_err), abs(tpot_err))
            rows.append("| %s × %s | %d | %s | %s | %+.0f%% | %.1f | %.1f | %+.0f%% | %s |" % (
                "{:,}".format(requests).replace(",", " "), "{:,}".format(prompt).replace(",", " "), output,
                "{:,.0f}".format(vllm_ttft).replace(",", " "), "{:,.0f}".format(ttft).replace(",", " "),
                100 * ttft_err, vllm_tpot, tpot, 100 * tpot_err,
                "%d of %d runs stalled" % (stalled, len(runs)) if stalled else ""))
            print(rows[-1], flush=True)
    finally:
        sim.terminate()
        sim.wait()
    print()
    print("| requests × prompt | output | vLLM TTFT | sim TTFT | err | vLLM TPOT | sim TPOT | err | note |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    print("\n".join(rows))
    print()
    print("speedup %g (measured times x %g), median of %d run(s) per point, %d points in %.0f s, worst error %.0f%%, load average at end: %.1f %.1f %.1f"
          % (args.speedup, args.speedup, args.repeat, len(rows), time.time() - started, 100 * worst, *os.getloadavg()))


if __name__ == "__main__":
    main()
