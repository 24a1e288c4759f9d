package io.tokenpulse.producer.dataset;

import io.tokenpulse.tokenizers.Tokenizer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/** The datasets by {@code --dataset-name}. Adding one takes a class and a line here. */
public final class Datasets {

    private static final Map<String, BiFunction<DatasetOptions, Tokenizer, Dataset>> SUPPORTED = new LinkedHashMap<>();

    static {
        SUPPORTED.put(
                ShareGptDataset.NAME,
                (options, tokenizer) -> options.multiTurn().shareGptAllTurns()
                        ? ShareGptSessionDataset.load(options, tokenizer)
                        : ShareGptDataset.load(options, tokenizer));
        SUPPORTED.put(BurstGptDataset.NAME, (options, tokenizer) -> BurstGptDataset.load(options, tokenizer));
        SUPPORTED.put(
                RandomDataset.NAME,
                (options, tokenizer) ->
                        new RandomDataset(tokenizer, options.random(), options.promptStyle(), options.randomBatch()));
        SUPPORTED.put(RandomRerankDataset.NAME, (options, tokenizer) -> new RandomRerankDataset(tokenizer, options));
        SUPPORTED.put(
                SonnetDataset.NAME,
                (options, tokenizer) ->
                        SonnetDataset.load(options.datasetPath(), tokenizer, options.sonnet(), options.promptStyle()));
        SUPPORTED.put(CustomDataset.NAME, (options, tokenizer) -> CustomDataset.load(options, tokenizer));
        SUPPORTED.put(HfDataset.NAME, (options, tokenizer) -> HfDataset.load(options, tokenizer));
        SUPPORTED.put(TraceDataset.NAME, (options, tokenizer) -> TraceDataset.load(options, tokenizer));
        SUPPORTED.put(AgentTraceDataset.NAME, (options, tokenizer) -> AgentTraceDataset.load(options, tokenizer));
        SUPPORTED.put(
                PrefixRepetitionDataset.NAME, (options, tokenizer) -> new PrefixRepetitionDataset(tokenizer, options));
        SUPPORTED.put(MultiTurnDataset.NAME, (options, tokenizer) -> new MultiTurnDataset(tokenizer, options));
    }

    private Datasets() {}

    /**
     * Whether the named dataset brings its requests' send times ({@link SampledRequest#arrivalOffsetNs()}),
     * so that the arrival schedule does not apply.
     */
    public static boolean bringsOwnTimes(String name) {
        return TraceDataset.NAME.equals(name) || AgentTraceDataset.NAME.equals(name);
    }

    /**
     * Whether the named dataset sends a request when its parents answered ({@link AgentTraceRequests}),
     * not at a time known before the run.
     */
    public static boolean waitsForAnswers(String name) {
        return AgentTraceDataset.NAME.equals(name);
    }

    /**
     * Whether the dataset's prompts are lists of texts ({@link Prompt.Texts}): {@code random-rerank}'s
     * query and documents, or {@code random}'s batches ({@code --random-batch-size} above 1), which only
     * the pooling backends send.
     */
    public static boolean sendsTextLists(DatasetOptions options) {
        return RandomRerankDataset.NAME.equals(options.name())
                || (RandomDataset.NAME.equals(options.name())
                        && options.randomBatch().batchesRandom());
    }

    /** Names {@link #create} accepts, in display order. */
    public static Set<String> names() {
        return SUPPORTED.keySet();
    }

    /**
     * Builds the dataset {@code options.name()} names, reading its file now so that a bad path fails
     * before the run starts.
     *
     * @throws IllegalArgumentException with a one-line message for an unknown or unsupported name,
     *     a missing or unreadable {@code --dataset-path}, or flag values the dataset cannot satisfy
     */
    public static Dataset create(DatasetOptions options, Tokenizer tokenizer) {
        BiFunction<DatasetOptions, Tokenizer, Dataset> factory = SUPPORTED.get(options.name());
        if (factory != null) {
            return factory.apply(options, tokenizer);
        }
        String supported = String.join(", ", SUPPORTED.keySet());
        throw new IllegalArgumentException(
                "unknown --dataset-name '" + options.name() + "'; choose one of: " + supported);
    }
}
