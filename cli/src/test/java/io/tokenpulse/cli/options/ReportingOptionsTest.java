package io.tokenpulse.cli.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** vLLM's default --percentile-metrics: ttft,tpot,itl for generation, e2el for a pooling backend. */
class ReportingOptionsTest {

    @Command(name = "bench")
    static final class Bench {
        @Mixin
        ReportingOptions reporting;
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "vllm              | ''                                  | ttft;tpot;itl",
                "openai-embeddings | ''                                  | e2el",
                "vllm-rerank       | ''                                  | e2el",
                "vllm-score        | ''                                  | e2el",
                "vllm-score        | --percentile-metrics=e2el,ttft      | ttft;e2el",
                "openai-chat       | --percentile-metrics=e2el           | e2el",
            })
    void theDefaultFollowsTheBackendAndAGivenListWins(String backend, String flag, String expected) {
        Bench bench = new Bench();
        new CommandLine(bench).parseArgs(flag.isEmpty() ? new String[0] : new String[] {flag});

        bench.reporting.defaultFor(backend);
        bench.reporting.validate();

        assertThat(bench.reporting.runReporting("{}").selectedMetrics()).isEqualTo(List.of(expected.split(";")));
    }
}
