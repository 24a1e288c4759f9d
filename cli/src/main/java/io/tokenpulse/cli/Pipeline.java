package io.tokenpulse.cli;

import io.tokenpulse.platform.Platform;
import io.tokenpulse.schemas.TopicAdmin;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * The Kafka cluster, Schema Registry and topic table a command works with: the user's, or the
 * embedded platform started here when no {@code --bootstrap-servers} was given.
 */
final class Pipeline implements AutoCloseable {
    static final int DEFAULT_PARTITIONS = 3;

    private final Platform platform;
    private final Properties clientProperties;
    private final Topics topics;
    private final Path dataDir;

    private Pipeline(Platform platform, Properties clientProperties, Topics topics, Path dataDir) {
        this.platform = platform;
        this.clientProperties = clientProperties;
        this.topics = topics;
        this.dataDir = dataDir;
    }

    /** Connects (starting the embedded platform if needed), checks the schemas and creates missing topics. */
    static Pipeline connect(KafkaOptions options) {
        Path dataDir = options.dataDir == null ? Platform.Settings.defaultDataDir() : Path.of(options.dataDir);
        Platform platform = null;
        try {
            String bootstrap = options.bootstrapServers;
            String registryUrl = options.schemaRegistryUrl;
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
            if (options.schemaRegistryBasicAuth != null) {
                registrySettings = registrySettings.withBasicAuth(options.schemaRegistryBasicAuth);
            }
            if (options.schemaRegistryBearerToken != null) {
                registrySettings = registrySettings.withBearerToken(options.schemaRegistryBearerToken);
            }
            // The embedded registry is ours to fill; a production registry is managed, so schemas must exist
            // unless the user asks to register them (a fresh registry, e.g. docker-compose's).
            boolean autoRegister = platform != null || options.autoRegisterSchemas;
            Topics topics =
                    Topics.create(options.topicPrefix, new SchemaRegistryClient(registrySettings), autoRegister);
            topics.resolveSchemaIds();
            Properties props = new Properties();
            props.putAll(options.kafkaProperties);
            props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            TopicAdmin.ensureExist(topics, props, DEFAULT_PARTITIONS, (short) 1, Duration.ofSeconds(30));
            return new Pipeline(platform, props, topics, dataDir);
        } catch (IllegalArgumentException e) {
            closeQuietly(platform);
            throw UserError.usage(e.getMessage());
        } catch (RuntimeException e) {
            closeQuietly(platform);
            throw e instanceof UserError ? e : UserError.failure(e.getMessage());
        }
    }

    Properties clientProperties() {
        Properties copy = new Properties();
        copy.putAll(clientProperties);
        return copy;
    }

    String bootstrapServers() {
        return clientProperties.getProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
    }

    Topics topics() {
        return topics;
    }

    boolean embedded() {
        return platform != null;
    }

    Path dataDir() {
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
