package io.tokenpulse.schemas;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
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
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the pipeline's topics that do not exist yet, so a fresh cluster works without manual
 * set-up, each with its declared {@link TopicSpec#config}; a missing one of {@link
 * Topics#coPartitioned} gets the partition count of one that exists (a topic added in an upgrade,
 * such as {@code chunk-batches}, must match {@code requests} for the aggregator's join). Existing
 * topics keep their partition counts (the operator's choice) but get their declared config where it differs: a topic created
 * before a limit was raised would otherwise still refuse the larger records. Where the cluster
 * refuses that change, a warning says what to set.
 */
public final class TopicAdmin {
    private static final Logger LOG = LoggerFactory.getLogger(TopicAdmin.class);

    private TopicAdmin() {}

    /**
     * Reads the cluster's size (describeCluster), fits the layout to it ({@link TopicLayout#fit}) and
     * creates the missing topics with it; existing topics keep theirs.
     *
     * @param askedReplication {@code --replication-factor}, null to fit the cluster
     * @param askedPartitions  {@code --partitions}, null for the default
     * @return the layout and the number of brokers it was fitted to
     * @throws IllegalArgumentException with one line when more copies are asked for than there are brokers
     * @throws IllegalStateException with one line naming the servers tried when no broker answers in time
     */
    public static Fitted ensureExist(
            Topics topics,
            Properties clientProperties,
            Integer askedReplication,
            Integer askedPartitions,
            Duration timeout) {
        int brokers = brokers(clientProperties, timeout);
        TopicLayout layout = TopicLayout.fit(brokers, askedReplication, askedPartitions);
        ensureExist(topics, clientProperties, layout, timeout);
        return new Fitted(layout, brokers);
    }

    /** A layout and the cluster size it was chosen for. */
    public record Fitted(TopicLayout layout, int brokers) {
        /** One line for the user. */
        public String describe() {
            return layout.describe(brokers);
        }
    }

    /**
     * The number of brokers the cluster reports.
     *
     * @throws IllegalStateException with one line naming the servers tried when none answers in time
     */
    public static int brokers(Properties clientProperties, Duration timeout) {
        Properties props = adminProperties(clientProperties, timeout);
        String servers = String.valueOf(props.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
        try (Admin admin = Admin.create(props)) {
            return admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) timeout.toMillis()))
                    .nodes()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .size();
        } catch (TimeoutException e) {
            throw noAnswer(servers, timeout, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException) {
                throw noAnswer(servers, timeout, e.getCause());
            }
            throw failure("cannot describe the Kafka cluster at " + servers, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while describing the cluster", e);
        }
    }

    private static IllegalStateException noAnswer(String servers, Duration timeout, Throwable cause) {
        return new IllegalStateException(
                "no broker of " + servers + " answered within " + timeout.toSeconds()
                        + " s; check --bootstrap-servers and --kafka-property security settings",
                cause);
    }

    private static Properties adminProperties(Properties clientProperties, Duration timeout) {
        Properties props = new Properties();
        props.putAll(clientProperties);
        props.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        props.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(timeout.toMillis(), 30_000));
        return props;
    }

    /**
     * @param clientProperties Kafka client properties incl. bootstrap.servers (and SASL/SSL settings)
     * @throws IllegalStateException with one line naming the cluster when it cannot be reached in time
     */
    public static void ensureExist(
            Topics topics, Properties clientProperties, int partitions, short replicationFactor, Duration timeout) {
        ensureExist(topics, clientProperties, new TopicLayout(partitions, replicationFactor, 1), timeout);
    }

    /**
     * Creates the missing topics with {@code layout} (its {@code min.insync.replicas} added to each
     * topic's own config).
     *
     * @throws IllegalStateException with one line naming the cluster when it cannot be reached in time
     */
    public static void ensureExist(Topics topics, Properties clientProperties, TopicLayout layout, Duration timeout) {
        int partitions = layout.partitions();
        short replicationFactor = layout.replicationFactor();
        Properties props = adminProperties(clientProperties, timeout);
        String servers = String.valueOf(props.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
        try (Admin admin = Admin.create(props)) {
            Set<String> existing = admin.listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Set<String> coPartitioned = new HashSet<>();
            topics.coPartitioned().forEach(topic -> coPartitioned.add(topic.name()));
            int coPartitions = coPartitionedCount(admin, topics, existing, partitions, timeout);
            List<NewTopic> missing = topics.all().stream()
                    .filter(topic -> !existing.contains(topic.name()))
                    .map(topic -> new NewTopic(
                                    topic.name(),
                                    coPartitioned.contains(topic.name()) ? coPartitions : partitions,
                                    replicationFactor)
                            .configs(withLayout(topic.config(), layout)))
                    .toList();
            try {
                if (!missing.isEmpty()) {
                    admin.createTopics(missing).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                }
            } catch (ExecutionException e) {
                // Another process (a second load generator, the aggregator) may have created one meanwhile.
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw failure("cannot create topics on Kafka at " + servers, e.getCause());
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
            throw failure("cannot list topics on Kafka at " + servers, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        }
    }

    /**
     * The partition count of the first existing topic of {@link Topics#coPartitioned}, or {@code
     * partitions} when none exists yet.
     */
    private static int coPartitionedCount(
            Admin admin, Topics topics, Set<String> existing, int partitions, Duration timeout)
            throws ExecutionException, InterruptedException, TimeoutException {
        for (TopicSpec<?> topic : topics.coPartitioned()) {
            if (existing.contains(topic.name())) {
                int count = admin.describeTopics(List.of(topic.name()))
                        .allTopicNames()
                        .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                        .get(topic.name())
                        .partitions()
                        .size();
                if (count != partitions) {
                    LOG.info(
                            "{} has {} partitions: topics joined with it are created with as many",
                            topic.name(),
                            count);
                }
                return count;
            }
        }
        return partitions;
    }

    /**
     * Checks that the client's credentials may read and write what {@code role} needs, so that a
     * missing ACL stops a command before it starts instead of failing its records one by one. A
     * cluster without an authorizer allows everything and passes.
     *
     * @throws IllegalStateException with one line naming the topic, the operation and what to change
     */
    public static void checkAccess(Topics topics, PipelineRole role, Properties clientProperties, Duration timeout) {
        Properties props = new Properties();
        props.putAll(clientProperties);
        props.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        String servers = String.valueOf(props.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
        Set<String> needed = new LinkedHashSet<>();
        role.writes(topics).forEach(topic -> needed.add(topic.name()));
        role.reads(topics).forEach(topic -> needed.add(topic.name()));
        try (Admin admin = Admin.create(props)) {
            Map<String, TopicDescription> described = admin.describeTopics(
                            needed, new DescribeTopicsOptions().includeAuthorizedOperations(true))
                    .allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            for (TopicSpec<?> topic : role.writes(topics)) {
                requireOperation(described.get(topic.name()), AclOperation.WRITE, role, servers);
            }
            for (TopicSpec<?> topic : role.reads(topics)) {
                requireOperation(described.get(topic.name()), AclOperation.READ, role, servers);
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "Kafka at " + servers + " did not answer within " + timeout.toSeconds()
                            + " s; check --bootstrap-servers and the security settings (--kafka-property-file)",
                    e);
        } catch (ExecutionException e) {
            throw failure("cannot describe topics on Kafka at " + servers, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking topic access", e);
        }
    }

    private static void requireOperation(
            TopicDescription topic, AclOperation operation, PipelineRole role, String servers) {
        Set<AclOperation> allowed = topic.authorizedOperations();
        if (allowed != null && !allowed.contains(operation) && !allowed.contains(AclOperation.ALL)) {
            throw new IllegalStateException("Kafka at " + servers + " does not let these credentials "
                    + operation.name() + " topic " + topic.name() + ", which " + role.command()
                    + " needs: use the credentials meant for " + role.command()
                    + " (tokenpulse platform --secure prints them) or grant the ACL (docs/security.md)");
        }
    }

    /** One line for a failed admin call; refused credentials and missing ACLs say what to change. */
    private static IllegalStateException failure(String what, Throwable cause) {
        if (cause instanceof SaslAuthenticationException) {
            return new IllegalStateException(
                    what + ": the credentials were refused (" + cause.getMessage()
                            + "); check the user and password in sasl.jaas.config (--kafka-property-file or --kafka-property)",
                    cause);
        }
        if (cause instanceof AuthorizationException) {
            return new IllegalStateException(
                    what + ": not authorized (" + cause.getMessage()
                            + "); use the credentials meant for this command or grant the ACL (docs/security.md)",
                    cause);
        }
        if (cause instanceof org.apache.kafka.common.errors.TimeoutException) {
            // A client without SASL settings gets no answer from a SASL listener, only this timeout.
            return new IllegalStateException(
                    what + ": no answer (" + cause.getMessage()
                            + "); check --bootstrap-servers and, for a secured cluster, its security settings"
                            + " (--kafka-property-file or --kafka-property)",
                    cause);
        }
        return new IllegalStateException(what + ": " + cause.getMessage(), cause);
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

    private static Map<String, String> withLayout(Map<String, String> config, TopicLayout layout) {
        Map<String, String> all = new HashMap<>(layout.topicConfig());
        all.putAll(config);
        return all;
    }

    private static ConfigResource resource(TopicSpec<?> topic) {
        return new ConfigResource(ConfigResource.Type.TOPIC, topic.name());
    }
}
