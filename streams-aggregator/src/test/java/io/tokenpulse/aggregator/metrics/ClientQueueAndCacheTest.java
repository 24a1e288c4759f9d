package io.tokenpulse.aggregator.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** vLLM's client queue time and E2EL including it, and the prefix-cache hit rate (docs/metrics.md). */
class ClientQueueAndCacheTest {

    private static final long MS = 1_000_000L;

    // scheduled at 0, slot at permitMs, sent at sentMs, one event at sentMs + 10, 2 output tokens
    private static RequestValues request(long permitMs, long sentMs, int prompt, OptionalInt cached) {
        long sent = sentMs * MS;
        return RequestValues.of(new RequestTiming(
                        true,
                        0,
                        sent,
                        new long[] {sent + 10 * MS, sent + 30 * MS},
                        sent + 30 * MS,
                        sent + 30 * MS,
                        prompt,
                        2,
                        permitMs * MS))
                .withCachedTokens(cached);
    }

    @Test
    void clientQueueTimeIsPermitMinusScheduledNotTheSendLag() {
        RequestValues v = request(40, 45, 10, OptionalInt.empty());
        assertThat(v.clientQueueNs()).hasValue(40 * MS); // the 5 ms after the permit is client send lag
        assertThat(v.queueDelayNs()).isEqualTo(45 * MS); // TokenPulse's queue delay holds both
        assertThat(v.e2elNs()).isEqualTo(30 * MS);
        assertThat(v.e2elIncludingClientQueueNs()).hasValue(70 * MS);
    }

    @Test
    void withoutALimitThePermitIsTheSend() {
        RequestValues v =
                RequestValues.of(new RequestTiming(true, 0, 7 * MS, new long[0], 7 * MS, 7 * MS, 1, 0, 7 * MS));
        assertThat(v.clientQueueNs()).hasValue(7 * MS);
    }

    @Test
    void aPermitOutsideScheduledAndSentIsRejected() {
        assertThatThrownBy(() -> new RequestTiming(true, 10, 20, new long[0], 20, 20, 1, 0, 25))
                .hasMessageContaining("permitNs 25 is outside");
    }

    @Test
    void theAccumulatorSummarizesBothMetricsOverSuccessfulRequests() {
        MetricsAccumulator acc = new MetricsAccumulator(0, GoodputSlo.NONE);
        acc.add(request(0, 0, 10, OptionalInt.empty()));
        acc.add(request(100, 100, 10, OptionalInt.empty()));
        acc.add(request(200, 201, 10, OptionalInt.empty()));
        MetricStats queue = acc.stats(Metric.CLIENT_QUEUE_TIME, List.of(50.0));
        assertThat(queue.meanMs()).isEqualTo(100.0, within(1e-9));
        assertThat(queue.latency().count()).isEqualTo(3);
        MetricStats e2el = acc.stats(Metric.E2EL_INCLUDING_CLIENT_QUEUE, List.of(50.0));
        assertThat(e2el.meanMs()).isEqualTo(130.0, within(1e-9)); // 30, 130, 230
        assertThat(e2el.medianMs()).isEqualTo(130.0, within(1e-9));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "no request reported           | ''        | ''      | -1",
                "one request, 4 of 10 cached   | 10        | 4       | 0.4",
                "two requests pool the tokens  | 10;30     | 0;20    | 0.5",
                "unreported requests left out  | 10;30;100 | 5;15;-  | 0.5",
            })
    void hitRateIsCachedOverPromptTokensOfTheRequestsThatReported(
            String why, String prompts, String cached, double expected) {
        MetricsAccumulator acc = new MetricsAccumulator(0, GoodputSlo.NONE);
        String[] p = prompts.isEmpty() ? new String[0] : prompts.split(";");
        String[] c = cached.isEmpty() ? new String[0] : cached.split(";");
        for (int i = 0; i < p.length; i++) {
            acc.add(request(
                    0,
                    0,
                    Integer.parseInt(p[i]),
                    c[i].equals("-") ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(c[i]))));
        }
        if (expected < 0) {
            assertThat(acc.prefixCacheHitRate()).isEmpty();
        } else {
            assertThat(acc.prefixCacheHitRate().getAsDouble()).isEqualTo(expected, within(1e-12));
        }
    }

    @Test
    void bytesKeepTheNewDistributionsAndCounters() {
        MetricsAccumulator acc = new MetricsAccumulator(0, GoodputSlo.NONE);
        acc.add(request(50, 50, 10, OptionalInt.of(3)));
        MetricsAccumulator read = MetricsAccumulator.fromBytes(acc.toBytes());
        assertThat(read.stats(Metric.CLIENT_QUEUE_TIME, List.of(99.0)).meanMs()).isEqualTo(50.0, within(1e-9));
        assertThat(read.totalCachedTokens()).isEqualTo(3);
        assertThat(read.prefixCacheHitRate().getAsDouble()).isEqualTo(0.3, within(1e-12));
    }

    @ParameterizedTest(name = "limit {0}, rate {1}: {2}")
    @CsvSource({
        "false, 10,       ttft",
        "true,  Infinity, ttft;client_queue_time",
        "true,  10,       ttft;client_queue_time;e2el_including_client_queue",
    })
    void vllmReportsTheClientQueueOnlyUnderALimit(boolean limited, double rate, String kept) {
        PercentileMetrics selection = PercentileMetrics.parse("e2el_including_client_queue,client_queue_time,ttft");
        assertThat(String.join(";", selection.forRun(limited, rate).keys())).isEqualTo(kept);
    }
}
