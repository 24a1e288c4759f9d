package io.tokenpulse.tokenizers;

import java.util.Objects;

/** One chat message: a role ({@code system}, {@code user}, {@code assistant}, ...) and its text. */
public record ChatMessage(String role, String content) {

    public ChatMessage {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
        if (role.isBlank()) {
            throw new IllegalArgumentException("chat message role must not be blank");
        }
    }

    public static ChatMessage user(String content) {
        return new ChatMessage("user", content);
    }

    public static ChatMessage system(String content) {
        return new ChatMessage("system", content);
    }
}
