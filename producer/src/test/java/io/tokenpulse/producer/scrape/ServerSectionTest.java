package io.tokenpulse.producer.scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One recorded {@code /metrics} text per engine (written from each engine's documented metric names),
 * scraped after an empty one: every engine's names map to the same common section. The figures are
 * the same in every file: 12 running, 4 waiting, 37.5 % KV cache, a quarter of prefix tokens hit,
 * 40 first tokens (10 by 100 ms, 30 by 250 ms, all by 500 ms, 8 s in all) and 100 token gaps of
 * 10 to 25 ms (2 s in all).
 */
class ServerSectionTest {

    private static final URI SOURCE = URI.create("http://127.0.0.1:8000/metrics");

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                // TTFT: mean 8 s / 40; median at rank 20 in (0.1, 0.25]: 0.1 + 0.15 * 10/20; P99 at rank 39.6 in (0.25,
                // 0.5]
                // ITL: mean 2 s / 100; median at rank 50 in (0.01, 0.025]: 0.01 + 0.015 / 2; P99: 0.01 + 0.015 * 0.99
                "vllm.txt         | running=12,12; waiting=4,4; kv=0.375; hit=0.25; preemptions=3; ttft=200,175,490; itl=20,17.5,24.85",
                "sglang.txt       | running=12,12; waiting=4,4; kv=0.375; hit=0.25; ttft=200,175,490",
                "tgi.txt          | running=12,12; waiting=4,4; itl=20,17.5,24.85",
                "tensorrt-llm.txt | running=12,12; waiting=4,4; kv=0.375; ttft=200,175,490",
                "llama.cpp.txt    | running=12,12; waiting=4,4; kv=0.375",
            })
    void everyEngineMapsToTheCommonSection(String file, String expected) throws IOException {
        ServerSection section = new ServerSection();
        section.onScrape(SOURCE, 1, PrometheusText.parse(""));
        section.onScrape(SOURCE, 2, PrometheusText.parse(resource(file)));

        Map<String, Double> values = section.values();

        Map<String, Double> wanted = expand(expected);
        assertThat(values.keySet()).containsExactlyInAnyOrderElementsOf(wanted.keySet());
        wanted.forEach((key, value) -> assertThat(values.get(key)).as(key).isCloseTo(value, within(1e-9)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "rank in the first bucket interpolates from 0 | 0.25 | 0.05", // rank 5 of 10 in (0, 0.1]
                "rank in +Inf gives the last finite bound     | 1.0  | 0.5", // rank 20: past 0.5
            })
    void quantilesFollowPrometheusHistogramQuantile(String why, double q, double expected) {
        var buckets = new TreeMap<Double, Double>(Map.of(0.1, 10.0, 0.5, 10.0, Double.POSITIVE_INFINITY, 20.0));
        assertThat(ServerSection.quantile(buckets, 20, q)).isCloseTo(expected, within(1e-12));
    }

    /** {@code running=12,12; kv=0.375; ttft=200,175,490} into the section's keys. */
    private static Map<String, Double> expand(String spec) {
        Map<String, List<String>> keys = Map.of(
                "running", List.of("server_mean_running", "server_max_running"),
                "waiting", List.of("server_mean_waiting", "server_max_waiting"),
                "kv", List.of("server_peak_kv_cache_usage"),
                "hit", List.of("server_prefix_cache_hit_rate"),
                "preemptions", List.of("server_preemptions"),
                "ttft", List.of("server_mean_ttft_ms", "server_median_ttft_ms", "server_p99_ttft_ms"),
                "itl", List.of("server_mean_itl_ms", "server_median_itl_ms", "server_p99_itl_ms"));
        Map<String, Double> values = new LinkedHashMap<>();
        for (String part : spec.split(";")) {
            String[] kv = part.strip().split("=");
            List<String> names = keys.get(kv[0]);
            double[] numbers = Arrays.stream(kv[1].split(","))
                    .mapToDouble(Double::parseDouble)
                    .toArray();
            for (int i = 0; i < names.size(); i++) {
                values.put(names.get(i), numbers[i]);
            }
        }
        return values;
    }

    private static String resource(String file) throws IOException {
        try (InputStream in = ServerSectionTest.class.getResourceAsStream("/server-metrics/" + file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
