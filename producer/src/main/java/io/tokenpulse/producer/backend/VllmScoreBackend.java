package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.List;

/**
 * vLLM's score API ({@code /score}, {@code /v1/score}): {@code {"model", "text_1", "text_2",
 * "truncate_prompt_tokens": -1}}, the two texts being the prompt's halves ({@link TextPair}), or for a
 * list prompt ({@code random-rerank}) its first text and the list of the others, as the rerank
 * backend sends them as query and documents. vLLM's
 * benchmark client has no score backend (its rerank backend serves cross-encoders); this one sends
 * what vLLM's server documents, in the same way as the rerank backend. The answer's {@code data} holds
 * the score and {@code usage.prompt_tokens} the input tokens.
 */
final class VllmScoreBackend extends PoolingBackend {

    VllmScoreBackend() {
        super("vllm-score", "/v1/score", "data");
    }

    @Override
    void writeInput(JsonGenerator json, PromptRequest request) throws IOException {
        List<String> texts = request.texts();
        if (texts.isEmpty()) {
            TextPair pair = TextPair.of(request.prompt());
            json.writeStringField("text_1", pair.first());
            json.writeStringField("text_2", pair.second());
        } else {
            json.writeStringField("text_1", texts.get(0));
            writeTexts(json, "text_2", texts.subList(1, texts.size()));
        }
    }
}
