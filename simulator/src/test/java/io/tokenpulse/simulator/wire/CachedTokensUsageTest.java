package io.tokenpulse.simulator.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tokenpulse.simulator.engine.PromptCounter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The prefix-cache hit in OpenAI's usage: {@code usage.prompt_tokens_details.cached_tokens}, as the
 * OpenAI API reference's chat completion object (platform.openai.com/docs/api-reference/chat/object,
 * read 2026-11-27) and vLLM with {@code --enable-prompt-tokens-details} write it; in the Responses API's
 * {@code usage.input_tokens_details.cached_tokens}, part of {@code input_tokens}
 * (platform.openai.com/docs/api-reference/responses/object, read 2026-11-28); in Anthropic's Messages usage
 * as {@code cache_read_input_tokens}, counted apart from {@code input_tokens}
 * (platform.claude.com/docs/en/build-with-claude/streaming and .../prompt-caching, read 2026-11-28).
 */
class CachedTokensUsageTest {

    private static final byte[] CHAT =
            ("{\"model\": \"m\", \"stream\": true, \"stream_options\": {\"include_usage\": true},"
                            + " \"messages\": [{\"role\": \"user\", \"content\": \"a b c\"}], \"max_tokens\": 4}")
                    .getBytes(StandardCharsets.UTF_8);

    @Test
    void usageCarriesTheCachedTokensTheEngineReported() throws Exception {
        ChunkFormat format = format();
        format.prefixCached(48);
        ByteBuf out = Unpooled.buffer();
        format.usageEvent(out, 100, 4);
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("\"prompt_tokens\":100")
                .contains("\"prompt_tokens_details\":{\"cached_tokens\":48}");
    }

    @Test
    void aModelWithoutPrefixCacheLeavesTheDetailsOut() throws Exception {
        ByteBuf out = Unpooled.buffer();
        format().usageEvent(out, 100, 4);
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("\"prompt_tokens\":100")
                .doesNotContain("prompt_tokens_details");
    }

    @Test
    void theResponsesUsageCountsTheCachedTokensInsideTheInputTokens() throws Exception {
        ChunkFormat format = format(MessageApiRequests.responses(
                bytes("{\"model\": \"m\", \"input\": \"a b c\", \"max_output_tokens\": 4}"),
                16,
                PromptCounter.WHITESPACE));
        format.prefixCached(48);
        ByteBuf out = Unpooled.buffer();
        format.wholeResponse(out, "x y", "stop", 100, 2);
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("\"input_tokens\":100,\"input_tokens_details\":{\"cached_tokens\":48}");
    }

    @Test
    void theMessagesUsageCountsTheCacheReadsApartFromTheInputTokens() throws Exception {
        ChunkFormat format = format(MessageApiRequests.messages(
                bytes(
                        "{\"model\": \"m\", \"max_tokens\": 4, \"messages\": [{\"role\": \"user\", \"content\": \"a b c\"}]}"),
                PromptCounter.WHITESPACE));
        format.prefixCached(48);
        ByteBuf out = Unpooled.buffer();
        format.wholeResponse(out, "x y", "stop", 100, 2);
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("\"input_tokens\":52,\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":48");
    }

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private static ChunkFormat format(GenerationRequest request) {
        return ChunkFormat.of(request, new ResponseName("req-1", "m", 0), null, 0);
    }

    private static ChunkFormat format() throws BadRequestException {
        GenerationRequest request = GenerationRequest.parse(Endpoint.CHAT, CHAT, 16, PromptCounter.WHITESPACE);
        return ChunkFormat.of(request, new ResponseName("req-1", "m", 0), null, 0);
    }
}
