package io.tokenpulse.aggregator.topology;

import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;

/**
 * An aggregator in a child JVM, for {@link AggregatorKillIT} to kill without a close. Arguments:
 * bootstrap servers, registry URL, topic prefix, state dir. Prints {@value #RUNNING} once running,
 * then runs until killed.
 */
final class AggregatorChildMain {
    static final String RUNNING = "aggregator-child-running";

    private AggregatorChildMain() {}

    public static void main(String[] args) throws Exception {
        Topics topics = Topics.create(args[2], new SchemaRegistryClient(SchemaRegistrySettings.of(args[1])), true);
        StreamsSettings settings = StreamsSettings.defaults(args[0]).withStateDir(Path.of(args[3]));
        Aggregator aggregator = Aggregator.start(topics, settings, new Properties());
        if (!aggregator.awaitRunning(Duration.ofSeconds(60))) {
            System.out.println("not running within 60 s: " + aggregator.state());
            System.exit(1);
        }
        System.out.println(RUNNING);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
