package io.tokenpulse.platform.kafka;

import io.tokenpulse.platform.security.SaslUsers;
import java.nio.file.Path;
import java.util.Map;

/**
 * How to run the embedded single-node KRaft broker.
 *
 * @param dataDir where the broker keeps its storage (sub-directory {@code kraft-combined-logs}, which
 *     also holds the cluster id) and, for a child JVM, its log file; reused across restarts
 * @param kafkaPort client listener port, 0 picks a free one
 * @param controllerPort KRaft controller listener port (always on 127.0.0.1), 0 picks a free one
 * @param bindHost address of the client listener; 127.0.0.1 unless told otherwise
 * @param brokerProperties extra broker properties, applied last so they override our defaults
 * @param saslUsers null for a plaintext broker; else the users of a SASL/SCRAM broker with ACLs, whose
 *     credentials are written into the storage when it is first formatted
 */
public record KafkaSettings(
        Path dataDir,
        int kafkaPort,
        int controllerPort,
        String bindHost,
        Map<String, String> brokerProperties,
        SaslUsers saslUsers) {

    public static final String DEFAULT_BIND_HOST = "127.0.0.1";

    public KafkaSettings {
        if (dataDir == null) {
            throw new IllegalArgumentException("Kafka data dir is missing: pass --data-dir");
        }
        dataDir = dataDir.toAbsolutePath().normalize();
        checkPort(kafkaPort, "--kafka-port");
        checkPort(controllerPort, "--controller-port");
        bindHost = bindHost == null || bindHost.isBlank() ? DEFAULT_BIND_HOST : bindHost.strip();
        // The broker advertises bindHost to clients, and a wildcard is not an address they can dial.
        if (bindHost.equals("0.0.0.0") || bindHost.equals("::") || bindHost.equals("[::]")) {
            throw new IllegalArgumentException("Kafka bind host " + bindHost
                    + " is a wildcard that clients cannot connect to: pass a concrete address such as 127.0.0.1");
        }
        brokerProperties = brokerProperties == null ? Map.of() : Map.copyOf(brokerProperties);
    }

    /** A plaintext broker. */
    public KafkaSettings(
            Path dataDir, int kafkaPort, int controllerPort, String bindHost, Map<String, String> brokerProperties) {
        this(dataDir, kafkaPort, controllerPort, bindHost, brokerProperties, null);
    }

    /** Loopback, free ports, no extra properties. */
    public static KafkaSettings of(Path dataDir) {
        return new KafkaSettings(dataDir, 0, 0, DEFAULT_BIND_HOST, Map.of());
    }

    public KafkaSettings withKafkaPort(int port) {
        return new KafkaSettings(dataDir, port, controllerPort, bindHost, brokerProperties, saslUsers);
    }

    /** The same broker with SASL/SCRAM and ACLs for {@code users}. */
    public KafkaSettings withSaslUsers(SaslUsers users) {
        return new KafkaSettings(dataDir, kafkaPort, controllerPort, bindHost, brokerProperties, users);
    }

    private static void checkPort(int port, String flag) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("Port " + port + " is out of range: pass " + flag
                    + " between 1 and 65535, or omit it to pick a free one");
        }
    }
}
