package io.tokenpulse.bench.loadgen;

import io.tokenpulse.producer.LoadGenerator;
import io.tokenpulse.producer.LoadResult;
import io.tokenpulse.producer.LoadSettings;
import io.tokenpulse.producer.backend.BackendSettings;
import io.tokenpulse.producer.dataset.DatasetOptions;
import io.tokenpulse.producer.dataset.PromptStyle;
import io.tokenpulse.producer.publish.EventPublisher;
import io.tokenpulse.producer.schedule.ArrivalSettings;
import io.tokenpulse.producer.session.SessionOptions;
import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The real load generator ({@link LoadGenerator#run}, Netty client, Kafka publisher) against the
 * deterministic simulator (in this JVM, or a child JVM with {@code simulator=process}), with every
 * event going to the embedded broker in this JVM. Per
 * level of N concurrent streams: an open-loop schedule of evenly spaced requests at
 * N / (request duration) per second, so that N streams are in flight in the steady state; each
 * request streams {@code events} tokens (ignore_eos). Then every chunk record is read back from
 * Kafka and joined with the simulator's send log (see {@link LevelResult} for the definitions).
 *
 * <p>Usage: {@code LoadGeneratorBench [streams=100,400,1600] [events=50] [ttftMs=50] [gapMs=20]
 * [seconds=10] [warmupSeconds=3] [simulator=inproc|process]}
 */
public final class LoadGeneratorBench {

    private static final String MODEL = "facebook/opt-125m";

    private LoadGeneratorBench() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = Args.parse(
                args,
                Map.of(
                        "streams",
                        "100,400,1600",
                        "events",
                        "50",
                        "ttftMs",
                        "50",
                        "gapMs",
                        "20",
                        "seconds",
                        "10",
                        "warmupSeconds",
                        "3",
                        "simulator",
                        "inproc"));
        int events = Integer.parseInt(opts.get("events"));
        Duration ttft = Duration.ofMillis(Long.parseLong(opts.get("ttftMs")));
        Duration gap = Duration.ofMillis(Long.parseLong(opts.get("gapMs")));
        double seconds = Double.parseDouble(opts.get("seconds"));
        boolean ownProcess = switch (opts.get("simulator")) {
            case "inproc" -> false;
            case "process" -> true;
            default ->
                throw new IllegalArgumentException("simulator must be inproc or process, got " + opts.get("simulator"));
        };
        Tokenizer tokenizer = TokenizerLoader.fromEnvironment().load(MODEL);
        System.out.printf(
                "# %s %s, %d cores; deterministic simulator (TTFT %d ms, gap %d ms) in %s; embedded"
                        + " broker in this JVM; %d events/request, %.0f s schedule per level%n",
                System.getProperty("java.vm.name"),
                System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(),
                ttft.toMillis(),
                gap.toMillis(),
                ownProcess ? "a child JVM" : "this JVM",
                events,
                seconds);
        try (BenchPipeline pipeline = BenchPipeline.start();
                SimulatorTarget server = ownProcess
                        ? SimulatorTarget.childProcess(events, ttft, gap)
                        : SimulatorTarget.inProcess(events, ttft, gap);
                EventPublisher publisher = pipeline.openPublisher()) {
            Level warmup = new Level(
                    100, events, ttft.toNanos(), gap.toNanos(), Double.parseDouble(opts.get("warmupSeconds")));
            runLevel(warmup, "warmup", pipeline, server, publisher, tokenizer); // unmeasured: JIT, connections
            List<LevelResult> results = new ArrayList<>();
            for (String n : opts.get("streams").split(",")) {
                Level level = new Level(Integer.parseInt(n.strip()), events, ttft.toNanos(), gap.toNanos(), seconds);
                results.add(runLevel(level, "n" + level.streams, pipeline, server, publisher, tokenizer));
            }
            print(results, System.out);
        }
    }

    /** N streams in flight: requests every (request duration / N), for {@code seconds}. */
    record Level(int streams, int events, long ttftNs, long gapNs, double seconds) {
        long requestDurationNs() {
            return ttftNs + (events - 1) * gapNs;
        }

        double requestRate() {
            return streams * 1e9 / requestDurationNs();
        }

        int requests() {
            return (int) Math.ceil(requestRate() * seconds);
        }
    }

    private static LevelResult runLevel(
            Level level,
            String tag,
            BenchPipeline pipeline,
            SimulatorTarget server,
            EventPublisher publisher,
            Tokenizer tokenizer)
            throws Exception {
        String runId = "bench-loadgen-" + tag + "-" + System.currentTimeMillis();
        String prefix = tag + "-";
        LoadSettings settings =
                settings(runId, prefix, level.events, server.baseUri(), level.requestRate(), level.requests());
        server.takeLog(); // drop what earlier runs left
        long offsetBeforeNs = WallToMonotonic.offsetNs();
        LoadResult load;
        CpuSampler cpu = new CpuSampler(
                Map.of(
                        "tp-http",
                        "client",
                        "kafka-producer-network-thread",
                        "producer",
                        "tp-sim",
                        "simulator",
                        "bench-cpu-sampler",
                        "sampler"),
                250,
                server::processCpuNs);
        try {
            load = new LoadGenerator(publisher, tokenizer, new PrintStream(OutputStream.nullOutputStream()))
                    .run(settings);
        } finally {
            cpu.close();
        }
        long offsetAfterNs = WallToMonotonic.offsetNs();
        System.err.printf(
                "[%s] %d requests sent, %d failed, %d chunk events, %d records not delivered; reading back%n",
                tag, load.started(), load.failed(), load.chunkEvents(), load.recordsNotDelivered());
        SendLog sendLog = server.takeLog();
        RunRecords records = RunRecords.read(
                pipeline.topics(),
                pipeline.clientProperties(),
                runId,
                level.events,
                level.requests(),
                (long) level.requests() * level.events,
                Duration.ofSeconds(15));
        return analyze(
                level,
                load,
                records,
                sendLog,
                prefix,
                (offsetBeforeNs + offsetAfterNs) / 2,
                offsetAfterNs - offsetBeforeNs,
                cpu);
    }

    /**
     * A run of {@code requests} completions of {@code events} tokens each (random dataset, 32-token
     * prompts, ignore_eos), evenly spaced at {@code rate} per second, no progress bar.
     */
    static LoadSettings settings(String runId, String prefix, int events, URI target, double rate, int requests) {
        LoadSettings.Target t = new LoadSettings.Target(
                "vllm",
                target,
                "/v1/completions",
                MODEL,
                null,
                null,
                Map.of(),
                new BackendSettings.Sampling(null, null, null, null, null, true), false);
        DatasetOptions dataset = new DatasetOptions(
                "random",
                null,
                PromptStyle.COMPLETION,
                new DatasetOptions.Random(32, events, 0.0, 0),
                DatasetOptions.Sonnet.DEFAULTS);
        // Infinite burstiness spaces requests evenly: a steady N in flight, no Poisson clumps.
        ArrivalSettings arrivals = ArrivalSettings.constant(rate, Double.POSITIVE_INFINITY, 0);
        LoadSettings.Workload workload = new LoadSettings.Workload(dataset, MODEL, requests, null, arrivals, null, 0, null, SessionOptions.DEFAULTS, null);
        LoadSettings.Reporting reporting = new LoadSettings.Reporting(
                "ttft,tpot,itl", "99", null, "{}", java.util.List.of("ttft", "tpot", "itl"), java.util.List.of(99.0), java.util.Map.of());
        return new LoadSettings(runId, 0, 1, t, workload, reporting, prefix, Duration.ofSeconds(30), true, false);
    }

    private static LevelResult analyze(
            Level level,
            LoadResult load,
            RunRecords records,
            SendLog sendLog,
            String prefix,
            long wallMinusMonoNs,
            long driftNs,
            CpuSampler cpu) {
        Histogram ttftError = LevelResult.histogram();
        Histogram itlError = LevelResult.histogram();
        Histogram gapError = LevelResult.histogram();
        Histogram ttftExcess = LevelResult.histogram();
        Histogram scheduleLag = LevelResult.histogram();
        Histogram lateness = LevelResult.histogram();
        long startNs = records.scheduleStartEpochNs - wallMinusMonoNs;
        long windowStartNs = level.requestDurationNs();
        long lastSlotNs = records.requests.values().stream()
                .mapToLong(RunRecords.Request::scheduledOffsetNs)
                .max()
                .orElse(0);
        long offered = 0;
        long achieved = 0;
        long missingRows = 0;
        long minSentNs = Long.MAX_VALUE;
        long maxSentNs = Long.MIN_VALUE;
        long lastArrivalNs = startNs;
        for (Map.Entry<Integer, RunRecords.Request> e : records.requests.entrySet()) {
            RunRecords.Request request = e.getValue();
            minSentNs = Math.min(minSentNs, request.sentOffsetNs());
            maxSentNs = Math.max(maxSentNs, request.sentOffsetNs());
            scheduleLag.recordValue(Math.max(0, request.sentOffsetNs() - request.scheduledOffsetNs()));
            for (int k = 0; k < level.events; k++) {
                long intendedNs = request.scheduledOffsetNs() + level.ttftNs + k * level.gapNs;
                if (intendedNs >= windowStartNs && intendedNs < lastSlotNs) {
                    offered++;
                }
            }
            long[] arrivalsEpochNs = records.arrivalsEpochNs.get(e.getKey());
            long[] row = sendLog.row(prefix + e.getKey());
            if (arrivalsEpochNs == null) {
                continue;
            }
            if (row == null) {
                missingRows++;
                continue;
            }
            for (int seq = 0; seq < level.events; seq++) {
                if (arrivalsEpochNs[seq] == 0 || row[2 * seq + 1] == 0) {
                    continue;
                }
                long arrivalNs = arrivalsEpochNs[seq] - wallMinusMonoNs;
                lastArrivalNs = Math.max(lastArrivalNs, arrivalNs);
                long sinceStartNs = arrivalNs - startNs;
                if (sinceStartNs >= windowStartNs && sinceStartNs < lastSlotNs) {
                    achieved++;
                }
                long sentNs = row[2 * seq + 1];
                lateness.recordValue(Math.max(0, sentNs - row[2 * seq]));
                (seq == 0 ? ttftError : itlError).recordValue(Math.max(0, arrivalNs - sentNs));
                if (seq == 0) {
                    long clientSentNs = startNs + request.sentOffsetNs();
                    ttftExcess.recordValue(Math.max(0, arrivalNs - clientSentNs - level.ttftNs));
                } else if (arrivalsEpochNs[seq - 1] != 0 && row[2 * seq - 1] != 0) {
                    long clientGapNs = arrivalsEpochNs[seq] - arrivalsEpochNs[seq - 1];
                    long serverGapNs = sentNs - row[2 * seq - 1];
                    gapError.recordValue(Math.abs(clientGapNs - serverGapNs));
                }
            }
        }
        double windowS = (lastSlotNs - windowStartNs) / 1e9;
        int n = records.requests.size();
        CpuSampler.Sample from = cpu.at(startNs);
        CpuSampler.Sample to = cpu.before(lastArrivalNs);
        long wallNs = Math.max(1, to.atNs() - from.atNs());
        long chunks = records.chunks;
        boolean ownProcess = from.simulatorProcessCpuNs() >= 0;
        long simulatorCpuNs = ownProcess
                ? to.simulatorProcessCpuNs() - from.simulatorProcessCpuNs()
                : groupCpuNs(from, to, "simulator");
        long oursNs = to.processCpuNs() - from.processCpuNs() + (ownProcess ? simulatorCpuNs : 0);
        double foreignCores = from.machineCpuNs() < 0
                ? Double.NaN
                : (double) (to.machineCpuNs() - from.machineCpuNs() - oursNs) / wallNs;
        return new LevelResult(
                level.streams,
                load.failed(),
                chunks,
                (long) level.requests() * level.events,
                load.recordsNotDelivered(),
                level.requestRate(),
                (n - 1) * 1e9 / Math.max(1, maxSentNs - minSentNs),
                offered / windowS,
                achieved / windowS,
                ttftError,
                itlError,
                gapError,
                ttftExcess,
                scheduleLag,
                lateness,
                missingRows,
                (double) oursNs / wallNs,
                perEvent(groupCpuNs(from, to, "client"), achieved, windowS, wallNs),
                perEvent(groupCpuNs(from, to, "producer"), achieved, windowS, wallNs),
                perEvent(simulatorCpuNs, achieved, windowS, wallNs),
                perEvent(groupCpuNs(from, to, "other"), achieved, windowS, wallNs),
                foreignCores,
                driftNs);
    }

    private static long groupCpuNs(CpuSampler.Sample from, CpuSampler.Sample to, String group) {
        return to.groupCpuNs().getOrDefault(group, 0L) - from.groupCpuNs().getOrDefault(group, 0L);
    }

    /** CPU µs per event: CPU over the sampled wall time, divided by the event rate of the steady window. */
    private static double perEvent(long cpuNs, long eventsInWindow, double windowS, long wallNs) {
        double eventsPerS = eventsInWindow / windowS;
        return eventsPerS == 0 ? Double.NaN : cpuNs / (wallNs / 1e9) / eventsPerS / 1e3;
    }

    private static void print(List<LevelResult> results, PrintStream out) {
        out.println();
        out.printf(
                "%7s %8s %8s %9s %9s %6s | %8s %8s %8s %8s %8s | %8s %8s | %8s %8s | %9s %7s%n",
                "streams",
                "req/s",
                "req/s",
                "events/s",
                "events/s",
                "ach",
                "ttft_err",
                "ttft_err",
                "itl_err",
                "itl_err",
                "gap_err",
                "ttft+",
                "ttft+",
                "sched",
                "srv_late",
                "chunks",
                "failed");
        out.printf(
                "%7s %8s %8s %9s %9s %6s | %8s %8s %8s %8s %8s | %8s %8s | %8s %8s | %9s %7s%n",
                "",
                "offered",
                "achieved",
                "offered",
                "achieved",
                "%",
                "p50 ms",
                "p99 ms",
                "p50 ms",
                "p99 ms",
                "p99 ms",
                "p50 ms",
                "p99 ms",
                "lag p99",
                "p99 ms",
                "in Kafka",
                "");
        for (LevelResult r : results) {
            out.printf(
                    "%7d %8.1f %8.1f %9.0f %9.0f %6.2f | %8.3f %8.3f %8.3f %8.3f %8.3f | %8.3f %8.3f | %8.3f %8.3f"
                            + " | %9s %7d%n",
                    r.streams(),
                    r.offeredRps(),
                    r.achievedRps(),
                    r.offeredEps(),
                    r.achievedEps(),
                    100 * r.achievedEps() / r.offeredEps(),
                    LevelResult.ms(r.ttftErrorNs(), 50),
                    LevelResult.ms(r.ttftErrorNs(), 99),
                    LevelResult.ms(r.itlErrorNs(), 50),
                    LevelResult.ms(r.itlErrorNs(), 99),
                    LevelResult.ms(r.gapErrorNs(), 99),
                    LevelResult.ms(r.ttftExcessNs(), 50),
                    LevelResult.ms(r.ttftExcessNs(), 99),
                    LevelResult.ms(r.scheduleLagNs(), 99),
                    LevelResult.ms(r.serverLatenessNs(), 99),
                    r.chunksRead() == r.chunksExpected() ? "all" : r.chunksRead() + "/" + r.chunksExpected(),
                    r.failed());
        }
        out.printf(
                "%7s %9s %9s %10s %12s %10s %10s %10s %9s%n",
                "streams", "cpu_cores", "foreign", "client", "kafka_prod", "simulator", "other", "max_err", "drift_us");
        out.printf(
                "%7s %9s %9s %10s %12s %10s %10s %10s %9s%n",
                "", "ours", "cores", "us/event", "us/event", "us/event", "us/event", "ms", "");
        for (LevelResult r : results) {
            out.printf(
                    "%7d %9.2f %9.2f %10.1f %12.1f %10.1f %10.1f %10.1f %9.1f%n",
                    r.streams(),
                    r.cpuCores(),
                    r.foreignCores(),
                    r.clientUsPerEvent(),
                    r.producerUsPerEvent(),
                    r.simulatorUsPerEvent(),
                    r.otherUsPerEvent(),
                    Math.max(r.ttftErrorNs().getMaxValue(), r.itlErrorNs().getMaxValue()) / 1e6,
                    r.clockDriftNs() / 1e3);
        }
        for (LevelResult r : results) {
            if (r.notDelivered() > 0 || r.missingServerRows() > 0) {
                out.printf(
                        "%7d streams: %d records not delivered to Kafka, %d requests missing from the send log%n",
                        r.streams(), r.notDelivered(), r.missingServerRows());
            }
        }
        out.flush();
    }
}
