package io.tokenpulse.producer.dataset;

import io.tokenpulse.tokenizers.ChatMessage;
import io.tokenpulse.tokenizers.Tokenizer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * vLLM's {@code sonnet} dataset: poem lines from {@code --dataset-path} (Shakespeare's sonnets).
 *
 * <p>Each prompt is "Pick as many lines as you can from these poem lines:\n", then the first
 * lines of the file (a prefix shared by every prompt, about {@code --sonnet-prefix-len} tokens),
 * then lines drawn with replacement, the number of lines chosen from the average line length so
 * that the prompt formatted with the chat template has about {@code --sonnet-input-len} tokens;
 * drawings whose formatted prompt is longer are thrown away. The prompt length is counted on the
 * formatted prompt with special tokens, as vLLM does, also for chat backends, which get the raw
 * prompt as a user message.
 */
final class SonnetDataset extends SummarizingDataset {

    static final String NAME = "sonnet";

    static final String BASE_PROMPT = "Pick as many lines as you can from these poem lines:\n";

    // vLLM retries forever; after this many rejections in a row (drawn lines much longer than the
    // average) no prompt is going to fit.
    private static final int MAX_CONSECUTIVE_REJECTIONS = 1_000;

    private final Path file;
    private final Tokenizer tokenizer;
    private final DatasetOptions.Sonnet flags;
    private final PromptStyle style;
    private final List<String> lines;
    private final List<String> prefixLines;
    private final int extraLineCount;

    private SonnetDataset(
            Path file, Tokenizer tokenizer, DatasetOptions.Sonnet flags, PromptStyle style, List<String> lines) {
        super(NAME);
        this.file = file;
        this.tokenizer = tokenizer;
        this.flags = flags;
        this.style = style;
        this.lines = List.copyOf(lines);
        double averageLineLen =
                lines.stream().mapToInt(this::countWithSpecialTokens).average().orElseThrow();
        int baseOffset = countWithSpecialTokens(format(BASE_PROMPT));
        if (flags.inputLen() <= baseOffset) {
            throw new IllegalArgumentException("--sonnet-input-len " + flags.inputLen()
                    + " must be greater than the base prompt length (" + baseOffset + " tokens)");
        }
        // Python's round() rounds half to even, as Math.rint does.
        int inputLines = (int) Math.rint((flags.inputLen() - baseOffset) / averageLineLen);
        int prefixLineCount = Math.max((int) Math.rint((flags.prefixLen() - baseOffset) / averageLineLen), 0);
        this.prefixLines = this.lines.subList(0, Math.min(prefixLineCount, this.lines.size()));
        this.extraLineCount = Math.max(inputLines - prefixLineCount, 0);
        // vLLM would draw forever: drawn lines only add tokens to a prefix that is already too long.
        int prefixOnlyLen = countWithSpecialTokens(format(BASE_PROMPT + String.join("", prefixLines)));
        if (prefixOnlyLen > flags.inputLen()) {
            throw new IllegalArgumentException("--sonnet-prefix-len " + flags.prefixLen() + " gives prompts of "
                    + prefixOnlyLen + " tokens before any drawn line, more than --sonnet-input-len "
                    + flags.inputLen() + "; lower the prefix or raise the input length");
        }
    }

    /**
     * @param datasetPath {@code --dataset-path}: a UTF-8 text file, one poem line per line
     * @throws IllegalArgumentException naming the flag when the file is missing, unreadable or empty,
     *     or when the tokenizer has no chat template
     */
    static SonnetDataset load(Path datasetPath, Tokenizer tokenizer, DatasetOptions.Sonnet flags, PromptStyle style) {
        DatasetFile.required(datasetPath, NAME, "/path/to/sonnet.txt");
        if (!tokenizer.hasChatTemplate()) {
            throw new IllegalArgumentException(
                    "the sonnet dataset needs a tokenizer with a chat template; '" + tokenizer.id()
                            + "' has none: pass --tokenizer with a tokenizer_config.json that has chat_template");
        }
        List<String> lines = readLines(datasetPath);
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("--dataset-path " + datasetPath + " has no lines");
        }
        return new SonnetDataset(datasetPath, tokenizer, flags, style, lines);
    }

    /** Lines with their line breaks, as Python's {@code readlines()} returns them. */
    private static List<String> readLines(Path path) {
        String text;
        try {
            // strict, as Python's open() in vLLM: a binary file is refused, not read as U+FFFD characters
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(Files.readAllBytes(path)))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(
                    "--dataset-path " + path + " is not UTF-8 text; pass the sonnet text file", e);
        } catch (IOException e) {
            throw DatasetFile.unreadable(path, e);
        }
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', start)) {
            lines.add(text.substring(start, at + 1));
            start = at + 1;
        }
        if (start < text.length()) {
            lines.add(text.substring(start));
        }
        return lines;
    }

    @Override
    Drawn choose(int numRequests, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<SampledRequest> samples = new ArrayList<>(numRequests);
        int rejectedInARow = 0;
        int rejected = 0;
        while (samples.size() < numRequests) {
            StringBuilder prompt = new StringBuilder(BASE_PROMPT);
            prefixLines.forEach(prompt::append);
            for (int i = 0; i < extraLineCount; i++) {
                prompt.append(lines.get(random.nextInt(lines.size())));
            }
            String formatted = format(prompt.toString());
            int promptLen = countWithSpecialTokens(formatted);
            if (promptLen > flags.inputLen()) {
                rejected++;
                if (++rejectedInARow >= MAX_CONSECUTIVE_REJECTIONS) {
                    throw new IllegalArgumentException("no sonnet prompt fits in --sonnet-input-len " + flags.inputLen()
                            + " tokens (the last had " + promptLen + "); raise it or lower --sonnet-prefix-len");
                }
                continue;
            }
            rejectedInARow = 0;
            Prompt sent = style == PromptStyle.CHAT ? Prompt.of(prompt.toString(), style) : new Prompt.Text(formatted);
            samples.add(new SampledRequest(sent, promptLen, flags.outputLen(), samples.size()));
        }
        return new Drawn(
                samples,
                NAME + ": " + file + ": " + lines.size() + " lines, none dropped; sampled " + numRequests
                        + " prompts of the first " + prefixLines.size() + " lines and " + extraLineCount
                        + " drawn with replacement; " + rejected + " drawings over --sonnet-input-len "
                        + flags.inputLen() + " tokens thrown away");
    }

    private String format(String userText) {
        return tokenizer.applyChatTemplate(List.of(ChatMessage.user(userText)), true);
    }

    private int countWithSpecialTokens(String text) {
        return InputIds.count(tokenizer, text);
    }
}
