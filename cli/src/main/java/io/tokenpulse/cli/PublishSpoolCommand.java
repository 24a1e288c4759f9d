package io.tokenpulse.cli;

import io.tokenpulse.cli.options.KafkaOptions;
import io.tokenpulse.producer.publish.SpoolPublisher;
import io.tokenpulse.runner.Pipeline;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.schemas.PipelineRole;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code tokenpulse publish-spool DIR}: hands Kafka the records a bench left in its spool when Kafka
 * did not come back in time (bench prints the folder), then deletes the folder.
 */
@Command(
        name = "publish-spool",
        mixinStandardHelpOptions = true,
        description =
                "Publish the records a bench kept on disk because Kafka did not take them (bench printed the folder); pass the run's Kafka flags.")
final class PublishSpoolCommand implements Callable<Integer> {

    @Parameters(paramLabel = "DIR", description = "The spool folder bench printed.")
    Path dir;

    @Mixin
    KafkaOptions kafka;

    @Override
    public Integer call() {
        try (Pipeline pipeline = Pipeline.connect(kafka.settings(), PipelineRole.BENCH)) {
            long published = SpoolPublisher.publish(dir, pipeline.clientProperties(), Duration.ofSeconds(60));
            System.out.println("Published " + published + " records from " + dir + " to Kafka at "
                    + pipeline.bootstrapServers() + "; the folder is deleted.");
            return 0;
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        } catch (IllegalStateException | java.io.UncheckedIOException e) {
            throw UserError.failure(e.getMessage());
        }
    }
}
