package io.tokenpulse.aggregator.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.platform.kafka.EmbeddedKafka;
import io.tokenpulse.platform.kafka.KafkaSettings;
import io.tokenpulse.schemas.TopicSpec;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.ChunkBatch;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunStarted;
import io.tokenpulse.schemas.registry.InMemorySchemaRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Export's chunks: a run's chunk records and its chunk batches' events, one row per event either way. */
class StoredChunksIT {
    private static final long MS = 1_000_000L;
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    @Test
    void aRunsChunksAndBatchesReadAsItsEventsInOrderAndARunWithoutTheBatchTopicStillReads() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(KafkaSettings.of(dir.resolve("kafka")))) {
            InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
            Topics topics = Topics.create("it.", registry, true);
            // as a data directory written before chunk batches: no chunk-batches topic at all
            Topics older = Topics.create("old.", registry, true);
            try (Admin admin = Admin.create(kafka.clientProperties())) {
                List<NewTopic> created = new ArrayList<>();
                topics.all().forEach(t -> created.add(new NewTopic(t.name(), 3, (short) 1)));
                older.all().stream()
                        .filter(t -> t != older.chunkBatches())
                        .forEach(t -> created.add(new NewTopic(t.name(), 3, (short) 1)));
                admin.createTopics(created).all().get();
            }
            long startNs = System.currentTimeMillis() * MS;
            Chunk perEvent0 = new Chunk("r1", 0, 0, 0, 100 * MS, 0L, startNs + 100 * MS, 1, 10);
            Chunk perEvent1 = new Chunk("r1", 0, 0, 1, 130 * MS, 30 * MS, startNs + 130 * MS, null, 11);
            ChunkBatch later = new ChunkBatch(
                    "r1", 0, 1, 2, 40 * MS, startNs + 240 * MS, List.of(240 * MS), List.of(3), List.of(12));
            ChunkBatch first = new ChunkBatch(
                    "r1", 0, 1, 0, 0L, startNs + 150 * MS, List.of(150 * MS, 200 * MS), List.of(1, 2), List.of(13, 14));
            ChunkBatch otherShard =
                    new ChunkBatch("r1", 1, 0, 0, 0L, startNs + 90 * MS, List.of(90 * MS), List.of(1), List.of(15));
            try (KafkaProducer<String, byte[]> producer =
                    new KafkaProducer<>(kafka.clientProperties(), new StringSerializer(), new ByteArraySerializer())) {
                for (Topics t : List.of(topics, older)) {
                    send(producer, t.runs(), "r1", started("r1", startNs));
                    send(producer, t.chunks(), "r1/0", perEvent1);
                    send(producer, t.chunks(), "r1/0", perEvent0);
                    send(producer, t.chunks(), "r2/0", new Chunk("r2", 0, 0, 0, 1L, 0L, startNs, 1, 1));
                }
                send(producer, topics.chunkBatches(), "r1/1", later);
                send(producer, topics.chunkBatches(), "r1/1", first);
                send(producer, topics.chunkBatches(), "r1/0", otherShard);
                send(producer, topics.chunkBatches(), "r2/1", first); // another run's: not read
                producer.flush();
            }
            Properties client = new Properties();
            client.putAll(kafka.clientProperties());

            List<Chunk> chunks = StoredChunks.read(topics, client, "r1", WAIT);

            assertThat(chunks)
                    .containsExactly(
                            perEvent0,
                            perEvent1,
                            new Chunk("r1", 0, 1, 0, 150 * MS, 0L, startNs + 150 * MS, 1, 13),
                            new Chunk("r1", 0, 1, 1, 200 * MS, 50 * MS, startNs + 200 * MS, 2, 14),
                            new Chunk("r1", 0, 1, 2, 240 * MS, 40 * MS, startNs + 240 * MS, 3, 12),
                            new Chunk("r1", 1, 0, 0, 90 * MS, 0L, startNs + 90 * MS, 1, 15));
            assertThat(StoredChunks.read(older, client, "r1", WAIT)).containsExactly(perEvent0, perEvent1);
        }
    }

    private static RunEvent started(String run, long startNs) {
        return new RunEvent(
                run,
                0,
                1,
                RunStarted.newBuilder()
                        .setScheduleStartEpochNs(startNs)
                        .setBackend("vllm")
                        .setModelId("m")
                        .setTokenizerId("t")
                        .setEndpointUrl("http://127.0.0.1:8000/v1/completions")
                        .setNumPrompts(2)
                        .setRequestRate(1.0)
                        .setBurstiness(1.0)
                        .setPercentileMetrics("ttft")
                        .setMetricPercentiles("99")
                        .setConfigJson("{}")
                        .setTokenpulseVersion("it")
                        .build());
    }

    private static <V> void send(KafkaProducer<String, byte[]> producer, TopicSpec<V> topic, String key, V value)
            throws Exception {
        producer.send(new ProducerRecord<>(
                        topic.name(), key, topic.valueSerde().serializer().serialize(topic.name(), value)))
                .get();
    }
}
