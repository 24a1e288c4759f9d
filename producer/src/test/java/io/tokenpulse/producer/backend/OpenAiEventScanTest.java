package io.tokenpulse.producer.backend;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.producer.backend.EventReader.TextField;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The fast path either reads an event exactly as {@link EventReader} (Jackson) does, or hands it back. */
class OpenAiEventScanTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                // answered by the fast path
                "vLLM text chunk | TEXT | true | {\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"text\":\" café\",\"logprobs\":null,\"finish_reason\":null,\"stop_reason\":null}],\"usage\":null}",
                "empty text | TEXT | true | {\"choices\":[{\"index\":0,\"text\":\"\"}]}",
                "text null with logprobs | TEXT | true | {\"choices\":[{\"index\":0,\"text\":null,\"logprobs\":{\"tokens\":[\"a\"],\"top\":[{\"a\":-0.5e-3}]}}]}",
                "text a number | TEXT | true | {\"choices\":[{\"text\":12}]}",
                "usage-only tail | TEXT | true | {\"id\":\"cmpl-1\",\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"total_tokens\":20,\"completion_tokens\":8,\"prompt_tokens_details\":null}}",
                "llama.cpp chunk | TEXT | true | {\"choices\":[{\"text\":\"!\",\"index\":0,\"logprobs\":null,\"finish_reason\":\"length\"}],\"created\":1,\"model\":\"m\",\"system_fingerprint\":\"b5000\",\"object\":\"text_completion\",\"usage\":{\"completion_tokens\":16,\"prompt_tokens\":5,\"total_tokens\":21},\"timings\":{\"predicted_ms\":120.5}}",
                "second choice ignored | TEXT | true | {\"choices\":[{\"index\":0,\"text\":\"a\"},{\"index\":1,\"text\":\"b\"},[1,{}],null]}",
                "usage with null and float counts | TEXT | true | {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":null,\"total_tokens\":2.5}}",
                "usage float count ignored | TEXT | true | {\"choices\":[],\"usage\":{\"prompt_tokens\":3.0,\"completion_tokens\":1e2}}",
                "usage extremes | TEXT | true | {\"choices\":[],\"usage\":{\"prompt_tokens\":2147483647,\"completion_tokens\":-2147483648}}",
                "usage -1 is a count | TEXT | true | {\"choices\":[],\"usage\":{\"prompt_tokens\":-1,\"completion_tokens\":0}}",
                "empty usage | TEXT | true | {\"choices\":[],\"usage\":{}}",
                "prefix-cache hit | TEXT | true | {\"choices\":[],\"usage\":{\"prompt_tokens\":40,\"completion_tokens\":8,\"prompt_tokens_details\":{\"cached_tokens\":32,\"audio_tokens\":null}}}",
                "cached count null | TEXT | true | {\"choices\":[],\"usage\":{\"prompt_tokens\":40,\"prompt_tokens_details\":{\"cached_tokens\":null}}}",
                "chat role-only chunk | DELTA_CONTENT | true | {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}",
                "chat refusal null | DELTA_CONTENT | true | {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null},\"finish_reason\":null}],\"usage\":null}",
                "chat content | DELTA_CONTENT | true | {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Grüße 日本 🙂\"}}]}",
                "chat reasoning_content | DELTA_CONTENT | true | {\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"hm\"}}]}",
                "chat reasoning and content | DELTA_CONTENT | true | {\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\"think\",\"content\":\"x\"}}]}",
                "chat content null | DELTA_CONTENT | true | {\"choices\":[{\"index\":0,\"delta\":{\"content\":null,\"tool_calls\":[{\"id\":\"c\"}]}}]}",
                "chat usage tail with reasoning tokens | DELTA_CONTENT | true | {\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":30,\"total_tokens\":39,\"prompt_tokens_details\":{\"cached_tokens\":0},\"completion_tokens_details\":{\"reasoning_tokens\":24,\"accepted_prediction_tokens\":0}}}",
                "details null | TEXT | true | {\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":30,\"completion_tokens_details\":null}}",
                "chat empty delta | DELTA_CONTENT | true | {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}",
                "chat ignores text | DELTA_CONTENT | true | {\"choices\":[{\"index\":0,\"text\":\"x\",\"delta\":{\"content\":\"y\"}}]}",
                "completions ignore delta | TEXT | true | {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"y\"},\"text\":\"x\"}]}",
                "chat two deltas: the last wins | DELTA_CONTENT | true | {\"choices\":[{\"delta\":{\"content\":\"a\",\"reasoning\":\"r\"},\"delta\":{\"content\":\"b\"}}]}",
                "choices null | TEXT | true | {\"choices\":null}",
                "error null | TEXT | true | {\"choices\":[{\"text\":\"a\"}],\"error\":null}",
                "object not error | TEXT | true | {\"object\":\"text_completion\",\"choices\":[{\"text\":\"a\"}]}",
                "escapes | TEXT | true | `{\"choices\":[{\"text\":\"a\\\"b\\\\c\\/d\\be\\ff\\ng\\rh\\ti\\u00e9\\u65E5\"}]}`",
                "escaped surrogate pair | TEXT | true | `{\"choices\":[{\"text\":\"\\ud83d\\ude42!\"}]}`",
                "escaped lone surrogate | TEXT | true | `{\"choices\":[{\"text\":\"x\\ud83d\"}]}`",
                "whitespace everywhere | TEXT | true | ` \t{ \"choices\" : [ { \"text\" : \"a\" } , { } ] , \"usage\" : { \"prompt_tokens\" : 1 } } \r\n`",
                "deep but not too deep | TEXT | true | {\"x\":[[[[[[[[{\"a\":[true,false,null,-0,0.5,1E+2]}]]]]]]]],\"choices\":[{\"text\":\"a\"}]}",
                "empty object | TEXT | true | {}",
                // handed back to Jackson
                "vLLM error event | TEXT | false | {\"error\":{\"object\":\"error\",\"message\":\"The decoder prompt is too long\",\"type\":\"BadRequestError\",\"param\":null,\"code\":400}}",
                "older vLLM error body | TEXT | false | `{\"object\":\"error\",\"message\":\"Model\\nnot found\",\"code\":404}`",
                "error as a string | TEXT | false | {\"error\":\"overloaded\"}",
                "truncated | TEXT | false | {\"choices\":[{\"text\":\"a",
                "not an object | TEXT | false | [1,2]",
                "two objects | TEXT | false | {\"a\":1} {\"b\":2}",
                "plain text | TEXT | false | hello",
                "trailing comma | TEXT | false | {\"choices\":[{\"text\":\"a\"},]}",
                "leading zero | TEXT | false | {\"a\":01,\"choices\":[]}",
                "bad literal | TEXT | false | {\"a\":nul,\"choices\":[]}",
                "bad escape | TEXT | false | `{\"choices\":[{\"text\":\"\\x\"}]}`",
                "escaped field name | TEXT | false | `{\"\\u0063hoices\":[{\"text\":\"a\"}]}`",
                "count beyond an int | TEXT | false | {\"choices\":[],\"usage\":{\"prompt_tokens\":2147483648}}",
                "repeated choices | TEXT | false | {\"choices\":[{\"text\":\"a\"}],\"choices\":[{\"text\":\"b\"}]}",
                "first choice not an object | TEXT | false | {\"choices\":[1,{\"text\":\"b\"}]}",
                "text an object | TEXT | false | {\"choices\":[{\"text\":{\"a\":1}}]}",
                "object an object | TEXT | false | {\"object\":{\"choices\":1},\"choices\":[]}",
                "too deep | TEXT | false | {\"x\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],\"choices\":[]}",
            })
    void readsAsEventReaderDoesOrHandsItBack(String why, TextField field, boolean answers, String json) {
        check(field, answers, json.getBytes(UTF_8));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "raw control character  | 22 63 68 6F 69 63 65 73 22 3A 5B 7B 22 74 65 78 74 22 3A 22 61 01 22 7D 5D",
                "invalid UTF-8 in text  | 22 63 68 6F 69 63 65 73 22 3A 5B 7B 22 74 65 78 74 22 3A 22 C3 28 22 7D 5D",
                "overlong UTF-8         | 22 63 68 6F 69 63 65 73 22 3A 5B 7B 22 74 65 78 74 22 3A 22 C0 AF 22 7D 5D",
                "UTF-8 surrogate        | 22 63 68 6F 69 63 65 73 22 3A 5B 7B 22 74 65 78 74 22 3A 22 ED A0 80 22 7D 5D",
                "cut UTF-8 sequence     | 22 63 68 6F 69 63 65 73 22 3A 5B 7B 22 74 65 78 74 22 3A 22 E6 97 22 7D 5D",
            })
    void handsBackWhatJacksonMightReadDifferently(String why, String hexMembers) {
        StringBuilder hex = new StringBuilder("7B ").append(hexMembers).append(" 7D");
        String[] parts = hex.toString().trim().split("\\s+");
        byte[] json = new byte[parts.length];
        for (int i = 0; i < parts.length; i++) {
            json[i] = (byte) Integer.parseInt(parts[i], 16);
        }
        check(TextField.TEXT, false, json);
    }

    private static void check(TextField field, boolean answers, byte[] json) {
        byte[] padded = new byte[json.length + 4];
        padded[0] = 'x';
        padded[1] = '{';
        System.arraycopy(json, 0, padded, 2, json.length);
        padded[padded.length - 2] = '}';
        padded[padded.length - 1] = 'y';
        EventReader reader = new EventReader(field);
        OpenAiEventScan scan = reader.newScan();
        // Read from the middle of an array, as events arrive from the parser's buffer.
        boolean answered = scan.scan(padded, 2, json.length);
        assertThat(answered).as("answered by the fast path").isEqualTo(answers);
        if (!answered) {
            return;
        }
        StreamEvent expected = reader.read(padded, 2, json.length);
        assertThat(expected.error()).as("Jackson's error").isNull();
        assertThat(scan.hasChoices).as("hasChoices").isEqualTo(expected.hasChoices());
        StringBuilder text = new StringBuilder("before|");
        scan.appendText(text);
        StringBuilder reasoning = new StringBuilder();
        scan.appendReasoning(reasoning);
        if (expected.hasChoices()) {
            assertThat(text.toString()).isEqualTo("before|" + expected.text());
            assertThat(reasoning.toString()).isEqualTo(expected.reasoning());
        }
        assertThat(scan.hasUsage ? scan.usage() : null).isEqualTo(expected.usage());
    }
}
