package io.tokenpulse.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.platform.Platform;
import io.tokenpulse.runner.Pipeline;
import io.tokenpulse.schemas.PipelineRole;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Properties;
import javax.management.ObjectName;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.metrics.JmxReporter;
import org.apache.kafka.common.serialization.ByteArraySerializer;
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

    @Test
    void kafkaClientsRegisterNoMBeansUnlessAsked() throws Exception {
        try (Pipeline quiet =
                        Pipeline.connect(options("--auto-register-schemas").settings(), PipelineRole.BENCH);
                Pipeline withJmx = Pipeline.connect(
                        options("--kafka-property", "metric.reporters=" + JmxReporter.class.getName())
                                .settings(),
                        PipelineRole.BENCH)) {
            assertThat(producerMetricsMBeans(quiet, "quiet-producer")).isZero();
            assertThat(producerMetricsMBeans(withJmx, "jmx-producer")).isEqualTo(1);
        }
    }

    /** How many {@code producer-metrics} MBeans a producer made with the pipeline's properties registered. */
    private static int producerMetricsMBeans(Pipeline pipeline, String clientId) throws Exception {
        Properties props = pipeline.clientProperties();
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            return ManagementFactory.getPlatformMBeanServer()
                    .queryNames(new ObjectName("kafka.producer:type=producer-metrics,client-id=" + clientId), null)
                    .size();
        }
    }
}
