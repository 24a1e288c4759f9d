"""Many generators, one run: N shards of S/N streams against 1 generator of S streams; see README.md.

One `simulate --profile deterministic` (fixed TTFT and gap between tokens, whatever the load), one
`platform` and one `aggregate`, each its own process, warmed by a bench of --warmup-requests. Then the
same seeded workload twice:
1. --shards bench processes, started at once with one --run-id and --shard-index/--shard-count, each
   with --max-concurrency streams/shards (the start barrier starts their schedules together);
2. one bench with --max-concurrency streams.
Both runs send --streams x --requests-per-stream requests of --output-len tokens (--ignore-eos) at
--request-rate inf, so every stream is busy from the start. The run's summary (shard 0's result file,
which the aggregator scored over every shard) is printed beside the single bench's, with whether they
agree: requests and tokens exactly, latency medians, P99s and throughputs within the stated tolerance.
Exit code 1 when they do not agree.
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tpbench import (LAUNCHER, Platform, free_port, load_average, read_send_log, start_aggregate,  # noqa: E402
                     start_simulator, stop, workdir)  # noqa: E402

# (result file key, label, relative tolerance, absolute tolerance in the key's unit); None: must be equal
ROWS = [
    ("completed", "Successful requests", None, None),
    ("failed", "Failed requests", None, None),
    ("total_input_tokens", "Total input tokens", None, None),
    ("total_output_tokens", "Total generated tokens", None, None),
    ("median_ttft_ms", "Median TTFT (ms)", 0.10, 5.0),
    ("p99_ttft_ms", "P99 TTFT (ms)", 0.25, 20.0),
    ("median_itl_ms", "Median ITL (ms)", 0.10, 5.0),
    ("p99_itl_ms", "P99 ITL (ms)", 0.25, 20.0),
    ("request_throughput", "Request throughput (req/s)", 0.10, 0.0),
    ("output_throughput", "Output token throughput (tok/s)", 0.10, 0.0),
    ("duration", "Benchmark duration (s)", 0.10, 0.5),
]


def bench(connection, port, a, run_id, concurrency, results, name, id_prefix, *shard):
    return [LAUNCHER, "bench", *connection, "--base-url", f"http://127.0.0.1:{port}", "--model",
            "facebook/opt-125m", "--dataset-name", "random", "--random-input-len", str(a.input_len),
            "--random-output-len", str(a.output_len), "--ignore-eos", "--num-prompts",
            str(a.streams * a.requests_per_stream), "--request-rate", "inf", "--max-concurrency", str(concurrency),
            "--seed", str(a.seed), "--num-warmups", str(a.num_warmups), "--request-id-prefix", id_prefix,
            "--run-id", run_id, *shard, "--percentile-metrics", "ttft,tpot,itl,e2el",
            "--metric-percentiles", "99", "--metrics-port", "0", "--disable-tqdm", "--save-result", "--save-detailed", "--vllm-block", "current", "--result-dir",
            results, "--result-filename", f"{name}.json"]


def first_token_lateness_ms(send_log, prefix):
    """Per request of the run whose x-request-ids start with prefix: the simulator's write of its first
    event after the time its latency model wanted it (sent_ns - due_ns), in ms."""
    return [(sent_ns - due_ns) / 1e6 for events in read_send_log(send_log, prefix).values()
            for event, _, due_ns, sent_ns in events if event == 0]


def percentile(values, q):
    """numpy's default (linear) percentile, as the result files' P99s."""
    v = sorted(values)
    if not v:
        return float("nan")
    k = (len(v) - 1) * q / 100
    lo = int(k)
    return v[lo] + (v[min(lo + 1, len(v) - 1)] - v[lo]) * (k - lo)


def ttft_by_wave(result, streams):
    """P99 TTFT (ms) of the first `streams` requests sent (the wave that opens every stream at once) and of
    the rest: where a tail comes from start-up (JIT, connections) rather than from the steady load."""
    sent = sorted(zip(result["start_times"], result["ttfts"]))
    first = [t * 1000 for _, t in sent[:streams] if t is not None]
    rest = [t * 1000 for _, t in sent[streams:] if t is not None]
    return percentile(first, 99), percentile(rest, 99)


def run_all(commands, out, names, timeout_s):
    """Starts every command at once, each with its own HOME (spool, data dir); waits for all. Returns
    the exit codes."""
    procs = []
    for command, name in zip(commands, names):
        home = os.path.join(out, f"home-{name}")
        os.makedirs(home, exist_ok=True)
        with open(os.path.join(out, f"{name}.log"), "w") as log:
            procs.append(subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                          env=dict(os.environ, HOME=home)))
    deadline = time.monotonic() + timeout_s
    try:
        for proc in procs:
            proc.wait(max(1.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        raise SystemExit(f"the benches did not finish within {timeout_s} s; see {out}")
    finally:
        for proc in procs:
            stop(proc)
    return [p.returncode for p in procs]


def agree(key, rel, abs_, sharded, single):
    a, b = sharded.get(key), single.get(key)
    if a is None or b is None:
        return a == b
    if rel is None:
        return a == b
    return abs(a - b) <= max(rel * abs(b), abs_)


def tolerance(rel, abs_):
    if rel is None:
        return "equal"
    return f"±{rel:.0%}" + (f" or {abs_:g}" if abs_ else "")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shards", type=int, default=4)
    p.add_argument("--streams", type=int, default=400, help="streams in all: each shard has streams/shards")
    p.add_argument("--requests-per-stream", type=int, default=3)
    p.add_argument("--input-len", type=int, default=16)
    p.add_argument("--output-len", type=int, default=16)
    p.add_argument("--ttft-ms", type=int, default=50, help="the simulator's time to first token")
    p.add_argument("--gap-ms", type=int, default=400,
                   help="the simulator's time between tokens: 1000/gap events per second per stream")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--warmup-requests", type=int, default=400,
                   help="a bench of this many requests first, not compared; 0 for none")
    p.add_argument("--num-warmups", type=int, default=0,
                   help="bench's --num-warmups for every bench process (each warms its own client before the start "
                        "barrier)")
    p.add_argument("--timeout-s", type=float, default=900)
    p.add_argument("--out", default=None)
    a = p.parse_args()
    if a.shards < 2 or a.streams % a.shards:
        raise SystemExit(f"--streams ({a.streams}) must be a multiple of --shards ({a.shards}), which must be >= 2")
    out, env = workdir(a.out, "tokenpulse-shards-")
    stamp = time.strftime("%H%M%S")
    print(f"shards: {a.shards} x {a.streams // a.shards} streams against 1 x {a.streams}, "
          f"{a.streams * a.requests_per_stream} requests of {a.output_len} tokens, {a.ttft_ms} ms TTFT, "
          f"{a.gap_ms} ms between tokens ({a.streams * 1000 / a.gap_ms:.0f} events/s at most); "
          f"files in {out}; {os.cpu_count()} cores, {load_average()}", flush=True)
    send_log = os.path.join(out, "sends.csv")
    sim, port = start_simulator(out, "shards", LAUNCHER, "--profile", "deterministic", "--ttft-ms", str(a.ttft_ms),
                                "--gap-ms", str(a.gap_ms), "--send-log", send_log)
    platform = Platform(LAUNCHER, os.path.join(out, "platform"), os.path.join(out, "platform"), env)
    aggregate = None
    results = os.path.join(out, "results")
    try:
        connection = platform.start()
        aggregate = start_aggregate(connection, out, env, free_port())
        if a.warmup_requests:
            # simulator, broker and aggregator warmed (JIT, connections) before either run, so that the
            # first run compared does not pay for it alone
            warmup = bench(connection, port, a, f"warmup-{stamp}", a.streams, results, "warmup", "warmup-")
            warmup[warmup.index("--num-prompts") + 1] = str(a.warmup_requests)
            codes = run_all([warmup], out, ["warmup"], a.timeout_s)
            print(f"warm-up bench of {a.warmup_requests} requests: exit code {codes[0]}; {load_average()}", flush=True)
        run_id = f"shards-{stamp}"
        names = [f"shard-{i}" for i in range(a.shards)]
        commands = [bench(connection, port, a, run_id, a.streams // a.shards, results, name, "sharded-", "--shard-index", str(i),
                          "--shard-count", str(a.shards)) for i, name in enumerate(names)]
        print(" ".join(commands[0]), flush=True)
        codes = run_all(commands, out, names, a.timeout_s)
        print(f"{a.shards} shards: exit codes {codes}; {load_average()}", flush=True)
        single = bench(connection, port, a, f"single-{stamp}", a.streams, results, "single", "single-")
        print(" ".join(single), flush=True)
        codes += run_all([single], out, ["single"], a.timeout_s)
        print(f"1 bench: exit code {codes[-1]}; {load_average()}", flush=True)
    finally:
        stop(aggregate) if aggregate else None
        platform.stop()
        stop(sim)
    if any(codes):
        raise SystemExit(f"a bench failed (exit codes {codes}); see the logs in {out}")
    shard_files = [json.load(open(os.path.join(results, f"{name}.json"))) for name in names]
    sharded, one = shard_files[0], json.load(open(os.path.join(results, "single.json")))
    for name, shard in zip(names, shard_files):
        if shard.get("completed") != sharded.get("completed") or shard.get("shards") != a.shards:
            raise SystemExit(f"{name}'s result is not the run's ({shard.get('completed')} requests, "
                             f"{shard.get('shards')} shards); see {results}")
    print(f"\n{'':34}{f'{a.shards} x {a.streams // a.shards}':>14}{f'1 x {a.streams}':>14}  tolerance    agree")
    all_agree = True
    for key, label, rel, abs_ in ROWS:
        ok = agree(key, rel, abs_, sharded, one)
        all_agree &= ok
        print(f"{label:34}{sharded.get(key, float('nan')):14.2f}{one.get(key, float('nan')):14.2f}  "
              f"{tolerance(rel, abs_):12} {'yes' if ok else 'NO'}")
    for label, index in (("P99 TTFT, first wave (ms)", 0), ("P99 TTFT, after it (ms)", 1)):
        print(f"{label:34}{ttft_by_wave(sharded, a.streams)[index]:14.2f}{ttft_by_wave(one, a.streams)[index]:14.2f}"
              f"  (not judged: where the P99 comes from)")
    # how late the simulator itself wrote each first token (its send log): a starved server, not the client
    late = {arm: first_token_lateness_ms(send_log, prefix) for arm, prefix in (("sharded", "sharded-"), ("single", "single-"))}
    for label, q in (("First token late at server, median", 50), ("First token late at server, P99", 99)):
        print(f"{label:34}{percentile(late['sharded'], q):14.2f}{percentile(late['single'], q):14.2f}"
              f"  (not judged: the simulator's own delay in ms, inside TTFT)")
    print(f"shards that reported: {sharded.get('shards')} of {sharded.get('shard_count')}; clock offsets against "
          f"the broker's: {json.dumps(sharded.get('shard_clock_offsets'))}")
    json.dump({"sharded": sharded, "single": one, "agree": all_agree}, open(os.path.join(out, "shards.json"), "w"),
              indent=1)
    print(f"{'the summaries agree' if all_agree else 'the summaries DIFFER'} within the tolerances; files: {out}; "
          f"{load_average()}")
    sys.exit(0 if all_agree else 1)


if __name__ == "__main__":
    main()
