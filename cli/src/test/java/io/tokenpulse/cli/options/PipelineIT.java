package io.tokenpulse.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.platform.Platform;
import io.tokenpulse.runner.Pipeline;
import io.tokenpulse.schemas.PipelineRole;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@link Pipeline#connect} against a cluster and a registry given by flags (the embedded platform's,
 * standing in for docker-compose's): a fresh registry holds no TokenPulse schema.
 */
class PipelineIT {
    @TempDir
    static Path dataDir;

    static Platform platform;

    @BeforeAll
    static void startPlatform() {
        platform = Platform.start(new Platform.Settings(dataDir, 0, 0));
    }

    @AfterAll
    static void stopPlatform() {
        platform.close();
    }

    private static KafkaOptions options(String... extra) {
        KafkaOptions options = new KafkaOptions();
        String[] args = new String[extra.length + 4];
        args[0] = "--bootstrap-servers";
        args[1] = platform.bootstrapServers();
        args[2] = "--schema-registry-url";
        args[3] = platform.registryUrl().toString();
        System.arraycopy(extra, 0, args, 4, extra.length);
        new CommandLine(options).parseArgs(args);
        return options;
    }

    @Test
    void aFreshRegistryNeedsAutoRegisterSchemasAndThenServesTheNextConnectWithout() {
        assertThatThrownBy(() -> Pipeline.connect(options().settings(), PipelineRole.BENCH))
                .hasMessageContaining("is not registered under subject tokenpulse.runs-value");

        try (Pipeline registering =
                Pipeline.connect(options("--auto-register-schemas").settings(), PipelineRole.BENCH)) {
            assertThat(registering.topics().resolveSchemaIds()).hasSize(8); // every Avro value schema
        }
        // registered once, found by every later producer or aggregator without the flag
        try (Pipeline later = Pipeline.connect(options().settings(), PipelineRole.BENCH)) {
            assertThat(later.embedded()).isFalse();
        }
    }
}
