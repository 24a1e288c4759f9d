package io.tokenpulse.producer.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.platform.kafka.EmbeddedKafka;
import io.tokenpulse.platform.kafka.KafkaChildProcess;
import io.tokenpulse.platform.kafka.KafkaSettings;
import io.tokenpulse.platform.registry.LocalSchemaRegistry;
import io.tokenpulse.schemas.ChunkBatches;
import io.tokenpulse.schemas.TopicAdmin;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.ChunkBatch;
import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RequestFinished;
import io.tokenpulse.schemas.avro.RequestStarted;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunFinished;
import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class EventPublisherIT {

    private static final String RUN = "run-1";

    @TempDir
    Path dataDir;

    @ParameterizedTest
    @EnumSource(ChunkRecords.Layout.class)
    void everyPublishedRecordArrivesKeyedByRequest(ChunkRecords.Layout layout) throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(KafkaSettings.of(dataDir));
                LocalSchemaRegistry registry = LocalSchemaRegistry.start(kafka.bootstrapServers())) {
            Topics topics = createTopics(kafka, registry);
            EventPublisher publisher = EventPublisher.open(
                    PublisherSettings.of(kafka.bootstrapServers()).withChunkRecords(chunkRecords(layout)), topics);

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
            StoredEvents events = readEvents(kafka.bootstrapServers(), topics, layout, 1000);
            List<Integer> inOrder =
                    java.util.stream.IntStream.range(0, 100).boxed().toList();
            assertThat(events.seqsByKey())
                    .hasSize(10)
                    .allSatisfy((key, seqs) -> assertThat(seqs).as(key).isEqualTo(inOrder));
            if (layout == ChunkRecords.Layout.BATCHED) {
                // each request's 100 chunks were offered at once: a batch or a few each, not a record each
                assertThat(events.records()).isLessThan(100);
                assertThat(readAll(kafka, topics.chunks().name(), 0)).isEmpty();
            } else {
                assertThat(events.records()).isEqualTo(1000);
            }
            assertThat(readAll(kafka, topics.requests().name(), 10)).hasSize(10);
            assertThat(readAll(kafka, topics.runs().name(), 1)).hasSize(1);
        }
    }

    /**
     * {@code --chunk-batch-ms 0}: no slot grid, each batch leaves at the sender's next look, and the
     * sender, with nothing queued, sleeps rather than spins.
     */
    @Test
    void withABatchIntervalOfZeroEveryEventLeavesAndTheIdleSenderSleeps() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(KafkaSettings.of(dataDir));
                LocalSchemaRegistry registry = LocalSchemaRegistry.start(kafka.bootstrapServers())) {
            Topics topics = createTopics(kafka, registry);
            EventPublisher publisher = EventPublisher.open(
                    PublisherSettings.of(kafka.bootstrapServers())
                            .withChunkRecords(new ChunkRecords(ChunkRecords.Layout.BATCHED, Duration.ZERO)),
                    topics);
            for (int seq = 0; seq < 5; seq++) {
                publisher.publishChunk(chunk(0, seq));
            }
            Thread.sleep(1_500);
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long sender = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().equals("tp-kafka-sender"))
                    .mapToLong(Thread::getId)
                    .findFirst()
                    .orElseThrow();
            long cpuBeforeNs = threads.getThreadCpuTime(sender);
            Thread.sleep(1_000);
            long idleCpuNs = threads.getThreadCpuTime(sender) - cpuBeforeNs;
            PublishCounts counts = publisher.close(Duration.ofSeconds(30));

            assertThat(idleCpuNs).as("the idle sender's CPU in a second, ns").isLessThan(100_000_000L);
            assertThat(counts.delivered()).isEqualTo(5);
            assertThat(readEvents(kafka.bootstrapServers(), topics, ChunkRecords.Layout.BATCHED, 5)
                            .seqsByKey()
                            .values())
                    .containsExactly(List.of(0, 1, 2, 3, 4));
        }
    }

    /**
     * A batch carries every event's timing as the per-event record would: offsets as stamped, the gap
     * and wall-clock arrival of its first event, each event's tokens and bytes.
     */
    @Test
    void aBatchCarriesEachEventsTimingExactly() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(KafkaSettings.of(dataDir));
                LocalSchemaRegistry registry = LocalSchemaRegistry.start(kafka.bootstrapServers())) {
            Topics topics = createTopics(kafka, registry);
            EventPublisher publisher = EventPublisher.open(PublisherSettings.of(kafka.bootstrapServers()), topics);
            List<Chunk> chunks = List.of(
                    new Chunk(RUN, 2, 7, 0, 51_234_567L, 0L, 1_700_000_000_051_234_567L, null, 205),
                    new Chunk(RUN, 2, 7, 1, 71_000_001L, 19_765_434L, 1_700_000_000_071_000_001L, 1, 180),
                    new Chunk(RUN, 2, 7, 2, 90_999_999L, 19_999_998L, 1_700_000_000_090_999_999L, 3, 0));
            chunks.forEach(publisher::publishChunk);
            publisher.publishRequest(requestFinished(7, "done"));
            assertThat(publisher.close(Duration.ofSeconds(30)).delivered()).isEqualTo(4);

            List<ConsumerRecord<byte[], byte[]>> records =
                    readAll(kafka, topics.chunkBatches().name(), 1);
            assertThat(records).hasSize(1);
            ChunkBatch batch = topics.chunkBatches()
                    .valueSerde()
                    .deserializer()
                    .deserialize(records.get(0).topic(), records.get(0).value());
            assertThat(new String(records.get(0).key(), StandardCharsets.UTF_8)).isEqualTo(RUN + "/7");
            assertThat(batch)
                    .isEqualTo(new ChunkBatch(
                            RUN,
                            2,
                            7,
                            0,
                            0L,
                            1_700_000_000_051_234_567L,
                            List.of(51_234_567L, 71_000_001L, 90_999_999L),
                            java.util.Arrays.asList(null, 1, 3),
                            List.of(205, 180, 0)));
            // and the per-event view readers build from it is the chunks as published, gaps and arrivals included
            assertThat(ChunkBatches.expand(batch)).isEqualTo(chunks);
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
                    .withQueueCapacity(64)
                    .withChunkRecords(ChunkRecords.PER_EVENT);
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
    @ParameterizedTest
    @EnumSource(ChunkRecords.Layout.class)
    void recordsPublishedWhileTheBrokerIsAwayArriveOnceAndInOrderAfterItsRestart(
            ChunkRecords.Layout layout, @TempDir Path spoolDir) throws Exception {
        KafkaChildProcess broker = KafkaChildProcess.start(KafkaSettings.of(dataDir));
        int port = Integer.parseInt(broker.bootstrapServers().replaceAll(".*:", ""));
        try {
            Topics topics;
            EventPublisher publisher;
            try (LocalSchemaRegistry registry = LocalSchemaRegistry.start(broker.bootstrapServers())) {
                topics = createTopics(broker.bootstrapServers(), registry);
                PublisherSettings settings = PublisherSettings.of(broker.bootstrapServers())
                        .withOverrides(Map.of("max.block.ms", "2000"))
                        .withSpool(spoolDir, 64L << 20)
                        .withChunkRecords(chunkRecords(layout));
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
            Map<String, List<Integer>> seqsByKey = readEvents(
                            broker.bootstrapServers(), topics, layout, requests * chunksPerRequest)
                    .seqsByKey();
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
                    .withSpool(spoolDir, 10_000) // ~190 chunk records of ~52 bytes
                    .withChunkRecords(ChunkRecords.PER_EVENT);
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
                            new NewTopic(topics.chunks().name(), 3, (short) 1),
                            new NewTopic(topics.chunkBatches().name(), 3, (short) 1)))
                    .all()
                    .get();
        }
        return topics;
    }

    private static ChunkRecords chunkRecords(ChunkRecords.Layout layout) {
        return layout == ChunkRecords.Layout.BATCHED ? ChunkRecords.DEFAULT : ChunkRecords.PER_EVENT;
    }

    /** The streamed events that arrived, as the seqs of each request key in arrival order, and the records they took. */
    private record StoredEvents(Map<String, List<Integer>> seqsByKey, int records) {}

    private static StoredEvents readEvents(
            String bootstrapServers, Topics topics, ChunkRecords.Layout layout, int expectedEvents) {
        Map<String, List<Integer>> seqsByKey = new java.util.TreeMap<>();
        int records = 0;
        int events = 0;
        long deadlineNs = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        boolean batched = layout == ChunkRecords.Layout.BATCHED;
        String topic = batched ? topics.chunkBatches().name() : topics.chunks().name();
        try (KafkaConsumer<byte[], byte[]> consumer = assignedFromStart(bootstrapServers, topic)) {
            while (events < expectedEvents && System.nanoTime() < deadlineNs) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    List<Integer> seqs = seqsByKey.computeIfAbsent(
                            new String(record.key(), StandardCharsets.UTF_8), k -> new ArrayList<>());
                    records++;
                    if (batched) {
                        List<Chunk> chunks = ChunkBatches.expand(topics.chunkBatches()
                                .valueSerde()
                                .deserializer()
                                .deserialize(topic, record.value()));
                        chunks.forEach(chunk -> seqs.add(chunk.getSeq()));
                        events += chunks.size();
                    } else {
                        seqs.add(topics.chunks()
                                .valueSerde()
                                .deserializer()
                                .deserialize(topic, record.value())
                                .getSeq());
                        events++;
                    }
                }
            }
        }
        return new StoredEvents(seqsByKey, records);
    }

    private static KafkaConsumer<byte[], byte[]> assignedFromStart(String bootstrapServers, String topic) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition()))
                .toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return consumer;
    }

    private static List<ConsumerRecord<byte[], byte[]>> readAll(EmbeddedKafka kafka, String topic, int expected) {
        return readAll(kafka.bootstrapServers(), topic, expected);
    }

    private static List<ConsumerRecord<byte[], byte[]>> readAll(String bootstrapServers, String topic, int expected) {
        try (KafkaConsumer<byte[], byte[]> consumer = assignedFromStart(bootstrapServers, topic)) {
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            // expecting none: one look, long enough for anything there to show
            long deadlineNs = System.nanoTime()
                    + Duration.ofSeconds(expected == 0 ? 2 : 30).toNanos();
            while ((expected == 0 || records.size() < expected) && System.nanoTime() < deadlineNs) {
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
