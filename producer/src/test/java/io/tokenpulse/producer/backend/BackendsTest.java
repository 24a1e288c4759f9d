package io.tokenpulse.producer.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BackendsTest {

    @Test
    void namesFollowVllmsBackendChoices() {
        assertThat(Backends.names()).containsExactly("tgi", "vllm", "lmdeploy", "deepspeed-mii", "openai",
                "openai-chat", "openai-audio", "tensorrt-llm", "scalellm", "sglang", "llama.cpp");
        assertThat(Backends.supportedNames()).containsExactly(
                "vllm", "lmdeploy", "openai", "openai-chat", "scalellm", "sglang", "llama.cpp");
    }

    @ParameterizedTest
    @ValueSource(strings = {"vllm", "lmdeploy", "openai", "openai-chat", "scalellm", "sglang", "llama.cpp"})
    void supportedNamesResolveToABackendOfThatName(String name) {
        assertThat(Backends.get(name).name()).isEqualTo(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tgi", "tensorrt-llm", "deepspeed-mii", "openai-audio"})
    void vllmBackendsNotYetSupportedSaySo(String name) {
        assertThatThrownBy(() -> Backends.get(name))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("backend " + name + " is not supported yet")
                .hasMessageContaining("vllm, lmdeploy");
    }

    @Test
    void unknownNameFailsListingTheKnownNames() {
        assertThatThrownBy(() -> Backends.get("vlm"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown --backend vlm; known backends: tgi, vllm, lmdeploy, deepspeed-mii, "
                        + "openai, openai-chat, openai-audio, tensorrt-llm, scalellm, sglang, llama.cpp");
    }
}
