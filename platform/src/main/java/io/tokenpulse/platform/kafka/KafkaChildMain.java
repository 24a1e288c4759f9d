package io.tokenpulse.platform.kafka;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Entry point of the broker's child JVM, started by {@link KafkaChildProcess}. Prints one
 * {@code READY <bootstrap>} line (or {@code FAILED <reason>}) on stdout, then runs until its stdin
 * closes, which is how the parent says stop, and how a parent that died says it too. SIGTERM stops it
 * cleanly through a shutdown hook.
 */
final class KafkaChildMain {

    static final String READY = "READY ";
    static final String FAILED = "FAILED ";

    private KafkaChildMain() {}

    public static void main(String[] args) throws IOException {
        EmbeddedKafka kafka;
        try {
            kafka = EmbeddedKafka.start(fromArgs(List.of(args)));
        } catch (RuntimeException e) {
            String reason = e.getMessage() == null ? e.toString() : e.getMessage();
            System.out.println(FAILED + reason.replace('\n', ' '));
            throw e;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(kafka::close, "kafka-child-shutdown"));
        System.out.println(READY + kafka.bootstrapServers());
        System.out.flush();
        while (System.in.read() != -1) {
            // The parent never writes; we only wait for end of stream.
        }
        kafka.close();
    }

    /** The arguments {@link #fromArgs} reads back; both sides live here so they cannot drift apart. */
    static List<String> toArgs(KafkaSettings settings) {
        List<String> args = new ArrayList<>(List.of(
                settings.dataDir().toString(),
                String.valueOf(settings.kafkaPort()),
                String.valueOf(settings.controllerPort()),
                settings.bindHost()));
        settings.brokerProperties().forEach((key, value) -> args.add(key + "=" + value));
        return args;
    }

    // Positional arguments rather than an option parser: the only caller is toArgs above, and this
    // module must not depend on the CLI's picocli.
    static KafkaSettings fromArgs(List<String> args) {
        if (args.size() < 4) {
            throw new IllegalArgumentException(
                    "Expected DATA_DIR KAFKA_PORT CONTROLLER_PORT BIND_HOST [KEY=VALUE...], got " + args);
        }
        Map<String, String> brokerProperties = new HashMap<>();
        for (String property : args.subList(4, args.size())) {
            int eq = property.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("Broker property '" + property + "' is not KEY=VALUE");
            }
            brokerProperties.put(property.substring(0, eq), property.substring(eq + 1));
        }
        return new KafkaSettings(
                Path.of(args.get(0)),
                Integer.parseInt(args.get(1)),
                Integer.parseInt(args.get(2)),
                args.get(3),
                brokerProperties);
    }
}
