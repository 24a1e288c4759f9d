package io.tokenpulse.bench.loadgen;

import io.tokenpulse.schemas.ChunkBatches;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RequestFinished;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunStarted;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * One run's records as the load generator wrote them to Kafka, read back from the start of the
 * runs, requests, chunks and chunk-batches topics: the schedule anchor, each request's schedule slot
 * and send time, and each chunk's arrival (a batch's events as their chunks). What the bench measures is what reached Kafka, so a record the
 * publisher lost shows up as a missing event.
 */
final class RunRecords {

    /** Per request index: scheduled and sent offsets, ns after the schedule start. */
    record Request(long scheduledOffsetNs, long sentOffsetNs) {}

    long scheduleStartEpochNs = -1;
    final Map<Integer, Request> requests = new HashMap<>();
    /** Per request index: {@code arrived_epoch_ns} of each chunk by seq (0 = not read). */
    final Map<Integer, long[]> arrivalsEpochNs = new HashMap<>();

    /** Chunk events read (a batch's count as many), repeats included. */
    long chunks;

    private RunRecords() {}

    /**
     * Reads until {@code expectedChunks} chunks and {@code expectedRequests} finishes of run
     * {@code runId} were read, or nothing new came for {@code idle}.
     */
    static RunRecords read(
            Topics topics,
            Properties clientProperties,
            String runId,
            int eventsPerRequest,
            long expectedRequests,
            long expectedChunks,
            Duration idle) {
        Properties props = new Properties();
        props.putAll(clientProperties);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        RunRecords run = new RunRecords();
        var chunkDecoder = topics.chunks().valueSerde().deserializer();
        var batchDecoder = topics.chunkBatches().valueSerde().deserializer();
        var requestDecoder = topics.requests().valueSerde().deserializer();
        var runDecoder = topics.runs().valueSerde().deserializer();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : List.of(
                    topics.runs().name(),
                    topics.requests().name(),
                    topics.chunks().name(),
                    topics.chunkBatches().name())) {
                for (PartitionInfo p : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
                    partitions.add(new TopicPartition(p.topic(), p.partition()));
                }
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long lastNewNs = System.nanoTime();
            while ((run.chunks < expectedChunks
                            || run.requests.size() < expectedRequests
                            || run.scheduleStartEpochNs < 0)
                    && System.nanoTime() - lastNewNs < idle.toNanos()) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    lastNewNs = System.nanoTime();
                    String topic = record.topic();
                    if (topic.equals(topics.chunks().name())) {
                        run.arrived(chunkDecoder.deserialize(topic, record.value()), runId, eventsPerRequest);
                    } else if (topic.equals(topics.chunkBatches().name())) {
                        for (Chunk chunk : ChunkBatches.expand(batchDecoder.deserialize(topic, record.value()))) {
                            run.arrived(chunk, runId, eventsPerRequest);
                        }
                    } else if (topic.equals(topics.requests().name())) {
                        RequestEvent event = requestDecoder.deserialize(topic, record.value());
                        if (event.getRunId().equals(runId) && event.getEvent() instanceof RequestFinished f) {
                            run.requests.put(
                                    event.getRequestIndex(),
                                    new Request(f.getScheduledOffsetNs(), f.getSentOffsetNs()));
                        }
                    } else {
                        RunEvent event = runDecoder.deserialize(topic, record.value());
                        if (event.getRunId().equals(runId) && event.getEvent() instanceof RunStarted s) {
                            run.scheduleStartEpochNs = s.getScheduleStartEpochNs();
                        }
                    }
                }
            }
        }
        if (run.scheduleStartEpochNs < 0) {
            throw new IllegalStateException("no RunStarted record of run " + runId + " in Kafka");
        }
        return run;
    }

    private void arrived(Chunk chunk, String runId, int eventsPerRequest) {
        if (chunk.getRunId().equals(runId) && chunk.getSeq() < eventsPerRequest) {
            arrivalsEpochNs.computeIfAbsent(chunk.getRequestIndex(), i -> new long[eventsPerRequest])[chunk.getSeq()] =
                    chunk.getArrivedEpochNs();
            chunks++;
        }
    }
}
