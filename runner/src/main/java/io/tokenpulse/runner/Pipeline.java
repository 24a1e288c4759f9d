package io.tokenpulse.runner;

import io.tokenpulse.platform.Platform;
import io.tokenpulse.schemas.PipelineRole;
import io.tokenpulse.schemas.TopicAdmin;
import io.tokenpulse.schemas.TopicLayout;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * The Kafka cluster, Schema Registry and topic table a command works with: the user's, or the
 * embedded platform started here when no {@code --bootstrap-servers} was given.
 */
public final class Pipeline implements AutoCloseable {
    public static final int DEFAULT_PARTITIONS = TopicLayout.DEFAULT_PARTITIONS;
    private static final Duration KAFKA_TIMEOUT = Duration.ofSeconds(30);

    private final Platform platform;
    private final Properties clientProperties;
    private final Topics topics;
    private final Path dataDir;
    private final TopicAdmin.Fitted layout;

    private Pipeline(
            Platform platform, Properties clientProperties, Topics topics, Path dataDir, TopicAdmin.Fitted layout) {
        this.platform = platform;
        this.clientProperties = clientProperties;
        this.topics = topics;
        this.dataDir = dataDir;
        this.layout = layout;
    }

    /**
     * Where the pipeline is, as the Kafka options give it; {@code bootstrapServers} null means the
     * embedded platform.
     *
     * @param bootstrapServers the user's cluster, or null for the embedded platform
     * @param schemaRegistryUrl the user's registry (with {@code bootstrapServers} only)
     * @param schemaRegistryBasicAuth {@code USER:PASSWORD}, or null
     * @param schemaRegistryBearerToken a bearer token, or null
     * @param autoRegisterSchemas whether to register missing schemas in the user's registry
     * @param kafkaProperties client properties given one by one (they win over the file's)
     * @param kafkaPropertyFile a Java properties file of client properties, or null
     * @param topicPrefix the topics' prefix
     * @param dataDir the embedded platform's and the aggregator's folder, or null for the default
     * @param replicationFactor the topics' copies (--replication-factor), or null to fit the cluster
     * @param partitions the partitions of topics created now (--partitions), or null for the default
     */
    public record Settings(
            String bootstrapServers,
            String schemaRegistryUrl,
            String schemaRegistryBasicAuth,
            String schemaRegistryBearerToken,
            boolean autoRegisterSchemas,
            Map<String, String> kafkaProperties,
            Path kafkaPropertyFile,
            String topicPrefix,
            String dataDir,
            Integer replicationFactor,
            Integer partitions) {

        public Settings {
            kafkaProperties = Map.copyOf(kafkaProperties);
        }

        /** Whether the embedded platform is used: no --bootstrap-servers. */
        public boolean embedded() {
            return bootstrapServers == null;
        }
    }

    /**
     * Connects (starting the embedded platform if needed), checks the schemas, creates missing topics
     * and, on a given cluster, checks that the credentials allow what {@code role} reads and writes.
     */
    public static Pipeline connect(Settings options, PipelineRole role) {
        Path dataDir = options.dataDir() == null ? Platform.Settings.defaultDataDir() : Path.of(options.dataDir());
        Platform platform = null;
        try {
            String bootstrap = options.bootstrapServers();
            String registryUrl = options.schemaRegistryUrl();
            if (options.embedded()) {
                if (registryUrl != null) {
                    throw UserError.usage(
                            "--schema-registry-url needs --bootstrap-servers (without both, the embedded platform is used)");
                }
                platform = Platform.start(new Platform.Settings(dataDir, 0, 0));
                bootstrap = platform.bootstrapServers();
                registryUrl = platform.registryUrl().toString();
            } else if (registryUrl == null) {
                throw UserError.usage(
                        "--bootstrap-servers needs --schema-registry-url: the records are Avro with schemas in a registry");
            }
            SchemaRegistrySettings registrySettings = SchemaRegistrySettings.of(registryUrl);
            if (options.schemaRegistryBasicAuth() != null) {
                registrySettings = registrySettings.withBasicAuth(options.schemaRegistryBasicAuth());
            }
            if (options.schemaRegistryBearerToken() != null) {
                registrySettings = registrySettings.withBearerToken(options.schemaRegistryBearerToken());
            }
            // The embedded registry is ours to fill; a production registry is managed, so schemas must exist
            // unless the user asks to register them (a fresh registry, e.g. docker-compose's).
            boolean autoRegister = platform != null || options.autoRegisterSchemas();
            Topics topics =
                    Topics.create(options.topicPrefix(), new SchemaRegistryClient(registrySettings), autoRegister);
            topics.resolveSchemaIds();
            Properties props = new Properties();
            // No MBean per Kafka client metric (thousands across the producer and Streams' clients): start-up
            // CPU for a JMX nobody reads in a bench process; --kafka-property metric.reporters=... restores it.
            props.put(CommonClientConfigs.METRIC_REPORTER_CLASSES_CONFIG, "");
            props.putAll(propertyFile(options.kafkaPropertyFile()));
            props.putAll(options.kafkaProperties());
            props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            Duration kafkaTimeout = kafkaTimeout(props);
            // the cluster's size decides the copies (min(3, brokers)) unless the user chose them
            TopicAdmin.Fitted layout = TopicAdmin.ensureExist(
                    topics, props, options.replicationFactor(), options.partitions(), kafkaTimeout);
            if (platform == null && layout.brokers() > 1) {
                System.err.println(layout.describe());
            }
            if (platform == null) {
                // A missing ACL would otherwise surface only as failed records or a stopped stream thread.
                TopicAdmin.checkAccess(topics, role, props, kafkaTimeout);
            }
            return new Pipeline(platform, props, topics, dataDir, layout);
        } catch (IllegalArgumentException e) {
            closeQuietly(platform);
            throw UserError.usage(e.getMessage());
        } catch (RuntimeException e) {
            closeQuietly(platform);
            throw e instanceof UserError ? e : UserError.failure(e.getMessage());
        }
    }

    /** How long to wait for the cluster's first answers: Kafka's own {@code default.api.timeout.ms} when given. */
    private static Duration kafkaTimeout(Properties props) {
        String given = props.getProperty(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG);
        if (given == null) {
            return KAFKA_TIMEOUT;
        }
        try {
            return Duration.ofMillis(Long.parseLong(given.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--kafka-property " + CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG
                    + "=" + given + " is not a number: give milliseconds, e.g. 5000");
        }
    }

    private static Properties propertyFile(Path file) {
        Properties properties = new Properties();
        if (file != null) {
            try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                properties.load(reader);
            } catch (IOException | IllegalArgumentException e) {
                throw UserError.usage("cannot read --kafka-property-file " + file + " (" + e.getMessage()
                        + "): pass a readable Java properties file");
            }
        }
        return properties;
    }

    public Properties clientProperties() {
        Properties copy = new Properties();
        copy.putAll(clientProperties);
        return copy;
    }

    public String bootstrapServers() {
        return clientProperties.getProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
    }

    public Topics topics() {
        return topics;
    }

    public boolean embedded() {
        return platform != null;
    }

    /** The replication factor fitted to the cluster: the aggregator's internal topics get it too. */
    public int replicationFactor() {
        return layout.layout().replicationFactor();
    }

    public Path dataDir() {
        return dataDir;
    }

    @Override
    public void close() {
        closeQuietly(platform);
    }

    private static void closeQuietly(Platform platform) {
        if (platform != null) {
            platform.close();
        }
    }
}
