package io.tokenpulse.schemas;

import java.util.Map;

/**
 * How the pipeline's topics are laid out on a cluster: partitions, replication factor and
 * {@code min.insync.replicas}, chosen once from the cluster's size by {@link #fit} and used for the
 * pipeline topics ({@link TopicAdmin}) and the aggregator's internal topics alike.
 *
 * <p>Sizing rule (docs/cluster.md): a partition is the unit of work of one Kafka Streams thread, and
 * one thread took ~59 000 chunk events/s in a catch-up (2026-11-27, 16 cores), so plan one partition
 * per ~50 000 events/s at peak (an H100 serving an 8B model streams ~12 500 events/s: four GPUs per
 * partition), and at least as many partitions as aggregator instances × threads you want busy.
 *
 * @param partitions        partitions of each pipeline topic (1 or more)
 * @param replicationFactor copies of each partition (1 or more)
 * @param minInsyncReplicas replicas that must have a write before {@code acks=all} succeeds; 2 when
 *                          there are 3 or more copies (one broker may be lost without losing a write
 *                          or stopping the producers), else 1
 */
public record TopicLayout(int partitions, short replicationFactor, int minInsyncReplicas) {

    /** Today's default: three partitions, enough for three busy aggregator threads. */
    public static final int DEFAULT_PARTITIONS = 3;
    /** Kafka's usual durability: three copies, two in sync; more copies cost disk and network only. */
    public static final short MAX_DEFAULT_REPLICATION = 3;
    /** The events/s one partition (one stream thread) is sized for; measured ~59 000 (docs/cluster.md). */
    public static final int EVENTS_PER_SECOND_PER_PARTITION = 50_000;

    public TopicLayout {
        if (partitions < 1) {
            throw new IllegalArgumentException("--partitions must be at least 1, got " + partitions);
        }
        if (replicationFactor < 1) {
            throw new IllegalArgumentException("--replication-factor must be at least 1, got " + replicationFactor);
        }
        if (minInsyncReplicas < 1 || minInsyncReplicas > replicationFactor) {
            throw new IllegalArgumentException("min.insync.replicas must be between 1 and the replication factor "
                    + replicationFactor + ", got " + minInsyncReplicas);
        }
    }

    /** Three partitions, one copy: the single embedded broker. */
    public static TopicLayout single() {
        return new TopicLayout(DEFAULT_PARTITIONS, (short) 1, 1);
    }

    /**
     * The layout for a cluster of {@code brokers}: the replication factor asked for, else
     * min(3, brokers); the partitions asked for, else {@link #DEFAULT_PARTITIONS}.
     *
     * @param askedReplication null for "fit the cluster"
     * @param askedPartitions  null for the default
     * @throws IllegalArgumentException with one line when more copies are asked for than the cluster
     *     has brokers, or a value is below 1
     */
    public static TopicLayout fit(int brokers, Integer askedReplication, Integer askedPartitions) {
        if (brokers < 1) {
            throw new IllegalArgumentException("the cluster reports no brokers");
        }
        int partitions = askedPartitions == null ? DEFAULT_PARTITIONS : askedPartitions;
        int replication = askedReplication == null ? Math.min(MAX_DEFAULT_REPLICATION, brokers) : askedReplication;
        if (replication < 1 || replication > Short.MAX_VALUE) {
            throw new IllegalArgumentException("--replication-factor must be at least 1, got " + replication);
        }
        if (replication > brokers) {
            throw new IllegalArgumentException("--replication-factor " + replication + " needs at least " + replication
                    + " brokers, but the cluster has " + brokers + ": pass --replication-factor " + brokers
                    + " or fewer, or omit it");
        }
        return new TopicLayout(partitions, (short) replication, replication >= 3 ? 2 : 1);
    }

    /** The topic config this layout adds to a topic's own ({@code min.insync.replicas} when above 1). */
    public Map<String, String> topicConfig() {
        return minInsyncReplicas > 1 ? Map.of("min.insync.replicas", String.valueOf(minInsyncReplicas)) : Map.of();
    }

    /** One line for the user: what the topics get and why. */
    public String describe(int brokers) {
        return "TokenPulse topics (where created now): " + partitions + " partition" + (partitions == 1 ? "" : "s")
                + ", replication factor "
                + replicationFactor + (minInsyncReplicas > 1 ? ", min.insync.replicas " + minInsyncReplicas : "")
                + " (cluster of " + brokers + " broker" + (brokers == 1 ? "" : "s") + ")";
    }
}
