package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * vLLM's score API ({@code /score}, {@code /v1/score}): {@code {"model", "text_1", "text_2",
 * "truncate_prompt_tokens": -1}}, the two texts being the prompt's halves ({@link TextPair}). vLLM's
 * benchmark client has no score backend (its rerank backend serves cross-encoders); this one sends
 * what vLLM's server documents, in the same way as the rerank backend. The answer's {@code data} holds
 * the score and {@code usage.prompt_tokens} the input tokens.
 */
final class VllmScoreBackend extends PoolingBackend {

    VllmScoreBackend() {
        super("vllm-score", "/v1/score", "data");
    }

    @Override
    void writeInput(JsonGenerator json, String prompt) throws IOException {
        TextPair pair = TextPair.of(prompt);
        json.writeStringField("text_1", pair.first());
        json.writeStringField("text_2", pair.second());
    }
}
