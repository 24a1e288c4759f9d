package io.tokenpulse.simulator.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.tokenizers.ChatMessage;
import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PromptCounterTest {

    @Test
    void completionPromptsCountTheBosTokenAServerAdds() {
        // GPT-2/OPT fallback: OPT's tokenizer adds one BOS token to every prompt.
        Tokenizer opt = TokenizerLoader.fromEnvironment().load("facebook/opt-125m");
        String text = "Pick as many lines as you can";
        int[] ids = PromptCounter.of(opt).textIds(text);
        assertThat(ids).hasSize(opt.countTokens(text) + 1);
        // the BOS is the same placeholder in every prompt, the text's own ids follow it
        assertThat(ids[0]).isEqualTo(-1);
        assertThat(Arrays.copyOfRange(ids, 1, ids.length)).isEqualTo(opt.encode(text));
    }

    @Test
    void chatPromptsCountTheRenderedTemplateWithoutExtraSpecialTokens() {
        Tokenizer qwen = TokenizerLoader.fromEnvironment()
                .load(Path.of("..", "testdata", "tokenizers", "qwen3").toString());
        List<ChatMessage> messages = List.of(ChatMessage.user("Hello there"));
        assertThat(PromptCounter.of(qwen).chatIds(messages))
                .isEqualTo(qwen.encode(qwen.applyChatTemplate(messages, true)));
        assertThat(qwen.numSpecialTokensToAdd()).isZero();
    }

    @Test
    void outputWordIsOneTokenPerRepetitionSoGeneratedTextRecountsExactly() {
        Tokenizer gpt2 = TokenizerLoader.fromEnvironment().load("gpt2");
        String word = PromptCounter.of(gpt2).outputWord();
        assertThat(word).isEqualTo(" the");
        assertThat(gpt2.countTokens(word.repeat(60))).isEqualTo(60);
    }

    @Test
    void withoutTokenizerTokensKeepTheirNumberedSpelling() {
        assertThat(PromptCounter.WHITESPACE.outputWord()).isNull();
    }
}
