package io.tokenpulse.aggregator.topology;

import io.tokenpulse.schemas.TopicSpec;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.ChunkBatch;
import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RequestFinished;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.ServerMetric;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * The aggregator's Kafka Streams topology.
 *
 * <p>Reads {@code runs} (key run id), {@code requests}, {@code chunks} and {@code chunk-batches} (key
 * {@code <run id>/<request index>}, co-partitioned; a run's events come as chunks, as batches of them,
 * or both) and {@code server-metrics} (key run id: the scrapes of the server's {@code /metrics},
 * joined onto the run's windows). Writes {@code request-metrics} (one
 * {@link RequestMetrics} per request, key {@code <run id>/<request index>}), {@code window-metrics}
 * ({@link WindowMetrics} per run and event-time tumbling window, key run id, updated as requests
 * finish), {@code run-summaries} (exactly one {@link RunSummary} per run, key run id) and
 * {@code dead-letter} (records that could not be decoded, with the reason in headers).
 *
 * <p>Requests count in the window their finish falls in, and so do their ITL samples: the
 * per-request records already meet on one partition per run for the summary, whereas windowing
 * samples by chunk arrival would send every chunk through a second, run-keyed topic.
 */
public final class AggregatorTopology {

    private AggregatorTopology() {}

    public static Topology build(Topics topics, StreamsSettings settings) {
        return build(topics, settings, TopologyListener.NONE);
    }

    /** As {@link #build(Topics, StreamsSettings)}, showing the records to {@code listener} on the way. */
    public static Topology build(Topics topics, StreamsSettings settings, TopologyListener listener) {
        StreamsBuilder builder = new StreamsBuilder();
        RequestJoin.stores().forEach(builder::addStateStore);
        ShardAnchors.stores().forEach(builder::addStateStore);
        ServerSection.stores().forEach(builder::addStateStore);
        RunSummarizer.stores().forEach(builder::addStateStore);
        ServerSeries.stores().forEach(builder::addStateStore);
        RunWindows.stores().forEach(builder::addStateStore);
        Serde<RequestMetrics> metricsSerde = StoreSerdes.avro(RequestMetrics.getClassSchema());
        Serde<RunEvent> runSerde = StoreSerdes.avro(RunEvent.getClassSchema());
        Serde<ServerMetric> serverSerde = StoreSerdes.avro(ServerMetric.getClassSchema());

        // Inputs are read as bytes and decoded in the topology: a record that cannot be read goes
        // to the dead-letter topic inside the same transaction instead of stopping the application.
        KStream<String, Chunk> chunks = decodeOrDeadLetter(builder, "chunks", topics.chunks(), topics.deadLetter());
        KStream<String, ChunkBatch> chunkBatches =
                decodeOrDeadLetter(builder, "chunk-batches", topics.chunkBatches(), topics.deadLetter());
        KStream<String, RequestEvent> requests =
                decodeOrDeadLetter(builder, "requests", topics.requests(), topics.deadLetter());
        KStream<String, RunEvent> runs = decodeOrDeadLetter(builder, "runs", topics.runs(), topics.deadLetter());
        KStream<String, ServerMetric> scrapes =
                decodeOrDeadLetter(builder, "server-metrics", topics.serverMetrics(), topics.deadLetter());

        // RequestFinished repeats every time RequestStarted carries, so the start adds nothing here.
        KStream<String, RequestEvent> finishes =
                requests.filter((key, event) -> isFinish(event), Named.as("request-finishes"));

        // One request's chunks (one per record, or batches of them) and finish share a key and a
        // partition: join them into its metrics once the finish and every chunk it announces are in,
        // whatever the order. State that can never complete expires after the join TTL (stream time)
        // into the dead-letter topic.
        RequestJoin.Expiry expiry = new RequestJoin.Expiry(
                settings.joinStateTtl(), topics.requests(), topics.chunks().name());
        KStream<String, RequestJoin.Outcome> joinedOrExpired = chunks.peek(
                        (key, chunk) -> listener.onChunk(chunk), Named.as("observe-chunks"))
                .process(() -> new RequestJoin.ChunkSide(expiry), Named.as("join-chunks"), RequestJoin.storeNames())
                .merge(
                        chunkBatches
                                .peek((key, batch) -> listener.onChunkBatch(batch), Named.as("observe-chunk-batches"))
                                .process(
                                        () -> new RequestJoin.BatchSide(expiry),
                                        Named.as("join-chunk-batches"),
                                        RequestJoin.storeNames()),
                        Named.as("joined-chunks-and-batches"))
                .merge(
                        finishes.process(
                                () -> new RequestJoin.FinishSide(expiry),
                                Named.as("join-finishes"),
                                RequestJoin.storeNames()),
                        Named.as("joined-requests"));
        only(joinedOrExpired, RequestJoin.Expired.class, "join-expired")
                .mapValues(RequestJoin.Expired::deadLetter, Named.as("join-expired-bytes"))
                .to(topics.deadLetter().name(), produced("join-dead-letter-sink", topics.deadLetter()));
        KStream<String, RequestMetrics> joined = only(joinedOrExpired, RequestJoin.Joined.class, "join-complete")
                .mapValues(RequestJoin.Joined::metrics, Named.as("joined-metrics"));

        // The summarizer needs a run's requests and its shard records on one partition: key both by
        // run id through internal topics with the same partition count (the runs topic's own count
        // may differ from the request topics').
        KStream<String, RequestMetrics> requestsByRun = joined.selectKey(
                        (key, metrics) -> metrics.getRunId(), Named.as("key-requests-by-run"))
                .repartition(Repartitioned.with(Serdes.String(), metricsSerde)
                        .withName("requests-by-run")
                        .withNumberOfPartitions(settings.runPartitions()));
        KStream<String, RunEvent> runsByRun = runs.selectKey(
                        (key, event) -> event.getRunId(), Named.as("key-runs-by-run"))
                .repartition(Repartitioned.with(Serdes.String(), runSerde)
                        .withName("runs-by-run")
                        .withNumberOfPartitions(settings.runPartitions()))
                .peek((runId, event) -> listener.onRunEvent(event), Named.as("observe-runs"));

        // A run's scrapes meet its requests and shard records on one partition (the scrape topic's own
        // partition count may differ); each scrape becomes what it adds to its window and the run's
        // section, timed by its scrape time.
        KStream<String, ServerSeries.Scraped> scraped = scrapes.repartition(
                        Repartitioned.with(Serdes.String(), serverSerde)
                                .withName("server-metrics-by-run")
                                .withNumberOfPartitions(settings.runPartitions()))
                .processValues(ServerSeries::new, Named.as("server-series"), ServerSeries.storeNames());

        // Per run: a request's times go on the epoch clock once its shard's RunStarted is in (it may
        // come before or after the request); the shard records are kept for the summary.
        KStream<String, RunProgress> anchored = runsByRun
                .<ShardAnchors.Input>mapValues(RunProgress.ShardRecord::new, Named.as("shard-records"))
                .merge(
                        requestsByRun.mapValues(ShardAnchors.Unanchored::new, Named.as("unanchored-requests")),
                        Named.as("anchor-inputs"))
                .processValues(ShardAnchors::new, Named.as("anchor-requests"), ShardAnchors.storeNames());

        // Per run: count every scrape record, and add what each adds from the run's schedule start on
        // into the run's server section.
        KStream<String, RunProgress> withScrapes = anchored.merge(
                        scraped.<RunProgress>mapValues(scrape -> scrape, Named.as("run-scrapes")),
                        Named.as("run-progress"))
                .processValues(ServerSection::new, Named.as("server-section"), ServerSection.storeNames());

        // Per run: keep each request and pass it on; summarize the run once every shard finished and
        // every started request and every announced scrape record is in.
        KStream<String, RunSummarizer.Output> runOutputs =
                withScrapes.processValues(RunSummarizer::new, Named.as("summarize-runs"), RunSummarizer.storeNames());
        KStream<String, RequestMetrics> resolved = only(runOutputs, RunSummarizer.Resolved.class, "resolved-requests")
                .mapValues(RunSummarizer.Resolved::metrics, Named.as("resolved-metrics"))
                .peek((runId, metrics) -> listener.onRequestMetrics(metrics), Named.as("observe-requests"));

        // The run's server section goes into its summary (when its shards scraped), and its state goes.
        KStream<String, RunSummary> summaries = only(runOutputs, RunSummarizer.Summarized.class, "run-summaries")
                .processValues(
                        ServerSection.IntoSummary::new,
                        Named.as("server-section-into-summaries"),
                        ServerSection.IntoSummary.storeNames())
                .peek((runId, summary) -> listener.onRunSummary(summary), Named.as("observe-summaries"));

        // Per-request output keeps the inputs' key, so a consumer can find one request.
        resolved.selectKey(
                        (runId, metrics) -> Topics.requestKey(metrics.getRunId(), metrics.getRequestIndex()),
                        Named.as("key-request-metrics"))
                .to(topics.requestMetrics().name(), produced("request-metrics-sink", topics.requestMetrics()));

        // Series outside the common set add nothing to a window.
        KStream<String, ServerMetric> scrapeDeltas = scraped.filter(
                        (runId, scrape) -> scrape.delta() != null, Named.as("server-deltas"))
                .mapValues(ServerSeries.Scraped::delta, Named.as("server-delta-records"));

        // Live windows per run: a request counts in the window of its finish (its record timestamp), a
        // scrape in the window of its time; each changed window is emitted once per commit interval, so
        // dashboards stay fresh.
        resolved.<RunWindows.Input>mapValues(RunWindows.Request::new, Named.as("window-requests"))
                .merge(
                        scrapeDeltas.mapValues(RunWindows.ServerDelta::new, Named.as("window-scrapes")),
                        Named.as("window-inputs"))
                .merge(
                        summaries.mapValues(summary -> new RunWindows.RunSummarized(), Named.as("window-flushes")),
                        Named.as("window-inputs-and-flushes"))
                .process(
                        () -> new RunWindows(
                                settings.windowSize(),
                                settings.windowGrace(),
                                Duration.ofMillis(settings.commitIntervalMs())),
                        Named.as("window-aggregate"),
                        RunWindows.storeNames())
                .peek((runId, window) -> listener.onWindowMetrics(window), Named.as("observe-windows"))
                .to(topics.windowMetrics().name(), produced("window-metrics-sink", topics.windowMetrics()));

        // Exactly one summary per run (the summarizer deletes the run's state as it emits it).
        summaries.to(topics.runSummaries().name(), produced("run-summaries-sink", topics.runSummaries()));
        // The run's scrape state goes once its last scrapes can no longer reach a window.
        summaries.processValues(
                () -> new ServerSeries.Cleanup(settings.windowSize().plus(settings.windowGrace())),
                Named.as("server-series-cleanup"),
                ServerSeries.cleanupStoreNames());

        return builder.build();
    }

    /** The topics the topology decodes, each with its own dead-letter counter: junk on any of them is counted. */
    public static List<String> deadLetterSources(Topics topics) {
        return List.of(
                topics.runs().name(),
                topics.requests().name(),
                topics.chunks().name(),
                topics.chunkBatches().name(),
                topics.serverMetrics().name());
    }

    private static <V> KStream<String, V> decodeOrDeadLetter(
            StreamsBuilder builder, String label, TopicSpec<V> topic, TopicSpec<byte[]> deadLetter) {
        KStream<String, DeadLetters.Decoded<V>> decoded = builder.stream(
                        topic.name(),
                        Consumed.with(topic.keySerde(), Serdes.ByteArray()).withName(label + "-source"))
                .processValues(
                        () -> new DeadLetters.Decode<>(topic.valueSerde().deserializer()), Named.as(label + "-decode"));
        decoded.filterNot((key, value) -> value.ok(), Named.as(label + "-unreadable"))
                .mapValues(DeadLetters.Decoded::raw, Named.as(label + "-raw-bytes"))
                .to(deadLetter.name(), produced(label + "-dead-letter-sink", deadLetter));
        return decoded.filter((key, value) -> value.ok(), Named.as(label + "-readable"))
                .mapValues(DeadLetters.Decoded::value, Named.as(label + "-decoded"));
    }

    /** The values of one kind of a sealed type, as that kind (the others go elsewhere). */
    private static <V, K extends V> KStream<String, K> only(KStream<String, V> stream, Class<K> kind, String name) {
        return stream.filter((key, value) -> kind.isInstance(value), Named.as(name))
                .mapValues(kind::cast, Named.as(name + "-typed"));
    }

    private static boolean isFinish(RequestEvent event) {
        return event.getEvent() instanceof RequestFinished;
    }

    private static <V> Produced<String, V> produced(String name, TopicSpec<V> topic) {
        return Produced.with(topic.keySerde(), topic.valueSerde()).withName(name);
    }
}
