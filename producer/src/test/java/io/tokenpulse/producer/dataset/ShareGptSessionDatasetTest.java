package io.tokenpulse.producer.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.tokenizers.ChatMessage;
import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sharegpt --multi-turn} on small ShareGPT files written here and the real Qwen3 tokenizer. */
class ShareGptSessionDatasetTest {

    static Tokenizer qwen3;

    @TempDir
    Path dir;

    @BeforeAll
    static void load() {
        qwen3 = new TokenizerLoader(Path.of("no-hub-cache")).load(RandomDatasetTest.QWEN3.toString());
    }

    private Dataset dataset(String json, Integer outputLen) throws IOException {
        Path file = dir.resolve("sessions.json");
        Files.writeString(file, json);
        DatasetOptions options = new DatasetOptions(
                        "sharegpt",
                        file,
                        PromptStyle.CHAT,
                        DatasetOptions.Random.DEFAULTS,
                        DatasetOptions.Sonnet.DEFAULTS)
                .withShareGpt(new DatasetOptions.ShareGpt(outputLen))
                .withFileSampling(new DatasetOptions.FileSampling(true, true))
                .withMultiTurn(new DatasetOptions.MultiTurn(true, 1, 1, 1, 0));
        return Datasets.create(options, qwen3);
    }

    @Test
    void everyHumanTurnOfAConversationIsATurnOfItsSession() throws IOException {
        Dataset dataset = dataset("""
                [{"conversations": [
                   {"from": "system", "value": "Be brief."},
                   {"from": "human", "value": "What is the capital of France?"},
                   {"from": "gpt", "value": "Paris is the capital of France."},
                   {"from": "human", "value": "And of Italy?"},
                   {"from": "gpt", "value": "Rome."},
                   {"from": "human", "value": "Thanks."},
                   {"from": "gpt", "value": "You are welcome, have a nice day."}]},
                 {"conversations": [
                   {"from": "gpt", "value": "An answer with no question is skipped."},
                   {"from": "human", "value": "Hello"},
                   {"from": "human", "value": "anyone there?"},
                   {"from": "gpt", "value": "Yes, I am here."},
                   {"from": "human", "value": "An unanswered last question."}]}]
                """, null);

        List<SampledRequest> sessions = dataset.sample(2, 0);

        Conversation first = sessions.get(0).conversation();
        assertThat(first.systemPrompt()).isEqualTo("Be brief.");
        assertThat(first.turns())
                .extracting(Conversation.Turn::user)
                .containsExactly("What is the capital of France?", "And of Italy?", "Thanks.");
        assertThat(first.turns())
                .extracting(Conversation.Turn::recordedAnswer)
                .containsExactly("Paris is the capital of France.", "Rome.", "You are welcome, have a nice day.");
        // each turn asks for its recorded answer's length
        assertThat(first.turns().get(1).outputLen()).isEqualTo(qwen3.countTokens("Rome."));
        assertThat(sessions.get(0).turns()).isEqualTo(3);
        assertThat(((Prompt.Chat) sessions.get(0).prompt()).messages())
                .containsExactly(
                        new ChatMessage("system", "Be brief."), ChatMessage.user("What is the capital of France?"));

        Conversation second = sessions.get(1).conversation();
        assertThat(second.systemPrompt()).isEmpty();
        assertThat(second.turns())
                .as("consecutive questions joined; the unanswered last one has no length to ask for")
                .extracting(Conversation.Turn::user)
                .containsExactly("Hello\nanyone there?");
    }

    @Test
    void anUnansweredLastQuestionIsSentWithAGivenOutputLength() throws IOException {
        Dataset dataset = dataset("""
                [{"conversations": [{"from": "human", "value": "Hi"}, {"from": "gpt", "value": "Hello"},
                   {"from": "human", "value": "Bye"}]}]
                """, 32);

        Conversation conversation = dataset.sample(1, 0).get(0).conversation();

        assertThat(conversation.turns()).extracting(Conversation.Turn::user).containsExactly("Hi", "Bye");
        assertThat(conversation.turns())
                .extracting(Conversation.Turn::outputLen)
                .containsExactly(32, 32);
    }

    @Test
    void anEntryWithoutTurnsIsOneLineNamingTheFileTheEntryItsLineAndTheRule() throws IOException {
        Path file = dir.resolve("sessions.json");
        assertThatThrownBy(() -> dataset("""
                        [{"conversations": [{"from": "human", "value": "Hi"}, {"from": "gpt", "value": "Hello"}]},
                         {"conversations": []}]
                        """, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--dataset-path " + file + " is not a multi-turn ShareGPT file: entry [1] (line 2) has no"
                        + " turns (\"conversations\" is missing, empty or not a list); a --multi-turn session needs at"
                        + " least one human turn followed by an answer");
    }

    @Test
    void anEntryWithOnlyAnAnswerBreaksTheSameRule() {
        assertThatThrownBy(() -> dataset("[{\"conversations\": [{\"from\": \"gpt\", \"value\": \"Hello\"}]}]", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("entry [0] (line 1) has no human turn with an answer")
                .hasMessageNotContaining("\n");
    }
}
