package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.producer.backend.Backends;
import io.tokenpulse.producer.dataset.Conversation;
import io.tokenpulse.producer.dataset.DatasetOptions;
import io.tokenpulse.producer.dataset.PromptStyle;
import io.tokenpulse.producer.dataset.SampledRequest;
import io.tokenpulse.producer.http.StreamRequest;
import io.tokenpulse.producer.schedule.ArrivalSettings;
import io.tokenpulse.producer.session.HistorySource;
import io.tokenpulse.producer.session.SessionOptions;
import io.tokenpulse.producer.session.ThinkTime;
import io.tokenpulse.tokenizers.ChatMessage;
import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a session's first turn puts on the wire: its messages, its request id and the session header. */
class SessionTest {

    private static final Conversation TALK = new Conversation(
            "Be brief.", List.of(new Conversation.Turn("Hi?", "Hello.", 8), new Conversation.Turn("Bye?", "Bye.", 8)));

    @Test
    void theFirstTurnSendsTheSystemPromptAndQuestionWithTheSessionIdInTheHeader() throws Exception {
        StreamRequest http = firstTurn(SessionOptions.AFFINITY_HEADER);

        assertThat(http.headers())
                .containsEntry("X-Session-Affinity", "run-7-session-3")
                .containsEntry("x-request-id", "it-5");
        JsonNode messages = new ObjectMapper().readTree(http.body()).get("messages");
        assertThat(messages).hasSize(2);
        assertThat(messages.get(0).get("role").asText()).isEqualTo("system");
        assertThat(messages.get(0).get("content").asText()).isEqualTo("Be brief.");
        assertThat(messages.get(1).get("role").asText()).isEqualTo("user");
        assertThat(messages.get(1).get("content").asText()).isEqualTo("Hi?");
    }

    @Test
    void withoutTheFlagNoSessionHeaderIsSent() {
        assertThat(firstTurn(null).headers()).doesNotContainKey("X-Session-Affinity");
    }

    /**
     * Issue 33, item 1: a later turn's input tokens are counted as vLLM counts a chat prompt, the whole
     * conversation rendered by the model's chat template with the generation prompt (Qwen3's, which
     * also drops an earlier answer's thinking), not the new question or the bare texts.
     */
    @Test
    void aLaterTurnCountsTheWholeConversationAsTheChatTemplateRendersIt() {
        Tokenizer qwen3 = new TokenizerLoader(Path.of("no-hub-cache"))
                .load(Path.of("..", "testdata", "tokenizers", "qwen3").toString());
        String answer = "<think>\nLet me see.\n</think>\n\nHello there.";

        SampledRequest second = Session.turnSample(qwen3, TALK, 1, List.of(answer), 3);

        assertThat(((io.tokenpulse.producer.dataset.Prompt.Chat) second.prompt()).messages())
                .extracting(ChatMessage::role)
                .containsExactly("system", "user", "assistant", "user");
        String rendered = "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi?<|im_end|>\n"
                + "<|im_start|>assistant\nHello there.<|im_end|>\n<|im_start|>user\nBye?<|im_end|>\n"
                + "<|im_start|>assistant\n";
        assertThat(second.promptLen()).isEqualTo(qwen3.countTokens(rendered));
        assertThat(second.expectedOutputLen()).isEqualTo(8);
    }

    /** Session 3 of run {@code run-7}, whose turns start at request index 5. */
    private static StreamRequest firstTurn(String header) {
        LoadSettings settings = settings();
        SessionParts parts = new SessionParts(
                null,
                null,
                Backends.get("openai-chat"),
                settings.target().backendSettings(),
                settings,
                new SessionOptions(ThinkTime.NONE, HistorySource.SERVER, header),
                null,
                null,
                () -> {},
                null,
                null);
        SampledRequest opening = new SampledRequest(
                new io.tokenpulse.producer.dataset.Prompt.Chat(TALK.messages(0, List.of())),
                10,
                8,
                3,
                java.util.OptionalLong.empty(),
                TALK);
        return new Session(parts, new PlannedRequest(5, 0, opening)).firstTurn();
    }

    private static LoadSettings settings() {
        LoadSettings.Target target = new LoadSettings.Target(
                "openai-chat",
                URI.create("http://127.0.0.1:8000"),
                "/v1/chat/completions",
                "m",
                null,
                null,
                Map.of(),
                null,
                false);
        DatasetOptions dataset = new DatasetOptions(
                "multi-turn", null, PromptStyle.CHAT, DatasetOptions.Random.DEFAULTS, DatasetOptions.Sonnet.DEFAULTS);
        LoadSettings.Workload workload = new LoadSettings.Workload(
                dataset,
                "words",
                1,
                null,
                ArrivalSettings.constant(100.0, 1.0, 7),
                null,
                0,
                null,
                SessionOptions.DEFAULTS,
                null);
        return new LoadSettings(
                "run-7",
                0,
                1,
                target,
                workload,
                new LoadSettings.Reporting("ttft", "99", null, "{}", List.of("ttft"), List.of(99.0), Map.of()),
                "it-",
                Duration.ofSeconds(10),
                false,
                false);
    }
}
