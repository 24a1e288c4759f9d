package io.tokenpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tokenpulse.aggregator.scoring.ServerScoring;
import io.tokenpulse.producer.scrape.PrometheusText;
import io.tokenpulse.producer.scrape.ScrapeRecords;
import io.tokenpulse.schemas.avro.ServerMetric;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One recorded {@code /metrics} text per engine (written from each engine's documented metric names),
 * parsed by the load generator into {@code server-metrics} records and scored by the aggregator's
 * {@link ServerScoring}, after a first scrape that had none of them (so every series counts from 0):
 * every engine's names map to the same common section. The figures are
 * the same in every file: 12 running, 4 waiting, 37.5 % KV cache, a quarter of prefix tokens hit,
 * 40 first tokens (10 by 100 ms, 30 by 250 ms, all by 500 ms, 8 s in all) and 100 token gaps of
 * 10 to 25 ms (2 s in all); vLLM's file also has 60 of 100 draft tokens accepted over 40 drafts.
 */
class ServerMetricsMappingTest {

    private static final URI SOURCE = URI.create("http://127.0.0.1:8000/metrics");

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                // TTFT: mean 8 s / 40; median at rank 20 in (0.1, 0.25]: 0.1 + 0.15 * 10/20; P99 at rank 39.6 in (0.25,
                // 0.5]
                // ITL: mean 2 s / 100; median at rank 50 in (0.01, 0.025]: 0.01 + 0.015 / 2; P99: 0.01 + 0.015 * 0.99
                "vllm.txt         | running=12,12; waiting=4,4; kv=0.375; hit=0.25; preemptions=3; ttft=200,175,490; itl=20,17.5,24.85; spec=0.6,2.5",
                "sglang.txt       | running=12,12; waiting=4,4; kv=0.375; hit=0.25; ttft=200,175,490",
                "tgi.txt          | running=12,12; waiting=4,4; itl=20,17.5,24.85",
                "tensorrt-llm.txt | running=12,12; waiting=4,4; kv=0.375; ttft=200,175,490",
                "llama.cpp.txt    | running=12,12; waiting=4,4; kv=0.375",
            })
    void everyEngineMapsToTheCommonSection(String file, String expected) throws IOException {
        List<ServerMetric> records = new ArrayList<>();
        ScrapeRecords scrapes = new ScrapeRecords("run", records::add);
        scrapes.onScrape(SOURCE, 1, PrometheusText.parse("process_start_time_seconds 1\n"));
        scrapes.onScrape(SOURCE, 2, PrometheusText.parse(resource(file)));

        Map<String, Double> values = ServerScoring.values(ServerScoring.section(records, List.of(), 1));

        Map<String, Double> wanted = expand(expected);
        assertThat(values.keySet()).containsExactlyInAnyOrderElementsOf(wanted.keySet());
        wanted.forEach((key, value) -> assertThat(values.get(key)).as(key).isCloseTo(value, within(1e-9)));
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
                "itl", List.of("server_mean_itl_ms", "server_median_itl_ms", "server_p99_itl_ms"),
                "spec", List.of("server_spec_decode_acceptance_rate", "server_spec_decode_acceptance_length"));
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
        try (InputStream in = ServerMetricsMappingTest.class.getResourceAsStream("/server-metrics/" + file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
