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
 * read 2026-11-27) and vLLM with {@code --enable-prompt-tokens-details} write it.
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

    private static ChunkFormat format() throws BadRequestException {
        GenerationRequest request = GenerationRequest.parse(Endpoint.CHAT, CHAT, 16, PromptCounter.WHITESPACE);
        return ChunkFormat.of(request, new ResponseName("req-1", "m", 0), null, 0);
    }
}
