"""The peer client for bench/hotpath/alone and bench/cpu/run: the same load as bench's, sent the way vLLM's `vllm bench serve`
sends it (its OpenAI completions request function over one aiohttp session; a Poisson schedule at the
request rate), its own CPU from the first request to the last answer divided by the streamed events, as
bench's "Client CPU per streamed event" line counts. Its parts: one aiohttp `ClientSession` and
`TCPConnector`, a streamed POST per request, the body read line by line (`response.content`), each
`data:` line decoded and read with `json.loads`, a `time.perf_counter()` stamp per event with text, each
request's TTFT and ITLs kept; their median and P99 are printed too (against `--profile deterministic`
the server's own are its `--ttft-ms` and `--gap-ms`, so they show how late the client's stamps are).
Usage: python3 peer.py PORT MODEL RATE N INPUT_LEN OUTPUT_LEN [MAX_CONCURRENCY] (RATE inf: all at once, as
vLLM's `--request-rate inf`, with at most MAX_CONCURRENCY in flight; Debian: python3-aiohttp)."""
import asyncio, json, os, random, resource, sys, time

import aiohttp

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tpbench import percentile  # noqa: E402  (numpy's linear percentile, as vLLM's report uses)


def cpu_s():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def stream_one(session, url, model, prompt, output_len):
    payload = {"model": model, "prompt": prompt, "temperature": 0.0, "max_tokens": output_len, "stream": True,
               "stream_options": {"include_usage": True}, "ignore_eos": True}
    start = time.perf_counter()
    async with session.post(url, json=payload) as response:
        if response.status != 200:
            return 0, f"HTTP {response.status}", None, []
        ttft, itl, last = None, [], None
        async for line in response.content:
            line = line.strip()
            if not line:
                continue
            data = line.decode("utf-8").removeprefix("data: ")
            if data == "[DONE]":
                continue
            message = json.loads(data)
            if message.get("choices"):
                now = time.perf_counter()
                if last is None:
                    ttft = now - start
                else:
                    itl.append(now - last)
                last = now
        return (len(itl) + 1 if ttft is not None else 0), None, ttft, itl


async def main(port, model, rate, n, input_len, output_len, concurrency):
    url = f"http://127.0.0.1:{port}/v1/completions"
    rng = random.Random(0)
    prompts = [" ".join(f"w{rng.randrange(1000)}" for _ in range(input_len)) for _ in range(n)]
    connector = aiohttp.TCPConnector(limit=0, keepalive_timeout=60, force_close=False)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=6 * 3600)) as session:
        await stream_one(session, url, model, prompts[0], output_len)  # vLLM's initial test run
        limit = asyncio.Semaphore(concurrency or n)  # vLLM's --max-concurrency

        async def limited(prompt):
            async with limit:
                return await stream_one(session, url, model, prompt, output_len)

        cpu0, t0 = cpu_s(), time.perf_counter()
        tasks, due = [], t0
        for prompt in prompts:
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(limited(prompt)))
            due += rng.expovariate(rate) if rate != float("inf") else 0
        results = await asyncio.gather(*tasks)
        cpu, wall = cpu_s() - cpu0, time.perf_counter() - t0
    events = sum(r[0] for r in results)
    failed = sum(1 for r in results if r[1])
    ttfts = [r[2] * 1e3 for r in results if r[2] is not None]
    itls = [x * 1e3 for r in results for x in r[3]]
    print(f"peer (vLLM-shaped aiohttp client): {n - failed}/{n} requests, {events} events in {wall:.1f} s "
          f"({events / wall:.0f}/s), CPU {cpu:.2f} s ({cpu / wall:.2f} cores), "
          f"{cpu / max(events, 1) * 1e6:.1f} us per streamed event; its TTFT median / P99 "
          f"{percentile(ttfts, 50):.2f} / {percentile(ttfts, 99):.2f} ms, ITL {percentile(itls, 50):.2f} / {percentile(itls, 99):.2f} ms")


if __name__ == "__main__":
    port, model, rate, n, input_len, output_len = sys.argv[1:7]
    concurrency = int(sys.argv[7]) if len(sys.argv) > 7 else 0
    asyncio.run(main(int(port), model, float(rate), int(n), int(input_len), int(output_len), concurrency))
