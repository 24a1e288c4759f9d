package io.tokenpulse.cli;

import io.tokenpulse.aggregator.topology.StreamsSettings;
import io.tokenpulse.platform.Platform;
import io.tokenpulse.platform.security.CredentialFiles;
import io.tokenpulse.platform.security.PipelineAcls;
import io.tokenpulse.platform.security.SaslUsers;
import io.tokenpulse.runner.Pipeline;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.schemas.TopicAdmin;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tokenpulse platform}: the embedded Kafka broker and Schema Registry in the foreground,
 * for runs whose load generators and aggregator are separate processes.
 */
@Command(
        name = "platform",
        mixinStandardHelpOptions = true,
        description =
                "Start the embedded Kafka broker and Schema Registry (TokenPulse's schemas registered) on 127.0.0.1 until Ctrl-C.")
final class PlatformCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description = "Where the broker keeps its data (default: ~/.tokenpulse/platform).")
    Path dataDir;

    @Option(
            names = "--kafka-port",
            paramLabel = "P",
            defaultValue = "0",
            description = "Kafka port on 127.0.0.1 (default: a free port).")
    int kafkaPort;

    @Option(
            names = "--registry-port",
            paramLabel = "Q",
            defaultValue = "0",
            description = "Schema Registry port on 127.0.0.1 (default: a free port).")
    int registryPort;

    @Option(
            names = "--brokers",
            paramLabel = "N",
            defaultValue = "1",
            description =
                    "Kafka brokers: 1 runs in this process; more run as a KRaft cluster, each broker and controller its own process with its own data dir under DIR/node-<id>, topics with min(3, N) copies (default: ${DEFAULT-VALUE}).")
    int brokers;

    @Option(
            names = "--secure",
            description =
                    "SASL/SCRAM-SHA-512 and ACLs on the broker: creates users for bench and aggregate with random passwords, in owner-only files under DIR/security (a data dir is secured from its first start or never).")
    boolean secure;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        Platform.Settings settings;
        Platform platform;
        try {
            settings = new Platform.Settings(
                    dataDir == null ? Platform.Settings.defaultDataDir() : dataDir,
                    kafkaPort,
                    registryPort,
                    secure,
                    brokers);
            platform = Platform.start(settings);
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        } catch (IllegalStateException e) {
            throw UserError.failure(e.getMessage());
        }
        Topics topics;
        try {
            topics = registerSchemas(platform);
        } catch (RuntimeException e) {
            platform.close();
            throw UserError.failure("cannot register TokenPulse's schemas in the local registry: " + e.getMessage());
        }
        if (secure) {
            try {
                grantPipelineAccess(platform, topics);
            } catch (RuntimeException e) {
                platform.close();
                throw UserError.failure("cannot set up the secured broker's topics and ACLs: " + e.getMessage());
            }
        }
        CountDownLatch stopped = new CountDownLatch(1);
        // Ctrl-C and SIGTERM run shutdown hooks: stop cleanly so the next start needs no recovery.
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            platform.close();
                            stopped.countDown();
                        },
                        "platform-shutdown"));
        out.println("Kafka bootstrap servers: " + platform.bootstrapServers());
        out.println("Schema Registry URL:     " + platform.registryUrl());
        out.println("Data directory:          " + settings.dataDir());
        for (int i = 0; i < platform.nodes().size(); i++) {
            var node = platform.nodes().get(i);
            out.println("Broker " + (i + 1) + ": " + node.bootstrapServers() + " (pid " + node.pid() + ", log "
                    + node.logFile() + ")");
        }
        out.println("Use them with: --bootstrap-servers " + platform.bootstrapServers() + " --schema-registry-url "
                + platform.registryUrl() + "   (Ctrl-C stops both)");
        if (secure) {
            // The files, never their contents: the passwords stay out of terminals and logs.
            out.println("Secured (SASL/SCRAM-SHA-512, ACLs); credentials readable by you only, add:");
            out.println("  bench, replay, chart: --kafka-property-file "
                    + CredentialFiles.file(settings.dataDir(), SaslUsers.BENCH));
            out.println("  aggregate:            --kafka-property-file "
                    + CredentialFiles.file(settings.dataDir(), SaslUsers.AGGREGATE));
        }
        out.flush();
        stopped.await();
        return 0;
    }

    /**
     * Our platform carries our schemas, so the flags printed above work as they are for {@code aggregate}
     * and {@code bench} (which, against a given registry, only look schemas up unless told
     * {@code --auto-register-schemas}). Registering is idempotent: the same schema keeps its id on a
     * restart, and a newer version must pass the registry's compatibility check.
     */
    private static Topics registerSchemas(Platform platform) {
        SchemaRegistryClient registry = new SchemaRegistryClient(
                SchemaRegistrySettings.of(platform.registryUrl().toString()));
        Topics topics = Topics.create(registry, true);
        topics.resolveSchemaIds();
        return topics;
    }

    /**
     * On a secured broker the clients may not create topics, so the platform creates them (as a
     * client would, with {@link Pipeline#DEFAULT_PARTITIONS}) and grants the users their ACLs, for the
     * default topic prefix and aggregator application id (docs/security.md: others).
     */
    private static void grantPipelineAccess(Platform platform, Topics topics) {
        Duration timeout = Duration.ofSeconds(30);
        TopicAdmin.ensureExist(
                topics, platform.adminClientProperties(), Pipeline.DEFAULT_PARTITIONS, (short) 1, timeout);
        PipelineAcls.grant(platform.adminClientProperties(), topics, StreamsSettings.DEFAULT_APPLICATION_ID, timeout);
    }
}
