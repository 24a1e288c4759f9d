package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * Hugging Face TGI's {@code /generate_stream} as vLLM's {@code async_request_tgi} speaks it:
 * {@code {"inputs", "parameters": {"max_new_tokens", "do_sample": true, "temperature": 0.01,
 * "top_p": 0.99, "ignore_eos_token"}}} (TGI refuses temperature 0 and top_p 1), no Authorization
 * header. Every SSE event is a timing event; the text kept is the last event's {@code generated_text}.
 *
 * <p>Differences from vLLM, both harmless: {@code truncate} (vLLM sends the prompt's own token
 * count, which keeps the whole prompt) is left out, as {@link PromptRequest} has no length; and
 * with {@code --ignore-eos} output tokens are the tokenizer's count of the generated text, where
 * vLLM writes down the requested length (equal when the server honours ignore_eos_token).
 */
final class TgiBackend extends GenerateStreamBackend {

    TgiBackend() {
        super("tgi", new TgiEventReader());
    }

    @Override
    void writeFields(JsonGenerator json, BackendSettings.Sampling sampling, PromptRequest request) throws IOException {
        json.writeStringField("inputs", request.prompt());
        json.writeObjectFieldStart("parameters");
        json.writeNumberField("max_new_tokens", request.maxTokens());
        json.writeBooleanField("do_sample", true);
        json.writeNumberField("temperature", 0.01);
        json.writeNumberField("top_p", 0.99);
        json.writeBooleanField("ignore_eos_token", sampling.ignoreEos());
        json.writeEndObject();
    }
}
