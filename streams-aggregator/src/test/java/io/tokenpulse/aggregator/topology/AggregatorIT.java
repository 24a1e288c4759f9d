package io.tokenpulse.aggregator.topology;

import static io.tokenpulse.aggregator.topology.TopologyFixture.MS;
import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.platform.kafka.EmbeddedKafka;
import io.tokenpulse.platform.kafka.KafkaSettings;
import io.tokenpulse.platform.registry.LocalSchemaRegistry;
import io.tokenpulse.schemas.TopicSpec;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.ChunkBatch;
import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunFinished;
import io.tokenpulse.schemas.avro.RunStarted;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The topology through a real broker and registry, exactly-once, with the wire-format serde; half the
 * requests' events come as chunk records, half as chunk-batch records.
 */
class AggregatorIT {
    private static final int REQUESTS = 20;
    private static final int FAILURES = 2;
    private static final int CHUNKS_PER_REQUEST = 5;

    @TempDir
    Path dir;

    @Test
    void smallRunGivesOneMetricsRecordPerRequestAndExactlyOneSummary() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(KafkaSettings.of(dir.resolve("kafka")));
                LocalSchemaRegistry registryServer = LocalSchemaRegistry.start(kafka.bootstrapServers())) {
            Topics topics = Topics.create(
                    "it.",
                    new SchemaRegistryClient(
                            SchemaRegistrySettings.of(registryServer.url().toString())),
                    true);
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
                // Three partitions for the request topics, one for runs: the summarizer must cope.
                admin.createTopics(topics.all().stream()
                                .map(t -> new NewTopic(t.name(), t == topics.runs() ? 1 : 3, (short) 1))
                                .toList())
                        .all()
                        .get();
            }
            String run = "run-" + UUID.randomUUID();
            produceRun(kafka.bootstrapServers(), topics, run);

            StreamsSettings settings = StreamsSettings.defaults(kafka.bootstrapServers())
                    .withStateDir(dir.resolve("state"))
                    .withRunPartitions(2);
            try (Aggregator aggregator = Aggregator.start(topics, settings, new Properties())) {
                List<RequestMetrics> metrics = new ArrayList<>();
                List<RunSummary> summaries = new ArrayList<>();
                List<ConsumerRecord<String, Object>> deadLetters = new ArrayList<>();
                try (KafkaConsumer<String, Object> consumer = consumer(kafka.bootstrapServers())) {
                    consumer.subscribe(List.of(
                            topics.requestMetrics().name(),
                            topics.runSummaries().name(),
                            topics.deadLetter().name()));
                    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
                    while (System.nanoTime() < deadline && (metrics.size() < REQUESTS || summaries.isEmpty())) {
                        for (ConsumerRecord<String, Object> r : consumer.poll(Duration.ofMillis(200))) {
                            if (r.topic().equals(topics.deadLetter().name())) {
                                deadLetters.add(r);
                            } else if (r.topic().equals(topics.requestMetrics().name())) {
                                metrics.add(topics.requestMetrics()
                                        .valueSerde()
                                        .deserializer()
                                        .deserialize(r.topic(), (byte[]) r.value()));
                            } else {
                                summaries.add(topics.runSummaries()
                                        .valueSerde()
                                        .deserializer()
                                        .deserialize(r.topic(), (byte[]) r.value()));
                            }
                        }
                    }
                    // Anything extra would show up within a few more commits.
                    consumer.poll(Duration.ofSeconds(2)).forEach(r -> {
                        if (r.topic().equals(topics.runSummaries().name())) {
                            summaries.add(null);
                        }
                    });
                }
                assertThat(metrics).hasSize(REQUESTS);
                assertThat(metrics)
                        .filteredOn(RequestMetrics::getSuccess)
                        .hasSize(REQUESTS - FAILURES)
                        .allSatisfy(m -> assertThat(m.getItlNs()).hasSize(CHUNKS_PER_REQUEST - 1));
                assertThat(summaries).hasSize(1);
                assertThat(deadLetters).hasSize(2);
                assertThat(deadLetters.get(0).headers().lastHeader(DeadLetters.REASON))
                        .isNotNull();
                RunSummary s = summaries.get(0);
                assertThat(s.getRunId()).isEqualTo(run);
                assertThat(s.getNumPrompts()).isEqualTo(REQUESTS);
                assertThat(s.getCompleted()).isEqualTo(REQUESTS - FAILURES);
                assertThat(s.getFailed()).isEqualTo(FAILURES);
                assertThat(s.getTotalOutputTokens()).isEqualTo((long) (REQUESTS - FAILURES) * CHUNKS_PER_REQUEST);
                assertThat(s.getShards()).isEqualTo(1);
            }
        }
    }

    private static void produceRun(String bootstrap, Topics topics, String run) throws Exception {
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        long anchorNs = System.currentTimeMillis() * MS;
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer())) {
            send(
                    producer,
                    topics.runs(),
                    run,
                    new RunEvent(
                            run,
                            0,
                            1,
                            RunStarted.newBuilder()
                                    .setScheduleStartEpochNs(anchorNs)
                                    .setBackend("vllm")
                                    .setModelId("m")
                                    .setTokenizerId("t")
                                    .setEndpointUrl("http://127.0.0.1:8000/v1/completions")
                                    .setNumPrompts(REQUESTS)
                                    .setRequestRate(Double.POSITIVE_INFINITY)
                                    .setBurstiness(1.0)
                                    .setPercentileMetrics("ttft,tpot,itl")
                                    .setMetricPercentiles("99")
                                    .setConfigJson("{}")
                                    .setTokenpulseVersion("it")
                                    .build()));
            for (int i = 0; i < REQUESTS; i++) {
                String key = run + "/" + i;
                boolean fails = i < FAILURES;
                long sentMs = 10L * i;
                if (!fails && i % 2 == 0) {
                    for (int seq = CHUNKS_PER_REQUEST - 1; seq >= 0; seq--) { // reversed: order must not matter
                        send(producer, topics.chunks(), key, chunk(run, i, seq, anchorNs, sentMs));
                    }
                } else if (!fails) { // as chunk batches (the load generator's default), the later one first
                    send(producer, topics.chunkBatches(), key, batch(run, i, 3, 2, anchorNs, sentMs));
                    send(producer, topics.chunkBatches(), key, batch(run, i, 0, 3, anchorNs, sentMs));
                }
                var finish = fails
                        ? TopologyFixture.failure(sentMs, sentMs + 5, "HTTP 503")
                        : TopologyFixture.success(sentMs, sentMs, 10, CHUNKS_PER_REQUEST, 100, 120, 140, 160, 180);
                send(producer, topics.requests(), key, new RequestEvent(run, 0, i, "id-" + i, finish.build()));
            }
            // Records no serde can read: they must land on the dead-letter topic, not stop anything.
            producer.send(new ProducerRecord<>(topics.chunks().name(), run + "/0", new byte[] {9, 9, 9}))
                    .get();
            producer.send(new ProducerRecord<>(topics.chunkBatches().name(), run + "/1", new byte[] {9, 9, 9}))
                    .get();
            send(
                    producer,
                    topics.runs(),
                    run,
                    new RunEvent(
                            run,
                            0,
                            1,
                            RunFinished.newBuilder()
                                    .setFinishedEpochNs(anchorNs + (10L * REQUESTS + 300) * MS)
                                    .setRequestsStarted(REQUESTS)
                                    .setRequestsSucceeded(REQUESTS - FAILURES)
                                    .setRequestsFailed(FAILURES)
                                    .setChunkEvents((long) (REQUESTS - FAILURES) * CHUNKS_PER_REQUEST)
                                    .setRecordsNotDelivered(0)
                                    .build()));
            producer.flush();
        }
    }

    /** Event {@code seq} of request {@code i}: every 20 ms from 100 ms after it was sent. */
    private static Chunk chunk(String run, int i, int seq, long anchorNs, long sentMs) {
        return new Chunk(
                run,
                0,
                i,
                seq,
                (100 + 20L * seq) * MS,
                seq == 0 ? 0 : 20 * MS,
                anchorNs + (sentMs + 100 + 20L * seq) * MS,
                1,
                10);
    }

    /** {@code size} events of request {@code i} from {@code firstSeq}, as {@link #chunk} has them, in one record. */
    private static ChunkBatch batch(String run, int i, int firstSeq, int size, long anchorNs, long sentMs) {
        Chunk first = chunk(run, i, firstSeq, anchorNs, sentMs);
        List<Long> offsetsNs = new ArrayList<>();
        for (int seq = firstSeq; seq < firstSeq + size; seq++) {
            offsetsNs.add(chunk(run, i, seq, anchorNs, sentMs).getOffsetNs());
        }
        return new ChunkBatch(
                run,
                0,
                i,
                firstSeq,
                first.getGapNs(),
                first.getArrivedEpochNs(),
                offsetsNs,
                Collections.nCopies(size, 1),
                Collections.nCopies(size, 10));
    }

    private static <V> void send(KafkaProducer<String, byte[]> producer, TopicSpec<V> topic, String key, V value)
            throws Exception {
        producer.send(new ProducerRecord<>(
                        topic.name(), key, topic.valueSerde().serializer().serialize(topic.name(), value)))
                .get();
    }

    private static KafkaConsumer<String, Object> consumer(String bootstrap) {
        return new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG,
                "it-reader",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                // Only committed transactions: what exactly-once promises to readers.
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                "org.apache.kafka.common.serialization.StringDeserializer",
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                "org.apache.kafka.common.serialization.ByteArrayDeserializer"));
    }
}
