package io.tokenpulse.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The lines that make a run reachable after it ends: its id before the load, and after the block
 * the {@code replay}, {@code chart} and {@code report} commands that take it, with the flags that
 * find the same Kafka cluster (the embedded platform's data directory, or the cluster and registry).
 */
final class RunPointers {

    private RunPointers() {}

    /** Printed before the load: the id every record of the run carries. */
    static String before(String runId) {
        return "Run id: " + runId;
    }

    /** Printed after the block: the commands that read this run back, one a line, pasteable. */
    static String after(String runId, KafkaOptions kafka) {
        String flags = " --run-id " + runId + where(kafka);
        String nl = System.lineSeparator();
        return "Run id: " + runId + "; to look at this run again:" + nl
                + "  ./tokenpulse replay" + flags + nl
                + "  ./tokenpulse chart" + flags + " --output run.png" + nl
                + "  ./tokenpulse report" + flags + " --output run.html" + nl;
    }

    /** The flags that reach the run's cluster, as a string starting with a space (empty for the default). */
    static String where(KafkaOptions kafka) {
        List<String> flags = new ArrayList<>();
        if (kafka == null) {
            return "";
        }
        if (kafka.embedded()) {
            if (kafka.dataDir != null) {
                flags.add("--data-dir " + kafka.dataDir);
            }
        } else {
            flags.add("--bootstrap-servers " + kafka.bootstrapServers);
            if (kafka.schemaRegistryUrl != null) {
                flags.add("--schema-registry-url " + kafka.schemaRegistryUrl);
            }
        }
        if (kafka.kafkaPropertyFile != null) {
            flags.add("--kafka-property-file " + kafka.kafkaPropertyFile);
        }
        if (!"tokenpulse.".equals(kafka.topicPrefix) && kafka.topicPrefix != null) {
            flags.add("--topic-prefix " + kafka.topicPrefix);
        }
        return flags.isEmpty() ? "" : " " + String.join(" ", flags);
    }
}
