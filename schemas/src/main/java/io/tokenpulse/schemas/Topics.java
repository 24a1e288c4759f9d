package io.tokenpulse.schemas;

import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.ChunkBatch;
import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.ServerMetric;
import io.tokenpulse.schemas.avro.WindowMetrics;
import io.tokenpulse.schemas.registry.SchemaRegistry;
import io.tokenpulse.schemas.serde.AvroSerdes;
import io.tokenpulse.schemas.serde.AvroSerializer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Every topic of the pipeline, named once. Keys are Strings: the run id, or
 * {@code <run id>/<request index>} for per-request topics, so that one request's records share a
 * partition. Values are Avro in the Confluent wire format under subject {@code <topic>-value},
 * except the dead-letter topic, which keeps the raw bytes of records the aggregator could not read.
 *
 * <ul>
 *   <li>{@code runs}: {@link RunEvent}, key run id; a shard's start (with the whole configuration)
 *       and finish.
 *   <li>{@code requests}: {@link RequestEvent}, key {@code <run id>/<request index>}; records up
 *       to {@link #MAX_RECORD_BYTES}.
 *   <li>{@code chunks}: {@link Chunk}, one per streamed event, key {@code <run id>/<request index>}
 *       ({@code bench --chunk-records per-event}).
 *   <li>{@code chunk-batches}: {@link ChunkBatch}, a request's consecutive streamed events gathered
 *       for a short interval, key {@code <run id>/<request index>} (the default; the aggregator reads
 *       both).
 *   <li>{@code request-metrics}: {@link RequestMetrics}, key {@code <run id>/<request index>};
 *       records up to {@link #MAX_RECORD_BYTES}.
 *   <li>{@code window-metrics}: {@link WindowMetrics}, key run id.
 *   <li>{@code run-summaries}: {@link RunSummary}, key run id.
 *   <li>{@code dead-letter}: the unreadable record's value bytes, its original key.
 *   <li>{@code server-metrics}: {@link ServerMetric}, key run id; the series of each scrape of the
 *       server's {@code /metrics} during a run ({@code bench --server-metrics}).
 * </ul>
 *
 * <p>Immutable, and built from its arguments only (no static state), so tests can build their own
 * with another prefix or registry.
 */
public record Topics(
        TopicSpec<RunEvent> runs,
        TopicSpec<RequestEvent> requests,
        TopicSpec<Chunk> chunks,
        TopicSpec<RequestMetrics> requestMetrics,
        TopicSpec<WindowMetrics> windowMetrics,
        TopicSpec<RunSummary> runSummaries,
        TopicSpec<byte[]> deadLetter,
        TopicSpec<ServerMetric> serverMetrics,
        TopicSpec<ChunkBatch> chunkBatches) {

    public static final String DEFAULT_PREFIX = "tokenpulse.";
    /**
     * The largest record the pipeline writes, 16 MiB: the producers' {@code max.request.size} and the
     * {@code max.message.bytes} of the topics that carry generated text ({@code requests},
     * {@code request-metrics}, and the aggregator's internal topics). Kafka's default of ~1 MiB would
     * refuse a request whose kept text is longer, and its run would never get a summary.
     */
    public static final int MAX_RECORD_BYTES = 16 * 1024 * 1024;
    /**
     * Generated text kept per request, in UTF-8 bytes (8 MiB, about 2 million tokens): longer text is
     * cut with a marker by the load generator. Half the record bound: the rest is room for the
     * request's other fields, above all one ITL value per streamed event.
     */
    public static final int MAX_GENERATED_TEXT_BYTES = MAX_RECORD_BYTES / 2;
    /** The topic config of topics whose records carry generated text. */
    private static final Map<String, String> TEXT_TOPIC_CONFIG =
            Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(MAX_RECORD_BYTES));
    /** Kafka's own limit on topic names. */
    private static final int MAX_TOPIC_NAME_CHARS = 249;

    private static final int LONGEST_SUFFIX_CHARS = "request-metrics".length();

    /**
     * The topics named {@code <prefix><suffix>}, their Avro serdes pointed at {@code registry}.
     *
     * @param prefix prepended to every topic name, e.g. {@code tokenpulse.}; may be empty
     * @param autoRegister register value schemas on first use (the embedded platform) instead of
     *     requiring them to be registered already (production)
     * @throws IllegalArgumentException when the prefix has characters Kafka does not allow
     */
    public static Topics create(String prefix, SchemaRegistry registry, boolean autoRegister) {
        checkPrefix(prefix);
        return new Topics(
                avro(prefix + "runs", RunEvent.class, registry, autoRegister, Map.of()),
                avro(prefix + "requests", RequestEvent.class, registry, autoRegister, TEXT_TOPIC_CONFIG),
                avro(prefix + "chunks", Chunk.class, registry, autoRegister, Map.of()),
                avro(prefix + "request-metrics", RequestMetrics.class, registry, autoRegister, TEXT_TOPIC_CONFIG),
                avro(prefix + "window-metrics", WindowMetrics.class, registry, autoRegister, Map.of()),
                avro(prefix + "run-summaries", RunSummary.class, registry, autoRegister, Map.of()),
                new TopicSpec<>(prefix + "dead-letter", Serdes.String(), Serdes.ByteArray(), Optional.empty()),
                avro(prefix + "server-metrics", ServerMetric.class, registry, autoRegister, Map.of()),
                avro(prefix + "chunk-batches", ChunkBatch.class, registry, autoRegister, Map.of()));
    }

    /**
     * Where the shards of a run of several announce that they are ready to start ({@code
     * <prefix>shard-barrier}): key the run id, value {@code "<shard index> <shard count>"} as UTF-8
     * text, not Avro; read by the shards only (the start barrier), never by the aggregator.
     */
    public String shardBarrier() {
        String runs = runs().name();
        return runs.substring(0, runs.length() - "runs".length()) + "shard-barrier";
    }

    /**
     * The key of a request's records on the per-request topics ({@code requests}, {@code chunks},
     * {@code chunk-batches}, {@code request-metrics}): {@code <run id>/<request index>}, so one request's records share a
     * partition. The one place it is built: the load generator writes it, the aggregator rebuilds it.
     */
    public static String requestKey(String runId, int requestIndex) {
        return requestKeyPrefix(runId) + requestIndex;
    }

    /** What every {@link #requestKey} of the run starts with, for a reader that wants one run's requests. */
    public static String requestKeyPrefix(String runId) {
        return runId + "/";
    }

    /** The topics with the default prefix {@value #DEFAULT_PREFIX}. */
    public static Topics create(SchemaRegistry registry, boolean autoRegister) {
        return create(DEFAULT_PREFIX, registry, autoRegister);
    }

    /** Every topic, in pipeline order (for creating them, or listing them). */
    public List<TopicSpec<?>> all() {
        return List.of(
                runs,
                requests,
                chunks,
                chunkBatches,
                requestMetrics,
                windowMetrics,
                runSummaries,
                deadLetter,
                serverMetrics);
    }

    /**
     * The topics a request's records must meet on one partition number of (the aggregator joins a
     * request's chunks, chunk batches and finish by their shared key), so they need one partition
     * count: {@code requests}, {@code chunks}, {@code chunk-batches}.
     */
    public List<TopicSpec<?>> coPartitioned() {
        return List.of(requests, chunks, chunkBatches);
    }

    /**
     * Registers (when auto-registering) or looks up every value schema now, so that a missing schema
     * or an unreachable registry stops a run before its first request rather than at its first
     * record. Returns the schema id per subject, in topic order.
     *
     * @throws org.apache.kafka.common.errors.SerializationException saying which subject failed and why
     */
    public Map<String, Integer> resolveSchemaIds() {
        Map<String, Integer> ids = new LinkedHashMap<>();
        for (TopicSpec<?> topic : all()) {
            if (topic.valueSerde().serializer() instanceof AvroSerializer<?> serializer) {
                ids.put(serializer.subject(), serializer.schemaId());
            }
        }
        return ids;
    }

    private static <T extends SpecificRecord> TopicSpec<T> avro(
            String topic, Class<T> type, SchemaRegistry registry, boolean autoRegister, Map<String, String> config) {
        String subject = AvroSerdes.valueSubject(topic);
        return new TopicSpec<>(
                topic,
                Serdes.String(),
                AvroSerdes.serde(registry, type, subject, autoRegister),
                Optional.of(subject),
                config);
    }

    private static void checkPrefix(String prefix) {
        if (!prefix.matches("[a-zA-Z0-9._-]*")) {
            throw new IllegalArgumentException(
                    "topic prefix '" + prefix + "' may only contain letters," + " digits, '.', '_' and '-'");
        }
        if (prefix.length() + LONGEST_SUFFIX_CHARS > MAX_TOPIC_NAME_CHARS) {
            throw new IllegalArgumentException("topic prefix is " + prefix.length() + " characters long;"
                    + " Kafka topic names are limited to " + MAX_TOPIC_NAME_CHARS + ", so use at most "
                    + (MAX_TOPIC_NAME_CHARS - LONGEST_SUFFIX_CHARS));
        }
    }
}
