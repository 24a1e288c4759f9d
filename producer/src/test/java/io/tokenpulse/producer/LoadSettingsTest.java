package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.producer.backend.BackendSettings;
import io.tokenpulse.producer.dataset.DatasetOptions;
import io.tokenpulse.producer.dataset.PromptStyle;
import io.tokenpulse.producer.schedule.ArrivalSettings;
import io.tokenpulse.producer.session.SessionOptions;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LoadSettingsTest {

    static LoadSettings.Target target(String backend, String endpoint) {
        return new LoadSettings.Target(
                backend,
                URI.create("http://127.0.0.1:8000"),
                endpoint,
                "facebook/opt-125m",
                null,
                "sk-secret",
                Map.of("x-team", "a"),
                null,
                false);
    }

    static LoadSettings.Workload workload(
            PromptStyle style, Double durationMinutes, double rate, Integer maxConcurrency) {
        return new LoadSettings.Workload(
                new DatasetOptions(
                        "random", null, style, DatasetOptions.Random.DEFAULTS, DatasetOptions.Sonnet.DEFAULTS),
                "gpt2",
                10,
                durationMinutes,
                ArrivalSettings.constant(rate, 1.0, 0),
                maxConcurrency,
                0,
                null,
                SessionOptions.DEFAULTS,
                null);
    }

    static LoadSettings settings(int shardIndex, int shardCount) {
        return new LoadSettings(
                "run-1",
                shardIndex,
                shardCount,
                target("vllm", "/v1/completions"),
                workload(PromptStyle.COMPLETION, null, 1.0, null),
                new LoadSettings.Reporting(
                        "ttft,tpot,itl", "99", null, "{}", List.of("ttft", "tpot", "itl"), List.of(99.0), Map.of()),
                LoadSettings.DEFAULT_REQUEST_ID_PREFIX,
                Duration.ofSeconds(5),
                true,
                false);
    }

    @Test
    void theRequestIdIsThePrefixFollowedByTheDatasetIndex() {
        assertThat(settings(0, 1).requestId(17)).isEqualTo("benchmark-serving17");
    }

    @Test
    void aShardIndexOutsideTheShardCountNamesBothFlags() {
        assertThatThrownBy(() -> settings(2, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--shard-index must be in [0, 1] for --shard-count 2, got 2");
    }

    @Test
    void theEndpointAndHealthUrlsFollowTheBaseUrlAsVllmBuildsThem() {
        LoadSettings.Target target = new LoadSettings.Target(
                "openai-chat",
                URI.create("http://host:9000/"),
                "/v1/chat/completions",
                "m",
                "served",
                null,
                null,
                null,
                false);

        assertThat(target.endpointUrl()).hasToString("http://host:9000/v1/chat/completions");
        assertThat(target.healthUrl()).hasToString("http://host:9000/health");
        assertThat(target.backendSettings().model())
                .as("--served-model-name goes in the payload")
                .isEqualTo("served");
        assertThat(target.promptStyle()).isEqualTo(PromptStyle.CHAT);
        assertThat(target.sampling()).isEqualTo(BackendSettings.Sampling.GREEDY);
    }

    @Test
    void theApiKeyNeverShowsInToString() {
        assertThat(settings(0, 1).toString()).doesNotContain("sk-secret").contains("apiKey=***");
    }

    @Test
    void anEndpointTheBackendCannotServeIsRejectedUpFront() {
        assertThatThrownBy(() -> target("vllm", "/v1/models")).hasMessageContaining("change --endpoint");
    }

    @Test
    void httpsIsAcceptedAndOtherSchemesRejectedWithTheFlagToChange() {
        LoadSettings.Target https = new LoadSettings.Target(
                "vllm", URI.create("https://api.example.com"), "/v1/completions", "m", null, null, null, null, false);
        assertThat(https.endpointUrl()).hasToString("https://api.example.com/v1/completions");
        assertThat(https.insecure()).isFalse();
        assertThatThrownBy(() -> new LoadSettings.Target(
                        "vllm",
                        URI.create("ftp://api.example.com"),
                        "/v1/completions",
                        "m",
                        null,
                        null,
                        null,
                        null,
                        false))
                .hasMessage(
                        "--base-url must be an http://host:port or https://host:port URL, got ftp://api.example.com");
    }

    @Test
    void anEndlessFloodIsRejected() {
        assertThatThrownBy(() -> workload(PromptStyle.COMPLETION, 20.0, Double.POSITIVE_INFINITY, null))
                .hasMessageContaining("--max-concurrency");
        assertThat(workload(PromptStyle.COMPLETION, 20.0, Double.POSITIVE_INFINITY, 8)
                        .durationNs())
                .isEqualTo(1_200_000_000_000L);
    }

    @Test
    void aDatasetBuiltForTheOtherPromptStyleIsRejected() {
        assertThatThrownBy(() -> new LoadSettings(
                        "run-1",
                        0,
                        1,
                        target("vllm", "/v1/completions"),
                        workload(PromptStyle.CHAT, null, 1.0, null),
                        new LoadSettings.Reporting("ttft", "99", null, "{}", List.of("ttft"), List.of(99.0), Map.of()),
                        "p",
                        Duration.ofSeconds(1),
                        true,
                        false))
                .hasMessage("backend vllm takes completion prompts but the dataset was built for chat prompts");
    }

    @Test
    void aListPromptDatasetNeedsAPoolingBackend() {
        LoadSettings.Workload rerank = new LoadSettings.Workload(
                new DatasetOptions(
                        "random-rerank",
                        null,
                        PromptStyle.COMPLETION,
                        DatasetOptions.Random.DEFAULTS,
                        DatasetOptions.Sonnet.DEFAULTS),
                "gpt2",
                10,
                null,
                ArrivalSettings.constant(1.0, 1.0, 0),
                null,
                0,
                null,
                SessionOptions.DEFAULTS,
                null);
        LoadSettings.Reporting reporting =
                new LoadSettings.Reporting("e2el", "99", null, "{}", List.of("e2el"), List.of(99.0), Map.of());

        assertThatThrownBy(() -> new LoadSettings(
                        "run-1",
                        0,
                        1,
                        target("vllm", "/v1/completions"),
                        rerank,
                        reporting,
                        "p",
                        Duration.ofSeconds(1),
                        true,
                        false))
                .hasMessage("--dataset-name random-rerank sends a list of texts per request, which only a pooling"
                        + " backend takes; use --backend vllm-rerank or openai-embeddings (or vllm-score), got vllm");
        assertThat(new LoadSettings(
                                "run-1",
                                0,
                                1,
                                target("vllm-rerank", "/v1/rerank"),
                                rerank,
                                reporting,
                                "p",
                                Duration.ofSeconds(1),
                                true,
                                false)
                        .target()
                        .backend())
                .isEqualTo("vllm-rerank");
    }
}
