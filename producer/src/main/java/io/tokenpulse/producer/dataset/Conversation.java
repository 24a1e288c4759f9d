package io.tokenpulse.producer.dataset;

import io.tokenpulse.tokenizers.ChatMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One multi-turn session's script: an optional shared system prompt and the user's turns, each with
 * the answer the dataset recorded for it and the output length to ask for.
 *
 * @param systemPrompt sent as the first message of every turn, or empty for none
 * @param turns at least one
 */
public record Conversation(String systemPrompt, List<Turn> turns) {

    /**
     * One user turn.
     *
     * @param user what the user says
     * @param recordedAnswer the assistant's answer in the dataset (sent back as history with
     *     {@code --multi-turn-history dataset}); empty when the dataset has none
     * @param outputLen tokens to ask for ({@code max_tokens}), at least 1
     */
    public record Turn(String user, String recordedAnswer, int outputLen) {
        public Turn {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(recordedAnswer, "recordedAnswer");
            if (outputLen < 1) {
                throw new IllegalArgumentException("a turn's output length must be >= 1, got " + outputLen);
            }
        }
    }

    public Conversation {
        Objects.requireNonNull(systemPrompt, "systemPrompt");
        turns = List.copyOf(turns);
        if (turns.isEmpty()) {
            throw new IllegalArgumentException("a conversation needs at least one turn");
        }
    }

    /**
     * The messages turn {@code turn} sends: the system prompt, every earlier turn with its answer, and
     * this turn's user message.
     *
     * @param answers the answers of turns {@code 0 .. turn-1}, in order (the server's as they came
     *     back, or {@link Turn#recordedAnswer()})
     */
    public List<ChatMessage> messages(int turn, List<String> answers) {
        if (turn < 0 || turn >= turns.size()) {
            throw new IllegalArgumentException("turn " + turn + " of a conversation of " + turns.size());
        }
        if (answers.size() < turn) {
            throw new IllegalArgumentException(
                    "turn " + turn + " needs the " + turn + " answers before it, got " + answers.size());
        }
        List<ChatMessage> messages = new ArrayList<>(2 * turn + 2);
        if (!systemPrompt.isEmpty()) {
            messages.add(new ChatMessage("system", systemPrompt));
        }
        for (int i = 0; i < turn; i++) {
            messages.add(ChatMessage.user(turns.get(i).user()));
            messages.add(new ChatMessage("assistant", answers.get(i)));
        }
        messages.add(ChatMessage.user(turns.get(turn).user()));
        return messages;
    }

    /** The recorded answers of the turns before {@code turn}. */
    public List<String> recordedAnswers(int turn) {
        return turns.subList(0, turn).stream().map(Turn::recordedAnswer).toList();
    }
}
