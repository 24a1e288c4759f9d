"""Client timing accuracy of ./tokenpulse bench as users run it; see README.md beside this file.

For each number of streams: `tokenpulse simulate --profile deterministic --send-log FILE` in a
process of its own, the shipped `./tokenpulse bench` with its default pipeline (embedded broker,
in-process aggregator, /metrics on) against it, the whole run counted. Then the run's chunk records
are read back from its data dir (`tokenpulse platform` on the same folder, the example Python
consumer) and paired, event by event, with the simulator's send log by request: TTFT error =
client arrival of the first event - server send of it (wall clocks of two processes on one host);
ITL error = |client gap - server gap| of the same two events (no clock offset in it).
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tpbench import (add_client_args, parse_client_args, free_port, pair, percentile, read_chunks,  # noqa: E402
                     read_send_log, start_simulator, stop)

PREFIX = "accuracy-"


def run_point(a, streams, out):
    run_id = f"accuracy-{streams}-{time.strftime('%H%M%S')}"
    send_log = os.path.join(out, f"{run_id}.sends.csv")
    profile = shlex.split(a.sim_args) if a.sim_args else [
        "--profile", "deterministic", "--ttft-ms", str(a.ttft_ms), "--gap-ms", str(a.gap_ms)]
    sim, port = start_simulator(out, run_id, a.simulator, *profile,
                                "--model", "sim-model", "--send-log", send_log)
    data_dir = os.path.join(out, f"{run_id}.platform")
    requests = streams * a.rounds
    cmd = [*shlex.split(a.bench), "bench", "--base-url", f"http://127.0.0.1:{port}", "--model", "sim-model",
           "--tokenizer", a.tokenizer, "--dataset-name", "random", "--random-input-len", str(a.input_len),
           "--random-output-len", str(a.output_len), "--ignore-eos", "--num-prompts", str(requests),
           "--max-concurrency", str(streams), "--request-rate", "inf", "--request-id-prefix", PREFIX,
           "--run-id", run_id, "--data-dir", data_dir, "--metrics-port", str(free_port()),
           "--save-result", "--result-dir", out, "--result-filename", f"{run_id}.json", *a.extra]
    load = os.getloadavg()[0]
    t0 = time.monotonic()
    with open(os.path.join(out, f"{run_id}.bench.log"), "w") as log:
        bench = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(bench.pid, 0)
    wall = time.monotonic() - t0
    stop(sim)  # flushes the send log
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"accuracy: bench exited {os.waitstatus_to_exitcode(status)}; see {log.name}")
    result = json.load(open(os.path.join(out, f"{run_id}.json")))
    sends = read_send_log(send_log, PREFIX)
    chunks, _ = read_chunks(a.bench, data_dir, run_id, out)
    ttft, itl, missing = pair(sends, chunks)
    sent_ns = [s for events in sends.values() for _, _, _, s in events]
    lateness = [(s - d) / 1e6 for events in sends.values() for _, _, d, s in events]
    # offered: each stream sends output_len events per TTFT + (output_len - 1) gaps, back to back
    per_request_s = (a.ttft_ms + (a.output_len - 1) * a.gap_ms) / 1000.0
    offered = streams * a.output_len / per_request_s
    achieved = len(sent_ns) / ((max(sent_ns) - min(sent_ns)) / 1e9) if len(sent_ns) > 1 else float("nan")
    return {
        "streams": streams, "requests": requests, "completed": result["completed"], "load": load,
        "requests_paired": len(ttft), "gaps_paired": len(itl), "unpaired_events": missing,
        "ttft_err_median_ms": percentile(ttft, 50), "ttft_err_p99_ms": percentile(ttft, 99),
        "ttft_err_max_ms": max(ttft) if ttft else float("nan"),
        "itl_err_median_ms": percentile(itl, 50), "itl_err_p99_ms": percentile(itl, 99),
        "server_lateness_p99_ms": percentile(lateness, 99),
        "offered_events_s": offered, "achieved_events_s": achieved, "achieved_of_offered": achieved / offered,
        "bench_cpu_s": usage.ru_utime + usage.ru_stime, "bench_wall_s": wall,
        "client_cpu_us_per_event": result.get("client_cpu_us_per_event"),
    }


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--streams", default="400,800,1600", help="comma list of --max-concurrency values")
    p.add_argument("--rounds", type=int, default=8, help="requests per stream (--num-prompts = streams x rounds)")
    p.add_argument("--ttft-ms", type=float, default=50.0)
    p.add_argument("--gap-ms", type=float, default=20.0)
    p.add_argument("--sim-args", default=None,
                   help="the simulator's latency model instead of the deterministic one, e.g. "
                        "\"--profile default --speedup 10\" (a batching engine: every running stream's "
                        "token at the end of one step); offered events/s then assume the deterministic timing")
    p.add_argument("--output-len", type=int, default=100)
    p.add_argument("--input-len", type=int, default=32)
    add_client_args(p)
    a, out = parse_client_args(p, "tokenpulse-accuracy-")
    print(f"accuracy: results in {out}")
    try:
        import vllm  # noqa: F401
        print("accuracy: vLLM is installed, but its client is not driven by this script yet")
    except ImportError:
        print("accuracy: vLLM's Python client is not installed here: only tokenpulse bench is measured")
    rows = []
    for streams in [int(s) for s in a.streams.split(",") if s]:
        row = run_point(a, streams, out)
        rows.append(row)
        print(json.dumps(row), flush=True)
    json.dump(rows, open(os.path.join(out, "accuracy.json"), "w"), indent=1)
    print()
    print("| streams | load | completed | TTFT error median / P99 / max (ms) | ITL error median / P99 (ms) "
          "| server lateness P99 (ms) | achieved / offered events/s | bench CPU (s) | client µs/event |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['streams']} | {r['load']:.1f} | {r['completed']}/{r['requests']} "
              f"| {r['ttft_err_median_ms']:.2f} / {r['ttft_err_p99_ms']:.2f} / {r['ttft_err_max_ms']:.1f} "
              f"| {r['itl_err_median_ms']:.3f} / {r['itl_err_p99_ms']:.2f} | {r['server_lateness_p99_ms']:.2f} "
              f"| {r['achieved_events_s']:.0f} / {r['offered_events_s']:.0f} = {r['achieved_of_offered']:.3f} "
              f"| {r['bench_cpu_s']:.1f} | {r['client_cpu_us_per_event'] or float('nan'):.0f} |")


if __name__ == "__main__":
    main()
