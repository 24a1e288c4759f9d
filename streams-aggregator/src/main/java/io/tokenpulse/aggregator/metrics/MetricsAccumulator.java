package io.tokenpulse.aggregator.metrics;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Everything the run values and latency statistics need, gathered from finished requests: one per
 * window for the live view, and one per run for the final summary (built from the run's stored
 * requests, not merged from its windows: a window counts a request by its finish, whereas the peak
 * buckets count from the run's earliest send).
 *
 * <p>Mergeable ({@link #merge}) and serializable ({@link #toBytes}, {@link #fromBytes}) so a Kafka
 * Streams state store can keep it. Memory stays bounded: each latency metric keeps its samples exactly
 * up to {@code exactLimit} (default {@value #DEFAULT_EXACT_LIMIT}) and then switches to a DDSketch with
 * relative error <= 0.1 %; the peak buckets need one slot per second of the run. Mutable, not
 * thread-safe. Times are nanoseconds of the clock the {@link RequestValues} use.
 */
public final class MetricsAccumulator {

    /** Samples kept exactly per metric before the sketch takes over. */
    public static final int DEFAULT_EXACT_LIMIT = 10_000_000;

    // 2 added the client-queue distributions and the cached-token counters, 3 the input audio seconds;
    // 1 and 2 are still read
    private static final int FORMAT_VERSION = 3;

    private final long originNs;
    private final GoodputSlo goodput;
    private long completed;
    private long failed;
    private long good;
    private long totalInputTokens;
    private long totalOutputTokens;
    private long lastFinishedNs = Long.MIN_VALUE;
    // prefix-cache hits: successful requests whose server reported cached_tokens, and their sums
    private long cacheReportingRequests;
    private long cacheReportingPromptTokens;
    private long totalCachedTokens;
    private double totalInputAudioSeconds;
    private final Map<Metric, LatencyDistribution> distributions = new EnumMap<>(Metric.class);
    private final SecondBuckets eventsPerSecond;
    // +1 at a request's first second, -1 after its last: the running total is the requests in flight.
    private final SecondBuckets concurrencyChanges;

    /**
     * @param originNs   start of the 1-second peak buckets: the earliest successful send of the run (docs/metrics.md);
     *                   an event before it simply lands in a bucket with a negative index
     * @param goodput    the SLOs requests are checked against as they are added
     * @param exactLimit samples kept exactly per metric before switching to the sketch
     */
    public MetricsAccumulator(long originNs, GoodputSlo goodput, int exactLimit) {
        this(originNs, goodput, exactLimit, new SecondBuckets(), new SecondBuckets());
    }

    /** An accumulator with {@link #DEFAULT_EXACT_LIMIT}. */
    public MetricsAccumulator(long originNs, GoodputSlo goodput) {
        this(originNs, goodput, DEFAULT_EXACT_LIMIT);
    }

    private MetricsAccumulator(
            long originNs, GoodputSlo goodput, int exactLimit, SecondBuckets events, SecondBuckets concurrency) {
        this.originNs = originNs;
        this.goodput = goodput;
        for (Metric metric : Metric.values()) {
            distributions.put(metric, new LatencyDistribution(exactLimit));
        }
        this.eventsPerSecond = events;
        this.concurrencyChanges = concurrency;
    }

    /**
     * Adds one finished request. A failure only counts as failed: it adds no tokens and no samples.
     *
     * @see "docs/metrics.md, Run values: rows successful / failed requests, total input and generated tokens,
     *     request goodput, peak output token throughput, peak concurrent requests, RTFx"
     */
    public void add(RequestValues request) {
        lastFinishedNs = Math.max(lastFinishedNs, request.finishedNs());
        if (!request.success()) {
            failed++;
            return;
        }
        completed++;
        totalInputTokens += request.promptTokens();
        totalOutputTokens += request.outputTokens();
        totalInputAudioSeconds += request.inputAudioSeconds();
        if (goodput.enabled() && goodput.isMetBy(request)) {
            good++;
        }
        distributions.get(Metric.TTFT).add(request.ttftNs());
        distributions.get(Metric.E2EL).add(request.e2elNs());
        distributions.get(Metric.QUEUE_DELAY).add(request.queueDelayNs());
        request.clientQueueNs().ifPresent(distributions.get(Metric.CLIENT_QUEUE_TIME)::add);
        request.e2elIncludingClientQueueNs().ifPresent(distributions.get(Metric.E2EL_INCLUDING_CLIENT_QUEUE)::add);
        if (request.cachedTokens().isPresent()) {
            cacheReportingRequests++;
            cacheReportingPromptTokens += request.promptTokens();
            totalCachedTokens += request.cachedTokens().getAsInt();
        }
        addIfPresent(Metric.TPOT, request.tpotNs());
        addIfPresent(Metric.TOKEN_LATENCY, request.tokenLatencyNs());
        LatencyDistribution itl = distributions.get(Metric.ITL);
        for (long sample : request.itlNsView()) {
            itl.add(sample);
        }
        for (long event : request.eventNs()) {
            eventsPerSecond.add(SecondBuckets.bucketOf(event, originNs), 1);
        }
        // vLLM counts a request in every bucket from the one it was sent in to the one it ended in.
        concurrencyChanges.add(SecondBuckets.bucketOf(request.sentNs(), originNs), 1);
        concurrencyChanges.add(SecondBuckets.bucketOf(request.lastNs(), originNs) + 1, -1);
    }

    private void addIfPresent(Metric metric, OptionalDouble valueNs) {
        valueNs.ifPresent(distributions.get(metric)::add);
    }

    /** Adds another accumulator's requests to this one; both must share origin and SLOs. */
    public void merge(MetricsAccumulator other) {
        if (other.originNs != originNs || !other.goodput.equals(goodput)) {
            throw new IllegalArgumentException("can only merge accumulators of one run: origin " + originNs + " vs "
                    + other.originNs + ", goodput " + goodput + " vs " + other.goodput);
        }
        completed += other.completed;
        failed += other.failed;
        good += other.good;
        totalInputTokens += other.totalInputTokens;
        totalOutputTokens += other.totalOutputTokens;
        lastFinishedNs = Math.max(lastFinishedNs, other.lastFinishedNs);
        cacheReportingRequests += other.cacheReportingRequests;
        cacheReportingPromptTokens += other.cacheReportingPromptTokens;
        totalCachedTokens += other.totalCachedTokens;
        totalInputAudioSeconds += other.totalInputAudioSeconds;
        for (Metric metric : Metric.values()) {
            distributions.get(metric).merge(other.distributions.get(metric));
        }
        eventsPerSecond.merge(other.eventsPerSecond);
        concurrencyChanges.merge(other.concurrencyChanges);
    }

    public long originNs() {
        return originNs;
    }

    public GoodputSlo goodput() {
        return goodput;
    }

    public long completed() {
        return completed;
    }

    public long failed() {
        return failed;
    }

    /** Successful requests that met every SLO; 0 when goodput is off. */
    public long goodCompleted() {
        return good;
    }

    public long totalInputTokens() {
        return totalInputTokens;
    }

    public long totalOutputTokens() {
        return totalOutputTokens;
    }

    /** The seconds of audio the successful requests sent (vLLM's {@code input_audio_duration}, summed). */
    public double totalInputAudioSeconds() {
        return totalInputAudioSeconds;
    }

    /** Successful requests whose server reported {@code cached_tokens}. */
    public long cacheReportingRequests() {
        return cacheReportingRequests;
    }

    /** The prompt tokens of the successful requests whose server reported {@code cached_tokens}. */
    public long cacheReportingPromptTokens() {
        return cacheReportingPromptTokens;
    }

    /** The sum of {@code cached_tokens} over the successful requests that reported it. */
    public long totalCachedTokens() {
        return totalCachedTokens;
    }

    /**
     * The prefix-cache hit rate 0..1: cached tokens / prompt tokens, both summed over the successful
     * requests whose server reported {@code cached_tokens}; empty when none did.
     *
     * @see "docs/metrics.md, TokenPulse's own metrics: row prefix cache hit rate"
     */
    public OptionalDouble prefixCacheHitRate() {
        if (cacheReportingRequests == 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(
                cacheReportingPromptTokens == 0 ? 0 : (double) totalCachedTokens / cacheReportingPromptTokens);
    }

    /** The latest end of any request added, successful or not; {@link Long#MIN_VALUE} when none. */
    public long lastFinishedNs() {
        return lastFinishedNs;
    }

    /**
     * The largest number of streamed events in one 1-second bucket from the origin.
     *
     * @see "docs/metrics.md, Run values: row peak output token throughput"
     */
    public long peakEventsPerSecond() {
        return eventsPerSecond.max();
    }

    /**
     * The largest number of successful requests in flight in one 1-second bucket from the origin.
     *
     * @see "docs/metrics.md, Run values: row peak concurrent requests"
     */
    public long peakConcurrentRequests() {
        return concurrencyChanges.maxRunningTotal();
    }

    /** Whether every statistic of {@code metric} is still exact (no sketch). */
    public boolean isExact(Metric metric) {
        return distributions.get(metric).isExact();
    }

    /**
     * Mean, median, std and the given percentiles of one metric, in ms; 0 for an empty set.
     *
     * @see "docs/metrics.md, Statistics"
     */
    public MetricStats stats(Metric metric, List<Double> percentiles) {
        return MetricStats.of(metric, distributions.get(metric).stats(percentiles));
    }

    /** The state as bytes, for a state store or changelog. */
    public byte[] toBytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writeTo(out);
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory cannot fail", e);
        }
        return bytes.toByteArray();
    }

    /** Writes what {@link #toBytes} holds, for a store value that carries more after it. */
    public void writeTo(DataOutputStream out) throws IOException {
        out.writeByte(FORMAT_VERSION);
        out.writeLong(originNs);
        for (OptionalDouble slo : List.of(goodput.ttftMs(), goodput.tpotMs(), goodput.e2elMs())) {
            out.writeDouble(slo.orElse(Double.NaN));
        }
        for (long value : new long[] {completed, failed, good, totalInputTokens, totalOutputTokens, lastFinishedNs}) {
            out.writeLong(value);
        }
        for (Metric metric : Metric.values()) {
            distributions.get(metric).writeTo(out);
        }
        eventsPerSecond.writeTo(out);
        concurrencyChanges.writeTo(out);
        out.writeLong(cacheReportingRequests);
        out.writeLong(cacheReportingPromptTokens);
        out.writeLong(totalCachedTokens);
        out.writeDouble(totalInputAudioSeconds);
    }

    /** Reads what {@link #toBytes} wrote; corrupt bytes fail with an {@link java.io.UncheckedIOException}. */
    public static MetricsAccumulator fromBytes(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            return readFrom(in);
        } catch (IOException e) {
            throw LatencyDistribution.corrupt(e);
        }
    }

    /**
     * Reads what {@link #writeTo} wrote, leaving {@code in} after it; corrupt bytes fail with an
     * {@link java.io.UncheckedIOException}.
     */
    public static MetricsAccumulator readFrom(DataInputStream in) {
        try {
            int version = in.readUnsignedByte();
            if (version < 1 || version > FORMAT_VERSION) {
                throw new IOException("format version " + version + ", expected 1 to " + FORMAT_VERSION);
            }
            long originNs = in.readLong();
            GoodputSlo goodput = new GoodputSlo(slo(in.readDouble()), slo(in.readDouble()), slo(in.readDouble()));
            long[] counters = new long[6];
            for (int i = 0; i < counters.length; i++) {
                counters[i] = in.readLong();
            }
            Map<Metric, LatencyDistribution> read = new EnumMap<>(Metric.class);
            for (Metric metric : version == 1 ? Metric.FORMAT_1 : Metric.all()) {
                read.put(metric, LatencyDistribution.readFrom(in));
            }
            MetricsAccumulator acc = new MetricsAccumulator(
                    originNs, goodput, 1, SecondBuckets.readFrom(in), SecondBuckets.readFrom(in));
            acc.distributions.putAll(read);
            if (version >= 2) {
                acc.cacheReportingRequests = in.readLong();
                acc.cacheReportingPromptTokens = in.readLong();
                acc.totalCachedTokens = in.readLong();
            }
            if (version >= 3) {
                acc.totalInputAudioSeconds = in.readDouble();
            }
            acc.completed = counters[0];
            acc.failed = counters[1];
            acc.good = counters[2];
            acc.totalInputTokens = counters[3];
            acc.totalOutputTokens = counters[4];
            acc.lastFinishedNs = counters[5];
            return acc;
        } catch (IOException | RuntimeException e) {
            throw LatencyDistribution.corrupt(e instanceof IOException io ? io : new IOException(e.getMessage(), e));
        }
    }

    private static OptionalDouble slo(double ms) {
        return Double.isNaN(ms) ? OptionalDouble.empty() : OptionalDouble.of(ms);
    }
}
