package io.tokenpulse.platform.kafka;

import io.tokenpulse.platform.security.SaslUsers;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;

/** The broker properties of a one-node combined broker+controller on loopback listeners, plaintext or SASL. */
final class BrokerConfig {

    static final int NODE_ID = 1;
    static final String CONTROLLER_LISTENER = "CONTROLLER";
    static final String CONTROLLER_HOST = "127.0.0.1";

    private BrokerConfig() {}

    static Properties build(KafkaSettings settings, Path storageDir, int kafkaPort, int controllerPort) {
        Properties p = new Properties();
        p.setProperty("node.id", String.valueOf(NODE_ID));
        p.setProperty("process.roles", "broker,controller");
        SaslUsers users = settings.saslUsers();
        String client = users == null ? "PLAINTEXT" : "SASL_PLAINTEXT";
        // The controller only talks to this same process, so it never leaves loopback.
        p.setProperty(
                "listeners",
                client + "://" + settings.bindHost() + ":" + kafkaPort + "," + CONTROLLER_LISTENER + "://"
                        + CONTROLLER_HOST + ":" + controllerPort);
        p.setProperty("advertised.listeners", client + "://" + settings.bindHost() + ":" + kafkaPort);
        p.setProperty(
                "listener.security.protocol.map", client + ":" + client + "," + CONTROLLER_LISTENER + ":" + client);
        p.setProperty("inter.broker.listener.name", client);
        if (users != null) {
            secure(p, users);
        }
        p.setProperty("controller.listener.names", CONTROLLER_LISTENER);
        // Static quorum: the voter's address is read from this config on every start, so a restart may
        // use a new controller port. A dynamic quorum would pin the first port in the metadata log.
        p.setProperty("controller.quorum.voters", NODE_ID + "@" + CONTROLLER_HOST + ":" + controllerPort);
        p.setProperty("log.dirs", storageDir.toString());

        // One broker cannot hold three replicas of the internal topics.
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        // With one broker, 50 coordinator partitions per internal topic only slow their first creation.
        p.setProperty("offsets.topic.num.partitions", "1");
        p.setProperty("transaction.state.log.num.partitions", "1");
        // No other members will join late: rebalance at once instead of waiting 3 s.
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        // After a crash the controller replays the old incarnation's registration and refuses the new one
        // until that session expires: 9 s by default, 3 s here. Heartbeats over loopback every 0.5 s
        // keep a live broker well inside it.
        p.setProperty("broker.heartbeat.interval.ms", "500");
        p.setProperty("broker.session.timeout.ms", "3000");
        // The controller appends a no-op record to the metadata log every 0.5 s by default, so that
        // brokers of a cluster can tell stale metadata; with one node in one process that is only idle
        // CPU (a log append and its read by the metadata loader).
        p.setProperty("metadata.max.idle.interval.ms", "10000");
        // Each request handler and network thread wakes every 0.3 s to look at its queue, with or without
        // requests: 8 handlers and 3 network threads (the defaults, sized for a server's many clients and
        // disks) were a fifth of an idle run's CPU (issue 30). One node's few local clients (the load
        // generator, the aggregator, a scrape) need fewer; long polls wait in purgatory, not in a handler.
        p.setProperty("num.io.threads", "2");
        p.setProperty("num.network.threads", "1");
        // The 128 MiB default is allocated from the heap when the cleaner starts; 8 MiB still dedupes
        // about 300k keys per pass (24 bytes a key), plenty for the aggregator's compacted changelogs.
        p.setProperty("log.cleaner.dedupe.buffer.size", String.valueOf(8 * 1024 * 1024));
        // No MBean per metric: registering the broker's thousands of them is start-up CPU, and nothing
        // reads this in-process broker over JMX (its own metrics API still counts them).
        p.setProperty("metric.reporters", "");
        p.setProperty("metrics.jmx.exclude", ".*");

        settings.brokerProperties().forEach((key, value) -> {
            if (!key.equals(EmbeddedKafka.CLUSTER_ID_PROPERTY)) {
                p.setProperty(key, value);
            }
        });
        return p;
    }

    /**
     * Clients authenticate with SCRAM-SHA-512 (credentials in the metadata log, written at format time);
     * the StandardAuthorizer allows only what ACLs grant, and the admin is the one super user. KRaft
     * controllers cannot use SCRAM (their credentials live in the very log they serve), so the
     * broker-to-controller link on loopback uses PLAIN with the admin's password from this config.
     */
    private static void secure(Properties p, SaslUsers users) {
        String admin = SaslUsers.ADMIN;
        p.setProperty("listener.name.sasl_plaintext.sasl.enabled.mechanisms", SaslUsers.MECHANISM);
        p.setProperty("sasl.mechanism.inter.broker.protocol", SaslUsers.MECHANISM);
        p.setProperty(
                "listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config",
                users.clientProperties(admin).get("sasl.jaas.config"));
        String controller = "listener.name." + CONTROLLER_LISTENER.toLowerCase(Locale.ROOT);
        p.setProperty(controller + ".sasl.enabled.mechanisms", "PLAIN");
        p.setProperty("sasl.mechanism.controller.protocol", "PLAIN");
        p.setProperty(
                controller + ".plain.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + admin
                        + "\" password=\"" + users.adminPassword() + "\" user_" + admin + "=\""
                        + users.adminPassword() + "\";");
        p.setProperty("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        p.setProperty("super.users", "User:" + admin);
        p.setProperty("allow.everyone.if.no.acl.found", "false");
    }
}
