package io.tokenpulse.tokenizers;

/** Functions that transformers puts into every chat template's globals; Jinjava calls them by reflection. */
final class TemplateFunctions {

    private TemplateFunctions() {}

    /** Jinja2 templates call {@code raise_exception('...')} to reject a conversation they cannot format. */
    public static String raiseException(String message) {
        throw new IllegalArgumentException("chat template rejected the messages: " + message);
    }
}
