package io.tokenpulse.producer.dataset;

import io.tokenpulse.tokenizers.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The synthetic {@code multi-turn} dataset: {@code --num-prompts} sessions of
 * {@code --multi-turn-num-turns} turns each. Every user turn is {@code --multi-turn-input-len}
 * random vocabulary tokens (as the {@code random} dataset draws them) and asks for
 * {@code --multi-turn-output-len} tokens; every session starts with the same system prompt of
 * {@code --multi-turn-system-prompt-len} tokens (none at 0), the part a server's prefix cache shares
 * across sessions. Each turn also records a random answer of the output length, which
 * {@code --multi-turn-history dataset} sends back in place of the server's.
 *
 * <p>Only chat backends send sessions (the history is chat messages); others are refused before the run.
 */
final class MultiTurnDataset implements Dataset {

    static final String NAME = "multi-turn";

    private final Tokenizer tokenizer;
    private final DatasetOptions.MultiTurn flags;
    private final int[] allowedIds;

    MultiTurnDataset(Tokenizer tokenizer, DatasetOptions options) {
        this.flags = options.multiTurn().checked();
        SessionDatasets.requireChat(NAME, options.promptStyle());
        this.tokenizer = tokenizer;
        this.allowedIds = TokenSequencePrompt.allowedIds(tokenizer);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<SampledRequest> sample(int numRequests, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        String systemPrompt = text(random, flags.systemPromptLen());
        List<SampledRequest> sessions = new ArrayList<>(numRequests);
        for (int s = 0; s < numRequests; s++) {
            List<Conversation.Turn> turns = new ArrayList<>(flags.numTurns());
            for (int t = 0; t < flags.numTurns(); t++) {
                turns.add(new Conversation.Turn(
                        text(random, flags.inputLen()), text(random, flags.outputLen()), flags.outputLen()));
            }
            sessions.add(SampledRequest.session(new Conversation(systemPrompt, turns), tokenizer, s));
        }
        return sessions;
    }

    private String text(SplittableRandom random, int tokens) {
        if (tokens == 0) {
            return "";
        }
        int[] ids = TokenSequencePrompt.draw(tokens, allowedIds, random);
        return TokenSequencePrompt.fit(tokenizer, ids, tokens, allowedIds, random)
                .text();
    }
}
