package io.tokenpulse.aggregator.topology;

import static io.tokenpulse.aggregator.topology.TopologyFixture.ANCHOR_NS;
import static io.tokenpulse.aggregator.topology.TopologyFixture.MS;
import static io.tokenpulse.aggregator.topology.TopologyFixture.RUN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tokenpulse.schemas.avro.MetricSummary;
import io.tokenpulse.schemas.avro.RequestFinished;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunSummary;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests of a pooling backend (embeddings, rerank, score): one answer and no streamed event, so a
 * request is its finish alone, with 0 chunks, 0 output tokens and its E2EL.
 */
class PoolingRequestsTest {
    @TempDir
    Path stateDir;

    TopologyFixture f;

    @BeforeEach
    void start() {
        f = new TopologyFixture(stateDir);
    }

    @AfterEach
    void stop() {
        f.close();
    }

    /** A pooling answer {@code e2elMs} after it was sent at {@code sentMs}, as the load generator records it. */
    private static RequestFinished.Builder answered(long sentMs, long e2elMs, int promptTokens) {
        return RequestFinished.newBuilder()
                .setSuccess(true)
                .setHttpStatus(200)
                .setError("")
                .setPromptLen(promptTokens)
                .setOutputTokens(0)
                .setUsagePromptTokens(promptTokens)
                .setUsageCompletionTokens(null)
                .setChunkEvents(0)
                .setScheduledOffsetNs(sentMs * MS)
                .setPermitOffsetNs(sentMs * MS)
                .setSentOffsetNs(sentMs * MS)
                .setConnectNs(0)
                .setFirstNs(e2elMs * MS)
                .setLastNs(e2elMs * MS)
                .setFinishedOffsetNs((sentMs + e2elMs) * MS)
                .setGeneratedText("");
    }

    @Test
    void aRequestWithoutChunksIsEmittedAtOnceWithItsE2elAndNoTtft() {
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        f.finished(RUN, 0, 0, answered(100, 40, 64));

        RequestMetrics m = f.requestMetrics.readValue();
        assertThat(m.getSuccess()).isTrue();
        assertThat(m.getE2elNs()).isEqualTo(40 * MS);
        assertThat(m.getTtftNs()).isNull();
        assertThat(m.getTpotNs()).isNull();
        assertThat(m.getTokenLatencyNs()).isNull();
        assertThat(m.getItlNs()).isEmpty();
        assertThat(m.getPromptLen()).isEqualTo(64);
        assertThat(m.getOutputTokens()).isZero();
    }

    @Test
    void aPoolingRunsSummaryHasInputTokensAndE2elAndNoDivisionByZero() {
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        f.finished(RUN, 0, 0, answered(0, 40, 64));
        f.finished(RUN, 0, 1, answered(100, 60, 32));
        f.finished(RUN, 0, 2, answered(150, 50, 16));
        f.runFinished(RUN, 0, 1, 3, ANCHOR_NS + 200 * MS);

        List<RunSummary> out = f.summaries.readValuesToList();
        assertThat(out).hasSize(1);
        RunSummary s = out.get(0);
        double seconds = 0.2; // schedule start to the last answer at 150 + 50 ms
        assertThat(s.getDurationNs()).isEqualTo(200 * MS);
        assertThat(s.getCompleted()).isEqualTo(3);
        assertThat(s.getFailed()).isZero();
        assertThat(s.getTotalInputTokens()).isEqualTo(112);
        assertThat(s.getTotalOutputTokens()).isZero();
        assertThat(s.getRequestThroughput()).isCloseTo(3 / seconds, within(1e-9));
        assertThat(s.getOutputThroughput()).isZero();
        assertThat(s.getTotalTokenThroughput()).isCloseTo(112 / seconds, within(1e-9));
        assertThat(s.getMaxOutputTokensPerS()).isZero();
        assertThat(s.getMaxConcurrentRequests()).isEqualTo(3);
        MetricSummary e2el = s.getMetrics().stream()
                .filter(m -> m.getMetric().equals("e2el"))
                .findFirst()
                .orElseThrow();
        // e2el [40, 60, 50]: mean 50, median 50, P99 at position 1.98 -> 50 + 0.98 * 10
        assertThat(e2el.getCount()).isEqualTo(3);
        assertThat(e2el.getMeanMs()).isCloseTo(50, within(1e-9));
        assertThat(e2el.getMedianMs()).isCloseTo(50, within(1e-9));
        assertThat(e2el.getPercentiles().get(1).getValueMs()).isCloseTo(59.8, within(1e-9));
        MetricSummary itl = s.getMetrics().stream()
                .filter(m -> m.getMetric().equals("itl"))
                .findFirst()
                .orElseThrow();
        assertThat(itl.getCount()).isZero();
        assertThat(itl.getMeanMs()).isZero();
    }
}
