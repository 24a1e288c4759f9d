package io.tokenpulse.producer.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BackendsTest {

    @Test
    void namesFollowVllmsBackendChoices() {
        assertThat(Backends.names())
                .containsExactly(
                        "tgi",
                        "vllm",
                        "lmdeploy",
                        "deepspeed-mii",
                        "openai",
                        "openai-chat",
                        "openai-audio",
                        "tensorrt-llm",
                        "scalellm",
                        "sglang",
                        "llama.cpp",
                        "openai-embeddings",
                        "vllm-rerank",
                        "vllm-score",
                        "openai-responses",
                        "anthropic-messages");
    }

    @Test
    void newerApisDefaultToTheirOwnPathAndVllmsBackendsToCompletions() {
        assertThat(Backends.defaultEndpoint("openai-responses")).isEqualTo("/v1/responses");
        assertThat(Backends.defaultEndpoint("anthropic-messages")).isEqualTo("/v1/messages");
        assertThat(Backends.defaultEndpoint("openai-chat")).isEqualTo("/v1/completions");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "tgi",
                "vllm",
                "lmdeploy",
                "deepspeed-mii",
                "openai",
                "openai-chat",
                "openai-audio",
                "tensorrt-llm",
                "scalellm",
                "sglang",
                "llama.cpp",
                "openai-embeddings",
                "vllm-rerank",
                "vllm-score",
                "openai-responses",
                "anthropic-messages"
            })
    void everyVllmNameResolvesToABackendOfThatName(String name) {
        assertThat(Backends.get(name).name()).isEqualTo(name);
    }

    @Test
    void unknownNameFailsListingTheKnownNames() {
        assertThatThrownBy(() -> Backends.get("vlm"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown --backend vlm; known backends: tgi, vllm, lmdeploy, deepspeed-mii, "
                        + "openai, openai-chat, openai-audio, tensorrt-llm, scalellm, sglang, llama.cpp, "
                        + "openai-embeddings, vllm-rerank, vllm-score, openai-responses, anthropic-messages");
    }
}
