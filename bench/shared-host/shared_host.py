"""Does `tokenpulse bench` slow a server on its own host? See README.md beside this file.

One `tokenpulse simulate --profile cpu --send-log FILE` (an engine whose steps are computed on this
host's CPU, like llama.cpp's) serves the whole script run. Rounds alternate, in turn, a minimal
asyncio client written here and the shipped `./tokenpulse bench` with its default pipeline, with the
same prompts, lengths and concurrency. For each run: the output throughput the client measured and
the one the server's send log shows, the TTFT error per request (client arrival of the first event -
server send of it, paired by x-request-id), and the client process's CPU.
"""
import argparse
import asyncio
import json
import os
import resource
import shlex
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tpbench import (add_client_args, cpu_s, free_port, load_average, pair, parse_client_args,  # noqa: E402
                     percentile, read_chunks, read_send_log, start_simulator, stop)

MODEL = "sim-model"
MAIN_RUN_LINE = "Initial test run completed"
THROUGHPUT_TOLERANCE = 0.03  # issue 20: bench's throughput within 3 % of the minimal client's


def write_prompts(path, count, input_len):
    """count prompts of input_len whitespace words (the simulator's token count without a tokenizer),
    each starting with a word of its own so that no two share a prefix-cache block."""
    with open(path, "w") as f:
        for i in range(count):
            f.write(json.dumps({"prompt": " ".join([f"p{i}"] + ["hello"] * (input_len - 1))}) + "\n")


def prompts_of(path):
    with open(path) as f:
        return [json.loads(line)["prompt"] for line in f]


# ---- the minimal client: raw HTTP/1.1 over asyncio streams, as lean as vLLM's aiohttp client ----

async def stream_one(port, prompt, output_len, request_id):
    """One streamed completion: {start_ns, arrivals_ns (one per event with choices), output_tokens, error}."""
    body = json.dumps({"model": MODEL, "prompt": prompt, "temperature": 0.0, "max_tokens": output_len,
                       "stream": True, "stream_options": {"include_usage": True}, "ignore_eos": True}).encode()
    head = (f"POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nx-request-id: {request_id}\r\nConnection: close\r\n\r\n").encode()
    result = {"start_ns": time.time_ns(), "arrivals_ns": [], "output_tokens": 0, "error": None}
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError as e:
        result["error"] = f"connect: {e}"
        return result
    try:
        writer.write(head + body)
        status = await reader.readline()
        headers = {}
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip().lower()
        if b" 200 " not in status or headers.get("transfer-encoding") != "chunked":
            result["error"] = f"{status.decode('latin-1').strip()}: {(await reader.read()).decode(errors='replace')}"
            return result
        buffer = b""
        while size := int((await reader.readline()).split(b";")[0], 16):
            buffer += (await reader.readexactly(size + 2))[:-2]
            arrived = time.time_ns()
            *events, buffer = buffer.split(b"\n\n")
            for event in events:
                for line in event.split(b"\n"):
                    if not line.startswith(b"data:") or line[5:].strip() == b"[DONE]":
                        continue
                    data = json.loads(line[5:])
                    if data.get("choices"):
                        result["arrivals_ns"].append(arrived)
                    if data.get("usage"):
                        result["output_tokens"] = data["usage"]["completion_tokens"]
        await reader.readline()  # the empty line after the last chunk
    except (OSError, ValueError, asyncio.IncompleteReadError) as e:  # a cut or garbled stream fails the request
        result["error"] = f"{type(e).__name__}: {e}"
    finally:
        writer.close()
    return result


async def minimal_client(port, prompts, output_len, concurrency, prefix):
    """vLLM's run: one initial test request, then every prompt, at most concurrency at once."""
    test = await stream_one(port, prompts[0], output_len, f"{prefix}test")
    if test["error"]:
        raise SystemExit(f"shared-host: the minimal client's test request failed: {test['error']}")
    results = [None] * len(prompts)
    indices = iter(range(len(prompts)))
    start = time.perf_counter()

    async def worker():
        for i in indices:  # one iterator shared by the workers: each index is taken once
            results[i] = await stream_one(port, prompts[i], output_len, f"{prefix}{i}")

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return results, time.perf_counter() - start


def run_minimal(a, port, prompts, prefix):
    load = load_average()
    before = resource.getrusage(resource.RUSAGE_SELF)
    results, duration = asyncio.run(minimal_client(port, prompts, a.output_len, a.concurrency, prefix))
    after = resource.getrusage(resource.RUSAGE_SELF)
    ok = [r for r in results if not r["error"]]
    chunks = {i: dict(enumerate(r["arrivals_ns"])) for i, r in enumerate(results) if not r["error"]}
    return {"client": "minimal", "load": load, "completed": len(ok), "duration_s": duration,
            "client_tok_s": sum(r["output_tokens"] for r in ok) / duration,
            "cpu_s": after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime,
            "cpu_main_run_s": None}, chunks


def run_bench(a, port, prefix, run_id, prompts_path, out):
    data_dir = os.path.join(out, f"{run_id}.platform")
    cmd = [*shlex.split(a.bench), "bench", "--base-url", f"http://127.0.0.1:{port}", "--model", MODEL,
           "--tokenizer", a.tokenizer, "--dataset-name", "custom", "--dataset-path", prompts_path,
           "--custom-output-len", str(a.output_len), "--custom-skip-chat-template", "--disable-shuffle",
           "--ignore-eos", "--num-prompts", str(a.num_prompts), "--max-concurrency", str(a.concurrency),
           "--request-rate", "inf", "--request-id-prefix", prefix, "--run-id", run_id, "--data-dir", data_dir,
           "--metrics-port", str(free_port()), "--save-result", "--result-dir", out,
           "--result-filename", f"{run_id}.json", *a.extra]
    load = load_average()
    log_path = os.path.join(out, f"{run_id}.bench.log")
    bench = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    startup_cpu = []

    def copy_log():
        with open(log_path, "w") as log:
            for line in bench.stdout:
                log.write(line)
                if MAIN_RUN_LINE in line and not startup_cpu:
                    startup_cpu.append(cpu_s(bench.pid))

    reader = threading.Thread(target=copy_log, daemon=True)
    reader.start()
    _, status, usage = os.wait4(bench.pid, 0)
    reader.join()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"shared-host: bench exited {os.waitstatus_to_exitcode(status)}; see {log_path}")
    with open(os.path.join(out, f"{run_id}.json")) as f:
        result = json.load(f)
    cpu = usage.ru_utime + usage.ru_stime
    return {"client": "bench", "load": load, "completed": result["completed"], "duration_s": result["duration"],
            "client_tok_s": result["output_throughput"], "cpu_s": cpu,
            "cpu_main_run_s": cpu - startup_cpu[0] if startup_cpu else None, "data_dir": data_dir}


def run_vllm(a, port, prefix, run_id, prompts_path, out):
    """vLLM's own client (`vllm bench serve`) with the same flags. Its result has no arrival times, so
    its TTFT error is not measured; its throughput and CPU are."""
    cmd = ["vllm", "bench", "serve", "--backend", "vllm", "--base-url", f"http://127.0.0.1:{port}", "--model", MODEL,
           "--tokenizer", a.tokenizer, "--dataset-name", "custom", "--dataset-path", prompts_path,
           "--custom-output-len", str(a.output_len), "--skip-chat-template", "--disable-shuffle", "--ignore-eos",
           "--num-prompts", str(a.num_prompts), "--max-concurrency", str(a.concurrency), "--request-rate", "inf",
           "--request-id-prefix", prefix, "--save-result", "--result-dir", out, "--result-filename", f"{run_id}.json"]
    load = load_average()
    with open(os.path.join(out, f"{run_id}.vllm.log"), "w") as log:
        client = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(client.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"shared-host: vllm bench serve exited {os.waitstatus_to_exitcode(status)}; see {log.name}")
    with open(os.path.join(out, f"{run_id}.json")) as f:
        result = json.load(f)
    return {"client": "vllm", "load": load, "completed": result["completed"], "duration_s": result["duration"],
            "client_tok_s": result["output_throughput"], "cpu_s": usage.ru_utime + usage.ru_stime,
            "cpu_main_run_s": None}


def server_side(sends, output_len):
    """(output tokens/s the server sent: the run's tokens over its first .. last send, P99 ms of how late
    the server sent events against its own schedule)."""
    sent = [unix for events in sends.values() for _, unix, _, _ in events]
    lateness = [(sent_ns - due) / 1e6 for events in sends.values() for _, _, due, sent_ns in events]
    return len(sends) * output_len / ((max(sent) - min(sent)) / 1e9), percentile(lateness, 99)


def summary(rows, client):
    """Median over the rounds of each throughput, the TTFT errors of all rounds together, median CPU."""
    mine = [r for r in rows if r["client"] == client]
    errors = [e for r in mine for e in r.get("ttft_errors_ms", [])]
    return {"client": client, "rounds": len(mine),
            "client_tok_s": percentile([r["client_tok_s"] for r in mine], 50),
            "server_tok_s": percentile([r["server_tok_s"] for r in mine], 50),
            "ttft_err_median_ms": percentile(errors, 50), "ttft_err_p99_ms": percentile(errors, 99),
            "cpu_s": percentile([r["cpu_s"] for r in mine], 50)}


def fmt(value, pattern):
    return "n/a" if value is None or value != value else pattern.format(value)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=3, help="rounds of (minimal client, bench), in turn")
    p.add_argument("--num-prompts", type=int, default=256)
    p.add_argument("--concurrency", type=int, default=16, help="--max-concurrency (streams at once)")
    p.add_argument("--input-len", type=int, default=16, help="prompt words (= the simulator's tokens)")
    p.add_argument("--output-len", type=int, default=64)
    p.add_argument("--cpu-per-token-us", type=float, default=None,
                   help="the simulator's CPU per token (default: its cpu profile's, 1250 µs)")
    p.add_argument("--pause-s", type=float, default=5.0, help="quiet time before each run")
    add_client_args(p)
    a, out = parse_client_args(p, "tokenpulse-shared-host-")
    print(f"shared-host: results in {out}; {load_average()}")
    try:
        import vllm  # noqa: F401
        clients = ["minimal", "bench", "vllm"]
    except ImportError:
        clients = ["minimal", "bench"]
        print("shared-host: vLLM is not installed here: its client is not measured, the minimal client is the "
              "reference")
    prompts_path = os.path.join(out, "prompts.jsonl")
    write_prompts(prompts_path, a.num_prompts, a.input_len)
    prompts = prompts_of(prompts_path)
    send_log = os.path.join(out, "sends.csv")
    cost = [] if a.cpu_per_token_us is None else ["--cpu-per-token-us", str(a.cpu_per_token_us)]
    sim, port = start_simulator(out, "shared-host", a.simulator, "--profile", "cpu", "--model", MODEL,
                                "--send-log", send_log, *cost)
    rows = []
    try:
        for round_no in range(1, a.rounds + 1):
            # every other round the other client goes first, so neither always follows the same one
            order = clients if round_no % 2 else list(reversed(clients))
            for client in order:
                time.sleep(a.pause_s)
                prefix = f"sh{round_no}-{client}-"
                run_id = f"shared-host-{round_no}-{client}-{time.strftime('%H%M%S')}"
                if client == "minimal":
                    row, chunks = run_minimal(a, port, prompts, prefix)
                    row["chunks"] = chunks
                elif client == "bench":
                    row = run_bench(a, port, prefix, run_id, prompts_path, out)
                else:
                    row = run_vllm(a, port, prefix, run_id, prompts_path, out)
                row.update(round=round_no, prefix=prefix, run_id=run_id)
                rows.append(row)
                print(f"shared-host: round {round_no} {client}: {row['completed']} requests in "
                      f"{row['duration_s']:.1f} s, {row['client_tok_s']:.0f} tok/s, CPU {row['cpu_s']:.1f} s "
                      f"({row['load']})", flush=True)
    finally:
        stop(sim)  # flushes the send log
    for row in rows:
        sends = read_send_log(send_log, row["prefix"])
        row["server_tok_s"], row["server_lateness_p99_ms"] = server_side(sends, a.output_len)
        if row["client"] == "bench":
            row["chunks"], _ = read_chunks(a.bench, row.pop("data_dir"), row["run_id"], out)
        if "chunks" in row:
            row["ttft_errors_ms"], _, _ = pair(sends, row.pop("chunks"))
    with open(os.path.join(out, "shared-host.json"), "w") as f:
        json.dump(rows, f, indent=1)
    report(rows, clients)


def report(rows, clients):
    print()
    print("| round | client | load average at start | completed | duration (s) | output tok/s, client "
          "| output tok/s, send log | TTFT error median / P99 (ms) | server lateness P99 (ms) "
          "| client CPU (s) | of it after the test request (s) |")
    print("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        errors = r.get("ttft_errors_ms")
        ttft = "n/a" if not errors else f"{percentile(errors, 50):.2f} / {percentile(errors, 99):.2f}"
        print(f"| {r['round']} | {r['client']} | {r['load'].removeprefix('load average ')} | {r['completed']} "
              f"| {r['duration_s']:.2f} | {r['client_tok_s']:.1f} | {r['server_tok_s']:.1f} | {ttft} "
              f"| {r['server_lateness_p99_ms']:.2f} | {r['cpu_s']:.2f} | {fmt(r['cpu_main_run_s'], '{:.2f}')} |")
    sums = {c: summary(rows, c) for c in clients}
    print()
    print("| client | rounds | output tok/s, client (median) | output tok/s, send log (median) "
          "| TTFT error median / P99, all rounds (ms) | client CPU (s, median) |")
    print("|---|---:|---:|---:|---:|---:|")
    for s in sums.values():
        print(f"| {s['client']} | {s['rounds']} | {s['client_tok_s']:.1f} | {s['server_tok_s']:.1f} "
              f"| {fmt(s['ttft_err_median_ms'], '{:.2f}')} / {fmt(s['ttft_err_p99_ms'], '{:.2f}')} "
              f"| {s['cpu_s']:.2f} |")
    bench, minimal = sums["bench"], sums["minimal"]
    ratio = bench["client_tok_s"] / minimal["client_tok_s"]
    server_ratio = bench["server_tok_s"] / minimal["server_tok_s"]
    throughput_ok = abs(ratio - 1) <= THROUGHPUT_TOLERANCE
    ttft_ok = (bench["ttft_err_median_ms"] <= minimal["ttft_err_median_ms"]
               and bench["ttft_err_p99_ms"] <= minimal["ttft_err_p99_ms"])
    print()
    print(f"throughput bench / minimal: {ratio:.3f} as the clients measured it, {server_ratio:.3f} from the send log: "
          f"{'PASS' if throughput_ok else 'FAIL'} (within {THROUGHPUT_TOLERANCE:.0%})")
    print(f"TTFT error bench vs minimal: median {bench['ttft_err_median_ms']:.2f} vs "
          f"{minimal['ttft_err_median_ms']:.2f} ms, P99 {bench['ttft_err_p99_ms']:.2f} vs "
          f"{minimal['ttft_err_p99_ms']:.2f} ms: {'PASS' if ttft_ok else 'FAIL'} (no worse)")
    if "vllm" in sums:
        print(f"throughput bench / vLLM's client: {bench['client_tok_s'] / sums['vllm']['client_tok_s']:.3f} "
              f"as measured, {bench['server_tok_s'] / sums['vllm']['server_tok_s']:.3f} from the send log")
    print(load_average())


if __name__ == "__main__":
    main()
