package io.tokenpulse.producer.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PublishCountsTest {

    /** Issue 31, item 7: a total with no reason ("2080 records were not delivered: {BUFFER_FULL=0, ...}"). */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "all delivered                    | 0 | 0 | 0    | 0  | {}",
                "the incident: spool not drained  | 0 | 0 | 2080 | 2048 | {SPOOL_UNDRAINED=2048, UNACKNOWLEDGED=32}",
                "failures and pending together   | 5 | 2 | 10   | 4  | {UNACKNOWLEDGED=6, TIMEOUT=5, SPOOL_UNDRAINED=4, SPOOL_FULL=2}",
                "only failures                    | 3 | 0 | 0    | 0  | {TIMEOUT=3}",
            })
    void everyUndeliveredRecordHasAReasonAndTheReasonsAddUp(
            String why, long timeouts, long spoolFull, long pending, long spooled, String reasons) {
        PublishCounts counts = new PublishCounts(
                10_000,
                10_000 - timeouts - spoolFull - pending,
                Map.of(DeliveryFailure.TIMEOUT, timeouts, DeliveryFailure.SPOOL_FULL, spoolFull),
                pending,
                spooled);

        assertThat(counts.notDeliveredByReason()).hasToString(reasons);
        assertThat(counts.notDeliveredByReason().values().stream()
                        .mapToLong(Long::longValue)
                        .sum())
                .isEqualTo(counts.notDelivered());
    }
}
