package io.tokenpulse.cli;

import io.tokenpulse.platform.Platform;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import java.io.PrintWriter;
import java.nio.file.Path;
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

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        Platform.Settings settings;
        Platform platform;
        try {
            settings = new Platform.Settings(
                    dataDir == null ? Platform.Settings.defaultDataDir() : dataDir, kafkaPort, registryPort);
            platform = Platform.start(settings);
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        } catch (IllegalStateException e) {
            throw UserError.failure(e.getMessage());
        }
        try {
            registerSchemas(platform);
        } catch (RuntimeException e) {
            platform.close();
            throw UserError.failure("cannot register TokenPulse's schemas in the local registry: " + e.getMessage());
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
        out.println("Use them with: --bootstrap-servers " + platform.bootstrapServers() + " --schema-registry-url "
                + platform.registryUrl() + "   (Ctrl-C stops both)");
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
    private static void registerSchemas(Platform platform) {
        SchemaRegistryClient registry = new SchemaRegistryClient(
                SchemaRegistrySettings.of(platform.registryUrl().toString()));
        Topics.create(registry, true).resolveSchemaIds();
    }
}
