package io.tokenpulse.producer.backend;

import java.nio.charset.StandardCharsets;

/**
 * Reads what an OpenAI-style streamed event says straight from its UTF-8 bytes, without Jackson,
 * without a {@code String} and without a tree: whether it has choices, where the first choice's
 * text (and a chat delta's reasoning) lies in the payload, and the usage counts. It is the
 * {@link EventReader}'s fast path for the events of a healthy stream; the text is decoded later,
 * straight into the response's buffer ({@link #appendText}).
 *
 * <p>It answers only for well-formed JSON of the usual shapes and hands everything else back
 * ({@link #scan} returns false) to {@link EventReader}, whose answer then counts: an error event
 * ({@code "error"} not null, or {@code "object": "error"}), anything Jackson might read differently
 * or reject (escaped field names, invalid or suspicious UTF-8, numbers beyond an int in the usage,
 * a repeated {@code choices} or {@code usage}, an unusual shape of the first choice, deep nesting)
 * and every malformed payload, so that their messages stay Jackson's. Where it answers, it reads the
 * fields as {@link EventReader} does (the same rules for missing, null or non-string values).
 *
 * <p>One per response (it keeps the last event's spans); not thread-safe.
 */
final class OpenAiEventScan {

    private static final int MAX_DEPTH = 64;

    private final boolean deltaContent;

    /** The event has a non-empty {@code choices} array whose first element is an object. */
    boolean hasChoices;
    /** The first choice's answer text: {@code data[textStart, textEnd)} between the quotes, escapes not yet decoded. */
    int textStart;

    int textEnd;
    boolean textEscaped;
    /** A chat delta's {@code reasoning_content} or {@code reasoning}, as the text. */
    int reasoningStart;

    int reasoningEnd;
    boolean reasoningEscaped;
    /** The event carries a {@code usage} object; its counts, each with whether it was there. */
    boolean hasUsage;

    private int promptTokens;
    private int completionTokens;
    private int reasoningTokens;
    private boolean hasPrompt;
    private boolean hasCompletion;
    private boolean hasReasoning;
    private int cachedTokens;
    private boolean hasCached;

    private byte[] b;
    private int p;
    private int end;
    private int strStart;
    private int strEnd;
    private boolean strEscaped;
    private boolean seenChoices;
    /** Set by {@link #number}: the literal had no fraction or exponent; and its value fits an int. */
    private boolean numberIsInt;

    private boolean numberFitsInt;

    private long numberValue;

    /** @param deltaContent chat ({@code choices[0].delta.content}) rather than completions ({@code choices[0].text}) */
    OpenAiEventScan(boolean deltaContent) {
        this.deltaContent = deltaContent;
    }

    /**
     * Reads {@code data[offset, offset + length)}; true when it could tell everything the event says,
     * false when {@link EventReader} must read it instead.
     */
    boolean scan(byte[] data, int offset, int length) {
        b = data;
        p = offset;
        end = offset + length;
        hasChoices = false;
        textStart = textEnd = reasoningStart = reasoningEnd = 0;
        textEscaped = reasoningEscaped = false;
        hasUsage = false;
        seenChoices = false;
        ws();
        if (!at('{') || !members(Member.EVENT)) {
            return false;
        }
        ws();
        return p == end;
    }

    /** Decodes the text span into {@code out}. */
    void appendText(StringBuilder out) {
        decode(out, b, textStart, textEnd, textEscaped);
    }

    /** Decodes the reasoning span into {@code out}. */
    void appendReasoning(StringBuilder out) {
        decode(out, b, reasoningStart, reasoningEnd, reasoningEscaped);
    }

    /** The usage counts as {@link EventReader} reports them; only when {@link #hasUsage}. */
    StreamEvent.Usage usage() {
        return new StreamEvent.Usage(
                hasPrompt ? Integer.valueOf(promptTokens) : null,
                hasCompletion ? Integer.valueOf(completionTokens) : null,
                hasReasoning ? Integer.valueOf(reasoningTokens) : null,
                hasCached ? Integer.valueOf(cachedTokens) : null);
    }

    private static final byte[] CHOICES = ascii("choices");
    private static final byte[] USAGE = ascii("usage");
    private static final byte[] ERROR = ascii("error");
    private static final byte[] OBJECT = ascii("object");
    private static final byte[] MESSAGE = ascii("message");
    private static final byte[] TEXT = ascii("text");
    private static final byte[] DELTA = ascii("delta");
    private static final byte[] CONTENT = ascii("content");
    private static final byte[] REASONING_CONTENT = ascii("reasoning_content");
    private static final byte[] REASONING = ascii("reasoning");
    private static final byte[] PROMPT_TOKENS = ascii("prompt_tokens");
    private static final byte[] COMPLETION_TOKENS = ascii("completion_tokens");
    private static final byte[] COMPLETION_TOKENS_DETAILS = ascii("completion_tokens_details");
    private static final byte[] REASONING_TOKENS = ascii("reasoning_tokens");
    private static final byte[] PROMPT_TOKENS_DETAILS = ascii("prompt_tokens_details");
    private static final byte[] CACHED_TOKENS = ascii("cached_tokens");
    private static final byte[] NULL = ascii("null");
    private static final byte[] TRUE = ascii("true");
    private static final byte[] FALSE = ascii("false");

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** At '[' of choices: the first element read, the others skipped. */
    private boolean choices() {
        if (opensEmpty(']')) {
            return true;
        }
        if (!at('{')) {
            return false; // EventReader reads such an array oddly: let it
        }
        hasChoices = true;
        if (!firstChoice()) {
            return false;
        }
        while (true) {
            int next = afterItem(']');
            if (next != MORE) {
                return next == CLOSED;
            }
            if (!skipValue(1)) {
                return false;
            }
        }
    }

    /** At '{' of the first choice. */
    private boolean firstChoice() {
        return members(Member.CHOICE);
    }

    private enum Member {
        EVENT,
        CHOICE,
        DELTA,
        USAGE,
        DETAILS,
        PROMPT_DETAILS
    }

    /** At '{': reads an object's members as {@code kind} says, skipping the others. */
    private boolean members(Member kind) {
        if (opensEmpty('}')) {
            return true;
        }
        while (true) {
            if (!string() || strEscaped) {
                return false;
            }
            int keyStart = strStart;
            int keyLength = strEnd - strStart;
            if (!colon() || !member(kind, keyStart, keyLength)) {
                return false;
            }
            int next = afterItem('}');
            if (next != MORE) {
                return next == CLOSED;
            }
        }
    }

    /** At the value of member {@code key} of an object of {@code kind}. */
    private boolean member(Member kind, int key, int keyLength) {
        switch (kind) {
            case EVENT -> {
                if (is(key, keyLength, CHOICES)) {
                    if (seenChoices) {
                        return false;
                    }
                    seenChoices = true;
                    return at('[') ? choices() : skipValue(0);
                }
                if (is(key, keyLength, USAGE)) {
                    return !hasUsage && (at('{') ? usageObject() : skipValue(0));
                }
                if (is(key, keyLength, ERROR)) {
                    return literal(NULL); // else an error event: EventReader words its message
                }
                boolean object = is(key, keyLength, OBJECT);
                if ((object || is(key, keyLength, MESSAGE)) && (at('{') || at('['))) {
                    return false; // EventReader reads into such a value instead of skipping it
                }
                if (object && at('"')) {
                    return string() && !strEscaped && !is(strStart, strEnd - strStart, ERROR);
                }
                return skipValue(0);
            }
            case CHOICE -> {
                if (!deltaContent && is(key, keyLength, TEXT)) {
                    if (at('"')) {
                        return textString();
                    }
                    if (at('{') || at('[')) {
                        return false; // EventReader would not skip it
                    }
                    textStart = textEnd = 0; // null, a number: no text
                    textEscaped = false;
                    return skipValue(2);
                }
                if (deltaContent && is(key, keyLength, DELTA) && at('{')) {
                    textStart = textEnd = reasoningStart = reasoningEnd = 0; // each delta replaces both
                    textEscaped = reasoningEscaped = false;
                    return members(Member.DELTA);
                }
                return skipValue(2);
            }
            case DELTA -> {
                if (at('"') && is(key, keyLength, CONTENT)) {
                    return textString();
                }
                if (at('"') && (is(key, keyLength, REASONING_CONTENT) || is(key, keyLength, REASONING))) {
                    if (!string()) {
                        return false;
                    }
                    reasoningStart = strStart;
                    reasoningEnd = strEnd;
                    reasoningEscaped = strEscaped;
                    return true;
                }
                return skipValue(3);
            }
            case USAGE -> {
                if (is(key, keyLength, PROMPT_TOKENS)) {
                    return count(PROMPT);
                }
                if (is(key, keyLength, COMPLETION_TOKENS)) {
                    return count(COMPLETION);
                }
                if (is(key, keyLength, COMPLETION_TOKENS_DETAILS) && at('{')) {
                    hasReasoning = false; // each details object replaces the count
                    return members(Member.DETAILS);
                }
                if (is(key, keyLength, PROMPT_TOKENS_DETAILS) && at('{')) {
                    hasCached = false; // each details object replaces the count
                    return members(Member.PROMPT_DETAILS);
                }
                return skipValue(2);
            }
            case PROMPT_DETAILS -> {
                if (is(key, keyLength, CACHED_TOKENS)) {
                    return count(CACHED);
                }
                return skipValue(3);
            }
            default -> {
                if (is(key, keyLength, REASONING_TOKENS)) {
                    return count(REASONING_COUNT);
                }
                return skipValue(3);
            }
        }
    }

    // which count a usage member holds (fields, not arrays: two arrays more per response cost 0.4 B an event)
    private static final int PROMPT = 0;
    private static final int COMPLETION = 1;
    private static final int REASONING_COUNT = 2;
    private static final int CACHED = 3;

    /**
     * A token count, kept as {@code which} for an int literal; any other value is ignored (as
     * EventReader ignores it); false when unreadable or beyond an int (EventReader fails it).
     */
    private boolean count(int which) {
        if (p < end && (b[p] == '-' || (b[p] >= '0' && b[p] <= '9'))) {
            if (!number()) {
                return false;
            }
            if (numberIsInt) {
                if (!numberFitsInt) {
                    return false;
                }
                keepCount(which, (int) numberValue);
            }
            return true;
        }
        return skipValue(3);
    }

    private void keepCount(int which, int value) {
        switch (which) {
            case PROMPT -> {
                promptTokens = value;
                hasPrompt = true;
            }
            case COMPLETION -> {
                completionTokens = value;
                hasCompletion = true;
            }
            case REASONING_COUNT -> {
                reasoningTokens = value;
                hasReasoning = true;
            }
            default -> {
                cachedTokens = value;
                hasCached = true;
            }
        }
    }

    /** At '"' of the answer text: its span. */
    private boolean textString() {
        if (!string()) {
            return false;
        }
        textStart = strStart;
        textEnd = strEnd;
        textEscaped = strEscaped;
        return true;
    }

    /** At '{' of usage: a fresh count set (the last usage object wins). */
    private boolean usageObject() {
        hasUsage = true;
        hasPrompt = hasCompletion = hasReasoning = hasCached = false;
        return members(Member.USAGE);
    }

    /** Skips one value of any kind; false when it is not valid JSON (or nests too deep to bother). */
    private boolean skipValue(int depth) {
        if (p >= end) {
            return false;
        }
        byte c = b[p];
        switch (c) {
            case '"':
                return string();
            case '{', '[': {
                if (depth > MAX_DEPTH) {
                    return false;
                }
                char close = c == '{' ? '}' : ']';
                if (opensEmpty(close)) {
                    return true;
                }
                while (true) {
                    if ((c == '{' && (!string() || !colon())) || !skipValue(depth + 1)) {
                        return false;
                    }
                    int next = afterItem(close);
                    if (next != MORE) {
                        return next == CLOSED;
                    }
                }
            }
            case 'n':
                return literal(NULL);
            case 't':
                return literal(TRUE);
            case 'f':
                return literal(FALSE);
            default:
                return number();
        }
    }

    /** A JSON number (no leading zeros, no '+', no NaN); sets {@link #numberIsInt} and, if so, {@link #numberValue}. */
    private boolean number() {
        int start = p;
        boolean negative = at('-');
        if (negative) {
            p++;
        }
        if (p >= end || b[p] < '0' || b[p] > '9') {
            return false;
        }
        long value = 0;
        int digits = 0;
        if (b[p] == '0') {
            p++;
            digits = 1;
            if (p < end && b[p] >= '0' && b[p] <= '9') {
                return false; // leading zero
            }
        } else {
            while (p < end && b[p] >= '0' && b[p] <= '9') {
                if (++digits <= 18) {
                    value = value * 10 + (b[p] - '0');
                }
                p++;
            }
        }
        boolean integral = true;
        if (at('.')) {
            integral = false;
            p++;
            if (!digits()) {
                return false;
            }
        }
        if (at('e') || at('E')) {
            integral = false;
            p++;
            if (at('+') || at('-')) {
                p++;
            }
            if (!digits()) {
                return false;
            }
        }
        if (p - start > 1000) {
            return false; // Jackson's limit on a number's length
        }
        value = negative ? -value : value;
        numberIsInt = integral;
        numberFitsInt = integral && digits <= 10 && value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE;
        numberValue = value;
        return true;
    }

    private boolean digits() {
        int start = p;
        while (p < end && b[p] >= '0' && b[p] <= '9') {
            p++;
        }
        return p > start;
    }

    /** At '"': finds the string's end, checking escapes, control characters and UTF-8; sets the span. */
    private boolean string() {
        if (!at('"')) {
            return false;
        }
        p++;
        strStart = p;
        strEscaped = false;
        while (p < end) {
            int c = b[p] & 0xFF;
            if (c == '"') {
                strEnd = p;
                p++;
                return true;
            }
            if (c == '\\') {
                strEscaped = true;
                if (++p >= end) {
                    return false;
                }
                switch (b[p]) {
                    case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> p++;
                    case 'u' -> {
                        if (p + 4 >= end) {
                            return false;
                        }
                        for (int i = 1; i <= 4; i++) {
                            if (Character.digit(b[p + i], 16) < 0) {
                                return false;
                            }
                        }
                        p += 5;
                    }
                    default -> {
                        return false;
                    }
                }
            } else if (c < 0x20) {
                return false; // a raw control character: Jackson rejects it
            } else if (c < 0x80) {
                p++;
            } else {
                int n = utf8Length(b, p, end);
                if (n < 0) {
                    return false;
                }
                p += n;
            }
        }
        return false;
    }

    /** Bytes of the well-formed UTF-8 sequence at {@code i} (no overlongs, no surrogates, at most U+10FFFF), else -1. */
    private static int utf8Length(byte[] b, int i, int end) {
        int c = b[i] & 0xFF;
        if (c >= 0xC2 && c <= 0xDF) {
            return i + 1 < end && cont(b[i + 1]) ? 2 : -1;
        }
        if (c >= 0xE0 && c <= 0xEF) {
            if (i + 2 >= end || !cont(b[i + 1]) || !cont(b[i + 2])) {
                return -1;
            }
            int c1 = b[i + 1] & 0xFF;
            if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0)) {
                return -1;
            }
            return 3;
        }
        if (c >= 0xF0 && c <= 0xF4) {
            if (i + 3 >= end || !cont(b[i + 1]) || !cont(b[i + 2]) || !cont(b[i + 3])) {
                return -1;
            }
            int c1 = b[i + 1] & 0xFF;
            if ((c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90)) {
                return -1;
            }
            return 4;
        }
        return -1;
    }

    private static boolean cont(byte x) {
        return (x & 0xC0) == 0x80;
    }

    /** Decodes a checked string span (UTF-8 and JSON escapes) into {@code out}, char by char. */
    static void decode(StringBuilder out, byte[] b, int start, int end, boolean escaped) {
        int i = start;
        while (i < end) {
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                if (c == '\\' && escaped) {
                    byte e = b[i + 1];
                    i += 2;
                    switch (e) {
                        case 'b' -> out.append('\b');
                        case 'f' -> out.append('\f');
                        case 'n' -> out.append('\n');
                        case 'r' -> out.append('\r');
                        case 't' -> out.append('\t');
                        case 'u' -> {
                            int unit = 0;
                            for (int k = 0; k < 4; k++) {
                                unit = (unit << 4) | Character.digit(b[i + k], 16);
                            }
                            out.append((char) unit); // a surrogate alone stays one, as Jackson leaves it
                            i += 4;
                        }
                        default -> out.append((char) e); // " \ /
                    }
                } else {
                    out.append((char) c);
                    i++;
                }
            } else if (c < 0xE0) {
                out.append((char) (((c & 0x1F) << 6) | (b[i + 1] & 0x3F)));
                i += 2;
            } else if (c < 0xF0) {
                out.append((char) (((c & 0x0F) << 12) | ((b[i + 1] & 0x3F) << 6) | (b[i + 2] & 0x3F)));
                i += 3;
            } else {
                int cp = ((c & 0x07) << 18) | ((b[i + 1] & 0x3F) << 12) | ((b[i + 2] & 0x3F) << 6) | (b[i + 3] & 0x3F);
                out.append(Character.highSurrogate(cp)).append(Character.lowSurrogate(cp));
                i += 4;
            }
        }
    }

    private static final int MORE = 0;
    private static final int CLOSED = 1;
    private static final int MALFORMED = 2;

    /** At '{' or '[': steps in; true when {@code close} follows (then past it too): the object or array is empty. */
    private boolean opensEmpty(char close) {
        p++;
        ws();
        if (at(close)) {
            p++;
            return true;
        }
        return false;
    }

    /**
     * After an object's member or an array's element: {@link #MORE} past ',' (and whitespace),
     * {@link #CLOSED} past {@code close}, else {@link #MALFORMED}.
     */
    private int afterItem(char close) {
        ws();
        if (at(',')) {
            p++;
            ws();
            return MORE;
        }
        if (at(close)) {
            p++;
            return CLOSED;
        }
        return MALFORMED;
    }

    private boolean colon() {
        ws();
        if (!at(':')) {
            return false;
        }
        p++;
        ws();
        return p < end;
    }

    private boolean literal(byte[] word) {
        if (p + word.length > end) {
            return false;
        }
        for (int i = 0; i < word.length; i++) {
            if (b[p + i] != word[i]) {
                return false;
            }
        }
        p += word.length;
        return true;
    }

    private boolean is(int start, int length, byte[] name) {
        if (length != name.length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (b[start + i] != name[i]) {
                return false;
            }
        }
        return true;
    }

    private boolean at(char c) {
        return p < end && b[p] == c;
    }

    private void ws() {
        while (p < end) {
            byte c = b[p];
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            p++;
        }
    }
}
