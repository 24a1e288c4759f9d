package io.tokenpulse.producer.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import io.tokenpulse.tokenizers.ChatMessage;
import io.tokenpulse.tokenizers.Tokenizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * vLLM's {@code hf} dataset from local files ({@link HfSource}: a Parquet, JSON or JSONL file or
 * folder, or a dataset id in the local Hugging Face cache), in the layouts of vLLM's
 * {@code HuggingFaceDataset} subclasses ({@link HfLayout}).
 *
 * <p>Per run, the rows are shuffled with {@code --seed} (unless {@code --disable-shuffle}) and taken
 * in that order until {@code --num-prompts} are found; fewer are topped up by {@link Oversampling}.
 * Every request asks for {@code --hf-output-len} tokens, else the layout's default, else (the
 * conversation, AIMO and zeta layouts) the completion's length, and only then are pairs filtered by
 * {@link SequenceFilter} with the layout's limits, as vLLM does (zeta has none). Layouts with the chat
 * template (MT-Bench, InstructCoder, GSM8K, HumanEval) send and count the templated prompt unless
 * {@code --skip-chat-template}; {@code openai-chat} gets the prompt as written, as one user message,
 * since the server applies the template ({@link CustomDataset} does the same).
 *
 * <p>Rows with images (LLaVA conversations, VisionArena) are sent only by {@code openai-chat}, rows
 * with audio (ASR) only by {@code openai-audio}; both are read into memory when the file is read
 * ({@link HfMedia}), so that another backend or a bad image or clip fails before the run. A prompt's
 * length counts its text only.
 */
final class HfDataset extends SummarizingDataset {

    static final String NAME = "hf";

    /**
     * One row's prompt and completion (null for fixed-output layouts), as the layout reads it.
     *
     * @param imageUrls what {@code openai-chat} sends with the prompt
     * @param wav the clip {@code openai-audio} sends, or null
     */
    private record Entry(String prompt, String completion, List<String> imageUrls, byte[] wav) {}

    private final HfSource source;
    private final HfLayout layout;
    private final String selection;
    private final Tokenizer tokenizer;
    private final PromptStyle style;
    private final Integer outputLen;
    private final boolean applyTemplate;
    private final DatasetOptions.FileSampling fileSampling;
    private final List<Entry> entries;
    private final int rowsRead;

    private HfDataset(
            HfSource source,
            HfLayout layout,
            String selection,
            Tokenizer tokenizer,
            DatasetOptions options,
            List<Entry> entries,
            int rowsRead) {
        super(NAME);
        this.source = source;
        this.layout = layout;
        this.selection = selection;
        this.tokenizer = tokenizer;
        this.style = options.promptStyle();
        this.outputLen = options.hf().outputLen() != null ? options.hf().outputLen() : layout.defaultOutputLen;
        this.applyTemplate = layout.chatTemplate && !options.custom().skipChatTemplate();
        this.fileSampling = options.fileSampling();
        this.entries = List.copyOf(entries);
        this.rowsRead = rowsRead;
    }

    /**
     * Finds and reads the files now, so that a bad path or layout fails before the run starts.
     *
     * @throws IllegalArgumentException with one line naming the file, the row and what was expected,
     *     or where an id was looked for; also when nothing is left to send or the chat template is
     *     needed and missing
     */
    static HfDataset load(DatasetOptions options, Tokenizer tokenizer) {
        return load(options, tokenizer, HfSource.Caches.fromEnvironment());
    }

    /** As {@link #load(DatasetOptions, Tokenizer)}, looking for dataset ids in {@code caches}. */
    static HfDataset load(DatasetOptions options, Tokenizer tokenizer, HfSource.Caches caches) {
        options.hf().checked();
        Path path = DatasetFile.required(
                options.datasetPath(), NAME, "/path/to/data.parquet (or .json/.jsonl, a folder, or ORG/NAME)");
        DatasetOptions.Hf flags = options.hf();
        HfLayout.Known known = HfLayout.KNOWN.get(path.toString());
        String subset = flags.subset() != null ? flags.subset() : known == null ? null : known.subset();
        String split = flags.split() != null ? flags.split() : known == null ? HfLayout.DEFAULT_SPLIT : known.split();
        HfSource source = HfSource.resolve(path, subset, flags.subset() != null, split, flags.split() != null, caches);
        HfLayout[] layout = {known == null ? null : known.layout()};
        List<Entry> entries = new ArrayList<>();
        int[] rows = {0};
        for (Path file : source.files()) {
            HfRows.read(file, (where, row) -> {
                rows[0]++;
                if (!row.isObject()) {
                    throw new IllegalArgumentException("--dataset-path " + file + ": " + where
                            + " is not a JSON object; expected one row of the dataset per entry");
                }
                if (layout[0] == null) {
                    layout[0] = HfLayout.of(row).orElseThrow(() -> unknownLayout(file, where, row));
                }
                Optional<HfLayout.Pair> pair;
                try {
                    pair = layout[0].pair(row, where);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--dataset-path " + file + " is not in the hf dataset's "
                            + layout[0].label + " layout: " + e.getMessage());
                }
                pair.ifPresent(p -> entries.add(entry(file, where, p, options.promptStyle(), tokenizer)));
            });
        }
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("--dataset-path " + source.description() + ": none of its " + rows[0]
                    + " rows is usable"
                    + (layout[0] == HfLayout.CONVERSATION ? " (each needs two or more conversation turns)" : ""));
        }
        // A file given by path is read whole; a folder's or an id's files are narrowed to the split and subset.
        String selection = java.nio.file.Files.isRegularFile(path)
                ? ""
                : ", split " + split + (subset == null ? "" : ", subset " + subset);
        HfDataset dataset = new HfDataset(source, layout[0], selection, tokenizer, options, entries, rows[0]);
        if (dataset.applyTemplate && !tokenizer.hasChatTemplate()) {
            throw new IllegalArgumentException("the hf dataset's " + layout[0].label + " layout applies the chat"
                    + " template to every prompt and '" + tokenizer.id() + "' has none: pass --tokenizer with a"
                    + " tokenizer_config.json that has chat_template, or --skip-chat-template");
        }
        dataset.requireOneValid();
        return dataset;
    }

    /** Reads the row's images and clip now, so that a bad one fails before the run. */
    private static Entry entry(Path file, String where, HfLayout.Pair pair, PromptStyle style, Tokenizer tokenizer) {
        if (!pair.images().isEmpty() && style != PromptStyle.CHAT) {
            throw new IllegalArgumentException("--dataset-path " + file + ": " + where
                    + " has an image, and only --backend openai-chat (with --endpoint"
                    + " /v1/chat/completions) sends images; use that backend or rows without images");
        }
        if (pair.audio() != null && style != PromptStyle.AUDIO) {
            throw new IllegalArgumentException("--dataset-path " + file + ": " + where
                    + " has an audio clip, and only --backend openai-audio (with"
                    + " --endpoint /v1/audio/transcriptions) sends audio; use that backend or rows without audio");
        }
        List<String> images = pair.images().stream()
                .map(image -> HfMedia.imageUrl(file, where, image))
                .toList();
        if (pair.audio() == null) {
            return new Entry(pair.prompt(), pair.completion(), images, null);
        }
        // vLLM's ASR prompt: Whisper's decoder prefix for OpenAI's tokenizers, else empty; never sent
        String prompt = tokenizer.id().contains("openai")
                ? "<|startoftranscript|><|en|><|transcribe|><|notimestamps|>"
                : pair.prompt();
        return new Entry(prompt, null, images, HfMedia.wav(file, where, pair.audio()));
    }

    private static IllegalArgumentException unknownLayout(Path file, String where, JsonNode row) {
        List<String> columns = new ArrayList<>();
        row.fieldNames().forEachRemaining(columns::add);
        return new IllegalArgumentException("--dataset-path " + file + ": " + where + " has the columns " + columns
                + ", none of the hf dataset's layouts; expected " + HfLayout.expected());
    }

    @Override
    Drawn choose(int numRequests, long seed) {
        List<Entry> order = new ArrayList<>(entries);
        if (!fileSampling.disableShuffle()) {
            Collections.shuffle(order, new Random(seed));
        }
        SequenceFilter filter = filter();
        List<SampledRequest> valid = new ArrayList<>(Math.min(numRequests, order.size()));
        int looked = 0;
        for (Entry entry : order) {
            if (valid.size() >= numRequests) {
                break;
            }
            looked++;
            String sent = applyTemplate
                    ? tokenizer.applyChatTemplate(List.of(ChatMessage.user(entry.prompt())), true)
                    : entry.prompt();
            int promptLen = InputIds.count(tokenizer, sent);
            int entryOutputLen = outputLen(entry);
            if (filter == null || filter.keep(promptLen, entryOutputLen)) {
                Prompt prompt = entry.wav() != null
                        ? new Prompt.Audio(sent, entry.wav())
                        : style == PromptStyle.CHAT
                                ? new Prompt.Chat(List.of(ChatMessage.user(entry.prompt())), entry.imageUrls())
                                : new Prompt.Text(sent);
                valid.add(new SampledRequest(prompt, promptLen, entryOutputLen, valid.size()));
            }
        }
        List<SampledRequest> requests = Oversampling.fill(valid, numRequests, seed, fileSampling.noOversample());
        return new Drawn(
                requests,
                counts(looked, filter) + "; sampled " + valid.size()
                        + Oversampling.note(valid.size(), numRequests, fileSampling.noOversample()));
    }

    /**
     * vLLM's length filter, which applies only when the output length comes from the completion and
     * the layout has one (zeta has none).
     */
    private SequenceFilter filter() {
        return outputLen == null && layout.maxPromptLen > 0
                ? new SequenceFilter(false, layout.maxPromptLen, layout.maxTotalLen)
                : null;
    }

    /** At least one token: a zeta row whose expected output is empty still asks for one. */
    private int outputLen(Entry entry) {
        return outputLen != null ? outputLen : Math.max(1, InputIds.count(tokenizer, entry.completion()));
    }

    /** Tokenizes entries in file order until one passes the filter, so that none fails before the run. */
    private void requireOneValid() {
        SequenceFilter filter = filter();
        if (filter == null) {
            return;
        }
        int looked = 0;
        for (Entry entry : entries) {
            looked++;
            if (filter.keep(InputIds.count(tokenizer, entry.prompt()), outputLen(entry))) {
                return;
            }
        }
        throw new IllegalArgumentException(counts(looked, filter) + "; no row is left to send: give rows with"
                + " prompts of " + SequenceFilter.MIN_LEN + " to " + filter.maxPromptLen() + " tokens, or"
                + " --hf-output-len to skip the length filter");
    }

    private String counts(int looked, SequenceFilter filter) {
        return NAME + ": " + source.description() + ": " + layout.label + " layout" + selection + ", "
                + source.files().size() + (source.files().size() == 1 ? " file: " : " files: ") + rowsRead
                + " rows, " + (rowsRead - entries.size()) + " with fewer than 2 turns dropped; "
                + (filter == null
                        ? "no length filter (output length " + (outputLen == null ? "from each row" : outputLen) + ")"
                        : "of " + looked + " tokenized, dropped: " + filter.droppedSummary());
    }
}
