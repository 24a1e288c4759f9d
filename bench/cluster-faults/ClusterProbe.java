import io.tokenpulse.schemas.ChunkBatches;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.ChunkBatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * What bench/cluster-faults asks a running cluster, one question a call, one line of answer on stdout:
 * {@code java -cp tokenpulse.jar ClusterProbe.java BOOTSTRAP QUESTION [ARG]}, with QUESTION
 *
 * <ul>
 *   <li>{@code leader TOPIC} — the node id leading partition 0 of TOPIC;
 *   <li>{@code controller} — the node id of the active KRaft controller (the quorum's leader);
 *   <li>{@code in-sync SECONDS} — waits until every partition of every topic has all its replicas in
 *       sync, prints the seconds it took, exit code 1 when it does not happen in time;
 *   <li>{@code records TOPIC RUN_ID} — the run's records on TOPIC (key {@code RUN_ID/...}) read with
 *       {@code read_committed}: "COUNT DISTINCT" (distinct by value);
 *   <li>{@code chunk-events PREFIX RUN_ID} — the run's streamed events on {@code PREFIXchunks} (one a
 *       record) and {@code PREFIXchunk-batches} (as many as a batch carries), read so: "COUNT
 *       DISTINCT" (distinct by request and seq). Values are decoded with the jar's own schemas (the
 *       bench of the same jar wrote them), past the wire format's 5-byte header.
 * </ul>
 *
 * Run as a single source file, so the benchmark adds no module.
 */
public final class ClusterProbe {

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        switch (args[1]) {
            case "leader" -> {
                try (Admin admin = Admin.create(props)) {
                    TopicDescription topic =
                            admin.describeTopics(List.of(args[2])).allTopicNames().get().get(args[2]);
                    System.out.println(topic.partitions().get(0).leader().id());
                }
            }
            case "controller" -> {
                try (Admin admin = Admin.create(props)) {
                    System.out.println(
                            admin.describeMetadataQuorum().quorumInfo().get().leaderId());
                }
            }
            case "in-sync" -> System.exit(inSync(props, Duration.ofSeconds(Long.parseLong(args[2]))));
            case "records" -> System.out.println(records(bootstrap, args[2], args[3]));
            case "chunk-events" -> System.out.println(chunkEvents(bootstrap, args[2], args[3]));
            default -> throw new IllegalArgumentException("unknown question " + args[1]);
        }
    }

    private static int inSync(Properties props, Duration timeout) throws Exception {
        long start = System.nanoTime();
        try (Admin admin = Admin.create(props)) {
            while (true) {
                List<String> lagging;
                try {
                    Set<String> names = admin.listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions()
                                    .listInternal(true))
                            .names()
                            .get();
                    lagging = admin.describeTopics(names).allTopicNames().get().values().stream()
                            .flatMap(t -> t.partitions().stream()
                                    .filter(ClusterProbe::lagging)
                                    .map(p -> t.name() + "-" + p.partition()))
                            .toList();
                } catch (java.util.concurrent.ExecutionException e) {
                    lagging = List.of("(" + e.getCause().getMessage() + ")");
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                if (lagging.isEmpty()) {
                    System.out.printf("%.1f%n", seconds);
                    return 0;
                }
                if (seconds > timeout.toSeconds()) {
                    System.out.println("not in sync after " + timeout.toSeconds() + " s: " + lagging);
                    return 1;
                }
                Thread.sleep(500);
            }
        }
    }

    private static boolean lagging(TopicPartitionInfo p) {
        return p.leader() == null || p.isr().size() < p.replicas().size();
    }

    private static String records(String bootstrap, String topic, String runId) {
        int[] total = {0};
        Set<ByteBuffer> distinct = new HashSet<>();
        read(bootstrap, topic, runId, record -> {
            total[0]++;
            distinct.add(ByteBuffer.wrap(record.value()));
        });
        return total[0] + " " + distinct.size();
    }

    private static String chunkEvents(String bootstrap, String prefix, String runId) {
        int[] total = {0};
        Set<String> distinct = new HashSet<>();
        var chunkReader = new SpecificDatumReader<>(Chunk.class);
        read(bootstrap, prefix + "chunks", runId, record -> {
            total[0]++;
            distinct.add(record.key() + "#" + decode(chunkReader, record.value()).getSeq());
        });
        var batchReader = new SpecificDatumReader<>(ChunkBatch.class);
        read(bootstrap, prefix + "chunk-batches", runId, record -> {
            ChunkBatch batch = decode(batchReader, record.value());
            for (int i = 0; i < ChunkBatches.size(batch); i++) {
                total[0]++;
                distinct.add(record.key() + "#" + (batch.getFirstSeq() + i));
            }
        });
        return total[0] + " " + distinct.size();
    }

    private static <T> T decode(SpecificDatumReader<T> reader, byte[] wireFormat) {
        try {
            return reader.read(null, DecoderFactory.get().binaryDecoder(wireFormat, 5, wireFormat.length - 5, null));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Hands each of the run's records on {@code topic} (key {@code RUN_ID/...}), read_committed, to {@code sink}. */
    private static void read(
            String bootstrap, String topic, String runId, Consumer<ConsumerRecord<String, byte[]>> sink) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .collect(Collectors.toList());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))
                    && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    if (record.key().startsWith(runId + "/")) {
                        sink.accept(record);
                    }
                }
            }
        }
    }
}
