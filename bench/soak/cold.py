"""Which freshly started process makes a separate aggregator's first seconds late: one simulator, one
`platform`, one `aggregate`, then STEPS in order: `run` (a bench run of the soak's settings, printing its
freshness while requests are in flight and the first 20 s second by second), `ragg` (restart the
aggregate), `rplat` (restart the platform on its data dir and ports). See README.md beside this file.

    python3 bench/soak/cold.py [--minutes 0.5] [--out DIR] run,ragg,run,rplat,run,run
"""
import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tpbench import (LAUNCHER, Platform, default_tokenizer, free_port, percentile, start_aggregate,  # noqa: E402
                     start_simulator, stop, workdir)
from soak import MAIN_RUN, LiveMetrics  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("steps", help="comma-separated: run, ragg, rplat")
    p.add_argument("--minutes", type=float, default=0.5, help="length of each bench run")
    p.add_argument("--rate", type=float, default=4.0)
    p.add_argument("--out", default=None)
    a = p.parse_args()
    out, env = workdir(a.out, "tokenpulse-cold-")
    sim, port = start_simulator(out, "cold", LAUNCHER, "--profile", "deterministic", "--ttft-ms", "100",
                                "--gap-ms", "30", "--model", "sim-model")
    platform = Platform(LAUNCHER, os.path.join(out, "platform"), os.path.join(out, "platform"), env)
    connection = platform.start()
    aggregator_port = free_port()
    aggregate = start_aggregate(connection, out, env, aggregator_port)
    runs = 0
    try:
        for step in a.steps.split(","):
            if step == "ragg":
                stop(aggregate)
                aggregate = start_aggregate(connection, out, env, aggregator_port)
            elif step == "rplat":
                platform.stop()
                connection = platform.start()
            elif step == "run":
                runs += 1
                bench_port = free_port()
                live = LiveMetrics(f"http://127.0.0.1:{aggregator_port}/metrics", f"http://127.0.0.1:{bench_port}/metrics")
                live.start()
                bench = subprocess.Popen(
                    [LAUNCHER, "bench", *connection, "--base-url", f"http://127.0.0.1:{port}", "--model", "sim-model",
                     "--tokenizer", default_tokenizer(None), "--dataset-name", "random", "--random-input-len", "1024",
                     "--random-output-len", "128", "--ignore-eos", "--request-rate", str(a.rate), "--duration-minutes",
                     str(a.minutes), "--run-id", f"cold-{runs}-{time.strftime('%H%M%S')}", "--metrics-port",
                     str(bench_port), "--disable-tqdm"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
                start = None
                for line in bench.stdout:
                    if line.startswith(MAIN_RUN):
                        start = time.monotonic()
                bench.wait()
                live.halt.set()
                live.join()
                rows = live.judged(start) if start else []
                values = [s[1] for s in rows]
                print(f"run {runs}, load average {os.getloadavg()[0]:.1f}: freshness median {percentile(values, 50):.3f}"
                      f" P99 {percentile(values, 99):.3f} max {max(values, default=float('nan')):.3f} s"
                      f" ({len(values)} samples); first 20 s: "
                      + " ".join(f"{s[0] - start:.0f}: {s[1]:.2f}" for s in rows if s[0] < start + 20), flush=True)
            else:
                raise SystemExit(f"unknown step {step}: use run, ragg or rplat")
            if step != "run":
                print(f"{step}: done", flush=True)
    finally:
        stop(aggregate)
        platform.stop()
        stop(sim)


if __name__ == "__main__":
    main()
