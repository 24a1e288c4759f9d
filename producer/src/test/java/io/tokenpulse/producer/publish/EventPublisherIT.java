package io.tokenpulse.producer.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.platform.kafka.EmbeddedKafka;
import io.tokenpulse.platform.kafka.KafkaChildProcess;
import io.tokenpulse.platform.kafka.KafkaSettings;
import io.tokenpulse.platform.registry.LocalSchemaRegistry;
import io.tokenpulse.schemas.TopicAdmin;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RequestFinished;
import io.tokenpulse.schemas.avro.RequestStarted;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunFinished;
import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventPublisherIT {

    private static final String RUN = "run-1";

    @TempDir
    Path dataDir;

    @Test
    void everyPublishedRecordArrivesKeyedByRequest() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(KafkaSettings.of(dataDir));
                LocalSchemaRegistry registry = LocalSchemaRegistry.start(kafka.bootstrapServers())) {
            Topics topics = createTopics(kafka, registry);
            EventPublisher publisher = EventPublisher.open(PublisherSettings.of(kafka.bootstrapServers()), topics);

            publisher.publishRun(runFinished(), Duration.ofSeconds(30));
            for (int request = 0; request < 10; request++) {
                publisher.publishRequest(requestStarted(request));
                for (int seq = 0; seq < 100; seq++) {
                    publisher.publishChunk(chunk(request, seq));
                }
            }
            PublishCounts counts = publisher.close(Duration.ofSeconds(30));

            assertThat(counts.published()).isEqualTo(1 + 10 + 1000);
            assertThat(counts.delivered()).isEqualTo(counts.published());
            assertThat(counts.notDelivered()).isZero();
            List<ConsumerRecord<byte[], byte[]>> chunks =
                    readAll(kafka, topics.chunks().name(), 1000);
            assertThat(chunks).hasSize(1000);
            ConsumerRecord<byte[], byte[]> last = chunks.get(chunks.size() - 1);
            Chunk decoded = topics.chunks().valueSerde().deserializer().deserialize(last.topic(), last.value());
            assertThat(new String(last.key(), StandardCharsets.UTF_8)).isEqualTo(RUN + "/" + decoded.getRequestIndex());
            assertThat(readAll(kafka, topics.requests().name(), 10)).hasSize(10);
            assertThat(readAll(kafka, topics.runs().name(), 1)).hasSize(1);
        }
    }

    @Test
    void withTheBrokerDownPublishingReturnsAtOnceAndCountsEveryUndeliveredRecord() throws Exception {
        EmbeddedKafka kafka = EmbeddedKafka.start(KafkaSettings.of(dataDir));
        try (LocalSchemaRegistry registry = LocalSchemaRegistry.start(kafka.bootstrapServers())) {
            Topics topics = createTopics(kafka, registry);
            EventPublisher publisher = EventPublisher.open(PublisherSettings.of(kafka.bootstrapServers()), topics);
            for (int seq = 0; seq < 10; seq++) {
                publisher.publishChunk(chunk(0, seq));
            }
            assertThat(publisher.flush(Duration.ofSeconds(30)).delivered()).isEqualTo(10);
            kafka.close();

            long slowestNs = 0;
            for (int seq = 0; seq < 20_000; seq++) {
                long startNs = System.nanoTime();
                publisher.publishChunk(chunk(1, seq));
                slowestNs = Math.max(slowestNs, System.nanoTime() - startNs);
            }
            PublishCounts counts = publisher.close(Duration.ofMillis(500));

            // Kafka would wait max.block.ms (60 s by default) or a request timeout (30 s); the bound
            // leaves room for a busy CI machine descheduling the thread.
            assertThat(slowestNs).as("slowest publish call, ns").isLessThan(1_000_000_000L);
            assertThat(counts.published()).as(counts.toString()).isEqualTo(20_010);
            assertThat(counts.delivered()).isEqualTo(10);
            assertThat(counts.pending()).isZero();
            assertThat(counts.notDelivered()).isEqualTo(20_000);
            // Which reason depends on how far the producer got: metadata dropped (TIMEOUT at once),
            // buffered and then dropped at close (CLOSED), or the buffer full.
            assertThat(counts.failed().get(DeliveryFailure.TIMEOUT)
                            + counts.failed().get(DeliveryFailure.CLOSED)
                            + counts.failed().get(DeliveryFailure.BUFFER_FULL))
                    .as(counts.toString())
                    .isEqualTo(20_000);
        } finally {
            kafka.close();
        }
    }

    @Test
    void aSenderBlockedOnKafkaNeverBlocksPublishingAndAFullQueueIsCounted() throws Exception {
        EmbeddedKafka kafka = EmbeddedKafka.start(KafkaSettings.of(dataDir));
        try (LocalSchemaRegistry registry = LocalSchemaRegistry.start(kafka.bootstrapServers())) {
            Topics topics = createTopics(kafka, registry);
            // Kafka's buffer holds one 16 KiB batch, the queue 64 records: with the broker gone the
            // sender soon waits for buffer space (up to max.block.ms), and the queue fills behind it.
            PublisherSettings settings = PublisherSettings.of(kafka.bootstrapServers())
                    .withOverrides(Map.of("buffer.memory", "16384", "batch.size", "16384", "max.block.ms", "60000"))
                    .withQueueCapacity(64);
            EventPublisher publisher = EventPublisher.open(settings, topics);
            publisher.publishChunk(chunk(0, 0));
            assertThat(publisher.flush(Duration.ofSeconds(30)).delivered()).isEqualTo(1);
            kafka.close();

            long slowestNs = 0;
            for (int seq = 0; seq < 20_000; seq++) {
                long startNs = System.nanoTime();
                publisher.publishChunk(chunk(1, seq));
                slowestNs = Math.max(slowestNs, System.nanoTime() - startNs);
            }
            PublishCounts counts = publisher.close(Duration.ofMillis(500));

            assertThat(slowestNs).as("slowest publish call, ns").isLessThan(1_000_000_000L);
            assertThat(counts.delivered()).isEqualTo(1);
            assertThat(counts.pending()).isZero();
            // 16 KiB of chunk records (~60 bytes each) and 64 queued ones at most got past the queue.
            assertThat(counts.failed().get(DeliveryFailure.BUFFER_FULL))
                    .as(counts.toString())
                    .isGreaterThan(19_000);
            assertThat(counts.failedTotal()).as(counts.toString()).isEqualTo(20_000);
            assertThat(counts.failedByReason().keySet()).first().isEqualTo("BUFFER_FULL");
        } finally {
            kafka.close();
        }
    }

    /**
     * Issue 15: the broker is killed (kill -9) while records keep coming and restarted 6 s later on
     * the same data dir and port. Kafka cannot take records for longer than {@code max.block.ms}
     * (2 s here), so the publisher spools them; after the restart every record arrives exactly once,
     * each request's chunks in order, and the run record sent last is acknowledged.
     */
    @Test
    void recordsPublishedWhileTheBrokerIsAwayArriveOnceAndInOrderAfterItsRestart(@TempDir Path spoolDir)
            throws Exception {
        KafkaChildProcess broker = KafkaChildProcess.start(KafkaSettings.of(dataDir));
        int port = Integer.parseInt(broker.bootstrapServers().replaceAll(".*:", ""));
        try {
            Topics topics;
            EventPublisher publisher;
            try (LocalSchemaRegistry registry = LocalSchemaRegistry.start(broker.bootstrapServers())) {
                topics = createTopics(broker.bootstrapServers(), registry);
                PublisherSettings settings = PublisherSettings.of(broker.bootstrapServers())
                        .withOverrides(Map.of("max.block.ms", "2000"))
                        .withSpool(spoolDir, 64L << 20);
                publisher = EventPublisher.open(settings, topics); // resolves the schema ids: no registry later
            }
            int requests = 12;
            int chunksPerRequest = 500;
            long slowestNs = 0;
            for (int request = 0; request < requests; request++) {
                if (request == 2) {
                    assertThat(publisher.flush(Duration.ofSeconds(30)).delivered())
                            .isEqualTo(2L * chunksPerRequest);
                    broker.kill();
                }
                if (request == 8) {
                    assertThat(publisher.counts().spooled())
                            .as("records kept while Kafka is away")
                            .isPositive();
                    broker = KafkaChildProcess.start(KafkaSettings.of(dataDir).withKafkaPort(port));
                }
                for (int seq = 0; seq < chunksPerRequest; seq++) {
                    long startNs = System.nanoTime();
                    publisher.publishChunk(chunk(request, seq));
                    slowestNs = Math.max(slowestNs, System.nanoTime() - startNs);
                    if (seq % 100 == 0) {
                        Thread.sleep(100); // 6 requests × 500 chunks while the broker is away: ~6 s
                    }
                }
            }
            CompletableFuture<Void> finished = publisher.publishRun(runFinished(), Duration.ofSeconds(30));
            finished.get(60, TimeUnit.SECONDS);
            PublishCounts counts = publisher.close(Duration.ofSeconds(60));

            assertThat(slowestNs).as("slowest publish call, ns").isLessThan(1_000_000_000L);
            assertThat(publisher.everSpooled()).as(counts.toString()).isPositive();
            assertThat(counts.published()).isEqualTo(requests * chunksPerRequest + 1L);
            assertThat(counts.delivered()).as(counts.toString()).isEqualTo(counts.published());
            assertThat(counts.spooled()).isZero();
            assertThat(spoolDir).isEmptyDirectory();
            Map<String, List<Integer>> seqsByKey = new java.util.TreeMap<>();
            for (ConsumerRecord<byte[], byte[]> record :
                    readAll(broker.bootstrapServers(), topics.chunks().name(), requests * chunksPerRequest)) {
                Chunk chunk = topics.chunks().valueSerde().deserializer().deserialize(record.topic(), record.value());
                seqsByKey
                        .computeIfAbsent(new String(record.key(), StandardCharsets.UTF_8), k -> new ArrayList<>())
                        .add(chunk.getSeq());
            }
            List<Integer> inOrder = java.util.stream.IntStream.range(0, chunksPerRequest)
                    .boxed()
                    .toList();
            assertThat(seqsByKey).hasSize(requests);
            seqsByKey.forEach((key, seqs) -> assertThat(seqs).as(key).isEqualTo(inOrder));
        } finally {
            broker.close();
        }
    }

    @Test
    void aFullSpoolDropsAndCountsExactlyWhatDidNotFit(@TempDir Path spoolDir) throws Exception {
        EmbeddedKafka kafka = EmbeddedKafka.start(KafkaSettings.of(dataDir));
        try (LocalSchemaRegistry registry = LocalSchemaRegistry.start(kafka.bootstrapServers())) {
            Topics topics = createTopics(kafka, registry);
            // Kafka's buffer holds one 16 KiB batch: with the broker gone (its metadata may stay cached)
            // send() soon waits for buffer space, and after max.block.ms records go to the spool.
            PublisherSettings settings = PublisherSettings.of(kafka.bootstrapServers())
                    .withOverrides(Map.of("max.block.ms", "500", "buffer.memory", "16384", "batch.size", "16384"))
                    .withSpool(spoolDir, 10_000); // ~190 chunk records of ~52 bytes
            EventPublisher publisher = EventPublisher.open(settings, topics);
            kafka.close();
            for (int seq = 0; seq < 1000; seq++) {
                publisher.publishChunk(chunk(1, seq));
            }
            long deadlineNs = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            long settled = -1;
            PublishCounts whileAway = publisher.counts();
            while (System.nanoTime() < deadlineNs) { // until records stop moving to the spool or past it
                Thread.sleep(1_000);
                whileAway = publisher.counts();
                long moved = whileAway.failed().get(DeliveryFailure.SPOOL_FULL) + whileAway.spooled();
                if (whileAway.failed().get(DeliveryFailure.SPOOL_FULL) > 0 && moved == settled) {
                    break;
                }
                settled = moved;
            }
            PublishCounts counts = publisher.close(Duration.ofMillis(200));

            assertThat(whileAway.spooled()).as(whileAway.toString()).isBetween(150L, 250L);
            // at most one 16 KiB batch (~300 records) stayed in Kafka's buffer
            assertThat(whileAway.failed().get(DeliveryFailure.SPOOL_FULL))
                    .as(whileAway.toString())
                    .isGreaterThan(1000 - 250 - 320);
            // the spooled and buffered records count as failed only at close
            assertThat(counts.failedTotal()).as(counts.toString()).isEqualTo(1000);
            assertThat(counts.failedByReason().keySet()).first().isEqualTo("SPOOL_FULL");
            // what the spool still held stays on disk, counted under its own reason, for publish-spool
            long undrained = counts.failed().get(DeliveryFailure.SPOOL_UNDRAINED);
            assertThat(undrained).as(counts.toString()).isPositive();
            List<Path> kept;
            try (var folders = Files.list(spoolDir)) {
                kept = folders.toList();
            }
            assertThat(kept).hasSize(1);
            assertThat(kept.get(0).resolve(Spool.KEPT_FILE)).isRegularFile();
            List<Spool.Kept> records = new ArrayList<>();
            Spool.readKept(kept.get(0), records::add);
            assertThat(records)
                    .hasSize((int) undrained)
                    .allSatisfy(
                            r -> assertThat(r.topic()).isEqualTo(topics.chunks().name()));
        } finally {
            kafka.close();
        }
    }

    @Test
    void aLongGeneratedTextArrivesWholeAndOneBeyondTheBoundArrivesCutAndCounted() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(KafkaSettings.of(dataDir));
                LocalSchemaRegistry registry = LocalSchemaRegistry.start(kafka.bootstrapServers())) {
            Topics topics = Topics.create(
                    "it.",
                    new SchemaRegistryClient(
                            SchemaRegistrySettings.of(registry.url().toString())),
                    true);
            // As bench and aggregate create them: with the topics' declared max.message.bytes.
            Properties client = new Properties();
            client.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
            TopicAdmin.ensureExist(topics, client, 1, (short) 1, Duration.ofSeconds(30));
            EventPublisher publisher = EventPublisher.open(PublisherSettings.of(kafka.bootstrapServers()), topics);
            String twoMib = "tok€ ".repeat(2 * 1024 * 1024 / 7); // 7 UTF-8 bytes each
            String nineMib = "x".repeat(9 * 1024 * 1024); // the marker takes 76 bytes

            publisher.publishRequest(requestFinished(0, twoMib));
            publisher.publishRequest(requestFinished(1, nineMib));
            PublishCounts counts = publisher.close(Duration.ofSeconds(60));

            assertThat(counts.notDelivered()).as(counts.toString()).isZero();
            assertThat(counts.delivered()).isEqualTo(2);
            assertThat(publisher.textsTruncated()).isEqualTo(1);
            List<String> texts = readAll(kafka, topics.requests().name(), 2).stream()
                    .map(r -> topics.requests().valueSerde().deserializer().deserialize(r.topic(), r.value()))
                    .map(e -> ((RequestFinished) e.getEvent()).getGeneratedText())
                    .toList();
            assertThat(texts.get(0)).isEqualTo(twoMib);
            assertThat(texts.get(1))
                    .startsWith("xxxx")
                    .endsWith("[tokenpulse: generated text truncated, " + (Topics.MAX_GENERATED_TEXT_BYTES - 76)
                            + " of " + nineMib.length() + " UTF-8 bytes kept]");
            assertThat(texts.get(1).getBytes(StandardCharsets.UTF_8))
                    .hasSizeLessThanOrEqualTo(Topics.MAX_GENERATED_TEXT_BYTES);
        }
    }

    private static Topics createTopics(EmbeddedKafka kafka, LocalSchemaRegistry registry) throws Exception {
        return createTopics(kafka.bootstrapServers(), registry);
    }

    private static Topics createTopics(String bootstrapServers, LocalSchemaRegistry registry) throws Exception {
        Topics topics = Topics.create(
                "it.",
                new SchemaRegistryClient(
                        SchemaRegistrySettings.of(registry.url().toString())),
                true);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            admin.createTopics(List.of(
                            new NewTopic(topics.runs().name(), 1, (short) 1),
                            new NewTopic(topics.requests().name(), 3, (short) 1),
                            new NewTopic(topics.chunks().name(), 3, (short) 1)))
                    .all()
                    .get();
        }
        return topics;
    }

    private static List<ConsumerRecord<byte[], byte[]>> readAll(EmbeddedKafka kafka, String topic, int expected) {
        return readAll(kafka.bootstrapServers(), topic, expected);
    }

    private static List<ConsumerRecord<byte[], byte[]>> readAll(String bootstrapServers, String topic, int expected) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            long deadlineNs = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (records.size() < expected && System.nanoTime() < deadlineNs) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            return records;
        }
    }

    private static RunEvent runFinished() {
        return RunEvent.newBuilder()
                .setRunId(RUN)
                .setShardIndex(0)
                .setShardCount(1)
                .setEvent(RunFinished.newBuilder()
                        .setFinishedEpochNs(1)
                        .setRequestsStarted(10)
                        .setRequestsSucceeded(10)
                        .setRequestsFailed(0)
                        .setChunkEvents(1000)
                        .setRecordsNotDelivered(0)
                        .build())
                .build();
    }

    private static RequestEvent requestStarted(int request) {
        return RequestEvent.newBuilder()
                .setRunId(RUN)
                .setShardIndex(0)
                .setRequestIndex(request)
                .setRequestId("req-" + request)
                .setEvent(RequestStarted.newBuilder()
                        .setPromptLen(10)
                        .setExpectedOutputLen(100)
                        .setScheduledOffsetNs(0)
                        .setPermitOffsetNs(0)
                        .setSentOffsetNs(0)
                        .setConnectNs(0)
                        .build())
                .build();
    }

    private static RequestEvent requestFinished(int request, String text) {
        return RequestEvent.newBuilder()
                .setRunId(RUN)
                .setShardIndex(0)
                .setRequestIndex(request)
                .setRequestId("req-" + request)
                .setEvent(RequestFinished.newBuilder()
                        .setSuccess(true)
                        .setHttpStatus(200)
                        .setError("")
                        .setPromptLen(10)
                        .setOutputTokens(100)
                        .setChunkEvents(100)
                        .setScheduledOffsetNs(0)
                        .setPermitOffsetNs(0)
                        .setSentOffsetNs(0)
                        .setConnectNs(0)
                        .setFirstNs(1L)
                        .setLastNs(2L)
                        .setFinishedOffsetNs(2)
                        .setGeneratedText(text)
                        .build())
                .build();
    }

    private static Chunk chunk(int request, int seq) {
        return Chunk.newBuilder()
                .setRunId(RUN)
                .setShardIndex(0)
                .setRequestIndex(request)
                .setSeq(seq)
                .setOffsetNs(seq * 20_000_000L)
                .setGapNs(seq == 0 ? 0 : 20_000_000L)
                .setArrivedEpochNs(1_700_000_000_000_000_000L)
                .setBytes(180)
                .build();
    }
}
