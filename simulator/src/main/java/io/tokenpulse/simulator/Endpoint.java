package io.tokenpulse.simulator;

/** The OpenAI-compatible generation endpoints the simulator speaks. */
enum Endpoint {
    COMPLETIONS("text_completion", "text_completion", "cmpl-"),
    CHAT("chat.completion", "chat.completion.chunk", "chatcmpl-");

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
