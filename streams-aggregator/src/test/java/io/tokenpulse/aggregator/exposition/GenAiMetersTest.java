package io.tokenpulse.aggregator.exposition;

import static io.tokenpulse.aggregator.exposition.AggregatorMetersTest.MS;
import static io.tokenpulse.aggregator.exposition.AggregatorMetersTest.RUN;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunSummary;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The request meters under OpenTelemetry's gen_ai names, what {@code --otlp-endpoint} pushes. */
class GenAiMetersTest {
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final MockClock clock = new MockClock();
    final GenAiMeters meters = new GenAiMeters(registry, Duration.ofMinutes(5), clock);

    @Test
    void eachRequestIsRecordedUnderTheConventionsNamesAndAttributes() {
        meters.onRunEvent(AggregatorMetersTest.started(RUN, 1.0));
        meters.onRequestMetrics(AggregatorMetersTest.success(RUN, 0, 100 * MS, 160 * MS, List.of(20 * MS, 40 * MS), 3));
        meters.onRequestMetrics(AggregatorMetersTest.failure(RUN, 1, 503));

        Timer duration = registry.get(GenAiMeters.DURATION)
                .tag("gen_ai.operation.name", "text_completion")
                .tag("gen_ai.request.model", "m")
                .tag(GenAiMeters.RUN_ID, RUN)
                .tags("error.type", "http_503")
                .timer();
        assertThat(duration.count()).isEqualTo(1);
        assertThat(registry.get(GenAiMeters.DURATION).timers()).hasSize(2);
        Timer firstChunk = registry.get(GenAiMeters.TIME_TO_FIRST_CHUNK).timer();
        assertThat(firstChunk.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(100);
        Timer perChunk = registry.get(GenAiMeters.TIME_PER_OUTPUT_CHUNK).timer();
        assertThat(perChunk.count()).isEqualTo(2);
        assertThat(perChunk.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(60);
        DistributionSummary output = registry.get(GenAiMeters.TOKEN_USAGE)
                .tag("gen_ai.token.type", "output")
                .summary();
        assertThat(output.totalAmount()).isEqualTo(3);
        assertThat(registry.get(GenAiMeters.TOKEN_USAGE)
                        .tag("gen_ai.token.type", "input")
                        .summary()
                        .totalAmount())
                .isEqualTo(100);
    }

    @Test
    void probesAreLeftOutAndARunsSeriesGoAfterTheRetention() {
        RequestMetrics probe = AggregatorMetersTest.success(RUN, 0, MS, 2 * MS, List.of(), 1);
        probe.setProbe(true);
        meters.onRequestMetrics(probe);
        assertThat(registry.getMeters()).isEmpty();

        meters.onRequestMetrics(AggregatorMetersTest.success(RUN, 1, MS, 2 * MS, List.of(), 1));
        meters.onRunSummary(AggregatorMetersTest.summaryTemplate());
        assertThat(registry.getMeters()).isNotEmpty();
        clock.add(Duration.ofMinutes(5));
        meters.onRunSummary(RunSummary.newBuilder(AggregatorMetersTest.summaryTemplate())
                .setRunId("other")
                .build());
        assertThat(registry.getMeters()).isEmpty();
    }

    @Test
    void theOperationNameComesFromTheBackend() {
        assertThat(GenAiMeters.operation("openai-chat")).isEqualTo("chat");
        assertThat(GenAiMeters.operation("openai-responses")).isEqualTo("chat");
        assertThat(GenAiMeters.operation("anthropic-messages")).isEqualTo("chat");
        assertThat(GenAiMeters.operation("vllm")).isEqualTo("text_completion");
        assertThat(GenAiMeters.operation("openai-embeddings")).isEqualTo("embeddings");
    }
}
