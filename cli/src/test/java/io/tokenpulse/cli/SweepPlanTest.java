package io.tokenpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.runner.sweep.SweepPoint;
import io.tokenpulse.runner.sweep.SweepRows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.Model.CommandSpec;

class SweepPlanTest {

    private static final CommandSpec BENCH =
            TokenPulse.newCommandLine().getSubcommands().get("bench").getCommandSpec();

    @TempDir
    Path dir;

    private static SweepPlan plan(String... args) {
        return SweepPlan.of(BENCH, List.of(args), List.of(), List.of());
    }

    @Test
    void runsTheCartesianProductLastFlagFastest() {
        SweepPlan plan = plan("--num-prompts", "1,2", "--dataset-name", "random", "--random-input-len=80,10000");

        assertThat(plan.swept()).containsExactly("num_prompts", "random_input_len");
        assertThat(plan.points())
                .extracting(SweepPoint::name)
                .containsExactly(
                        "num_prompts=1,random_input_len=80",
                        "num_prompts=1,random_input_len=10000",
                        "num_prompts=2,random_input_len=80",
                        "num_prompts=2,random_input_len=10000");
        assertThat(plan.points().get(1).benchArgs())
                .containsExactly("--num-prompts", "1", "--dataset-name", "random", "--random-input-len", "10000");
        assertThat(plan.points().get(1).params()).isEqualTo(Map.of("num_prompts", "1", "random_input_len", "10000"));
    }

    @Test
    void flagsWithCommasOfTheirOwnAreNotSwept() {
        SweepPlan plan = plan("--percentile-metrics", "ttft,tpot,itl", "--num-prompts", "1,2");

        assertThat(plan.swept()).containsExactly("num_prompts");
        assertThat(plan.points().get(0).benchArgs())
                .containsExactly("--percentile-metrics", "ttft,tpot,itl", "--num-prompts", "1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"--backend", "--base-url", "--bootstrap-servers", "--port"})
    void refusesAListOnAFlagThatCannotVary(String flag) {
        assertThatThrownBy(() -> plan(flag, "a,b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(flag + " cannot vary within a sweep");
    }

    @Test
    void refusesTheFlagsSweepSetsAndUnknownFlags() {
        assertThatThrownBy(() -> plan("--result-dir", "x")).hasMessageStartingWith("--result-dir is set by sweep");
        assertThatThrownBy(() -> plan("--no-such-flag", "1")).hasMessageStartingWith("unknown flag --no-such-flag");
        assertThatThrownBy(() -> plan("--num-prompts", "1..x")).hasMessageContaining("is malformed");
    }

    @Test
    void benchParamsRowsTimesListedFlags() throws IOException {
        Path file = dir.resolve("bench.json");
        Files.writeString(file, "[{\"request_rate\": 2, \"ignore_eos\": true}, {\"request_rate\": 4}]");

        SweepPlan plan =
                SweepPlan.of(BENCH, List.of("--num-prompts", "1,2"), SweepRows.read("--bench-params", file), List.of());

        assertThat(plan.points())
                .extracting(SweepPoint::name)
                .containsExactly(
                        "request_rate=2,ignore_eos=true,num_prompts=1",
                        "request_rate=2,ignore_eos=true,num_prompts=2",
                        "request_rate=4,num_prompts=1",
                        "request_rate=4,num_prompts=2");
        assertThat(plan.points().get(0).benchArgs())
                .containsExactly("--num-prompts", "1", "--request-rate", "2", "--ignore-eos");
    }

    @Test
    void namedServeSettingsEachRunEveryPoint() throws IOException {
        Path file = dir.resolve("serve.json");
        Files.writeString(file, "{\"chunked\": {}, \"no-chunked\": {\"no_chunked_prefill\": true}}");

        SweepPlan plan = SweepPlan.of(
                BENCH, List.of("--request-rate", "2,4"), List.of(), SweepRows.read("--serve-params", file));

        assertThat(plan.settings()).hasSize(2);
        assertThat(plan.settings().get(1).serverArgs()).containsExactly("--no-chunked-prefill");
        assertThat(plan.swept()).containsExactly("serve_setting", "request_rate", "no_chunked_prefill");
        assertThat(plan.points().get(3).params())
                .containsExactly(
                        Map.entry("serve_setting", "no-chunked"),
                        Map.entry("no_chunked_prefill", "true"),
                        Map.entry("request_rate", "4"));
        assertThat(plan.points())
                .extracting(SweepPoint::name)
                .containsExactly(
                        "chunked,request_rate=2",
                        "chunked,request_rate=4",
                        "no-chunked,request_rate=2",
                        "no-chunked,request_rate=4");
    }

    @Test
    void aParamsFileWithoutRowsOrWithAFixedFlagIsRefused() throws IOException {
        Path empty = dir.resolve("empty.json");
        Files.writeString(empty, "[]");
        assertThatThrownBy(() -> SweepRows.read("--bench-params", empty)).hasMessageContaining("has no rows");
        assertThatThrownBy(() -> SweepRows.read("--bench-params", dir.resolve("missing.json")))
                .hasMessageEndingWith("missing.json: no such file");

        Path fixed = dir.resolve("fixed.json");
        Files.writeString(fixed, "[{\"backend\": \"openai\"}]");
        assertThatThrownBy(() -> SweepPlan.of(BENCH, List.of(), SweepRows.read("--bench-params", fixed), List.of()))
                .hasMessageStartingWith("--backend cannot vary within a sweep");
    }
}
