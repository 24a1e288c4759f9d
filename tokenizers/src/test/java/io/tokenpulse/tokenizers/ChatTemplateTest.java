package io.tokenpulse.tokenizers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ChatTemplateTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '¦',
            quoteCharacter = '"',
            value = {
                "reverse slice becomes filter ¦ {% for m in messages[::-1] %}                  ¦ {% for m in messages|reverse %}",
                "spaced slice                 ¦ {{ x[ :: -1 ] }}                               ¦ {{ x|reverse }}",
                "keyword values parenthesised ¦ namespace(a=true, b=messages|length - 1)       ¦ namespace(a=(true), b=(messages|length - 1))",
                "comparison is not a keyword  ¦ namespace(a == b)                              ¦ namespace(a == b)",
                "other calls untouched        ¦ {{ range(1, 3) }}                              ¦ {{ range(1, 3) }}",
            })
    void adaptsJinja2FormsJinjavaCannotParse(String why, String jinja2, String jinjava) {
        assertThat(ChatTemplate.adaptToJinjava(jinja2)).isEqualTo(jinjava);
    }

    // Expected values are Python's own str methods.
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '¦',
            quoteCharacter = '"',
            value = {
                "startswith         ¦ {{ 'abc'.startswith('ab') }}               ¦ true",
                "endswith           ¦ {{ 'abc'.endswith('x') }}                  ¦ false",
                "split is literal   ¦ {{ 'a.b.c'.split('.')[-1] }}               ¦ c",
                "split keeps empty  ¦ {{ 'a,,b'.split(',')|length }}             ¦ 3",
                "lstrip chars       ¦ {{ 'xxhixx'.lstrip('x') }}                 ¦ hixx",
                "rstrip chars       ¦ {{ 'xxhixx'.rstrip('x') }}                 ¦ xxhi",
                "strip chars        ¦ {{ 'xxhixx'.strip('x') }}                  ¦ hi",
                "strip whitespace   ¦ [{{ '  hi  '.strip() }}]                   ¦ [hi]",
                "natural precedence ¦ {{ messages|length - 1 }}                  ¦ 0",
            })
    void pythonStringMethodsBehaveAsInPython(String why, String template, String expected) {
        ChatTemplate chat = new ChatTemplate("t", template, Map.of());

        assertThat(chat.render(List.of(ChatMessage.user("x")), false)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '¦',
            quoteCharacter = '"',
            value = {
                "bos from config  ¦ {{ bos_token }}{{ messages[0].content }} ¦ <s>hi",
                "generation flag  ¦ {% if add_generation_prompt %}GO{% endif %} ¦ GO",
            })
    void templateSeesSpecialTokensAndFlags(String why, String template, String expected) {
        ChatTemplate chat = new ChatTemplate("t", template, Map.of("bos_token", "<s>"));

        assertThat(chat.render(List.of(ChatMessage.user("hi")), true)).isEqualTo(expected);
    }
}
