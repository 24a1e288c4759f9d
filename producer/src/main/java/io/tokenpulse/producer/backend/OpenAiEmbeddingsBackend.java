package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * OpenAI Embeddings ({@code /v1/embeddings}) as vLLM's {@code async_request_openai_embeddings} sends
 * it: {@code {"model", "input": prompt, "truncate_prompt_tokens": -1}}, {@code input} being the list of
 * texts for a list prompt ({@code random-rerank}: the query and the documents); the answer's {@code data}
 * holds the vectors and {@code usage.prompt_tokens} the input tokens.
 */
final class OpenAiEmbeddingsBackend extends PoolingBackend {

    OpenAiEmbeddingsBackend() {
        super("openai-embeddings", "/v1/embeddings", "data");
    }

    @Override
    void writeInput(JsonGenerator json, PromptRequest request) throws IOException {
        if (request.texts().isEmpty()) {
            json.writeStringField("input", request.prompt());
        } else {
            writeTexts(json, "input", request.texts());
        }
    }
}
