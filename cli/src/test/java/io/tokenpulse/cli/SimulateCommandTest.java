package io.tokenpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.simulator.SimulatorConfig;
import io.tokenpulse.simulator.engine.BatchingModel;
import io.tokenpulse.simulator.engine.DeterministicModel;
import io.tokenpulse.simulator.engine.EngineProfile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SimulateCommandTest {

    private static SimulateCommand parse(String... args) {
        SimulateCommand command = new SimulateCommand();
        new CommandLine(command).parseArgs(args);
        return command;
    }

    @Test
    void defaultsServeOptOnLocalhostPort8000WithTheCalibratedEngine() {
        SimulatorConfig config = parse().config();

        assertThat(config.host()).isEqualTo("127.0.0.1");
        assertThat(config.port()).isEqualTo(8000);
        assertThat(config.servedModelNames()).containsExactly("facebook/opt-125m");
        assertThat(config.latencyModel())
                .isInstanceOfSatisfying(
                        BatchingModel.class,
                        model -> assertThat(model.profile().maxNumSeqs()).isEqualTo(256));
    }

    @Test
    void speedupDividesTheDeterministicTimes() {
        SimulatorConfig config = parse(
                        "--profile",
                        "deterministic",
                        "--ttft-ms",
                        "100",
                        "--gap-ms",
                        "20",
                        "--speedup",
                        "10",
                        "--model",
                        "a,b")
                .config();

        assertThat(config.latencyModel()).isEqualTo(new DeterministicModel(10_000_000, 2_000_000));
        assertThat(config.servedModelNames()).containsExactly("a", "b");
    }

    @Test
    void engineOptionsReachTheBatchingProfile() {
        SimulatorConfig config = parse("--max-num-seqs", "8", "--no-chunked-prefill", "--speedup", "2")
                .config();

        assertThat(((BatchingModel) config.latencyModel()).profile()).satisfies(profile -> {
            assertThat(profile.maxNumSeqs()).isEqualTo(8);
            assertThat(profile.chunkedPrefill()).isFalse();
            assertThat(profile.stepBaseMs()).isEqualTo(EngineProfile.DEFAULT.stepBaseMs() / 2);
        });
    }

    @Test
    void theCpuProfileComputesEightSequencesAStepAndItsCostCanBeSetOnEitherEngine() {
        EngineProfile cpu = ((BatchingModel) parse("--profile", "cpu").config().latencyModel()).profile();
        assertThat(cpu).isEqualTo(EngineProfile.CPU);
        assertThat(cpu.maxNumSeqs()).isEqualTo(8);
        assertThat(cpu.cpuUsPerToken()).isEqualTo(1250);

        EngineProfile cheaper = ((BatchingModel)
                        parse("--profile", "cpu", "--cpu-per-token-us", "500", "--speedup", "2")
                                .config()
                                .latencyModel())
                .profile();
        assertThat(cheaper.cpuUsPerToken()).isEqualTo(250);

        EngineProfile calibrated =
                ((BatchingModel) parse("--cpu-per-token-us", "100").config().latencyModel()).profile();
        assertThat(calibrated.cpuUsPerToken()).isEqualTo(100);
        assertThat(calibrated.stepBaseMs()).isEqualTo(EngineProfile.DEFAULT.stepBaseMs());
    }

    @Test
    void theKvCacheFollowsTheContextLengthUnlessGivenAndPrefixCachingCanBeTurnedOff() {
        EngineProfile calibrated = ((BatchingModel) parse().config().latencyModel()).profile();
        assertThat(calibrated.kvCacheTokens()).isEqualTo(131_072);
        assertThat(calibrated.prefixCaching()).isTrue();

        SimulatorConfig shorter = parse("--max-model-len", "4096").config();
        assertThat(shorter.maxModelLen()).isEqualTo(4096);
        assertThat(((BatchingModel) shorter.latencyModel()).profile()).satisfies(profile -> {
            assertThat(profile.maxModelLen()).isEqualTo(4096);
            assertThat(profile.kvCacheTokens()).isEqualTo(4096);
        });

        EngineProfile small = ((BatchingModel)
                        parse("--max-model-len", "512", "--kv-cache-tokens", "2048", "--no-prefix-cache")
                                .config()
                                .latencyModel())
                .profile();
        assertThat(small.kvCacheTokens()).isEqualTo(2048);
        assertThat(small.prefixCaching()).isFalse();
    }

    @Test
    void badValuesAreOneLineUsageErrors() {
        for (List<String> args : List.of(
                List.of("--kv-cache-tokens", "1000"),
                List.of("--speedup", "0"),
                List.of("--fault-500-rate", "1.5"),
                List.of("--port", "70000"),
                List.of("--profile", "fast"),
                List.of("--cpu-per-token-us", "-1"),
                List.of("--profile", "deterministic", "--cpu-per-token-us", "100"))) {
            StringWriter err = new StringWriter();
            CommandLine cmd = TokenPulse.newCommandLine();
            cmd.setErr(new PrintWriter(err));
            List<String> full = new ArrayList<>(List.of("simulate"));
            full.addAll(args);

            int exit = cmd.execute(full.toArray(String[]::new));

            assertThat(exit).as("exit code of %s", args).isEqualTo(2);
            assertThat(err.toString())
                    .as("error of %s", args)
                    .startsWith("simulate: ")
                    .doesNotContain("Exception");
        }
    }

    @Test
    void anUnwritableSendLogIsAOneLineErrorBeforeAnythingListens() {
        StringWriter err = new StringWriter();
        CommandLine cmd = TokenPulse.newCommandLine();
        cmd.setErr(new PrintWriter(err));

        int exit = cmd.execute("simulate", "--port", "0", "--send-log", "/nonexistent-dir/sends.csv");

        assertThat(exit).isEqualTo(1);
        assertThat(err.toString().strip())
                .startsWith("simulate: cannot write the send log /nonexistent-dir/sends.csv")
                .endsWith("give --send-log a writable file")
                .doesNotContain("\n");
    }

    @Test
    void theSuggestedBenchIsACommandToPasteWithAModestLoad() {
        assertThat(SimulateCommand.tryCommand("http://127.0.0.1:8000", false, "sim-model", null))
                .startsWith("./tokenpulse bench --base-url http://127.0.0.1:8000 --model sim-model ")
                .contains("--num-prompts 100 --request-rate 10")
                .doesNotContain("(");
        assertThat(SimulateCommand.tryCommand("https://127.0.0.1:8443", true, "m", "/tok"))
                .contains("--insecure --model m --tokenizer /tok ");
    }
}
