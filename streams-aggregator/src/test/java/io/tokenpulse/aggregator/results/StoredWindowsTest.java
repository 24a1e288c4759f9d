package io.tokenpulse.aggregator.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.schemas.avro.MetricSummary;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.WindowLatency;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StoredWindowsTest {

    private static WindowMetrics window(long startMs, long completed, long failed) {
        return WindowMetrics.newBuilder()
                .setRunId("r")
                .setWindowStartEpochMs(startMs)
                .setWindowEndEpochMs(startMs + 10_000)
                .setCompleted(completed)
                .setFailed(failed)
                .setInputTokens(0L)
                .setOutputTokens(0L)
                .setRequestThroughput(0.0)
                .setOutputThroughput(0.0)
                .setTotalTokenThroughput(0.0)
                .setLatencies(List.<WindowLatency>of())
                .build();
    }

    private static RunSummary summary(long completed, long failed) {
        return RunSummary.newBuilder()
                .setRunId("r")
                .setDate("d")
                .setBackend("vllm")
                .setModelId("m")
                .setTokenizerId("t")
                .setNumPrompts((int) (completed + failed))
                .setRequestRate(1.0)
                .setBurstiness(1.0)
                .setDurationNs(1)
                .setCompleted(completed)
                .setFailed(failed)
                .setTotalInputTokens(0)
                .setTotalOutputTokens(0)
                .setRequestThroughput(0)
                .setOutputThroughput(0)
                .setTotalTokenThroughput(0)
                .setMaxOutputTokensPerS(0)
                .setMaxConcurrentRequests(0)
                .setItlExact(true)
                .setMetrics(List.<MetricSummary>of())
                .setErrors(Map.of())
                .setShards(1)
                .setRecordsNotDelivered(0)
                .build();
    }

    /** Windows as "completed/failed;..." ; summary as "completed/failed" or empty for none yet. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "windows count every request of the summary | 3/0;2/1 | 5/1 | true",
                "a request not yet in any window            | 3/0;1/1 | 5/1 | false",
                "a failure not yet in any window            | 3/0;2/0 | 5/1 | false",
                "no summary yet: the run may go on          | 3/0;2/1 |     | false",
            })
    void completeWhenTheWindowsAccountForTheSummary(String why, String windows, String summary, boolean complete) {
        List<WindowMetrics> stored = new ArrayList<>();
        long startMs = 0;
        for (String w : windows.split(";")) {
            String[] counts = w.split("/");
            stored.add(window(startMs, Long.parseLong(counts[0]), Long.parseLong(counts[1])));
            startMs += 10_000;
        }
        Optional<RunSummary> run = Optional.ofNullable(summary)
                .map(s -> s.split("/"))
                .map(c -> summary(Long.parseLong(c[0]), Long.parseLong(c[1])));

        assertThat(new StoredWindows("r", stored, run).complete()).isEqualTo(complete);
    }
}
