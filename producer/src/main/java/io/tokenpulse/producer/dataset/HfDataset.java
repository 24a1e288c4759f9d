package io.tokenpulse.producer.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import io.tokenpulse.schemas.python.PythonFloat;
import io.tokenpulse.tokenizers.ChatMessage;
import io.tokenpulse.tokenizers.Tokenizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

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
 * template (MT-Bench, InstructCoder, Blazedit, MLPerf, GSM8K, HumanEval) send and count the templated prompt unless
 * {@code --skip-chat-template}; {@code openai-chat} gets the prompt as written, as one user message,
 * since the server applies the template ({@link CustomDataset} does the same).
 *
 * <p>Rows with images (LLaVA conversations, VisionArena) are sent only by {@code openai-chat}, rows
 * with audio (ASR) only by {@code openai-audio}: another backend fails when the file is read. The
 * images and clips themselves are read only for the rows sampled ({@link HfRows#media}, then
 * {@link HfMedia}), as vLLM's streamed datasets decode only what they send: a file of many images
 * is never held in memory, and a bad image or clip fails when it is sampled, still before the run.
 * ASR clips outside {@code --asr-min-audio-len-sec} to {@code --asr-max-audio-len-sec} are skipped
 * and more rows read in their place, as vLLM's {@code ASRDataset} does. A prompt's length counts its
 * text only.
 */
final class HfDataset extends SummarizingDataset {

    static final String NAME = "hf";

    /**
     * One row's prompt and completion (null for fixed-output layouts), as the layout reads it, and
     * where its media are ({@link HfRows#media}).
     *
     * @param position the row's position in {@code file}
     * @param where the row, for messages
     * @param system a system message before the prompt (MLPerf's), or null
     */
    private record Entry(
            String prompt,
            String completion,
            HfLayout.Media media,
            Path file,
            int position,
            String where,
            String system) {

        /** What a chat model gets: the system message, if any, then the prompt. */
        List<ChatMessage> messages() {
            return system == null
                    ? List.of(ChatMessage.user(prompt))
                    : List.of(ChatMessage.system(system), ChatMessage.user(prompt));
        }
    }

    /** An entry that passed the length filter, with its lengths, before its media are read. */
    private record Candidate(Entry entry, String sent, int promptLen, int outputLen) {}

    private final HfSource source;
    private final HfLayout layout;
    private final String selection;
    private final Tokenizer tokenizer;
    private final PromptStyle style;
    private final Integer outputLen;
    private final boolean applyTemplate;
    private final DatasetOptions.FileSampling fileSampling;
    private final DatasetOptions.Asr asr;
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
        this.asr = options.asr();
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
            HfRows.read(file, (position, where, row) -> {
                rows[0]++;
                if (!row.isObject()) {
                    throw new IllegalArgumentException("--dataset-path " + file + ": " + where
                            + " is not a JSON object; expected one row of the dataset per entry");
                }
                if (layout[0] == null) {
                    layout[0] = HfLayout.of(row).orElseThrow(() -> unknownLayout(file, where, row));
                }
                if (layout[0] == HfLayout.BLAZEDIT && rows[0] == 1) {
                    flags.checkedBlazedit(); // before any row is judged by them
                }
                Optional<HfLayout.Pair> pair;
                try {
                    pair = layout[0].pair(row, where, flags);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--dataset-path " + file + " is not in the hf dataset's "
                            + layout[0].label + " layout: " + e.getMessage());
                }
                pair.ifPresent(p -> entries.add(entry(file, position, where, p, options.promptStyle(), tokenizer)));
            });
        }
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("--dataset-path " + source.description() + ": none of its " + rows[0]
                    + " rows is usable"
                    + (layout[0] == HfLayout.CONVERSATION ? " (each needs two or more conversation turns)" : "")
                    + (layout[0] == HfLayout.BLAZEDIT
                            ? " (each is skipped when its norm_distance is outside --blazedit-min-distance "
                                    + flags.blazeditMinDistance() + " to --blazedit-max-distance "
                                    + flags.blazeditMaxDistance() + ")"
                            : ""));
        }
        // A file given by path is read whole; a folder's or an id's files are narrowed to the split and subset.
        String selection = java.nio.file.Files.isRegularFile(path)
                ? ""
                : ", split " + split + (subset == null ? "" : ", subset " + subset);
        if (layout[0] == HfLayout.ASR) {
            options.asr().checked();
        }
        HfDataset dataset = new HfDataset(source, layout[0], selection, tokenizer, options, entries, rows[0]);
        if (dataset.applyTemplate && !tokenizer.hasChatTemplate()) {
            throw new IllegalArgumentException("the hf dataset's " + layout[0].label + " layout applies the chat"
                    + " template to every prompt and '" + tokenizer.id() + "' has none: pass --tokenizer with a"
                    + " tokenizer_config.json that has chat_template, or --skip-chat-template");
        }
        dataset.requireOneValid();
        return dataset;
    }

    /** The row's entry; a row with media another backend than the one that sends them cannot send is refused. */
    private static Entry entry(
            Path file, int position, String where, HfLayout.Pair pair, PromptStyle style, Tokenizer tokenizer) {
        if (pair.media() == HfLayout.Media.IMAGE && style != PromptStyle.CHAT) {
            throw new IllegalArgumentException("--dataset-path " + file + ": " + where
                    + " has an image, and only --backend openai-chat (with"
                    + " --endpoint /v1/chat/completions) sends images; use that backend or rows without images");
        }
        if (pair.media() == HfLayout.Media.AUDIO && style != PromptStyle.AUDIO) {
            throw new IllegalArgumentException("--dataset-path " + file + ": " + where
                    + " has an audio clip, and only --backend openai-audio (with"
                    + " --endpoint /v1/audio/transcriptions) sends audio; use that backend or rows without audio");
        }
        // vLLM's ASR prompt: Whisper's decoder prefix for OpenAI's tokenizers, else empty; never sent
        String prompt = pair.media() == HfLayout.Media.AUDIO && tokenizer.id().contains("openai")
                ? "<|startoftranscript|><|en|><|transcribe|><|notimestamps|>"
                : pair.prompt();
        return new Entry(prompt, pair.completion(), pair.media(), file, position, where, pair.system());
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
        Clips clips = new Clips();
        List<SampledRequest> valid = new ArrayList<>(Math.min(numRequests, order.size()));
        int looked = 0;
        Iterator<Entry> next = order.iterator();
        while (valid.size() < numRequests && next.hasNext()) {
            // As many rows as are still missing pass the length filter, then their media are read at
            // once; only clips out of the --asr-* bounds make another round.
            List<Candidate> batch = new ArrayList<>();
            while (valid.size() + batch.size() < numRequests && next.hasNext()) {
                Entry entry = next.next();
                looked++;
                String sent = sent(entry);
                int promptLen = InputIds.count(tokenizer, sent);
                int entryOutputLen = outputLen(entry);
                if (filter == null || filter.keep(promptLen, entryOutputLen)) {
                    batch.add(new Candidate(entry, sent, promptLen, entryOutputLen));
                }
            }
            List<JsonNode> media = media(batch);
            for (int i = 0; i < batch.size(); i++) {
                Candidate candidate = batch.get(i);
                Optional<Prompt> prompt = prompt(candidate, media.get(i), clips);
                prompt.ifPresent(p ->
                        valid.add(new SampledRequest(p, candidate.promptLen(), candidate.outputLen(), valid.size())));
            }
        }
        String counts = counts(looked, filter) + clips.summary(asr);
        if (valid.isEmpty()) {
            throw new IllegalArgumentException(counts + "; no clip is left to send: give --asr-min-audio-len-sec and"
                    + " --asr-max-audio-len-sec bounds that some clips are within");
        }
        List<SampledRequest> requests = Oversampling.fill(valid, numRequests, seed, fileSampling.noOversample());
        return new Drawn(
                requests,
                counts + "; sampled " + valid.size()
                        + Oversampling.note(valid.size(), numRequests, fileSampling.noOversample()));
    }

    /**
     * The text a completions endpoint gets, and what a prompt's length is counted on: the templated
     * messages, or (--skip-chat-template) the prompt, after the system message and a blank line when
     * there is one.
     */
    private String sent(Entry entry) {
        if (applyTemplate) {
            return tokenizer.applyChatTemplate(entry.messages(), true);
        }
        return entry.system() == null ? entry.prompt() : entry.system() + "\n\n" + entry.prompt();
    }

    /** The media values of the candidates' rows in their order (null for rows without), one read per file. */
    private List<JsonNode> media(List<Candidate> batch) {
        Map<Path, Set<Integer>> positions = new LinkedHashMap<>();
        for (Candidate candidate : batch) {
            if (candidate.entry().media() != HfLayout.Media.NONE) {
                positions
                        .computeIfAbsent(candidate.entry().file(), f -> new HashSet<>())
                        .add(candidate.entry().position());
            }
        }
        Map<Path, Map<Integer, JsonNode>> byFile = new HashMap<>();
        positions.forEach((file, rows) -> byFile.put(file, HfRows.media(file, layout.mediaColumn(), rows)));
        List<JsonNode> media = new ArrayList<>(batch.size());
        for (Candidate candidate : batch) {
            Entry entry = candidate.entry();
            media.add(
                    entry.media() == HfLayout.Media.NONE
                            ? null
                            : byFile.get(entry.file()).get(entry.position()));
        }
        return media;
    }

    /** What the candidate sends, or empty for a clip out of the {@code --asr-*} bounds (counted in {@code clips}). */
    private Optional<Prompt> prompt(Candidate candidate, JsonNode media, Clips clips) {
        Entry entry = candidate.entry();
        return switch (entry.media()) {
            case NONE ->
                Optional.of(
                        style == PromptStyle.CHAT
                                ? new Prompt.Chat(entry.messages())
                                : new Prompt.Text(candidate.sent()));
            case IMAGE ->
                Optional.of(new Prompt.Chat(
                        List.of(ChatMessage.user(entry.prompt())),
                        List.of(HfMedia.imageUrl(entry.file(), entry.where(), layout.media(media, entry.where())))));
            case AUDIO -> {
                HfMedia.Clip clip = HfMedia.clip(entry.file(), entry.where(), media);
                yield clips.keep(clip, asr)
                        ? Optional.of(new Prompt.Audio(candidate.sent(), clip.wav(), clip.durationS()))
                        : Optional.empty();
            }
        };
    }

    /** The clips read for a draw and those out of the {@code --asr-*} bounds, for its summary line. */
    private static final class Clips {
        private int read;
        private int dropped;

        boolean keep(HfMedia.Clip clip, DatasetOptions.Asr asr) {
            read++;
            if (asr.keeps(clip.durationS())) {
                return true;
            }
            dropped++;
            return false;
        }

        /** "; of 12 clips read, 2 outside 0.0 to 30.0 s dropped (--asr-min/max-audio-len-sec)", or "" without clips. */
        String summary(DatasetOptions.Asr asr) {
            return read == 0
                    ? ""
                    : "; of " + read + " clips read, " + dropped + " outside " + PythonFloat.repr(asr.minAudioLenSec())
                            + " to "
                            + PythonFloat.repr(asr.maxAudioLenSec()) + " s dropped (--asr-min/max-audio-len-sec)";
        }
    }

    /**
     * vLLM's length filter, which applies only when the output length comes from the completion and
     * the layout has one (zeta has none), and always for MLPerf.
     */
    private SequenceFilter filter() {
        return (outputLen == null || layout.filtersGivenOutput()) && layout.maxPromptLen > 0
                ? new SequenceFilter(false, layout.maxPromptLen, layout.maxTotalLen)
                : null;
    }

    /** At least one token: a zeta row whose expected output is empty still asks for one. */
    private int outputLen(Entry entry) {
        return outputLen != null ? outputLen : Math.max(1, layout.completionLen(tokenizer, entry.completion()));
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
            if (filter.keep(InputIds.count(tokenizer, sent(entry)), outputLen(entry))) {
                return;
            }
        }
        throw new IllegalArgumentException(counts(looked, filter) + "; no row is left to send: give rows with"
                + " prompts of " + SequenceFilter.MIN_LEN + " to " + filter.maxPromptLen() + " tokens"
                + (layout.filtersGivenOutput() ? "" : ", or --hf-output-len to skip the length filter"));
    }

    private String counts(int looked, SequenceFilter filter) {
        return NAME + ": " + source.description() + ": " + layout.label + " layout" + selection + ", "
                + source.files().size() + (source.files().size() == 1 ? " file: " : " files: ") + rowsRead
                + " rows, " + (rowsRead - entries.size()) + " " + layout.skipped() + " dropped; "
                + (filter == null
                        ? "no length filter (output length " + (outputLen == null ? "from each row" : outputLen) + ")"
                        : "of " + looked + " tokenized, dropped: " + filter.droppedSummary());
    }
}
