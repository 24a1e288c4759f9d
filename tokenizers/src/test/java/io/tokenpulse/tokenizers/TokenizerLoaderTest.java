package io.tokenpulse.tokenizers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TokenizerLoaderTest {

    private static final Path QWEN3 = HuggingFaceJsonTokenizerTest.QWEN3;

    @Test
    void modelIdResolvesToTheSnapshotRefsMainPointsAt(@TempDir Path hub) throws IOException {
        Path repo = hub.resolve("models--Qwen--Qwen3-0.6B");
        Path snapshot = Files.createDirectories(repo.resolve("snapshots").resolve("abc123"));
        Files.createDirectories(repo.resolve("snapshots").resolve("000old"));
        Files.createSymbolicLink(
                snapshot.resolve("tokenizer.json"),
                QWEN3.resolve("tokenizer.json").toAbsolutePath());
        Files.createSymbolicLink(
                snapshot.resolve("tokenizer_config.json"),
                QWEN3.resolve("tokenizer_config.json").toAbsolutePath());
        Files.createDirectories(repo.resolve("refs"));
        Files.writeString(repo.resolve("refs").resolve("main"), "abc123\n");

        Tokenizer tokenizer = new TokenizerLoader(hub).load("Qwen/Qwen3-0.6B");

        assertThat(tokenizer.id()).isEqualTo("Qwen/Qwen3-0.6B");
        assertThat(tokenizer.encode("Hello, world!")).containsExactly(9707, 11, 1879, 0);
        assertThat(tokenizer.hasChatTemplate()).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "HF_HUB_CACHE wins, /hub, /hf, /hub",
        "HF_HOME/hub next,  ,     /hf, /hf/hub",
        "home cache last,   ,        , /home/u/.cache/huggingface/hub",
    })
    void hubCacheFollowsHuggingFaceHubEnvironment(String why, String hubCache, String hfHome, String expected) {
        Map<String, String> env = new java.util.HashMap<>();
        if (hubCache != null) {
            env.put("HF_HUB_CACHE", hubCache);
        }
        if (hfHome != null) {
            env.put("HF_HOME", hfHome);
        }

        assertThat(TokenizerLoader.hubCacheFrom(env, "/home/u")).isEqualTo(Path.of(expected));
    }

    @Test
    void gpt2FallsBackToR50kOffline(@TempDir Path emptyHub) {
        Tokenizer gpt2 = new TokenizerLoader(emptyHub).load("gpt2");

        // GPT-2's well-known ids: "Hello" 15496, "," 11, " world" 995, "!" 0.
        assertThat(gpt2.encode("Hello, world!")).containsExactly(15496, 11, 995, 0);
        assertThat(gpt2.decode(gpt2.encode("Hello, world!"))).isEqualTo("Hello, world!");
        assertThat(gpt2.vocabSize()).isEqualTo(50_257);
        assertThat(gpt2.numSpecialTokensToAdd()).isZero();
        assertThat(gpt2.hasChatTemplate()).isFalse();
    }

    @Test
    void optCountsItsPrependedBosAsASpecialToken(@TempDir Path emptyHub) {
        Tokenizer opt = new TokenizerLoader(emptyHub).load("facebook/opt-125m");

        assertThat(opt.countTokens("Hello, world!")).isEqualTo(4);
        assertThat(opt.numSpecialTokensToAdd()).isEqualTo(1);
        assertThatThrownBy(() -> opt.applyChatTemplate(List.of(ChatMessage.user("x")), true))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("has no chat template");
    }

    @Test
    void unknownModelIdSaysToPassATokenizerPath(@TempDir Path emptyHub) {
        assertThatThrownBy(() -> new TokenizerLoader(emptyHub).load("meta-llama/Llama-3.1-8B-Instruct"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tokenizer 'meta-llama/Llama-3.1-8B-Instruct' is not available offline; "
                        + "pass --tokenizer /path/to/dir-with-tokenizer.json");
    }

    @Test
    void missingPathIsNamed(@TempDir Path emptyHub) {
        assertThatThrownBy(() -> new TokenizerLoader(emptyHub).load("/no/such/tokenizer"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tokenizer path '/no/such/tokenizer' does not exist");
    }

    @Test
    void directoryWithoutTokenizerJsonIsRejected(@TempDir Path dir) {
        assertThatThrownBy(() -> new TokenizerLoader(dir).load(dir.toString()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("tokenizer directory '" + dir + "' has no tokenizer.json");
    }

    @Test
    void corruptTokenizerJsonGetsOneLine(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("tokenizer.json"), "{ not json");

        assertThatThrownBy(() -> new TokenizerLoader(dir).load(dir.toString()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot load tokenizer '" + dir + "'")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
