package io.tokenpulse.cli.options;

import io.tokenpulse.runner.Pipeline;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Where the pipeline's Kafka cluster and Schema Registry are. Without {@code --bootstrap-servers}
 * a command starts the embedded platform instead.
 */
public final class KafkaOptions {

    @Option(
            names = "--bootstrap-servers",
            paramLabel = "HOST:PORT[,...]",
            description = "Kafka cluster to use. Without it the embedded broker and registry are started.")
    String bootstrapServers;

    @Option(
            names = "--schema-registry-url",
            paramLabel = "URL",
            description = "Confluent-compatible Schema Registry. Required with --bootstrap-servers.")
    String schemaRegistryUrl;

    @Option(
            names = "--schema-registry-basic-auth",
            paramLabel = "USER:PASSWORD",
            description = "Basic auth for the Schema Registry (never logged).")
    String schemaRegistryBasicAuth;

    @Option(
            names = "--schema-registry-bearer-token",
            paramLabel = "TOKEN",
            description = "Bearer token for the Schema Registry (never logged).")
    String schemaRegistryBearerToken;

    // Confluent's serializers call this auto.register.schemas; a managed registry usually forbids it.
    @Option(
            names = "--auto-register-schemas",
            description =
                    "Register TokenPulse's value schemas in the Schema Registry when missing (always on for the embedded one).")
    boolean autoRegisterSchemas;

    @Option(
            names = "--kafka-property",
            paramLabel = "KEY=VALUE",
            description =
                    "Kafka client property, repeatable (SASL/SSL settings pass through; values of secret keys are never logged).")
    Map<String, String> kafkaProperties = new LinkedHashMap<>();

    @Option(
            names = "--kafka-property-file",
            paramLabel = "FILE",
            description =
                    "Kafka client properties file (Java properties, e.g. the SASL credentials tokenpulse platform --secure writes); --kafka-property wins over it. Never logged.")
    Path kafkaPropertyFile;

    @Option(
            names = "--topic-prefix",
            paramLabel = "PREFIX",
            defaultValue = "tokenpulse.",
            description = "Prefix of every topic name (default: ${DEFAULT-VALUE}).")
    String topicPrefix;

    @Option(
            names = "--replication-factor",
            paramLabel = "N",
            description =
                    "Copies of each TokenPulse topic this command creates, and of the aggregator's internal topics (default: min(3, brokers in the cluster); min.insync.replicas 2 from 3 copies on).")
    Integer replicationFactor;

    @Option(
            names = "--partitions",
            paramLabel = "N",
            description =
                    "Partitions of each TokenPulse topic this command creates (default: 3); one busy aggregator thread per partition, plan one per ~50 000 chunk events/s (docs/cluster.md). Existing topics keep theirs.")
    Integer partitions;

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description = "Data directory of the embedded platform (default: ~/.tokenpulse/platform).")
    String dataDir;

    /** Where the pipeline is, as these options say it. */
    public Pipeline.Settings settings() {
        return new Pipeline.Settings(
                bootstrapServers,
                schemaRegistryUrl,
                schemaRegistryBasicAuth,
                schemaRegistryBearerToken,
                autoRegisterSchemas,
                kafkaProperties,
                kafkaPropertyFile,
                topicPrefix,
                dataDir,
                replicationFactor,
                partitions);
    }

    public boolean embedded() {
        return bootstrapServers == null;
    }

    /**
     * The flags that reach this cluster again (the embedded platform's data directory, or the cluster and
     * registry), as a string starting with a space; empty for the default.
     */
    public String reachingFlags() {
        List<String> flags = new ArrayList<>();
        if (embedded()) {
            if (dataDir != null) {
                flags.add("--data-dir " + dataDir);
            }
        } else {
            flags.add("--bootstrap-servers " + bootstrapServers);
            if (schemaRegistryUrl != null) {
                flags.add("--schema-registry-url " + schemaRegistryUrl);
            }
        }
        if (kafkaPropertyFile != null) {
            flags.add("--kafka-property-file " + kafkaPropertyFile);
        }
        if (!"tokenpulse.".equals(topicPrefix) && topicPrefix != null) {
            flags.add("--topic-prefix " + topicPrefix);
        }
        return flags.isEmpty() ? "" : " " + String.join(" ", flags);
    }
}
