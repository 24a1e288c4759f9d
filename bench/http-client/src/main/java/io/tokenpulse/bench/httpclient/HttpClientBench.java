package io.tokenpulse.bench.httpclient;

import io.tokenpulse.simulator.SimulatorConfig;
import io.tokenpulse.simulator.SimulatorServer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.regex.Pattern;

/**
 * Streams N concurrent completions from the deterministic simulator through each client and prints,
 * per client and N: the timestamp error (client arrival minus the server's send time of each SSE
 * event, both System.nanoTime() in this process), the client threads' CPU time, and how many streams
 * failed. Each N gets one unmeasured round first (class loading, JIT, the pool's connections).
 *
 * <p>Usage: {@code HttpClientBench [clients=netty,jdk] [streams=400,2000] [ttftMs=50] [gapMs=20]
 * [tokens=50] [rounds=3] [threads=2]}
 */
public final class HttpClientBench {

    private HttpClientBench() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new HashMap<>(Map.of(
                "clients",
                "netty,jdk",
                "streams",
                "400,2000",
                "ttftMs",
                "50",
                "gapMs",
                "20",
                "tokens",
                "50",
                "rounds",
                "3",
                "threads",
                "2"));
        for (String arg : args) {
            String[] kv = arg.split("=", 2);
            if (kv.length != 2 || !opts.containsKey(kv[0])) {
                throw new IllegalArgumentException(
                        "unknown argument '" + arg + "'; use key=value with keys " + opts.keySet());
            }
            opts.put(kv[0], kv[1]);
        }
        int tokens = Integer.parseInt(opts.get("tokens"));
        int rounds = Integer.parseInt(opts.get("rounds"));
        int threads = Integer.parseInt(opts.get("threads"));
        Map<String, AtomicLongArray> sent = new ConcurrentHashMap<>();
        List<Long> latenessNs = java.util.Collections.synchronizedList(new ArrayList<>());
        SimulatorConfig config = SimulatorConfig.deterministic(
                        Duration.ofMillis(Long.parseLong(opts.get("ttftMs"))),
                        Duration.ofMillis(Long.parseLong(opts.get("gapMs"))))
                .withIoThreads(threads)
                .withSendListener((id, seq, receivedNs, dueNs, sentNs) -> {
                    sent.computeIfAbsent(id, k -> new AtomicLongArray(tokens + 1))
                            .set(seq, sentNs);
                    latenessNs.add(sentNs - dueNs);
                });
        System.out.printf(
                "# %s, %d cores, ttft %s ms, gap %s ms, %d tokens/stream, %d measured rounds, %d io threads each side%n",
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(),
                opts.get("ttftMs"),
                opts.get("gapMs"),
                tokens,
                rounds,
                threads);
        System.out.printf(
                "%-6s %6s %9s %9s %9s %9s %8s %8s %10s %9s%n",
                "client",
                "streams",
                "events",
                "err_p50ms",
                "err_p99ms",
                "err_maxms",
                "failed",
                "cpu_s",
                "cpu_us/ev",
                "late_p99");
        try (SimulatorServer server = SimulatorServer.start(config)) {
            URI uri = server.baseUri().resolve("/v1/completions");
            for (String clientName : opts.get("clients").split(",")) {
                for (String streams : opts.get("streams").split(",")) {
                    try (BenchClient client =
                            clientName.equals("jdk") ? new JdkBenchClient(threads) : new NettyBenchClient(threads)) {
                        int n = Integer.parseInt(streams);
                        round(client, uri, n, tokens, "warm", sent); // unmeasured
                        sent.clear();
                        latenessNs.clear();
                        Pattern clientThreads = Pattern.compile("^(" + client.threadPrefix() + ").*");
                        Map<Long, Long> cpuBefore = threadCpu(clientThreads);
                        List<Long> errors = new ArrayList<>();
                        long failed = 0;
                        for (int r = 0; r < rounds; r++) {
                            RoundResult result = round(client, uri, n, tokens, "r" + r, sent);
                            errors.addAll(result.errorsNs);
                            failed += result.failed;
                        }
                        long cpuNs = cpuDelta(cpuBefore, threadCpu(clientThreads));
                        long[] sorted = errors.stream()
                                .mapToLong(Long::longValue)
                                .sorted()
                                .toArray();
                        long[] late = latenessNs.stream()
                                .mapToLong(Long::longValue)
                                .sorted()
                                .toArray();
                        System.out.printf(
                                "%-6s %6d %9d %9.3f %9.3f %9.3f %8d %8.2f %10.1f %9.3f%n",
                                client.name(),
                                n,
                                sorted.length,
                                ms(percentile(sorted, 50)),
                                ms(percentile(sorted, 99)),
                                ms(sorted.length == 0 ? 0 : sorted[sorted.length - 1]),
                                failed,
                                cpuNs / 1e9,
                                sorted.length == 0 ? 0 : cpuNs / 1e3 / sorted.length,
                                ms(percentile(late, 99)));
                        sent.clear();
                    }
                }
            }
        }
    }

    private record RoundResult(List<Long> errorsNs, long failed) {}

    private static RoundResult round(
            BenchClient client, URI uri, int streams, int tokens, String tag, Map<String, AtomicLongArray> sent)
            throws Exception {
        byte[] body = ("{\"model\":\"m\",\"prompt\":\"benchmark prompt\",\"max_tokens\":" + tokens
                        + ",\"stream\":true}")
                .getBytes(StandardCharsets.UTF_8);
        List<CompletableFuture<String>> results = new ArrayList<>(streams);
        List<EventSplitter> splitters = new ArrayList<>(streams);
        for (int i = 0; i < streams; i++) {
            EventSplitter splitter = new EventSplitter(tokens + 1);
            splitters.add(splitter);
            results.add(client.stream(uri, tag + "-" + i, body, splitter));
        }
        CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        Thread.sleep(200); // the server logs a send right after its write, so a fast client can finish first
        long failed = 0;
        List<Long> errors = new ArrayList<>(streams * (tokens + 1));
        for (int i = 0; i < streams; i++) {
            String failure;
            try {
                failure = results.get(i).get(120, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                failure = "timeout";
            }
            EventSplitter splitter = splitters.get(i);
            AtomicLongArray sentNs = sent.get(tag + "-" + i);
            if (failure != null || sentNs == null || splitter.events != tokens + 1) {
                failed++;
                continue;
            }
            for (int k = 0; k < splitter.events; k++) {
                errors.add(splitter.arrivalsNs[k] - sentNs.get(k));
            }
        }
        return new RoundResult(errors, failed);
    }

    private static Map<Long, Long> threadCpu(Pattern names) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<Long, Long> cpu = new HashMap<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && names.matcher(info.getThreadName()).matches()) {
                cpu.put(info.getThreadId(), threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return cpu;
    }

    private static long cpuDelta(Map<Long, Long> before, Map<Long, Long> after) {
        long total = 0;
        for (Map.Entry<Long, Long> entry : after.entrySet()) {
            total += entry.getValue() - before.getOrDefault(entry.getKey(), 0L);
        }
        return total;
    }

    private static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        double position = (sorted.length - 1) * p / 100;
        int below = (int) Math.floor(position);
        int above = Math.min(below + 1, sorted.length - 1);
        return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
    }

    private static double ms(double ns) {
        return ns / 1e6;
    }
}
