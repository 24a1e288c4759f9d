package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * vLLM's rerank API ({@code /rerank}, {@code /v1/rerank}) as its {@code async_request_vllm_rerank}
 * sends it: {@code {"model", "query", "documents": [...], "truncate_prompt_tokens": -1}}. vLLM takes
 * the query and documents from its {@code random-rerank} dataset's list prompt; here they are the
 * prompt's two halves ({@link TextPair}): the query, and one document. The answer's {@code results}
 * hold the relevance scores and {@code usage.total_tokens} the input tokens.
 */
final class VllmRerankBackend extends PoolingBackend {

    VllmRerankBackend() {
        super("vllm-rerank", "/v1/rerank", "results");
    }

    @Override
    void writeInput(JsonGenerator json, String prompt) throws IOException {
        TextPair pair = TextPair.of(prompt);
        json.writeStringField("query", pair.first());
        json.writeArrayFieldStart("documents");
        json.writeString(pair.second());
        json.writeEndArray();
    }
}
