package io.tokenpulse.tokenizers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves the value of {@code --tokenizer} (or {@code --model} when no tokenizer is given) without
 * any network access, in this order:
 * <ol>
 *   <li>a local directory holding {@code tokenizer.json}, or the {@code tokenizer.json} file itself;</li>
 *   <li>a model id found in the local Hugging Face hub cache
 *       ({@code models--ORG--NAME/snapshots/REV/tokenizer.json});</li>
 *   <li>a GPT-2-family id ({@code gpt2}, {@code facebook/opt-*}): tiktoken's {@code r50k_base};</li>
 * </ol>
 * anything else fails with a one-line {@link IllegalArgumentException} saying what to pass.
 */
public final class TokenizerLoader {

    private static final Logger log = LoggerFactory.getLogger(TokenizerLoader.class);

    private static final Pattern GPT2_IDS =
            Pattern.compile("(openai-community/)?gpt2(-medium|-large|-xl)?|(distilbert/)?distilgpt2");
    private static final Pattern OPT_IDS = Pattern.compile("facebook/opt-[0-9.]+[mb]", Pattern.CASE_INSENSITIVE);

    private final Path hubCache;

    /** @param hubCache the Hugging Face hub cache directory (the one holding {@code models--*} folders) */
    public TokenizerLoader(Path hubCache) {
        this.hubCache = hubCache;
    }

    /**
     * The hub cache the {@code huggingface_hub} library would use: {@code $HF_HUB_CACHE}, else
     * {@code $HF_HOME/hub}, else {@code ~/.cache/huggingface/hub}.
     */
    public static TokenizerLoader fromEnvironment() {
        return new TokenizerLoader(hubCacheFrom(System.getenv(), System.getProperty("user.home")));
    }

    static Path hubCacheFrom(Map<String, String> env, String userHome) {
        if (env.get("HF_HUB_CACHE") != null) {
            return Path.of(env.get("HF_HUB_CACHE"));
        }
        if (env.get("HF_HOME") != null) {
            return Path.of(env.get("HF_HOME"), "hub");
        }
        return Path.of(userHome, ".cache", "huggingface", "hub");
    }

    /**
     * @param tokenizerOrModel a path or a model id, as the user typed it
     * @throws IllegalArgumentException when it cannot be resolved offline or its files are unreadable
     */
    public Tokenizer load(String tokenizerOrModel) {
        if (tokenizerOrModel == null || tokenizerOrModel.isBlank()) {
            throw new IllegalArgumentException("no tokenizer given; pass --tokenizer /path/to/dir-with-tokenizer.json");
        }
        Path local = Path.of(tokenizerOrModel);
        if (Files.exists(local)) {
            return loadJson(tokenizerOrModel, tokenizerJsonIn(local, tokenizerOrModel));
        }
        if (looksLikePath(tokenizerOrModel)) {
            throw new IllegalArgumentException("tokenizer path '" + tokenizerOrModel + "' does not exist");
        }
        Optional<Path> cached = findInHubCache(tokenizerOrModel);
        if (cached.isPresent()) {
            log.info("tokenizer '{}' found in the Hugging Face cache at {}", tokenizerOrModel, cached.get());
            return loadJson(tokenizerOrModel, cached.get());
        }
        if (GPT2_IDS.matcher(tokenizerOrModel).matches()) {
            return new TiktokenTokenizer(tokenizerOrModel, 0);
        }
        if (OPT_IDS.matcher(tokenizerOrModel).matches()) {
            return new TiktokenTokenizer(tokenizerOrModel, 1);
        }
        throw new IllegalArgumentException("tokenizer '" + tokenizerOrModel
                + "' is not available offline; pass --tokenizer /path/to/dir-with-tokenizer.json");
    }

    private static boolean looksLikePath(String value) {
        return value.startsWith("/")
                || value.startsWith(".")
                || value.startsWith("~")
                || value.endsWith(".json")
                || value.chars().filter(c -> c == '/').count() > 1;
    }

    private static Path tokenizerJsonIn(Path local, String given) {
        if (Files.isRegularFile(local)) {
            return local;
        }
        Path inside = local.resolve("tokenizer.json");
        if (!Files.isRegularFile(inside)) {
            throw new IllegalArgumentException(
                    "tokenizer directory '" + given + "' has no tokenizer.json; pass a "
                            + "directory with a Hugging Face tokenizer.json (slow/sentencepiece-only tokenizers are not supported)");
        }
        return inside;
    }

    /** The snapshot {@code refs/main} points at, else the first snapshot (by name) with a tokenizer.json. */
    Optional<Path> findInHubCache(String modelId) {
        Path repo = hubCache.resolve("models--" + modelId.replace("/", "--"));
        Path snapshots = repo.resolve("snapshots");
        if (!Files.isDirectory(snapshots)) {
            return Optional.empty();
        }
        try {
            Path ref = repo.resolve("refs").resolve("main");
            if (Files.isRegularFile(ref)) {
                Path pinned = snapshots.resolve(Files.readString(ref).strip()).resolve("tokenizer.json");
                if (Files.isRegularFile(pinned)) {
                    return Optional.of(pinned);
                }
            }
            try (Stream<Path> revisions = Files.list(snapshots)) {
                return revisions
                        .sorted()
                        .map(revision -> revision.resolve("tokenizer.json"))
                        .filter(Files::isRegularFile)
                        .findFirst();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the Hugging Face cache at " + repo, e);
        }
    }

    private static Tokenizer loadJson(String id, Path tokenizerJson) {
        try {
            return HuggingFaceJsonTokenizer.load(id, tokenizerJson);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(
                    "cannot load tokenizer '" + id + "' from " + tokenizerJson + ": " + firstLine(e.getMessage()), e);
        }
    }

    private static String firstLine(String message) {
        return message == null ? "unreadable file" : message.lines().findFirst().orElse(message);
    }
}
