package io.tokenpulse.schemas;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the pipeline's topics that do not exist yet, so a fresh cluster works without manual
 * set-up, each with its declared {@link TopicSpec#config}. Existing topics keep their partition
 * counts (the operator's choice) but get their declared config where it differs: a topic created
 * before a limit was raised would otherwise still refuse the larger records. Where the cluster
 * refuses that change, a warning says what to set.
 */
public final class TopicAdmin {
    private static final Logger LOG = LoggerFactory.getLogger(TopicAdmin.class);

    private TopicAdmin() {}

    /**
     * @param clientProperties Kafka client properties incl. bootstrap.servers (and SASL/SSL settings)
     * @throws IllegalStateException with one line naming the cluster when it cannot be reached in time
     */
    public static void ensureExist(
            Topics topics, Properties clientProperties, int partitions, short replicationFactor, Duration timeout) {
        Properties props = new Properties();
        props.putAll(clientProperties);
        props.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        props.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(timeout.toMillis(), 30_000));
        String servers = String.valueOf(props.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
        try (Admin admin = Admin.create(props)) {
            Set<String> existing = admin.listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            List<NewTopic> missing = topics.all().stream()
                    .filter(topic -> !existing.contains(topic.name()))
                    .map(topic -> new NewTopic(topic.name(), partitions, replicationFactor).configs(topic.config()))
                    .toList();
            try {
                if (!missing.isEmpty()) {
                    admin.createTopics(missing).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                }
            } catch (ExecutionException e) {
                // Another process (a second load generator, the aggregator) may have created one meanwhile.
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new IllegalStateException(
                            "cannot create topics on Kafka at " + servers + ": "
                                    + e.getCause().getMessage(),
                            e.getCause());
                }
            }
            applyDeclaredConfig(
                    admin,
                    topics.all().stream()
                            .filter(topic -> existing.contains(topic.name()))
                            .toList(),
                    timeout);
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "Kafka at " + servers + " did not answer within " + timeout.toSeconds()
                            + " s; check --bootstrap-servers and --kafka-property security settings",
                    e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "cannot list topics on Kafka at " + servers + ": "
                            + e.getCause().getMessage(),
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        }
    }

    private static void applyDeclaredConfig(Admin admin, List<TopicSpec<?>> existing, Duration timeout)
            throws InterruptedException, TimeoutException {
        List<TopicSpec<?>> configured =
                existing.stream().filter(topic -> !topic.config().isEmpty()).toList();
        if (configured.isEmpty()) {
            return;
        }
        try {
            Map<ConfigResource, Config> current = admin.describeConfigs(
                            configured.stream().map(TopicAdmin::resource).toList())
                    .all()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Map<ConfigResource, Collection<AlterConfigOp>> changes = new HashMap<>();
            for (TopicSpec<?> topic : configured) {
                Config config = current.get(resource(topic));
                topic.config().forEach((key, value) -> {
                    ConfigEntry entry = config == null ? null : config.get(key);
                    if (entry == null || !value.equals(entry.value())) {
                        changes.computeIfAbsent(resource(topic), r -> new ArrayList<>())
                                .add(new AlterConfigOp(new ConfigEntry(key, value), AlterConfigOp.OpType.SET));
                    }
                });
            }
            if (!changes.isEmpty()) {
                admin.incrementalAlterConfigs(changes).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                LOG.info("updated the config of existing topics: {}", changes);
            }
        } catch (ExecutionException e) {
            // Not fatal: records within the old limits still flow; larger ones fail, counted.
            LOG.warn(
                    "cannot bring the config of existing topics to {} ({}); set it on the cluster",
                    configured.stream()
                            .map(topic -> topic.name() + " " + topic.config())
                            .toList(),
                    e.getCause().getMessage());
        }
    }

    private static ConfigResource resource(TopicSpec<?> topic) {
        return new ConfigResource(ConfigResource.Type.TOPIC, topic.name());
    }
}
