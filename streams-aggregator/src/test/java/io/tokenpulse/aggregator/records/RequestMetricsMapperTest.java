package io.tokenpulse.aggregator.records;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.aggregator.metrics.RequestTiming;
import io.tokenpulse.aggregator.metrics.RequestValues;
import io.tokenpulse.schemas.avro.RequestMetrics;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestMetricsMapperTest {
    private static final long ANCHOR_NS = 1_700_000_000_000_000_000L;
    private static final long MS = 1_000_000L;

    /** scheduled 900 ms, sent 1000 ms, events at +100, +150, +250 ms, n = 3, prompt 10. */
    private static final RequestMetrics REQUEST_0 =
            request(true, 3, 100L, 250L, 75.0 * MS, 250.0 / 3 * MS, 100, List.of(50L, 100L), 1000, 1250);
    /** HTTP 500 after 50 ms, no event. */
    private static final RequestMetrics FAILURE = request(false, 0, null, null, null, null, 0, List.of(), 3000, 3050);

    @Test
    void valuesRebuildEventsFromTtftAndCumulativeItl() {
        RequestValues values = RequestMetricsMapper.values(REQUEST_0);
        long sent = ANCHOR_NS + 1000 * MS;
        assertThat(values.eventNs()).containsExactly(sent + 100 * MS, sent + 150 * MS, sent + 250 * MS);
        assertThat(values.sentNs() - values.queueDelayNs()).isEqualTo(sent - 100 * MS);
        assertThat(values.lastNs()).isEqualTo(sent + 250 * MS);
        assertThat(RequestMetricsMapper.values(FAILURE).eventNs()).isEmpty();
    }

    @Test
    void aRecordWithoutEventsReadsAsVllmReportsIt() {
        RequestValues values = RequestMetricsMapper.values(FAILURE);
        assertThat(values.firstArrived()).isFalse();
        assertThat(values.ttftNs()).isZero();
        assertThat(values.e2elNs()).isZero();
        assertThat(values.finishedNs()).isEqualTo(ANCHOR_NS + 3050 * MS);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "three events, n = 3           | true  | 3 | 100;150;250 | 250",
                "one event, n = 1: no TPOT     | true  | 1 | 200         | 200",
                "no event: TTFT and E2EL left out | false | 0 |          | 0",
                "trailing usage event ends E2EL | true | 2 | 100;150     | 190",
            })
    void valuesSurviveTheRecordUnchanged(String why, boolean success, int n, String eventsMs, long lastMs) {
        long sent = 1000 * MS;
        long[] events = eventsMs == null
                ? new long[0]
                : Arrays.stream(eventsMs.split(";"))
                        .mapToLong(ms -> sent + Long.parseLong(ms) * MS)
                        .toArray();
        RequestValues values = RequestValues.of(new RequestTiming(
                success, sent - 5 * MS, sent, events, sent + lastMs * MS, sent + (lastMs + 10) * MS, 7, n, sent));
        RequestMetrics record = RequestMetricsMapper.record(values)
                .setRunId("r")
                .setShardIndex(0)
                .setRequestIndex(0)
                .setRequestId("id")
                .setHttpStatus(200)
                .setError("")
                .setConnectNs(0)
                .build();

        assertThat(RequestMetricsMapper.values(record)).isEqualTo(values);
        assertThat(record.getTtftNs() == null).isEqualTo(events.length == 0);
    }

    private static RequestMetrics request(
            boolean success,
            int outputTokens,
            Long ttftMs,
            Long e2elMs,
            Double tpotNs,
            Double tokenLatencyNs,
            long queueDelayMs,
            List<Long> itlMs,
            long sentMs,
            long finishedMs) {
        return RequestMetrics.newBuilder()
                .setRunId("r1")
                .setShardIndex(0)
                .setRequestIndex(0)
                .setRequestId("id-0")
                .setSuccess(success)
                .setHttpStatus(success ? 200 : 500)
                .setError(success ? "" : "HTTP 500")
                .setPromptLen(10)
                .setOutputTokens(outputTokens)
                .setTtftNs(ttftMs == null ? null : ttftMs * MS)
                .setE2elNs(e2elMs == null ? null : e2elMs * MS)
                .setTpotNs(tpotNs)
                .setTokenLatencyNs(tokenLatencyNs)
                .setQueueDelayNs(queueDelayMs * MS)
                .setConnectNs(0)
                .setItlNs(itlMs.stream().map(ms -> ms * MS).toList())
                .setSentEpochNs(ANCHOR_NS + sentMs * MS)
                .setFinishedEpochNs(ANCHOR_NS + finishedMs * MS)
                .build();
    }
}
