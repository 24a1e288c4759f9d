package io.tokenpulse.producer.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.tokenizers.ChatMessage;
import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The synthetic multi-turn dataset on the real Qwen3 tokenizer (its chat template counts the prompts). */
class MultiTurnDatasetTest {

    static Tokenizer qwen3;

    @BeforeAll
    static void load() {
        qwen3 = new TokenizerLoader(Path.of("no-hub-cache")).load(RandomDatasetTest.QWEN3.toString());
    }

    static DatasetOptions options(PromptStyle style, DatasetOptions.MultiTurn multiTurn) {
        return new DatasetOptions(
                        "multi-turn", null, style, DatasetOptions.Random.DEFAULTS, DatasetOptions.Sonnet.DEFAULTS)
                .withMultiTurn(multiTurn);
    }

    @Test
    void everySessionHasTheTurnsLengthsAndSharedSystemPromptAskedFor() {
        Dataset dataset =
                Datasets.create(options(PromptStyle.CHAT, new DatasetOptions.MultiTurn(false, 3, 40, 20, 30)), qwen3);

        List<SampledRequest> sessions = dataset.sample(4, 7);

        assertThat(sessions).hasSize(4);
        String system = sessions.get(0).conversation().systemPrompt();
        assertThat(qwen3.countTokens(system)).isEqualTo(30);
        for (int i = 0; i < sessions.size(); i++) {
            SampledRequest session = sessions.get(i);
            Conversation conversation = session.conversation();
            assertThat(session.index()).isEqualTo(i);
            assertThat(session.turns()).isEqualTo(3);
            assertThat(conversation.systemPrompt())
                    .as("one system prompt for all")
                    .isEqualTo(system);
            for (Conversation.Turn turn : conversation.turns()) {
                assertThat(qwen3.countTokens(turn.user())).isEqualTo(40);
                assertThat(qwen3.countTokens(turn.recordedAnswer())).isEqualTo(20);
                assertThat(turn.outputLen()).isEqualTo(20);
            }
            // the first turn is what a single request would send: system prompt and first user message
            List<ChatMessage> first = ((Prompt.Chat) session.prompt()).messages();
            assertThat(first)
                    .containsExactly(
                            new ChatMessage("system", system),
                            ChatMessage.user(conversation.turns().get(0).user()));
            // counted as the server counts a chat prompt: rendered by the template, not the bare texts
            assertThat(session.promptLen())
                    .isEqualTo(qwen3.countTokens(qwen3.applyChatTemplate(first, true)))
                    .isGreaterThan(70);
            assertThat(session.expectedOutputLen()).isEqualTo(20);
        }
        assertThat(sessions.get(0).conversation().turns().get(0).user())
                .isNotEqualTo(sessions.get(1).conversation().turns().get(0).user());
        assertThat(dataset.sample(4, 7)).as("same seed, same sessions").isEqualTo(sessions);
    }

    @Test
    void zeroTurnsIsOneLineNamingTheFlagAndTheRule() {
        assertThatThrownBy(() -> Datasets.create(
                        options(PromptStyle.CHAT, new DatasetOptions.MultiTurn(false, 0, 40, 20, 0)), qwen3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--multi-turn-num-turns must be >= 1 (a session needs at least one turn), got 0");
    }

    @Test
    void aCompletionsBackendIsRefusedBeforeTheRun() {
        assertThatThrownBy(() ->
                        Datasets.create(options(PromptStyle.COMPLETION, DatasetOptions.MultiTurn.DEFAULTS), qwen3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("use --backend openai-chat (/v1/chat/completions), openai-responses"
                        + " (/v1/responses) or anthropic-messages (/v1/messages)")
                .hasMessageNotContaining("\n");
    }
}
