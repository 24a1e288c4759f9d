package io.tokenpulse.producer.dataset;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * vLLM's {@code is_valid_sequence}, with its defaults unless given others: a prompt/output pair is
 * dropped when the prompt has under 4 tokens, the output under 4 (unless the output length was
 * given by a flag), the prompt over 1 024 or both together over 2 048.
 */
final class SequenceFilter {

    static final int MIN_LEN = 4;
    static final int MAX_PROMPT_LEN = 1024;
    static final int MAX_TOTAL_LEN = 2048;

    /** Why a pair was dropped; the first rule that applies, in vLLM's order, is counted. */
    enum Rule {
        PROMPT_TOO_SHORT,
        OUTPUT_TOO_SHORT,
        PROMPT_TOO_LONG,
        TOTAL_TOO_LONG
    }

    private final boolean skipOutputCheck;
    private final int maxPromptLen;
    private final int maxTotalLen;
    private final Map<Rule, Integer> dropped = new EnumMap<>(Rule.class);

    /** @param skipOutputCheck the output length came from a flag, so its minimum is not checked */
    SequenceFilter(boolean skipOutputCheck) {
        this(skipOutputCheck, MAX_PROMPT_LEN, MAX_TOTAL_LEN);
    }

    /** With other limits than vLLM's defaults (its AIMO dataset: 2 048 and 32 000). */
    SequenceFilter(boolean skipOutputCheck, int maxPromptLen, int maxTotalLen) {
        this.skipOutputCheck = skipOutputCheck;
        this.maxPromptLen = maxPromptLen;
        this.maxTotalLen = maxTotalLen;
    }

    /** The longest prompt kept, in tokens. */
    int maxPromptLen() {
        return maxPromptLen;
    }

    /** Whether the pair is kept; a dropped pair is counted under its rule. */
    boolean keep(int promptLen, int outputLen) {
        Optional<Rule> broken = broken(promptLen, outputLen);
        broken.ifPresent(rule -> dropped.merge(rule, 1, Integer::sum));
        return broken.isEmpty();
    }

    private Optional<Rule> broken(int promptLen, int outputLen) {
        if (promptLen < MIN_LEN) {
            return Optional.of(Rule.PROMPT_TOO_SHORT);
        }
        if (!skipOutputCheck && outputLen < MIN_LEN) {
            return Optional.of(Rule.OUTPUT_TOO_SHORT);
        }
        if (promptLen > maxPromptLen) {
            return Optional.of(Rule.PROMPT_TOO_LONG);
        }
        if (promptLen + outputLen > maxTotalLen) {
            return Optional.of(Rule.TOTAL_TOO_LONG);
        }
        return Optional.empty();
    }

    /** "3 prompt under 4 tokens, 1 prompt over 1024 tokens", or "none" when nothing was dropped. */
    String droppedSummary() {
        if (dropped.isEmpty()) {
            return "none";
        }
        return dropped.entrySet().stream()
                .map(e -> e.getValue() + " " + describe(e.getKey()))
                .collect(Collectors.joining(", "));
    }

    private String describe(Rule rule) {
        return switch (rule) {
            case PROMPT_TOO_SHORT -> "prompt under " + MIN_LEN + " tokens";
            case OUTPUT_TOO_SHORT -> "completion under " + MIN_LEN + " tokens";
            case PROMPT_TOO_LONG -> "prompt over " + maxPromptLen + " tokens";
            case TOTAL_TOO_LONG -> "prompt + completion over " + maxTotalLen + " tokens";
        };
    }
}
