package io.tokenpulse.aggregator.definitions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A result file's {@code --save-detailed} lists as the timings the definitions score. */
class DetailedTimingsTest {

    @Test
    void eachRequestIsSentAtZeroWithItsEventsRebuiltFromTtftAndItls() {
        TimedRun run = DetailedTimings.of(
                List.of(0.1, 0.0),
                List.of(List.of(0.01, 0.02), List.of()),
                List.of(10, 20),
                List.of(3, 0),
                Optional.of(List.of("", "HTTP 500")));

        TimedRequest ok = run.requests().get(0);
        assertThat(ok.sentNs()).isZero();
        assertThat(ok.chunkNs()).containsExactly(100_000_000L, 110_000_000L, 130_000_000L);
        assertThat(ok.endNs()).isEqualTo(130_000_000L);
        assertThat(ok.outputTokens()).isEqualTo(3);
        assertThat(ok.promptTokens()).isEqualTo(10);
        assertThat(ok.success()).isTrue();
        assertThat(run.requests().get(1).chunkNs()).isEmpty();
        assertThat(run.requests().get(1).success()).isFalse();
        assertThat(run.endNs()).isEqualTo(130_000_000L);
        // vLLM's TPOT on them: (E2EL - TTFT)/(N - 1) = 15 ms
        assertThat(new VllmDefinition().score(run).get(ScoreRow.TPOT_MEAN)).hasValue(15.0);
    }

    @Test
    void withoutErrorsARequestWithAnEventSucceeded() {
        TimedRun run = DetailedTimings.of(
                List.of(0.1, 0.0), List.of(List.of(), List.of()), List.of(1, 1), List.of(1, 0), Optional.empty());

        assertThat(run.requests()).extracting(TimedRequest::success).containsExactly(true, false);
    }

    @Test
    void listsOfDifferentLengthsAreRefused() {
        assertThatThrownBy(() -> DetailedTimings.of(List.of(0.1), List.of(), List.of(1), List.of(1), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the per-request lists differ in length: 1 ttfts, 0 itls, 1 input_lens, 1 output_lens");
    }
}
