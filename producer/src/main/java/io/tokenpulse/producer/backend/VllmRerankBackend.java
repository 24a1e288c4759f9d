package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.List;

/**
 * vLLM's rerank API ({@code /rerank}, {@code /v1/rerank}) as its {@code async_request_vllm_rerank}
 * sends it: {@code {"model", "query", "documents": [...], "truncate_prompt_tokens": -1}}, the query
 * and documents being a list prompt's first text and the others ({@code random-rerank}), as vLLM
 * takes them; any other dataset's prompt is cut in two halves ({@link TextPair}): the query, and one
 * document (vLLM's client refuses a prompt that is not a list). The answer's {@code results}
 * hold the relevance scores and {@code usage.total_tokens} the input tokens.
 */
final class VllmRerankBackend extends PoolingBackend {

    VllmRerankBackend() {
        super("vllm-rerank", "/v1/rerank", "results");
    }

    @Override
    void writeInput(JsonGenerator json, PromptRequest request) throws IOException {
        List<String> texts = request.texts();
        if (texts.isEmpty()) {
            TextPair pair = TextPair.of(request.prompt());
            texts = List.of(pair.first(), pair.second());
        }
        json.writeStringField("query", texts.get(0));
        writeTexts(json, "documents", texts.subList(1, texts.size()));
    }
}
