package io.tokenpulse.producer.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.tokenizers.ChatMessage;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The history a session's turn sends: the conversation so far, then the turn's own question. */
class ConversationTest {

    private static final Conversation TALK = new Conversation(
            "You are terse.",
            List.of(
                    new Conversation.Turn("Hi?", "Hello.", 8),
                    new Conversation.Turn("Weather?", "Sunny.", 8),
                    new Conversation.Turn("Tomorrow?", "Rain.", 8)));

    @Test
    void theFirstTurnIsTheSystemPromptAndTheQuestion() {
        assertThat(TALK.messages(0, List.of()))
                .containsExactly(new ChatMessage("system", "You are terse."), ChatMessage.user("Hi?"));
    }

    @Test
    void aLaterTurnCarriesEveryEarlierQuestionWithTheAnswersGiven() {
        assertThat(TALK.messages(2, List.of("Hey there.", "It is sunny today.")))
                .containsExactly(
                        new ChatMessage("system", "You are terse."),
                        ChatMessage.user("Hi?"),
                        new ChatMessage("assistant", "Hey there."),
                        ChatMessage.user("Weather?"),
                        new ChatMessage("assistant", "It is sunny today."),
                        ChatMessage.user("Tomorrow?"));
    }

    @Test
    void theRecordedAnswersStandInForTheServersWithDatasetHistory() {
        assertThat(TALK.recordedAnswers(2)).containsExactly("Hello.", "Sunny.");
        assertThat(TALK.messages(1, TALK.recordedAnswers(1)))
                .containsExactly(
                        new ChatMessage("system", "You are terse."),
                        ChatMessage.user("Hi?"),
                        new ChatMessage("assistant", "Hello."),
                        ChatMessage.user("Weather?"));
    }

    @Test
    void noSystemPromptSendsNoSystemMessage() {
        Conversation plain = new Conversation("", List.of(new Conversation.Turn("Hi?", "", 4)));
        assertThat(plain.messages(0, List.of())).containsExactly(ChatMessage.user("Hi?"));
    }

    @Test
    void aTurnWithoutTheAnswersBeforeItIsABug() {
        assertThatThrownBy(() -> TALK.messages(2, List.of("only one")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs the 2 answers");
        assertThatThrownBy(() -> new Conversation("", List.of())).hasMessageContaining("at least one turn");
    }
}
