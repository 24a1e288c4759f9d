package io.tokenpulse.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.simulator.engine.OutputLengths;
import io.tokenpulse.simulator.faults.Fault;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The OpenAI Responses and Anthropic Messages endpoints as a client sees them on the wire.
 *
 * <p>Checked against the published references, as read on 2026-11-27: OpenAI API reference,
 * Responses, "Streaming events" (https://platform.openai.com/docs/api-reference/responses-streaming:
 * event names, {@code sequence_number}, {@code item_id}/{@code output_index}/{@code content_index},
 * {@code response.incomplete} for a response cut at {@code max_output_tokens}, the usage object), and
 * Anthropic's "Streaming messages" (https://platform.claude.com/docs/en/build-with-claude/streaming,
 * formerly docs.anthropic.com:
 * the event flow message_start, content blocks, message_delta, message_stop, ping, thinking_delta
 * and signature_delta).
 */
class SimulatorTypedEventsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private SimulatorServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static SimulatorConfig fast() {
        return SimulatorConfig.deterministic(Duration.ofMillis(2), Duration.ofMillis(1));
    }

    /** One SSE event: the {@code event:} line's name and the parsed data. */
    record Event(String name, JsonNode data) {
        String type() {
            return data.path("type").asText();
        }
    }

    @Test
    void responsesStreamOpensDeltasAndClosesIncompleteAtMaxOutputTokens() throws Exception {
        server = SimulatorServer.start(fast());
        HttpResponse<String> response = post("/v1/responses", null, """
                {"model": "m", "input": "a b c", "max_output_tokens": 3, "stream": true}""");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
        List<Event> events = events(response.body());
        assertThat(events)
                .extracting(Event::type)
                .containsExactly(
                        "response.created",
                        "response.in_progress",
                        "response.output_item.added",
                        "response.content_part.added",
                        "response.output_text.delta",
                        "response.output_text.delta",
                        "response.output_text.delta",
                        "response.output_text.done",
                        "response.content_part.done",
                        "response.output_item.done",
                        "response.incomplete");
        for (int i = 0; i < events.size(); i++) {
            assertThat(events.get(i).name())
                    .as("the event line names the data's type")
                    .isEqualTo(events.get(i).type());
            assertThat(events.get(i).data().get("sequence_number").asInt()).isEqualTo(i);
        }
        assertThat(events.get(0).data().at("/response/status").asText()).isEqualTo("in_progress");
        assertThat(events.get(0).data().at("/response/usage").isNull()).isTrue();
        assertThat(events.get(4).data().get("delta").asText()).isEqualTo("tok0 ");
        assertThat(events.get(4).data().get("item_id").asText())
                .isEqualTo(events.get(2).data().at("/item/id").asText());
        assertThat(events.get(7).data().get("text").asText()).isEqualTo("tok0 tok1 tok2 ");
        JsonNode last = events.get(10).data().get("response");
        assertThat(last.get("status").asText()).isEqualTo("incomplete");
        assertThat(last.at("/incomplete_details/reason").asText()).isEqualTo("max_output_tokens");
        assertThat(last.at("/output/0/content/0/text").asText()).isEqualTo("tok0 tok1 tok2 ");
        assertThat(last.at("/usage/output_tokens").asInt()).isEqualTo(3);
        assertThat(last.at("/usage/input_tokens").asInt())
                .as("the prompt counted as the chat path counts one user message")
                .isEqualTo(chatPromptTokens("a b c"));
        assertThat(last.at("/usage/input_tokens_details").isMissingNode())
                .as("no cached-token count without --enable-prompt-tokens-details")
                .isTrue();
        assertThat(last.at("/usage/total_tokens").asInt()).isEqualTo(chatPromptTokens("a b c") + 3);
        assertThat(response.body()).doesNotContain("[DONE]");
    }

    @Test
    void responsesStreamEndingByEosClosesWithResponseCompleted() throws Exception {
        server = SimulatorServer.start(fast().withOutputLengths(new OutputLengths(1, 0)));
        List<Event> events = events(post("/v1/responses", null, """
                        {"model": "m", "input": [{"role": "user", "content": [{"type": "input_text", "text": "a b"}]}],
                         "max_output_tokens": 200, "stream": true}""").body());

        Event last = events.get(events.size() - 1);
        assertThat(last.type()).isEqualTo("response.completed");
        assertThat(last.data().at("/response/status").asText()).isEqualTo("completed");
        assertThat(last.data().at("/response/incomplete_details").isNull()).isTrue();
        long deltas = events.stream()
                .filter(e -> e.type().equals("response.output_text.delta"))
                .count();
        assertThat(last.data().at("/response/usage/output_tokens").asLong())
                .isEqualTo(deltas)
                .isLessThan(200);
    }

    @Test
    void responsesStreamsAReasoningModelsThinkingAsAReasoningItemFirst() throws Exception {
        server = SimulatorServer.start(fast().withReasoningTokens(2));
        List<Event> events = events(post("/v1/responses", null, """
                        {"input": "a b", "max_output_tokens": 3, "stream": true}""").body());

        assertThat(events)
                .extracting(Event::type)
                .containsExactly(
                        "response.created",
                        "response.in_progress",
                        "response.output_item.added",
                        "response.reasoning_text.delta",
                        "response.reasoning_text.delta",
                        "response.reasoning_text.done",
                        "response.output_item.done",
                        "response.output_item.added",
                        "response.content_part.added",
                        "response.output_text.delta",
                        "response.output_text.done",
                        "response.content_part.done",
                        "response.output_item.done",
                        "response.incomplete");
        assertThat(events.get(2).data().at("/item/type").asText()).isEqualTo("reasoning");
        assertThat(events.get(3).data().get("delta").asText()).isEqualTo("tok0 ");
        assertThat(events.get(7).data().at("/item/type").asText()).isEqualTo("message");
        assertThat(events.get(7).data().get("output_index").asInt()).isEqualTo(1);
        assertThat(events.get(9).data().get("delta").asText()).isEqualTo("tok2 ");
        JsonNode usage = events.get(13).data().at("/response/usage");
        assertThat(usage.get("output_tokens").asInt()).isEqualTo(3);
        assertThat(usage.at("/output_tokens_details/reasoning_tokens").asInt()).isEqualTo(2);
    }

    @Test
    void noDoneFaultLeavesOutTheClosingResponseEvent() throws Exception {
        server = SimulatorServer.start(fast());
        List<Event> events = events(post("/v1/responses", "no-done", """
                        {"input": "a b", "max_output_tokens": 2, "stream": true}""").body());

        assertThat(events.get(events.size() - 1).type()).isEqualTo("response.output_item.done");
        assertThat(events).extracting(Event::type).doesNotContain("response.completed", "response.incomplete");
    }

    @Test
    void messagesStreamFollowsAnthropicsEventFlow() throws Exception {
        server = SimulatorServer.start(fast());
        HttpResponse<String> response = post("/v1/messages", null, """
                {"model": "m", "max_tokens": 3, "stream": true,
                 "messages": [{"role": "user", "content": "a b c"}]}""");

        assertThat(response.statusCode()).isEqualTo(200);
        List<Event> events = events(response.body());
        assertThat(events)
                .extracting(Event::type)
                .containsExactly(
                        "message_start",
                        "ping",
                        "content_block_start",
                        "content_block_delta",
                        "content_block_delta",
                        "content_block_delta",
                        "content_block_stop",
                        "message_delta",
                        "message_stop");
        events.forEach(e -> assertThat(e.name()).isEqualTo(e.type()));
        JsonNode message = events.get(0).data().get("message");
        assertThat(message.get("role").asText()).isEqualTo("assistant");
        assertThat(message.get("content")).isEmpty();
        assertThat(message.at("/usage/input_tokens").asInt()).isEqualTo(chatPromptTokens("a b c"));
        assertThat(events.get(2).data().at("/content_block/type").asText()).isEqualTo("text");
        assertThat(events.get(3).data().at("/delta/type").asText()).isEqualTo("text_delta");
        assertThat(events.get(3).data().at("/delta/text").asText()).isEqualTo("tok0 ");
        assertThat(events.get(7).data().at("/delta/stop_reason").asText()).isEqualTo("max_tokens");
        assertThat(events.get(7).data().at("/usage/output_tokens").asInt()).isEqualTo(3);
    }

    @Test
    void messagesStreamsThinkingAsAThinkingBlockSignedBeforeItStops() throws Exception {
        server = SimulatorServer.start(fast().withReasoningTokens(2));
        List<Event> events = events(post("/v1/messages", null, """
                        {"max_tokens": 3, "stream": true, "system": "be brief",
                         "messages": [{"role": "user", "content": [{"type": "text", "text": "a b"}]}]}""").body());

        assertThat(events)
                .extracting(e -> e.type()
                        + (e.data().has("delta")
                                ? ":" + e.data().at("/delta/type").asText()
                                : ""))
                .containsExactly(
                        "message_start",
                        "ping",
                        "content_block_start",
                        "content_block_delta:thinking_delta",
                        "content_block_delta:thinking_delta",
                        "content_block_delta:signature_delta",
                        "content_block_stop",
                        "content_block_start",
                        "content_block_delta:text_delta",
                        "content_block_stop",
                        "message_delta:",
                        "message_stop");
        assertThat(events.get(3).data().at("/delta/thinking").asText()).isEqualTo("tok0 ");
        assertThat(events.get(7).data().get("index").asInt()).isEqualTo(1);
        assertThat(events.get(8).data().at("/delta/text").asText()).isEqualTo("tok2 ");
    }

    @Test
    void noDoneFaultLeavesOutMessageStop() throws Exception {
        server = SimulatorServer.start(fast());
        List<Event> events = events(post("/v1/messages", "no-done", """
                        {"max_tokens": 2, "stream": true, "messages": [{"role": "user", "content": "a"}]}""").body());

        assertThat(events.get(events.size() - 1).type()).isEqualTo("message_delta");
    }

    @Test
    void messagesWithoutMaxTokensIsRefusedAsAnthropicRefusesIt() throws Exception {
        server = SimulatorServer.start(fast());
        HttpResponse<String> response = post(
                "/v1/messages", null, "{\"stream\": true, \"messages\": [{\"role\": \"user\", \"content\": \"a\"}]}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(response.body()).at("/error/message").asText()).contains("max_tokens");
    }

    @Test
    void notStreamedBothAnswerTheirWholeObject() throws Exception {
        server = SimulatorServer.start(fast());
        JsonNode responses = JSON.readTree(post("/v1/responses", null, "{\"input\": \"a\", \"max_output_tokens\": 2}")
                .body());
        assertThat(responses.get("object").asText()).isEqualTo("response");
        assertThat(responses.at("/output/0/content/0/text").asText()).isEqualTo("tok0 tok1 ");
        assertThat(responses.at("/usage/output_tokens").asInt()).isEqualTo(2);

        JsonNode message = JSON.readTree(post("/v1/messages", null, """
                        {"max_tokens": 2, "messages": [{"role": "user", "content": "a"}]}""").body());
        assertThat(message.get("type").asText()).isEqualTo("message");
        assertThat(message.at("/content/0/text").asText()).isEqualTo("tok0 tok1 ");
        assertThat(message.get("stop_reason").asText()).isEqualTo("max_tokens");
        assertThat(message.at("/usage/output_tokens").asInt()).isEqualTo(2);
    }

    private int chatPromptTokens(String content) throws Exception {
        HttpResponse<String> chat = post(
                "/v1/chat/completions",
                null,
                "{\"messages\": [{\"role\": \"user\", \"content\": \"" + content + "\"}], \"max_tokens\": 1}");
        return JSON.readTree(chat.body()).at("/usage/prompt_tokens").asInt();
    }

    private HttpResponse<String> post(String path, String fault, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.baseUri().resolve(path))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (fault != null) {
            request.header(Fault.HEADER, fault);
        }
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<Event> events(String sse) throws Exception {
        List<Event> events = new ArrayList<>();
        for (String block : sse.split("\n\n")) {
            if (block.isBlank()) {
                continue;
            }
            String name = null;
            String data = null;
            for (String line : block.split("\n")) {
                if (line.startsWith("event: ")) {
                    name = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data = line.substring(6);
                }
            }
            events.add(new Event(name, JSON.readTree(data)));
        }
        return events;
    }
}
