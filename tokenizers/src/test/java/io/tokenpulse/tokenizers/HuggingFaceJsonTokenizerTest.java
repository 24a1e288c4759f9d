package io.tokenpulse.tokenizers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The real Qwen3 tokenizer from {@code testdata/}, run through DJL offline. */
class HuggingFaceJsonTokenizerTest {

    static final Path QWEN3 = Path.of("..", "testdata", "tokenizers", "qwen3");

    static Tokenizer qwen3;

    @BeforeAll
    static void load() {
        qwen3 = new TokenizerLoader(Path.of("no-hub-cache")).load(QWEN3.toString());
    }

    // Expected ids come from an independent byte-level BPE written in Python over the same
    // tokenizer.json (vocab, merges, pre-tokenizer regex, NFC), not from DJL.
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "ascii punctuation     | Hello, world!                                | 9707;11;1879;0",
                "pangram               | The quick brown fox jumps over the lazy dog. | 785;3974;13876;38835;34208;916;279;15678;5562;13",
                "CJK                   | 日本語のテキスト                                 | 101059;102819;15767;56833;61803;70534",
                "accents               | café naïve été                               | 924;58858;94880;586;23639",
                "emoji split in bytes  | emoji 🎉 ok                                   | 37523;11162;236;231;5394",
                "sonnet line           | Shall I compare thee to a summer’s day?      | 2016;541;358;9429;39244;311;264;7324;748;1899;30",
            })
    void encodeMatchesAnIndependentBpe(String why, String text, String expectedIds) {
        int[] expected = java.util.Arrays.stream(expectedIds.split(";"))
                .mapToInt(Integer::parseInt)
                .toArray();

        assertThat(qwen3.encode(text)).containsExactly(expected);
        assertThat(qwen3.countTokens(text)).isEqualTo(expected.length);
    }

    @Test
    void whitespaceAndDigitsFollowThePreTokenizer() {
        // Digits are single tokens; "\n\n" is one token; a trailing space is its own token.
        assertThat(qwen3.encode("  indented\n\nlines\tand 12345 numbers"))
                .containsExactly(220, 1257, 15864, 271, 7969, 52477, 220, 16, 17, 18, 19, 20, 5109);
        assertThat(qwen3.encode("word word word ")).containsExactly(1158, 3409, 3409, 220);
    }

    @Test
    void addedTokensInTextAreSingleIds() {
        assertThat(qwen3.encode("<think>\nhmm\n</think>")).containsExactly(151667, 198, 71, 3821, 198, 151668);
    }

    @Test
    void longTextIsNotTruncated() {
        // DJL would cut at 512 tokens by default.
        assertThat(qwen3.countTokens("word ".repeat(5000))).isEqualTo(5001);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "Hello, world!",
                "日本語のテキスト",
                "emoji 🎉 ok",
                "  tabs\tand\n\nnewlines  ",
                "<|im_start|>user\nhi<|im_end|>\n"
            })
    void decodeInvertsEncode(String text) {
        assertThat(qwen3.decode(qwen3.encode(text))).isEqualTo(text);
    }

    @Test
    void vocabularyAndSpecialTokensMatchHuggingFace() {
        // tokenizer.vocab_size excludes the 26 added tokens; all_special_ids are the 14 marked special.
        assertThat(qwen3.vocabSize()).isEqualTo(151_643);
        assertThat(qwen3.specialTokenIds())
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.rangeClosed(151_643, 151_656).boxed().toList());
        assertThat(qwen3.numSpecialTokensToAdd()).isZero();
    }

    @Test
    void loadingTellsDjlNotToCallHome() {
        // Without it DJL asks the EC2 metadata service over HTTP at every load.
        assertThat(System.getenv("OPT_OUT_TRACKING") != null || "true".equals(System.getProperty("OPT_OUT_TRACKING")))
                .isTrue();
    }

    @Test
    void everyBaseVocabularyIdDecodes() {
        int[] all = IntStream.range(0, qwen3.vocabSize()).toArray();

        assertThat(qwen3.decode(all)).isNotEmpty();
    }

    @Test
    void chatTemplateFormatsOneUserMessage() {
        // Expected text rendered by Python's jinja2 3.1.6 as transformers configures it.
        assertThat(qwen3.hasChatTemplate()).isTrue();
        assertThat(qwen3.applyChatTemplate(List.of(ChatMessage.user("Hi there")), true))
                .isEqualTo("<|im_start|>user\nHi there<|im_end|>\n<|im_start|>assistant\n");
        assertThat(qwen3.applyChatTemplate(List.of(ChatMessage.user("Hi there")), false))
                .isEqualTo("<|im_start|>user\nHi there<|im_end|>\n");
    }

    @Test
    void chatTemplateDropsReasoningOfEarlierTurnsAsJinja2Does() {
        // Exercises messages[::-1], namespace(...), str.split/lstrip/rstrip/startswith in the Qwen3 template.
        List<ChatMessage> conversation = List.of(
                new ChatMessage("system", "Be brief."),
                ChatMessage.user("Hi there"),
                new ChatMessage("assistant", "<think>\nhmm\n</think>\n\nHello!"),
                ChatMessage.user("Bye"));

        assertThat(qwen3.applyChatTemplate(conversation, true))
                .isEqualTo("<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi there<|im_end|>\n"
                        + "<|im_start|>assistant\nHello!<|im_end|>\n<|im_start|>user\nBye<|im_end|>\n"
                        + "<|im_start|>assistant\n");
        assertThat(qwen3.applyChatTemplate(
                        List.of(
                                ChatMessage.user("Hi"),
                                new ChatMessage("assistant", "<think>\nhmm\n</think>\n\nHello!")),
                        true))
                .isEqualTo(
                        "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\nhmm\n</think>\n\nHello!<|im_end|>\n"
                                + "<|im_start|>assistant\n");
    }

    @Test
    void tokenizerFileCanBeNamedDirectly() {
        Tokenizer fromFile = new TokenizerLoader(Path.of("no-hub-cache"))
                .load(QWEN3.resolve("tokenizer.json").toString());

        assertThat(fromFile.encode("Hello, world!")).containsExactly(9707, 11, 1879, 0);
        assertThat(fromFile.hasChatTemplate()).isTrue();
    }

    @Test
    void templateThatRaisesFailsWithItsMessage() {
        ChatTemplate template =
                new ChatTemplate("t", "{{ raise_exception('only user and assistant roles') }}", java.util.Map.of());

        assertThatThrownBy(() -> template.render(List.of(ChatMessage.user("x")), true))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("only user and assistant roles");
    }
}
