package io.tokenpulse.producer.dataset;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The dataset flags of {@code bench}, with vLLM's names and defaults. The file datasets' and the
 * newer datasets' flags are checked by the dataset that uses them ({@code checked()}), not here: like
 * vLLM, a run of one dataset ignores another's flags, and {@code --output-len} sets them all.
 *
 * @param name {@code --dataset-name}
 * @param datasetPath {@code --dataset-path}, or null when not given
 * @param promptStyle whether the backend takes text or chat messages
 * @param random {@code --random-*} flags
 * @param sonnet {@code --sonnet-*} flags
 * @param shareGpt {@code --sharegpt-output-len}
 * @param custom {@code --custom-*} flags
 * @param fileSampling how entries of a dataset file are ordered and topped up ({@code --disable-shuffle},
 *     {@code --no-oversample})
 * @param prefixRepetition {@code --prefix-repetition-*} flags
 * @param trace {@code --trace-time-scale}
 * @param hf {@code --hf-*} flags
 * @param asr {@code --asr-*} flags (the hf dataset's ASR layout)
 * @param multiTurn {@code --multi-turn} and the {@code --multi-turn-*} flags (sessions)
 * @param randomBatch {@code --random-batch-size} and {@code --no-reranker} (list prompts for the pooling backends)
 */
@RecordBuilder
public record DatasetOptions(
        String name,
        Path datasetPath,
        PromptStyle promptStyle,
        Random random,
        Sonnet sonnet,
        ShareGpt shareGpt,
        Custom custom,
        FileSampling fileSampling,
        PrefixRepetition prefixRepetition,
        Trace trace,
        Hf hf,
        Asr asr,
        MultiTurn multiTurn,
        RandomBatch randomBatch)
        implements DatasetOptionsBuilder.With {

    public DatasetOptions {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(promptStyle, "promptStyle");
        Objects.requireNonNull(random, "random");
        Objects.requireNonNull(sonnet, "sonnet");
        Objects.requireNonNull(shareGpt, "shareGpt");
        Objects.requireNonNull(custom, "custom");
        Objects.requireNonNull(fileSampling, "fileSampling");
        Objects.requireNonNull(prefixRepetition, "prefixRepetition");
        Objects.requireNonNull(trace, "trace");
        Objects.requireNonNull(hf, "hf");
        Objects.requireNonNull(asr, "asr");
        Objects.requireNonNull(multiTurn, "multiTurn");
        Objects.requireNonNull(randomBatch, "randomBatch");
    }

    /** The synthetic datasets' flags, the others at their defaults (change them with {@code with...}). */
    public DatasetOptions(String name, Path datasetPath, PromptStyle promptStyle, Random random, Sonnet sonnet) {
        this(
                name,
                datasetPath,
                promptStyle,
                random,
                sonnet,
                ShareGpt.DEFAULTS,
                Custom.DEFAULTS,
                FileSampling.DEFAULTS,
                PrefixRepetition.DEFAULTS,
                Trace.DEFAULTS,
                Hf.DEFAULTS,
                Asr.DEFAULTS,
                MultiTurn.DEFAULTS,
                RandomBatch.DEFAULTS);
    }

    /** {@code --random-input-len}, {@code --random-output-len}, {@code --random-range-ratio}, {@code --random-prefix-len}. */
    public record Random(int inputLen, int outputLen, double rangeRatio, int prefixLen) {

        public static final Random DEFAULTS = new Random(1024, 128, 0.0, 0);

        public Random {
            atLeast("--random-input-len", 0, inputLen);
            atLeast("--random-output-len", 0, outputLen);
            if (!(rangeRatio >= 0.0 && rangeRatio < 1.0)) {
                throw new IllegalArgumentException("--random-range-ratio must be in [0, 1), got " + rangeRatio);
            }
            atLeast("--random-prefix-len", 0, prefixLen);
        }
    }

    /** {@code --sonnet-input-len}, {@code --sonnet-output-len}, {@code --sonnet-prefix-len}. */
    public record Sonnet(int inputLen, int outputLen, int prefixLen) {

        public static final Sonnet DEFAULTS = new Sonnet(550, 150, 200);

        public Sonnet {
            atLeast("--sonnet-input-len", 1, inputLen);
            atLeast("--sonnet-output-len", 1, outputLen);
            atLeast("--sonnet-prefix-len", 0, prefixLen);
        }
    }

    /**
     * {@code --sharegpt-output-len}.
     *
     * @param outputLen tokens asked of every request, or null to ask for the length of the
     *     conversation's second turn (vLLM's default)
     */
    public record ShareGpt(Integer outputLen) {

        public static final ShareGpt DEFAULTS = new ShareGpt(null);

        /** These flags, checked by the dataset that uses them (see {@link DatasetOptions}). */
        public ShareGpt checked() {
            if (outputLen != null && outputLen < 1) {
                throw new IllegalArgumentException("--sharegpt-output-len must be >= 1, got " + outputLen);
            }
            return this;
        }
    }

    /**
     * {@code --custom-output-len}, {@code --custom-skip-chat-template} (also spelled {@code --skip-chat-template}).
     *
     * @param outputLen tokens asked of every request, or {@value #FROM_FILE} to take each line's {@code output_tokens}
     * @param skipChatTemplate send and count the prompt as written instead of through the chat template
     */
    public record Custom(int outputLen, boolean skipChatTemplate) {

        /** vLLM's value of {@code --custom-output-len} that means "each line's {@code output_tokens}". */
        public static final int FROM_FILE = -1;

        public static final Custom DEFAULTS = new Custom(256, false);

        /** These flags, checked by the dataset that uses them (see {@link DatasetOptions}). */
        public Custom checked() {
            if (outputLen != FROM_FILE && outputLen < 1) {
                throw new IllegalArgumentException("--custom-output-len must be >= 1, or -1 to take each line's"
                        + " output_tokens, got " + outputLen);
            }
            return this;
        }
    }

    /**
     * How the entries of a dataset file become requests (current vLLM's flags).
     *
     * @param disableShuffle {@code --disable-shuffle}: take entries in file order instead of a seeded shuffle
     * @param noOversample {@code --no-oversample}: when fewer entries pass the filters than
     *     {@code --num-prompts}, send only those instead of drawing repeats
     */
    public record FileSampling(boolean disableShuffle, boolean noOversample) {

        public static final FileSampling DEFAULTS = new FileSampling(false, false);
    }

    /**
     * Current vLLM's {@code prefix_repetition} flags: {@code --prefix-repetition-prefix-len},
     * {@code -suffix-len}, {@code -num-prefixes}, {@code -output-len}.
     */
    public record PrefixRepetition(int prefixLen, int suffixLen, int numPrefixes, int outputLen) {

        public static final PrefixRepetition DEFAULTS = new PrefixRepetition(256, 256, 10, 128);

        /** These flags, checked by the dataset that uses them (see {@link DatasetOptions}). */
        public PrefixRepetition checked() {
            atLeast("--prefix-repetition-prefix-len", 0, prefixLen);
            atLeast("--prefix-repetition-suffix-len", 0, suffixLen);
            atLeast("--prefix-repetition-num-prefixes", 1, numPrefixes);
            atLeast("--prefix-repetition-output-len", 1, outputLen);
            return this;
        }
    }

    /**
     * {@code --trace-time-scale}: the trace dataset's times are multiplied by it (2 replays twice as
     * slowly, 0.5 twice as fast).
     */
    public record Trace(double timeScale) {

        public static final Trace DEFAULTS = new Trace(1.0);

        /** These flags, checked by the dataset that uses them (see {@link DatasetOptions}). */
        public Trace checked() {
            if (!(timeScale >= 0) || Double.isInfinite(timeScale)) {
                throw new IllegalArgumentException(
                        "--trace-time-scale must be a finite number >= 0 (0 sends every request at once), got "
                                + timeScale);
            }
            return this;
        }
    }

    /**
     * {@code --hf-subset}, {@code --hf-split}, {@code --hf-output-len}, and vLLM's {@code
     * --blazedit-min-distance} and {@code --blazedit-max-distance}.
     *
     * @param subset the dataset's configuration (a folder level of the cache), or null
     * @param split {@code train}, {@code test}, ...; null takes vLLM's default, {@code train}
     * @param outputLen tokens asked of every request instead of the dataset's own, or null
     * @param blazeditMinDistance the Blazedit layout skips rows whose {@code norm_distance} (the
     *     edit's Levenshtein distance over the code's length) is below this
     * @param blazeditMaxDistance ... or above this
     */
    public record Hf(
            String subset, String split, Integer outputLen, double blazeditMinDistance, double blazeditMaxDistance) {

        public static final Hf DEFAULTS = new Hf(null, null, null);

        /** Every Blazedit row (vLLM's defaults: 0 to 1). */
        public Hf(String subset, String split, Integer outputLen) {
            this(subset, split, outputLen, 0.0, 1.0);
        }

        /** These flags, checked by the dataset that uses them (see {@link DatasetOptions}). */
        public Hf checked() {
            if (outputLen != null && outputLen < 1) {
                throw new IllegalArgumentException("--hf-output-len must be >= 1, got " + outputLen);
            }
            return this;
        }

        /** The Blazedit bounds, checked when a Blazedit file is read: a finite 0 <= min <= max. */
        Hf checkedBlazedit() {
            checkRange("--blazedit-min-distance", blazeditMinDistance, "--blazedit-max-distance", blazeditMaxDistance);
            return this;
        }

        /** Whether a Blazedit row of this normalized edit distance is sent. */
        boolean keepsEdit(double normDistance) {
            return normDistance >= blazeditMinDistance && normDistance <= blazeditMaxDistance;
        }
    }

    /** A pair of bound flags: a finite minimum >= 0, and a maximum (infinity allowed) not below it. */
    private static void checkRange(String minFlag, double min, String maxFlag, double max) {
        if (!(min >= 0) || Double.isInfinite(min)) {
            throw new IllegalArgumentException(minFlag + " must be a finite number >= 0, got " + min);
        }
        if (!(max >= min)) {
            throw new IllegalArgumentException(maxFlag + " must be >= " + minFlag + " (" + min + "), got " + max);
        }
    }

    /**
     * Current vLLM's {@code --asr-min-audio-len-sec} and {@code --asr-max-audio-len-sec}: the hf
     * dataset's ASR layout skips clips shorter or longer than these (vLLM's {@code ASRDataset}).
     *
     * @param maxAudioLenSec {@link Double#POSITIVE_INFINITY} (vLLM's default) keeps every long clip
     */
    public record Asr(double minAudioLenSec, double maxAudioLenSec) {

        public static final Asr DEFAULTS = new Asr(0.0, Double.POSITIVE_INFINITY);

        /** These flags, checked by the dataset that uses them (see {@link DatasetOptions}). */
        public Asr checked() {
            checkRange("--asr-min-audio-len-sec", minAudioLenSec, "--asr-max-audio-len-sec", maxAudioLenSec);
            return this;
        }

        /** Whether a clip of {@code durationS} is kept: vLLM drops it when below the min or above the max. */
        boolean keeps(double durationS) {
            return durationS >= minAudioLenSec && durationS <= maxAudioLenSec;
        }
    }

    /**
     * The sessions' flags: {@code --multi-turn} (every turn of a sharegpt conversation) and the
     * synthetic {@code multi-turn} dataset's {@code --multi-turn-num-turns},
     * {@code --multi-turn-input-len}, {@code --multi-turn-output-len} (tokens per turn) and
     * {@code --multi-turn-system-prompt-len} (one system prompt shared by every session).
     */
    public record MultiTurn(boolean shareGptAllTurns, int numTurns, int inputLen, int outputLen, int systemPromptLen) {

        public static final MultiTurn DEFAULTS = new MultiTurn(false, 5, 128, 128, 0);

        /** These flags, checked by the dataset that uses them (see {@link DatasetOptions}). */
        public MultiTurn checked() {
            if (numTurns < 1) {
                throw new IllegalArgumentException("--multi-turn-num-turns must be >= 1 (a session needs at least"
                        + " one turn), got " + numTurns);
            }
            atLeast("--multi-turn-input-len", 1, inputLen);
            atLeast("--multi-turn-output-len", 1, outputLen);
            atLeast("--multi-turn-system-prompt-len", 0, systemPromptLen);
            return this;
        }
    }

    /**
     * vLLM's list-prompt flags: {@code --random-batch-size}, the documents per request of
     * {@code random-rerank} (with one query) and the prompts per request of {@code random} (when above 1,
     * for the embeddings backend); {@code --no-reranker}, for {@code random-rerank}: the model is an
     * embedding model scoring by similarity, not a cross-encoder (no separator token, and the query is
     * drawn at the full input length).
     */
    public record RandomBatch(int batchSize, boolean noReranker) {

        public static final RandomBatch DEFAULTS = new RandomBatch(1, false);

        /** These flags, checked by {@code random-rerank} (vLLM's {@code random} takes any size, batching above 1). */
        public RandomBatch checked() {
            atLeast("--random-batch-size", 1, batchSize);
            if (noReranker && batchSize < 2) {
                throw new IllegalArgumentException("--no-reranker puts the query and at least one document in"
                        + " every request; set --random-batch-size to 2 or more, got " + batchSize);
            }
            return this;
        }

        /** Whether {@code random} sends its prompts in lists of {@link #batchSize()}. */
        boolean batchesRandom() {
            return batchSize > 1;
        }
    }

    /** A flag's value below its least allowed value: one line naming the flag. */
    private static void atLeast(String flag, int least, int value) {
        if (value < least) {
            throw new IllegalArgumentException(flag + " must be >= " + least + ", got " + value);
        }
    }
}
