package io.tokenpulse.aggregator.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The server section's math over scrapes turned into deltas, as the windows and the run section use it. */
class ServerAccumulatorTest {

    private static final String A = "http://a/metrics";
    private static final String B = "http://b/metrics";

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "rank in the first bucket interpolates from 0 | 0.25 | 0.05", // rank 5 of 10 in (0, 0.1]
                "rank in +Inf gives the last finite bound     | 1.0  | 0.5", // rank 20: past 0.5
            })
    void quantilesFollowPrometheusHistogramQuantile(String why, double q, double expected) {
        var buckets = new TreeMap<Double, Double>(Map.of(0.1, 10.0, 0.5, 10.0, Double.POSITIVE_INFINITY, 20.0));
        assertThat(ServerAccumulator.quantile(buckets, 20, q)).isCloseTo(expected, within(1e-12));
    }

    @Test
    void countersGrowFromTheFirstScrapeAndLateSeriesFromZero() {
        ServerAccumulator acc = run(
                gauge(A, 1, "vllm:num_preemptions_total", "0", 5), // baseline of A
                gauge(A, 2, "vllm:num_preemptions_total", "0", 7),
                gauge(A, 2, "vllm:num_preemptions_total", "1", 3), // appeared later: from 0
                gauge(B, 2, "vllm:num_preemptions_total", "0", 9), // B's first scrape: baseline
                gauge(B, 3, "vllm:num_preemptions_total", "0", 10));

        assertThat(acc.values()).containsEntry("server_preemptions", 2.0 + 3 + 1);
    }

    @Test
    void gaugesAddUpWithinAScrapeAndAverageOverScrapes() {
        ServerAccumulator acc = run(
                gauge(A, 1, "vllm:num_requests_running", "0", 2),
                gauge(A, 1, "vllm:num_requests_running", "1", 4), // one scrape: 6
                gauge(A, 2, "vllm:num_requests_running", "0", 1),
                gauge(A, 1, "vllm:kv_cache_usage_perc", "0", 0.25),
                gauge(A, 2, "vllm:kv_cache_usage_perc", "0", 0.5));

        assertThat(acc.values())
                .containsEntry("server_mean_running", 3.5)
                .containsEntry("server_max_running", 6.0)
                .containsEntry("server_peak_kv_cache_usage", 0.5);
    }

    @Test
    void histogramsScoreWhatGrewAndSurviveTheWindowStore() throws IOException {
        ServerAccumulator acc = run(
                ttft(1, 1.0, 10, 10, 10), // baseline: 10 requests before the run
                ttft(2, 3.0, 30, 20, 30)); // 20 more: 10 by 100 ms, 10 in (0.1, 1], 2 s in all

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        acc.write(new DataOutputStream(bytes));
        ServerAccumulator read =
                ServerAccumulator.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));

        assertThat(read.values())
                .isEqualTo(acc.values())
                .containsEntry("server_mean_ttft_ms", 100.0)
                .containsEntry("server_median_ttft_ms", 100.0)
                .hasEntrySatisfying("server_p99_ttft_ms", p99 -> assertThat(p99).isCloseTo(982, within(1e-9)));
    }

    private static ServerAccumulator run(ServerSample... samples) {
        ServerDeltas deltas = ServerDeltas.inMemory();
        ServerAccumulator acc = new ServerAccumulator();
        for (ServerSample sample : samples) {
            deltas.next(sample).ifPresent(acc::add);
        }
        return acc;
    }

    private static ServerSample gauge(String source, long scrape, String name, String engine, double value) {
        return new ServerSample(source, scrape, name, Map.of("engine", engine), value, null, List.of());
    }

    private static ServerSample ttft(long scrape, double sumS, double count, double by100Ms, double by1S) {
        return new ServerSample(
                A,
                scrape,
                "vllm:time_to_first_token_seconds",
                Map.of(),
                sumS,
                count,
                List.of(
                        new ServerSample.Bucket(0.1, by100Ms),
                        new ServerSample.Bucket(1.0, by1S),
                        new ServerSample.Bucket(Double.POSITIVE_INFINITY, count)));
    }
}
