package io.tokenpulse.producer.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.tokenizers.TokenizerLoader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DatasetsTest {

    private static DatasetOptions named(String name) {
        return new DatasetOptions(
                name, null, PromptStyle.COMPLETION, DatasetOptions.Random.DEFAULTS, DatasetOptions.Sonnet.DEFAULTS);
    }

    @Test
    void registryListsTheSupportedNames() {
        assertThat(Datasets.names())
                .containsExactly(
                        "sharegpt",
                        "burstgpt",
                        "random",
                        "random-rerank",
                        "sonnet",
                        "custom",
                        "hf",
                        "trace",
                        "agent-trace",
                        "prefix_repetition",
                        "multi-turn");
    }

    @Test
    void onlyTheTracesBringTheirOwnSendTimesAndOnlyTheAgentTraceWaitsForAnswers() {
        assertThat(Datasets.names().stream().filter(Datasets::bringsOwnTimes)).containsExactly("trace", "agent-trace");
        assertThat(Datasets.names().stream().filter(Datasets::waitsForAnswers)).containsExactly("agent-trace");
    }

    @ParameterizedTest
    @CsvSource({
        "sharegpt, /path/to/ShareGPT_V3_unfiltered_cleaned_split.json",
        "burstgpt, /path/to/BurstGPT_without_fails_2.csv",
        "sonnet,   /path/to/sonnet.txt",
        "custom,   /path/to/prompts.jsonl",
        "trace,    /path/to/mooncake_trace.jsonl",
        "agent-trace, /path/to/agent_trace.jsonl",
        "hf,       '/path/to/data.parquet (or .json/.jsonl, a folder, or ORG/NAME)'",
    })
    void fileDatasetsWithoutAPathSayWhichFlagToGive(String name, String example) {
        assertThatThrownBy(() -> Datasets.create(named(name), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the " + name + " dataset needs --dataset-path " + example);
    }

    @Test
    void unknownNameListsTheChoices() {
        assertThatThrownBy(() -> Datasets.create(named("poems"), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "unknown --dataset-name 'poems'; choose one of: sharegpt, burstgpt, random, random-rerank, sonnet, custom, hf,"
                                + " trace, agent-trace, prefix_repetition, multi-turn");
    }

    @Test
    void anotherDatasetsFlagsAreIgnoredAsVllmIgnoresThemAndCheckedByTheirOwn() {
        // --output-len 0 sets every dataset's output length; only the chosen dataset's counts
        DatasetOptions zeros = new DatasetOptions(
                        "random",
                        null,
                        PromptStyle.COMPLETION,
                        DatasetOptions.Random.DEFAULTS,
                        DatasetOptions.Sonnet.DEFAULTS)
                .withShareGpt(new DatasetOptions.ShareGpt(0))
                .withCustom(new DatasetOptions.Custom(0, false))
                .withPrefixRepetition(new DatasetOptions.PrefixRepetition(256, 256, 10, 0))
                .withTrace(new DatasetOptions.Trace(-1))
                .withHf(new DatasetOptions.Hf(null, null, 0));
        Dataset random = Datasets.create(zeros, new TokenizerLoader(Path.of("no-hub-cache")).load("gpt2"));
        assertThat(random.name()).isEqualTo("random");

        DatasetOptions custom = new DatasetOptions(
                        "custom",
                        Path.of("prompts.jsonl"),
                        PromptStyle.COMPLETION,
                        DatasetOptions.Random.DEFAULTS,
                        DatasetOptions.Sonnet.DEFAULTS)
                .withCustom(new DatasetOptions.Custom(0, false));
        assertThatThrownBy(() -> Datasets.create(custom, null))
                .as("checked before the file is read")
                .hasMessage("--custom-output-len must be >= 1, or -1 to take each line's output_tokens, got 0");
    }

    @Test
    void namesAreLookedUpNotGuessed() {
        Dataset random = Datasets.create(named("random"), new TokenizerLoader(Path.of("no-hub-cache")).load("gpt2"));

        assertThat(random.name()).isEqualTo("random");
    }
}
