package io.tokenpulse.cli.options;

import io.tokenpulse.producer.dataset.DatasetOptions;
import io.tokenpulse.producer.dataset.PromptStyle;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * vLLM's dataset flags ({@code --dataset-name} and each dataset's own), as the load generator's
 * {@link DatasetOptions}.
 */
public final class DatasetFlags {

    @Option(
            names = "--dataset-name",
            defaultValue = "sharegpt",
            description =
                    "Name of the dataset to benchmark on: sharegpt, burstgpt, sonnet, random, random-rerank, hf, custom, prefix_repetition, trace, agent-trace (default: ${DEFAULT-VALUE}).")
    String datasetName;

    @Option(
            names = "--dataset-path",
            description =
                    "Path to the sharegpt (JSON), burstgpt (CSV), sonnet (text), custom (JSONL), trace (Mooncake JSONL) or agent-trace (Mooncake JSONL with session_id, parent_ids, delay) dataset; for hf a Parquet, JSON or JSONL file or folder, or a dataset id in the local Hugging Face cache.")
    String datasetPath;

    @Option(
            names = "--custom-output-len",
            defaultValue = "256",
            description =
                    "Output tokens of every custom dataset request; -1 takes each line's output_tokens (default: ${DEFAULT-VALUE}).")
    int customOutputLen;

    // current vLLM's spelling is --skip-chat-template; the longest name is the Namespace key.
    @Option(
            names = {"--custom-skip-chat-template", "--skip-chat-template"},
            description = "Send and count custom dataset prompts as written, without the chat template.")
    boolean customSkipChatTemplate;

    @Option(
            names = "--sonnet-input-len",
            defaultValue = "550",
            description =
                    "Number of input tokens per request, used only for the sonnet dataset (default: ${DEFAULT-VALUE}).")
    int sonnetInputLen;

    @Option(
            names = "--sonnet-output-len",
            defaultValue = "150",
            description =
                    "Number of output tokens per request, used only for the sonnet dataset (default: ${DEFAULT-VALUE}).")
    int sonnetOutputLen;

    @Option(
            names = "--sonnet-prefix-len",
            defaultValue = "200",
            description =
                    "Number of prefix tokens per request, used only for the sonnet dataset (default: ${DEFAULT-VALUE}).")
    int sonnetPrefixLen;

    @Option(
            names = "--sharegpt-output-len",
            description = "Output tokens of every sharegpt request instead of the conversation's second turn's length.")
    Integer sharegptOutputLen;

    @Option(
            names = "--random-input-len",
            defaultValue = "1024",
            description =
                    "Number of input tokens per request, used only for the random dataset (default: ${DEFAULT-VALUE}).")
    int randomInputLen;

    @Option(
            names = "--random-output-len",
            defaultValue = "128",
            description =
                    "Number of output tokens per request, used only for the random dataset (default: ${DEFAULT-VALUE}).")
    int randomOutputLen;

    @Option(
            names = "--random-range-ratio",
            defaultValue = "0.0",
            description =
                    "Range ratio for sampling input/output lengths, used only for the random dataset: in [0, 1), lengths are drawn from [len * (1 - ratio), len * (1 + ratio)] (default: ${DEFAULT-VALUE}).")
    double randomRangeRatio;

    @Option(
            names = "--random-prefix-len",
            defaultValue = "0",
            description =
                    "Number of fixed prefix tokens before the random context of a request, used only for the random dataset; the input length is this plus the drawn --random-input-len (default: ${DEFAULT-VALUE}).")
    int randomPrefixLen;

    @Option(
            names = "--random-batch-size",
            defaultValue = "1",
            description =
                    "Documents per request of the random-rerank dataset, sent with one query; above 1, prompts per request of the random dataset, for the pooling backends (default: ${DEFAULT-VALUE}).")
    int randomBatchSize;

    @Option(
            names = "--no-reranker",
            description =
                    "For the random-rerank dataset: the model scores by embedding, not as a cross-encoder, so no separator token and a query of the full input length; needs --random-batch-size 2 or more.")
    boolean noReranker;

    @Option(
            names = "--hf-subset",
            description = "Subset of the hf dataset: a folder of its files (openai/gsm8k: main by default).")
    String hfSubset;

    @Option(
            names = "--hf-split",
            description =
                    "Split of the hf dataset: the files named or foldered so (train by default; openai/gsm8k and openai/openai_humaneval: test).")
    String hfSplit;

    @Option(
            names = "--hf-output-len",
            description = "Output tokens of every hf request instead of the dataset's own (or its layout's default).")
    Integer hfOutputLen;

    @Option(
            names = "--blazedit-min-distance",
            defaultValue = "0.0",
            description =
                    "Blazedit rows (hf dataset vdaita/edit_5k_char or edit_10k_char) whose normalized edit distance is below this are skipped (default: ${DEFAULT-VALUE}).")
    double blazeditMinDistance;

    @Option(
            names = "--blazedit-max-distance",
            defaultValue = "1.0",
            description =
                    "Blazedit rows whose normalized edit distance is above this are skipped (default: ${DEFAULT-VALUE}).")
    double blazeditMaxDistance;

    @Option(
            names = "--input-len",
            description =
                    "Input length of every dataset that takes one: sets --random-input-len and --sonnet-input-len (current vLLM's mapping).")
    Integer inputLen;

    @Option(
            names = "--output-len",
            description =
                    "Output length of every dataset: sets --random-output-len, --sonnet-output-len, --sharegpt-output-len, --custom-output-len and --hf-output-len (current vLLM's mapping).")
    Integer outputLen;

    @Option(
            names = "--disable-shuffle",
            description =
                    "Take sharegpt and custom entries in file order, prefix_repetition requests prefix by prefix, instead of shuffled with --seed.")
    boolean disableShuffle;

    @Option(
            names = "--no-oversample",
            description = "Do not oversample if the dataset has fewer samples than --num-prompts (sharegpt, custom).")
    boolean noOversample;

    @Option(
            names = "--prefix-repetition-prefix-len",
            defaultValue = "256",
            description = "Tokens of each shared prefix (prefix_repetition; default: ${DEFAULT-VALUE}).")
    int prefixRepetitionPrefixLen;

    @Option(
            names = "--prefix-repetition-suffix-len",
            defaultValue = "256",
            description =
                    "Tokens of each request's own suffix; the input is prefix + suffix (prefix_repetition; default: ${DEFAULT-VALUE}).")
    int prefixRepetitionSuffixLen;

    @Option(
            names = "--prefix-repetition-num-prefixes",
            defaultValue = "10",
            description =
                    "Number of prefixes; each gets --num-prompts / this many requests, rounded down (prefix_repetition; default: ${DEFAULT-VALUE}).")
    int prefixRepetitionNumPrefixes;

    @Option(
            names = "--prefix-repetition-output-len",
            defaultValue = "128",
            description = "Output tokens of every request (prefix_repetition; default: ${DEFAULT-VALUE}).")
    int prefixRepetitionOutputLen;

    @Option(
            names = "--trace-time-scale",
            defaultValue = "1",
            description =
                    "Multiplies the trace and agent-trace datasets' times (and tool times): 2 replays it twice as slowly, 0.5 twice as fast (default: ${DEFAULT-VALUE}).")
    double traceTimeScale;

    @Option(
            names = "--asr-max-audio-len-sec",
            defaultValue = "inf",
            description =
                    "Longest audio clip sent by the hf dataset's ASR layout, in seconds; longer ones are skipped (default: ${DEFAULT-VALUE}).")
    double asrMaxAudioLenSec;

    @Option(
            names = "--asr-min-audio-len-sec",
            defaultValue = "0.0",
            description =
                    "Shortest audio clip sent by the hf dataset's ASR layout, in seconds; shorter ones are skipped (default: ${DEFAULT-VALUE}).")
    double asrMinAudioLenSec;

    @Option(
            names = "--multi-turn",
            description =
                    "sharegpt: send every human turn of each conversation as one session (each turn with the conversation so far), not only the first; --num-prompts counts sessions.")
    boolean multiTurn;

    @Option(
            names = "--multi-turn-num-turns",
            defaultValue = "5",
            description = "Turns of every session of the multi-turn dataset (default: ${DEFAULT-VALUE}).")
    int multiTurnNumTurns;

    @Option(
            names = "--multi-turn-input-len",
            defaultValue = "128",
            description =
                    "New input tokens of each user turn of the multi-turn dataset, on top of the history (default: ${DEFAULT-VALUE}).")
    int multiTurnInputLen;

    @Option(
            names = "--multi-turn-output-len",
            defaultValue = "128",
            description = "Output tokens asked for by each turn of the multi-turn dataset (default: ${DEFAULT-VALUE}).")
    int multiTurnOutputLen;

    @Option(
            names = "--multi-turn-system-prompt-len",
            defaultValue = "0",
            description =
                    "Tokens of one system prompt every session of the multi-turn dataset starts with; 0 for none (default: ${DEFAULT-VALUE}).")
    int multiTurnSystemPromptLen;

    /**
     * The dataset options, with --input-len and --output-len written over each dataset's own length
     * flags as current vLLM does (they win over those flags, even when both are given).
     */
    public DatasetOptions options(PromptStyle promptStyle) {
        if (inputLen != null) {
            randomInputLen = inputLen;
            sonnetInputLen = inputLen;
        }
        if (outputLen != null) {
            randomOutputLen = outputLen;
            sonnetOutputLen = outputLen;
            sharegptOutputLen = outputLen;
            customOutputLen = outputLen;
            hfOutputLen = outputLen;
            prefixRepetitionOutputLen = outputLen;
        }
        return new DatasetOptions(
                datasetName,
                datasetPath == null ? null : Path.of(datasetPath),
                promptStyle,
                new DatasetOptions.Random(randomInputLen, randomOutputLen, randomRangeRatio, randomPrefixLen),
                new DatasetOptions.Sonnet(sonnetInputLen, sonnetOutputLen, sonnetPrefixLen),
                new DatasetOptions.ShareGpt(sharegptOutputLen),
                new DatasetOptions.Custom(customOutputLen, customSkipChatTemplate),
                new DatasetOptions.FileSampling(disableShuffle, noOversample),
                new DatasetOptions.PrefixRepetition(
                        prefixRepetitionPrefixLen,
                        prefixRepetitionSuffixLen,
                        prefixRepetitionNumPrefixes,
                        prefixRepetitionOutputLen),
                new DatasetOptions.Trace(traceTimeScale),
                new DatasetOptions.Hf(hfSubset, hfSplit, hfOutputLen, blazeditMinDistance, blazeditMaxDistance),
                new DatasetOptions.Asr(asrMinAudioLenSec, asrMaxAudioLenSec),
                new DatasetOptions.MultiTurn(
                        multiTurn, multiTurnNumTurns, multiTurnInputLen, multiTurnOutputLen, multiTurnSystemPromptLen),
                new DatasetOptions.RandomBatch(randomBatchSize, noReranker));
    }

    /** Whether the dataset plays multi-turn sessions: {@code multi-turn}, or {@code sharegpt --multi-turn}. */
    public boolean sessions() {
        return "multi-turn".equals(datasetName) || (multiTurn && "sharegpt".equals(datasetName));
    }

    /** @throws IllegalArgumentException for {@code --multi-turn} with a dataset other than sharegpt */
    public void checkMultiTurn() {
        if (multiTurn && !"sharegpt".equals(datasetName)) {
            throw new IllegalArgumentException("--multi-turn plays sharegpt conversations turn by turn; use it with"
                    + " --dataset-name sharegpt, or use --dataset-name multi-turn for synthetic sessions");
        }
    }
}
