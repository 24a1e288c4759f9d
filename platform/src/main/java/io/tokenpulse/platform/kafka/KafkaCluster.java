package io.tokenpulse.platform.kafka;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A real KRaft cluster of {@code n} nodes on this machine, each a broker and controller in its own
 * child JVM ({@link KafkaChildProcess}) with its own data directory {@code <dataDir>/node-<id>}: a
 * controller quorum of {@code n}, Kafka's internal topics (consumer offsets, transaction state) with
 * min(3, n) copies and min(2, n) in sync, and topics created without a replication factor get
 * min(3, n) copies too (the local Schema Registry's).
 *
 * <p>{@link #start} starts every node at once (a quorum forms only when a majority is up) and returns
 * once each answers. {@link #close} stops them all cleanly; a node whose parent dies sees its stdin
 * close and stops by itself. Not thread-safe.
 */
public final class KafkaCluster implements AutoCloseable {

    /** What a node's data directory under the cluster's is called. */
    public static Path nodeDir(Path dataDir, int nodeId) {
        return dataDir.resolve("node-" + nodeId);
    }

    /** Runs each task on a new daemon thread. */
    private static final java.util.concurrent.Executor OWN_THREAD = task -> {
        Thread thread = new Thread(task, "kafka-cluster-node");
        thread.setDaemon(true);
        thread.start();
    };

    private final List<KafkaChildProcess> nodes;

    private KafkaCluster(List<KafkaChildProcess> nodes) {
        this.nodes = nodes;
    }

    /**
     * Starts {@code brokers} nodes (2 or more) under {@code dataDir}, the client listeners on free
     * ports of {@code bindHost}.
     *
     * @throws IllegalArgumentException for fewer than 2 brokers (one is {@link EmbeddedKafka})
     * @throws IllegalStateException with one line when a node does not come up
     */
    public static KafkaCluster start(Path dataDir, int brokers, String bindHost) {
        if (brokers < 2) {
            throw new IllegalArgumentException("a cluster has 2 or more brokers, got " + brokers);
        }
        // The quorum's addresses go into every node's config: claim the controller ports first.
        List<Integer> controllerPorts = new ArrayList<>();
        for (int i = 0; i < brokers; i++) {
            int avoid = controllerPorts.isEmpty() ? -1 : controllerPorts.get(controllerPorts.size() - 1);
            int port;
            do {
                port = Ports.claim(BrokerConfig.CONTROLLER_HOST, 0, "--controller-port", avoid);
            } while (controllerPorts.contains(port));
            controllerPorts.add(port);
        }
        // Client ports too, so that a node started again by hand (node.command) comes back on its address.
        List<Integer> clientPorts = new ArrayList<>();
        for (int i = 0; i < brokers; i++) {
            int port;
            do {
                port = Ports.claim(bindHost, 0, "--kafka-port", -1);
            } while (controllerPorts.contains(port) || clientPorts.contains(port));
            clientPorts.add(port);
        }
        String clusterId = clusterId(dataDir);
        String voters = IntStream.range(0, brokers)
                .mapToObj(i -> (i + 1) + "@" + BrokerConfig.CONTROLLER_HOST + ":" + controllerPorts.get(i))
                .collect(Collectors.joining(","));
        List<CompletableFuture<KafkaChildProcess>> starting = new ArrayList<>();
        for (int i = 0; i < brokers; i++) {
            int nodeId = i + 1;
            KafkaSettings settings = new KafkaSettings(
                    nodeDir(dataDir, nodeId),
                    clientPorts.get(i),
                    controllerPorts.get(i),
                    bindHost,
                    nodeProperties(nodeId, brokers, voters, clusterId));
            // one thread each: a node is ready only once a majority is up (the common pool may have one thread)
            starting.add(CompletableFuture.supplyAsync(() -> KafkaChildProcess.start(settings), OWN_THREAD));
        }
        List<KafkaChildProcess> started = new ArrayList<>();
        RuntimeException failure = null;
        for (CompletableFuture<KafkaChildProcess> node : starting) {
            try {
                started.add(node.join());
            } catch (CompletionException e) {
                RuntimeException cause = e.getCause() instanceof RuntimeException r ? r : e;
                if (failure == null) {
                    failure = cause;
                }
            }
        }
        if (failure != null) {
            new KafkaCluster(started).close();
            throw failure instanceof IllegalArgumentException
                    ? failure
                    : new IllegalStateException(
                            "the " + brokers + "-broker Kafka cluster in " + dataDir + " did not start: "
                                    + failure.getMessage(),
                            failure);
        }
        return new KafkaCluster(List.copyOf(started));
    }

    /**
     * A node's broker properties beyond {@link BrokerConfig}'s one-node defaults: its id, the quorum,
     * and replication of Kafka's internal topics that survives one node lost.
     */
    static Map<String, String> nodeProperties(int nodeId, int brokers, String voters, String clusterId) {
        String copies = String.valueOf(Math.min(3, brokers));
        String inSync = String.valueOf(Math.min(2, brokers));
        Map<String, String> p = new HashMap<>();
        p.put("node.id", String.valueOf(nodeId));
        p.put(EmbeddedKafka.CLUSTER_ID_PROPERTY, clusterId);
        p.put("controller.quorum.voters", voters);
        p.put("offsets.topic.replication.factor", copies);
        p.put("transaction.state.log.replication.factor", copies);
        p.put("transaction.state.log.min.isr", inSync);
        p.put("share.coordinator.state.topic.replication.factor", copies);
        p.put("share.coordinator.state.topic.min.isr", inSync);
        p.put("default.replication.factor", copies);
        // Several brokers use the controller's no-op records to tell stale metadata: Kafka's default.
        p.put("metadata.max.idle.interval.ms", "500");
        // Over loopback between processes on a shared machine: Kafka's default session, not one node's 3 s,
        // so that a busy moment does not fence a live broker; a killed one is fenced after it.
        p.put("broker.session.timeout.ms", "9000");
        return p;
    }

    /** The cluster's id, created on the first start and kept in {@code dataDir/cluster.id}: every node formats with it. */
    private static String clusterId(Path dataDir) {
        Path file = dataDir.resolve("cluster.id");
        try {
            if (java.nio.file.Files.exists(file)) {
                return java.nio.file.Files.readString(file).strip();
            }
            java.nio.file.Files.createDirectories(dataDir);
            String id = org.apache.kafka.common.Uuid.randomUuid().toString();
            java.nio.file.Files.writeString(file, id);
            return id;
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(
                    "Cannot use Kafka data dir " + dataDir + " (" + e.getMessage() + "): pass a writable --data-dir",
                    e);
        }
    }

    /** {@code host:port,host:port,...} of every node, in node id order. */
    public String bootstrapServers() {
        return nodes.stream().map(KafkaChildProcess::bootstrapServers).collect(Collectors.joining(","));
    }

    /** The nodes in node id order (id = index + 1), for their addresses, process ids and logs. */
    public List<KafkaChildProcess> nodes() {
        return nodes;
    }

    /** Stops every node cleanly, all at once. */
    @Override
    public void close() {
        CompletableFuture.allOf(nodes.stream()
                        .map(node -> CompletableFuture.runAsync(node::close, OWN_THREAD))
                        .toArray(CompletableFuture[]::new))
                .join();
    }
}
