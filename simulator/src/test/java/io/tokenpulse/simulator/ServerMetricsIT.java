package io.tokenpulse.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.simulator.engine.EngineProfile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ServerMetricsIT {

    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    @Timeout(60)
    void vllmNamesFollowTheEngineQueuesAndCountEveryToken() throws Exception {
        // two sequences at most: of four requests, two run and two wait
        EngineProfile engine = EngineProfile.DEFAULT.withMaxNumSeqs(2).speedUp(10);
        try (SimulatorServer server = SimulatorServer.start(SimulatorConfig.batching("m", engine))) {
            String idle = scrape(server);
            assertThat(value(idle, "vllm:num_requests_running{model_name=\"m\"}"))
                    .isEqualTo(0);
            assertThat(value(idle, "vllm:num_preemptions_total{model_name=\"m\"}"))
                    .isEqualTo(0);

            List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                responses.add(send(server, "one two three four", 30));
            }
            double maxRunning = 0;
            double maxWaiting = 0;
            double maxKv = 0;
            while (!responses.stream().allMatch(CompletableFuture::isDone)) {
                String text = scrape(server);
                maxRunning = Math.max(maxRunning, value(text, "vllm:num_requests_running{model_name=\"m\"}"));
                maxWaiting = Math.max(maxWaiting, value(text, "vllm:num_requests_waiting{model_name=\"m\"}"));
                maxKv = Math.max(maxKv, value(text, "vllm:kv_cache_usage_perc{model_name=\"m\"}"));
                Thread.sleep(2); // polls the engine while the four streams run
            }
            for (var response : responses) {
                assertThat(response.join().statusCode()).isEqualTo(200);
            }

            assertThat(maxRunning).isEqualTo(2);
            // two wait while two run; up to all four wait when they arrive between two engine steps
            assertThat(maxWaiting).isBetween(2.0, 4.0);
            // 2 running sequences of at most 4 + 30 tokens (3 blocks of 16) in a cache of 131072
            assertThat(maxKv).isGreaterThan(0).isLessThanOrEqualTo(2 * 3 * 16 / 131072.0);
            String done = scrapeWhenIdle(server, "vllm:num_requests_running{model_name=\"m\"}");
            assertThat(value(done, "vllm:num_requests_running{model_name=\"m\"}"))
                    .isEqualTo(0);
            assertThat(value(done, "vllm:kv_cache_usage_perc{model_name=\"m\"}"))
                    .isEqualTo(0);
            assertThat(value(done, "vllm:time_to_first_token_seconds_count{model_name=\"m\"}"))
                    .isEqualTo(4);
            assertThat(value(done, "vllm:e2e_request_latency_seconds_count{model_name=\"m\"}"))
                    .isEqualTo(4);
            assertThat(value(done, "vllm:inter_token_latency_seconds_count{model_name=\"m\"}"))
                    .isEqualTo(4 * 29);
            assertThat(value(done, "vllm:generation_tokens_total{model_name=\"m\"}"))
                    .isEqualTo(4 * 30);
            assertThat(value(done, "vllm:prompt_tokens_total{model_name=\"m\"}"))
                    .isEqualTo(4 * 4);
            assertThat(value(done, "vllm:prefix_cache_queries_total{model_name=\"m\"}"))
                    .isEqualTo(4 * 4);
            assertThat(value(done, "vllm:prefix_cache_hits_total{model_name=\"m\"}"))
                    .isEqualTo(0);
        }
    }

    @Test
    @Timeout(60)
    void aRepeatedPromptHitsThePrefixCacheAndASmallCachePreempts() throws Exception {
        // 8 blocks of 16 tokens; a request of 40 + 40 tokens holds up to 5
        EngineProfile engine = EngineProfile.DEFAULT
                .withMaxModelLen(128)
                .withKvCacheTokens(128)
                .speedUp(10);
        String prompt = String.join(" ", Collections.nCopies(40, "word"));
        try (SimulatorServer server = SimulatorServer.start(SimulatorConfig.batching("m", engine))) {
            assertThat(send(server, prompt, 2).join().statusCode()).isEqualTo(200);
            assertThat(send(server, prompt, 2).join().statusCode()).isEqualTo(200);
            String repeated = scrape(server);
            assertThat(value(repeated, "vllm:prefix_cache_queries_total{model_name=\"m\"}"))
                    .isEqualTo(2 * 40);
            // the second finds the first's two full blocks (its last token is always computed)
            assertThat(value(repeated, "vllm:prefix_cache_hits_total{model_name=\"m\"}"))
                    .isEqualTo(32);
            assertThat(value(repeated, "vllm:num_preemptions_total{model_name=\"m\"}"))
                    .isEqualTo(0);

            List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                responses.add(send(server, prompt, 40));
            }
            for (var response : responses) {
                assertThat(response.join().statusCode()).isEqualTo(200);
            }
            assertThat(value(scrape(server), "vllm:num_preemptions_total{model_name=\"m\"}"))
                    .isPositive();
        }
    }

    @Test
    @Timeout(60)
    void sglangStyleUsesSglangNames() throws Exception {
        SimulatorConfig config = SimulatorConfig.batching("m", EngineProfile.DEFAULT.speedUp(10))
                .withMetricsStyle(MetricsStyle.named("sglang"));
        String prompt = String.join(" ", Collections.nCopies(40, "word"));
        try (SimulatorServer server = SimulatorServer.start(config)) {
            assertThat(value(scrape(server), "sglang:cache_hit_rate{model_name=\"m\"}"))
                    .isEqualTo(0);
            assertThat(send(server, prompt, 3).join().statusCode()).isEqualTo(200);
            assertThat(send(server, prompt, 3).join().statusCode()).isEqualTo(200);

            String text = scrapeWhenIdle(server, "sglang:num_running_reqs{model_name=\"m\"}");
            assertThat(value(text, "sglang:num_running_reqs{model_name=\"m\"}")).isEqualTo(0);
            assertThat(value(text, "sglang:num_queue_reqs{model_name=\"m\"}")).isEqualTo(0);
            // the second request's 32 cached tokens of the two requests' 80
            assertThat(value(text, "sglang:cache_hit_rate{model_name=\"m\"}")).isEqualTo(32 / 80.0);
            assertThat(value(text, "sglang:time_to_first_token_seconds_count{model_name=\"m\"}"))
                    .isEqualTo(2);
            assertThat(value(text, "sglang:generation_tokens_total{model_name=\"m\"}"))
                    .isEqualTo(6);
            assertThat(text).doesNotContain("vllm:");
        }
    }

    private static CompletableFuture<HttpResponse<String>> send(SimulatorServer server, String prompt, int tokens) {
        String body = "{\"model\":\"m\",\"prompt\":\"" + prompt + "\",\"max_tokens\":" + tokens
                + ",\"ignore_eos\":true,\"stream\":true}";
        return CLIENT.sendAsync(
                HttpRequest.newBuilder(server.baseUri().resolve("/v1/completions"))
                        .timeout(Duration.ofSeconds(30))
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /**
     * A scrape once the engine has let go of every request: a response's last bytes can reach the
     * client before the engine step that frees its sequence has updated the gauges.
     */
    private static String scrapeWhenIdle(SimulatorServer server, String running) throws Exception {
        long deadline = System.nanoTime() + 5_000_000_000L;
        String text = scrape(server);
        while (value(text, running) != 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
            text = scrape(server);
        }
        return text;
    }

    private static String scrape(SimulatorServer server) throws Exception {
        HttpResponse<String> response = CLIENT.send(
                HttpRequest.newBuilder(URI.create(server.baseUri() + "/metrics"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/plain; version=0.0.4"));
        return response.body();
    }

    private static double value(String text, String series) {
        Matcher m =
                Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(text);
        assertThat(m.find()).as("%s in%n%s", series, text).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
