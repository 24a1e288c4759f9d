package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.producer.dataset.PromptStyle;
import java.net.URI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Responses and Messages servers apply the chat template themselves, as a chat server does: the
 * datasets must hand these backends messages, not text they templated already (sonnet, custom).
 */
class MessageBackendsPromptStyleTest {

    @ParameterizedTest
    @CsvSource({
        "openai-responses, /v1/responses, CHAT",
        "anthropic-messages, /v1/messages, CHAT",
        "vllm, /v1/completions, COMPLETION"
    })
    void messageApisTakeChatPrompts(String backend, String endpoint, PromptStyle style) {
        LoadSettings.Target target = new LoadSettings.Target(
                backend, URI.create("http://host:9000"), endpoint, "m", null, null, null, null, false);

        assertThat(target.promptStyle()).isEqualTo(style);
    }
}
