package io.tokenpulse.simulator.wire;

/** The generation endpoints the simulator speaks; the OpenAI fields are null for the formats that are not chunks of vLLM's OpenAI JSON. */
public enum Endpoint {
    COMPLETIONS("text_completion", "text_completion", "cmpl-"),
    CHAT("chat.completion", "chat.completion.chunk", "chatcmpl-"),
    /** vLLM's /v1/audio/transcriptions (multipart/form-data in, chat-like chunks out). */
    TRANSCRIPTION("transcription", "transcription.chunk", "trsc-"),
    /** Hugging Face TGI's /generate_stream. */
    TGI(null, null, null),
    /** Triton's /v2/models/&lt;model&gt;/generate_stream, as the TensorRT-LLM backend answers. */
    TRITON(null, null, null),
    /** OpenAI's Responses API, /v1/responses (typed events, {@link ResponsesFormat}). */
    RESPONSES(null, null, null),
    /** Anthropic's Messages API, /v1/messages (typed events, {@link MessagesFormat}). */
    MESSAGES(null, null, null);

    /** "object" of a whole (non-streamed) response. */
    final String object;
    /** "object" of each streamed chunk. */
    final String chunkObject;

    final String idPrefix;

    Endpoint(String object, String chunkObject, String idPrefix) {
        this.object = object;
        this.chunkObject = chunkObject;
        this.idPrefix = idPrefix;
    }
}
