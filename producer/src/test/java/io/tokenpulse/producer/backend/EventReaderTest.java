package io.tokenpulse.producer.backend;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.producer.backend.EventReader.TextField;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EventReaderTest {

    private static StreamEvent read(TextField field, String json) {
        byte[] padded = ("xx" + json + "yy").getBytes(UTF_8);
        // Read from the middle of an array, as events arrive from the parser's buffer.
        return new EventReader(field).read(padded, 2, padded.length - 4);
    }

    private static StreamEvent.Usage usage(String spec) {
        if (spec == null) {
            return null;
        }
        String[] parts = spec.split("/", -1);
        return new StreamEvent.Usage(
                parts[0].isEmpty() ? null : Integer.valueOf(parts[0]),
                parts[1].isEmpty() ? null : Integer.valueOf(parts[1]),
                parts.length < 3 || parts[2].isEmpty() ? null : Integer.valueOf(parts[2]),
                parts.length < 4 ? null : Integer.valueOf(parts[3]));
    }

    // Events as vLLM, SGLang, llama.cpp and OpenAI send them. usage as prompt/completion[/reasoning[/cached]].
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "vLLM text chunk with usage null | TEXT | {\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"text\":\" café\",\"logprobs\":null,\"finish_reason\":null,\"stop_reason\":null}],\"usage\":null} | true | ` café` | |",
                "special token: empty text still a choices event | TEXT | {\"choices\":[{\"index\":0,\"text\":\"\"}]} | true | `` | |",
                "text null | TEXT | {\"choices\":[{\"index\":0,\"text\":null,\"logprobs\":{\"tokens\":[\"a\"]}}]} | true | `` | |",
                "vLLM usage-only tail | TEXT | {\"id\":\"cmpl-1\",\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"total_tokens\":20,\"completion_tokens\":8,\"prompt_tokens_details\":null}} | false | `` | 12/8 |",
                "llama.cpp chunk with usage and timings | TEXT | {\"choices\":[{\"text\":\"!\",\"index\":0,\"logprobs\":null,\"finish_reason\":\"length\"}],\"created\":1,\"model\":\"m\",\"system_fingerprint\":\"b5000\",\"object\":\"text_completion\",\"usage\":{\"completion_tokens\":16,\"prompt_tokens\":5,\"total_tokens\":21},\"timings\":{\"predicted_ms\":120.5}} | true | ! | 5/16 |",
                "SGLang second choice ignored | TEXT | {\"choices\":[{\"index\":0,\"text\":\"a\"},{\"index\":1,\"text\":\"b\"}]} | true | a | |",
                "usage with null completion | TEXT | {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":null}} | false | `` | 3/ |",
                "chat role-only first chunk | DELTA_CONTENT | {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]} | true | `` | |",
                "OpenAI role chunk with refusal | DELTA_CONTENT | {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null},\"finish_reason\":null}],\"usage\":null} | true | `` | |",
                "chat content chunk | DELTA_CONTENT | {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Grüße\"}}]} | true | Grüße | |",
                "chat reasoning delta without content | DELTA_CONTENT | {\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"hm\"}}]} | true | `` | |",
                "OpenAI usage tail with reasoning tokens | DELTA_CONTENT | {\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":30,\"total_tokens\":39,\"prompt_tokens_details\":{\"cached_tokens\":0},\"completion_tokens_details\":{\"reasoning_tokens\":24,\"accepted_prediction_tokens\":0}}} | false | `` | 9/30/24/0 |",
                "vLLM prefix-cache hit in usage | TEXT | {\"choices\":[],\"usage\":{\"prompt_tokens\":40,\"completion_tokens\":8,\"prompt_tokens_details\":{\"cached_tokens\":32}}} | false | `` | 40/8//32 |",
                "prompt details without a cached count | TEXT | {\"choices\":[],\"usage\":{\"prompt_tokens\":40,\"completion_tokens\":8,\"prompt_tokens_details\":{\"audio_tokens\":0}}} | false | `` | 40/8 |",
                "completion details without reasoning count | TEXT | {\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":30,\"completion_tokens_details\":null}} | false | `` | 9/30 |",
                "chat finish chunk with empty delta | DELTA_CONTENT | {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]} | true | `` | |",
                "chat ignores completions text field | DELTA_CONTENT | {\"choices\":[{\"index\":0,\"text\":\"x\",\"delta\":{\"content\":\"y\"}}]} | true | y | |",
                "choices null | TEXT | {\"choices\":null} | false | `` | |",
                "vLLM error event | TEXT | {\"error\":{\"object\":\"error\",\"message\":\"The decoder prompt is too long\",\"type\":\"BadRequestError\",\"param\":null,\"code\":400}} | false | `` | | server error: The decoder prompt is too long",
                "older vLLM error body | TEXT | {\"object\":\"error\",\"message\":\"Model\\nnot found\",\"code\":404} | false | `` | | server error: Model not found",
                "error as a string | TEXT | {\"error\":\"overloaded\"} | false | `` | | server error: overloaded",
                "error null is no error | TEXT | {\"choices\":[{\"text\":\"a\"}],\"error\":null} | true | a | |",
                "truncated JSON | TEXT | {\"choices\":[{\"text\":\"a | false | `` | | malformed event: Unexpected end-of-input",
                "not an object | TEXT | [1,2] | false | `` | | malformed event: not a JSON object",
                "two objects | TEXT | {\"a\":1} {\"b\":2} | false | `` | | malformed event: content after the JSON object",
                "plain text | TEXT | hello | false | `` | | malformed event: Unrecognized token",
            })
    void readsRecordedEvents(
            String why,
            TextField field,
            String json,
            boolean hasChoices,
            String text,
            String usage,
            String errorPrefix) {
        StreamEvent event = read(field, json);
        assertThat(event.hasChoices()).as("hasChoices").isEqualTo(hasChoices);
        assertThat(event.text()).isEqualTo(text);
        assertThat(event.usage()).isEqualTo(usage(usage));
        if (errorPrefix == null) {
            assertThat(event.error()).isNull();
        } else {
            assertThat(event.error()).startsWith(errorPrefix).doesNotContain("\n");
        }
    }
}
