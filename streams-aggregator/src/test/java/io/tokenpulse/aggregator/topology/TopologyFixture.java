package io.tokenpulse.aggregator.topology;

import io.tokenpulse.schemas.TopicSpec;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.ChunkBatch;
import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RequestFinished;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RequestStarted;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunFinished;
import io.tokenpulse.schemas.avro.RunStarted;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.ServerMetric;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * The real topology in a TopologyTestDriver, with plain-Avro serdes on every topic (the wire
 * format is the serde's business, tested in {@code schemas}), and builders for input records.
 * Times: run {@value #RUN} starts its schedule at {@link #ANCHOR_NS}, a 10-second window boundary.
 */
final class TopologyFixture implements AutoCloseable {
    static final String RUN = "r1";
    static final long ANCHOR_NS = 1_700_000_000_000_000_000L;
    static final long ANCHOR_MS = ANCHOR_NS / 1_000_000;
    static final long MS = 1_000_000L;

    final Topics topics;
    final TopologyTestDriver driver;
    final TestInputTopic<String, RunEvent> runs;
    final TestInputTopic<String, RequestEvent> requests;
    final TestInputTopic<String, Chunk> chunks;
    final TestInputTopic<String, byte[]> rawChunks;
    final TestInputTopic<String, ServerMetric> serverMetrics;
    final TestOutputTopic<String, RequestMetrics> requestMetrics;
    final TestOutputTopic<String, WindowMetrics> windowMetrics;
    final TestOutputTopic<String, RunSummary> summaries;
    final TestOutputTopic<String, byte[]> deadLetters;
    private final Duration commitInterval;

    TopologyFixture(Path stateDir) {
        this(plainTopics(), stateDir, StreamsSettings.DEFAULT_WINDOW_GRACE);
    }

    TopologyFixture(Topics topics, Path stateDir, Duration grace) {
        this.topics = topics;
        StreamsSettings settings = StreamsSettings.defaults("unused:9092")
                .withStateDir(stateDir)
                .withWindowSize(Duration.ofSeconds(10))
                .withWindowGrace(grace);
        commitInterval = Duration.ofMillis(settings.commitIntervalMs());
        driver = new TopologyTestDriver(
                AggregatorTopology.build(topics, settings), settings.toProperties(new Properties()));
        runs = driver.createInputTopic(
                topics.runs().name(),
                new StringSerializer(),
                topics.runs().valueSerde().serializer());
        requests = driver.createInputTopic(
                topics.requests().name(),
                new StringSerializer(),
                topics.requests().valueSerde().serializer());
        chunks = driver.createInputTopic(
                topics.chunks().name(),
                new StringSerializer(),
                topics.chunks().valueSerde().serializer());
        rawChunks = driver.createInputTopic(
                topics.chunks().name(),
                new StringSerializer(),
                Serdes.ByteArray().serializer());
        serverMetrics = driver.createInputTopic(
                topics.serverMetrics().name(),
                new StringSerializer(),
                topics.serverMetrics().valueSerde().serializer());
        requestMetrics = driver.createOutputTopic(
                topics.requestMetrics().name(),
                new StringDeserializer(),
                topics.requestMetrics().valueSerde().deserializer());
        windowMetrics = driver.createOutputTopic(
                topics.windowMetrics().name(),
                new StringDeserializer(),
                topics.windowMetrics().valueSerde().deserializer());
        summaries = driver.createOutputTopic(
                topics.runSummaries().name(),
                new StringDeserializer(),
                topics.runSummaries().valueSerde().deserializer());
        deadLetters = driver.createOutputTopic(
                topics.deadLetter().name(),
                new StringDeserializer(),
                Serdes.ByteArray().deserializer());
    }

    /**
     * Lets wall-clock time pass by one commit interval, as between two polls of a stream thread:
     * the windows emit what changed ({@link RunWindows} flushes on wall-clock punctuation).
     */
    void settle() {
        driver.advanceWallClockTime(commitInterval);
    }

    static Topics plainTopics() {
        return new Topics(
                plain("runs", RunEvent.getClassSchema()),
                plain("requests", RequestEvent.getClassSchema()),
                plain("chunks", Chunk.getClassSchema()),
                plain("request-metrics", RequestMetrics.getClassSchema()),
                plain("window-metrics", WindowMetrics.getClassSchema()),
                plain("run-summaries", RunSummary.getClassSchema()),
                new TopicSpec<>("dead-letter", Serdes.String(), Serdes.ByteArray(), Optional.empty()),
                plain("server-metrics", ServerMetric.getClassSchema()),
                plain("chunk-batches", ChunkBatch.getClassSchema()));
    }

    private static <V extends SpecificRecord> TopicSpec<V> plain(String name, Schema schema) {
        return new TopicSpec<>(name, Serdes.String(), StoreSerdes.avro(schema), Optional.empty());
    }

    // ---- input records ----

    void runStarted(String run, int shard, int shardCount, long anchorNs) {
        runStartedBeforeAFlush(run, shard, shardCount, anchorNs);
        settle();
    }

    /** A RunStarted, and no wall-clock time after it: the windows emit only what its records flush at once. */
    void runStartedBeforeAFlush(String run, int shard, int shardCount, long anchorNs) {
        runs.pipeInput(
                run,
                new RunEvent(
                        run,
                        shard,
                        shardCount,
                        RunStarted.newBuilder()
                                .setScheduleStartEpochNs(anchorNs)
                                .setBackend("vllm")
                                .setModelId("m")
                                .setTokenizerId("t")
                                .setEndpointUrl("http://127.0.0.1:8000/v1/completions")
                                .setNumPrompts(3)
                                .setRequestRate(1.0)
                                .setBurstiness(1.0)
                                .setMaxConcurrency(null)
                                .setPercentileMetrics("ttft,tpot,itl,e2el")
                                .setMetricPercentiles("50,99")
                                .setGoodput("ttft:150")
                                .setConfigJson("{}")
                                .setTokenpulseVersion("test")
                                .build()),
                anchorNs / MS);
    }

    void runFinished(String run, int shard, int shardCount, long requestsStarted, long finishedEpochNs) {
        runFinished(run, shard, shardCount, requestsStarted, finishedEpochNs, null);
    }

    /** A RunFinished announcing {@code serverMetricRecords} records of the run's scrapes (null: it scraped nothing). */
    void runFinished(
            String run,
            int shard,
            int shardCount,
            long requestsStarted,
            long finishedEpochNs,
            Long serverMetricRecords) {
        runs.pipeInput(
                run,
                new RunEvent(
                        run,
                        shard,
                        shardCount,
                        RunFinished.newBuilder()
                                .setFinishedEpochNs(finishedEpochNs)
                                .setRequestsStarted(requestsStarted)
                                .setRequestsSucceeded(0)
                                .setRequestsFailed(0)
                                .setChunkEvents(0)
                                .setRecordsNotDelivered(2)
                                .setServerMetricRecords(serverMetricRecords)
                                .build()),
                finishedEpochNs / MS);
        settle();
    }

    /** One gauge or counter series of a scrape of {@code http://s/metrics} at {@code scrapeMs}; returns the record. */
    ServerMetric scraped(String run, long scrapeMs, String name, double value) {
        ServerMetric record = ServerMetric.newBuilder()
                .setRunId(run)
                .setScrapeEpochNs(scrapeMs * MS)
                .setSource("http://s/metrics")
                .setName(name)
                .setType("gauge")
                .setLabels(Map.of())
                .setValue(value)
                .build();
        serverMetrics.pipeInput(run, record, scrapeMs + 5);
        settle();
        return record;
    }

    static String key(String run, int index) {
        return Topics.requestKey(run, index);
    }

    void started(String run, int shard, int index, long sentOffsetNs) {
        requests.pipeInput(
                key(run, index),
                new RequestEvent(
                        run,
                        shard,
                        index,
                        "id-" + index,
                        new RequestStarted(10, 100, sentOffsetNs, sentOffsetNs, sentOffsetNs, 0L)));
        settle();
    }

    void finished(String run, int shard, int index, RequestFinished.Builder finish) {
        requests.pipeInput(key(run, index), new RequestEvent(run, shard, index, "id-" + index, finish.build()));
        settle();
    }

    void chunk(String run, int shard, int index, int seq, long offsetNs) {
        chunks.pipeInput(key(run, index), new Chunk(run, shard, index, seq, offsetNs, 0L, 0L, 1, 10));
        settle();
    }

    /** A chunk of shard 0 published at {@code timestampMs} (its record timestamp: stream time). */
    void chunkAt(long timestampMs, String run, int index, int seq, long offsetNs) {
        chunks.pipeInput(key(run, index), new Chunk(run, 0, index, seq, offsetNs, 0L, 0L, 1, 10), timestampMs);
        settle();
    }

    /** A finish of shard 0 published at {@code timestampMs}. */
    void finishedAt(long timestampMs, String run, int index, RequestFinished.Builder finish) {
        requests.pipeInput(
                key(run, index), new RequestEvent(run, 0, index, "id-" + index, finish.build()), timestampMs);
        settle();
    }

    /** A successful finish: sent at {@code sentMs} after schedule start, events {@code eventMs} after sent. */
    static RequestFinished.Builder success(
            long scheduledMs, long sentMs, int promptLen, int outputTokens, long... eventMs) {
        long lastMs = eventMs[eventMs.length - 1];
        return RequestFinished.newBuilder()
                .setSuccess(true)
                .setHttpStatus(200)
                .setError("")
                .setPromptLen(promptLen)
                .setOutputTokens(outputTokens)
                .setUsagePromptTokens(promptLen)
                .setUsageCompletionTokens(outputTokens)
                .setChunkEvents(eventMs.length)
                .setScheduledOffsetNs(scheduledMs * MS)
                .setPermitOffsetNs(sentMs * MS)
                .setSentOffsetNs(sentMs * MS)
                .setConnectNs(0)
                .setFirstNs(eventMs[0] * MS)
                .setLastNs(lastMs * MS)
                .setFinishedOffsetNs((sentMs + lastMs) * MS)
                .setGeneratedText("text");
    }

    static RequestFinished.Builder failure(long sentMs, long finishedMs, String error) {
        return RequestFinished.newBuilder()
                .setSuccess(false)
                .setHttpStatus(500)
                .setError(error)
                .setPromptLen(30)
                .setOutputTokens(0)
                .setChunkEvents(0)
                .setScheduledOffsetNs(sentMs * MS)
                .setPermitOffsetNs(sentMs * MS)
                .setSentOffsetNs(sentMs * MS)
                .setConnectNs(0)
                .setFirstNs(null)
                .setLastNs(null)
                .setFinishedOffsetNs(finishedMs * MS);
    }

    /** The worked example of the tests, all on shard 0 of {@link #RUN}. */
    void request0() {
        // scheduled 900 ms, sent 1000 ms, events at +100, +150, +250 ms, n = 3, prompt 10
        finished(RUN, 0, 0, success(900, 1000, 10, 3, 100, 150, 250));
        chunk(RUN, 0, 0, 0, 100 * MS);
        chunk(RUN, 0, 0, 1, 150 * MS);
        chunk(RUN, 0, 0, 2, 250 * MS);
    }

    void request1() {
        // sent 2000 ms, one event at +200 ms, n = 1 from the tokenizer (no usage), prompt 20
        finished(
                RUN,
                0,
                1,
                success(2000, 2000, 20, 1, 200).setUsageCompletionTokens(null).setUsagePromptTokens(null));
        chunk(RUN, 0, 1, 0, 200 * MS);
    }

    void request2() {
        finished(RUN, 0, 2, failure(3000, 3050, "HTTP 500"));
    }

    @Override
    public void close() {
        driver.close();
    }
}
