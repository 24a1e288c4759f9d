package io.tokenpulse.platform.registry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.platform.kafka.EmbeddedKafka;
import io.tokenpulse.platform.kafka.KafkaSettings;
import io.tokenpulse.schemas.ChunkBatches;
import io.tokenpulse.schemas.TopicSpec;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.ChunkBatch;
import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.WindowMetrics;
import io.tokenpulse.schemas.registry.RegisteredSchema;
import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Interop with clients nobody here wrote: Java writes one record of each generated class with the
 * project's serde through the embedded broker and registry; {@code examples/python-consumer}
 * (Debian's confluent_kafka and Apache Avro for Python) registers a schema of its own, then reads
 * and decodes every record (a chunk batch as the chunks it stands for, one line per event); Java reads
 * the Python-registered schema back.
 */
class PythonConsumerIT {
    private static final String PYTHON_SUBJECT = "analytics.request-latency-value";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A record as written: where it landed and which schema id the Java serializer used. */
    private record Written(String topic, long offset, SpecificRecord value, int schemaId) {}

    @Test
    void pythonDecodesEveryJavaRecordAndJavaReadsThePythonRegisteredSchema(@TempDir Path dataDir) throws Exception {
        Path example = exampleDir();
        DebianPython.requireClients();
        try (EmbeddedKafka kafka = EmbeddedKafka.start(KafkaSettings.of(dataDir));
                LocalSchemaRegistry registry = LocalSchemaRegistry.start(
                        kafka.bootstrapServers(),
                        LocalSchemaRegistry.DEFAULT_TOPIC,
                        new InetSocketAddress("127.0.0.1", 0))) {
            SchemaRegistryClient client = new SchemaRegistryClient(
                    SchemaRegistrySettings.of(registry.url().toString()));
            Topics topics = Topics.create("interop.", client, true);
            List<Written> written = new ArrayList<>();
            written.addAll(write(
                    kafka,
                    client,
                    topics.runs(),
                    AvroSamples.filled(RunEvent.class, 0),
                    AvroSamples.filled(RunEvent.class, 1)));
            written.addAll(write(
                    kafka,
                    client,
                    topics.requests(),
                    AvroSamples.filled(RequestEvent.class, 0),
                    AvroSamples.filled(RequestEvent.class, 1)));
            written.addAll(write(kafka, client, topics.chunks(), AvroSamples.filled(Chunk.class, 0)));
            written.addAll(write(
                    kafka,
                    client,
                    topics.chunkBatches(),
                    new ChunkBatch(
                            "run-1",
                            1,
                            0,
                            4,
                            40L,
                            1_700_000_000_000_000_100L,
                            List.of(100L, 130L, 175L),
                            Arrays.asList(1, null, 2),
                            List.of(10, 20, 30))));
            written.addAll(write(kafka, client, topics.requestMetrics(), AvroSamples.filled(RequestMetrics.class, 0)));
            written.addAll(write(kafka, client, topics.windowMetrics(), AvroSamples.filled(WindowMetrics.class, 0)));
            written.addAll(write(kafka, client, topics.runSummaries(), AvroSamples.filled(RunSummary.class, 0)));

            List<String> args = new ArrayList<>(List.of(
                    "--bootstrap-servers",
                    kafka.bootstrapServers(),
                    "--schema-registry-url",
                    registry.url().toString(),
                    "--max-records",
                    String.valueOf(written.size()),
                    "--idle-timeout",
                    "60",
                    "--register-schema",
                    PYTHON_SUBJECT,
                    example.resolve("request_latency_row.avsc").toString()));
            written.stream().map(Written::topic).distinct().forEach(topic -> args.addAll(List.of("--topic", topic)));
            DebianPython.Run run =
                    DebianPython.run(example.resolve("consumer.py"), args, dataDir, Duration.ofSeconds(120));

            assertThat(run.exitCode())
                    .as("consumer.py exit code; stderr:%n%s", run.stderr())
                    .isZero();
            Map<String, JsonNode> linesByPlace = new HashMap<>();
            for (String line : run.stdout().lines().toList()) {
                JsonNode node = JSON.readTree(line);
                String event = node.has("event") ? "#" + node.get("event").asInt() : "";
                linesByPlace.put(
                        node.get("topic").asText() + "@" + node.get("offset").asLong() + event, node);
            }
            // where each line should be: a record's place, or its place and event for a batch's events
            Map<String, Written> expected = new HashMap<>();
            for (Written record : written) {
                String place = record.topic() + "@" + record.offset();
                if (record.value() instanceof ChunkBatch batch) {
                    List<Chunk> chunks = ChunkBatches.expand(batch);
                    for (int i = 0; i < chunks.size(); i++) {
                        expected.put(
                                place + "#" + i,
                                new Written(record.topic(), record.offset(), chunks.get(i), record.schemaId()));
                    }
                } else {
                    expected.put(place, record);
                }
            }
            assertThat(linesByPlace).hasSize(expected.size());
            for (Map.Entry<String, Written> entry : expected.entrySet()) {
                JsonNode line = linesByPlace.get(entry.getKey());
                assertThat(line).as("consumer.py line for %s", entry.getKey()).isNotNull();
                assertThat(line.get("key").asText()).isEqualTo("run-1/0");
                assertThat(line.get("schema_id").asInt())
                        .isEqualTo(entry.getValue().schemaId());
                assertThat(line.get("value"))
                        .as(entry.getKey())
                        .isEqualTo(
                                JSON.readTree(AvroSamples.json(entry.getValue().value())));
            }

            Schema pythonSchema = new Schema.Parser()
                    .parse(example.resolve("request_latency_row.avsc").toFile());
            Optional<RegisteredSchema> registered = client.latest(PYTHON_SUBJECT);
            assertThat(registered).isPresent();
            assertThat(client.schemaById(registered.get().id())).isEqualTo(pythonSchema);
            assertThat(run.stderr())
                    .contains("registered " + PYTHON_SUBJECT)
                    .contains("as schema id " + registered.get().id());
        }
    }

    @SafeVarargs
    private static <V extends SpecificRecord> List<Written> write(
            EmbeddedKafka kafka, SchemaRegistryClient client, TopicSpec<V> spec, V... values) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(spec.name(), 1, (short) 1)))
                    .all()
                    .get();
        }
        List<Written> written = new ArrayList<>();
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true);
        try (KafkaProducer<String, V> producer = new KafkaProducer<>(
                config, spec.keySerde().serializer(), spec.valueSerde().serializer())) {
            for (V value : values) {
                RecordMetadata sent = producer.send(new ProducerRecord<>(spec.name(), "run-1/0", value))
                        .get();
                int schemaId = client.idOf(spec.subject().orElseThrow(), value.getSchema())
                        .orElseThrow();
                written.add(new Written(spec.name(), sent.offset(), value, schemaId));
            }
        }
        return written;
    }

    /** The example lives at the repository root; Failsafe runs in the module directory. */
    private static Path exampleDir() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("examples/python-consumer");
            if (Files.isRegularFile(candidate.resolve("consumer.py"))) {
                return candidate;
            }
        }
        throw new AssertionError("examples/python-consumer/consumer.py not found above "
                + Path.of("").toAbsolutePath());
    }
}
