package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./tokenpulse bench --simulate --backend openai-audio} on {@code /v1/audio/transcriptions}:
 * every request sends the synthetic 5 s tone, and current vLLM's block and the result file give its
 * RTFx (the successful requests' seconds of audio over the run's duration), from the run's stored
 * summary; {@code replay} of the stored run gives the same line and key, and {@code compare} of the
 * file shows it as its last column.
 */
class AudioTranscriptionIT {
    private static final int PROMPTS = 6;
    private static final double TONE_SECONDS = 5;
    private static final String RUN_ID = "acceptance-rtfx";
    private static final String RTFX_LABEL = "RTFx (Inverse Real-Time Factor):";

    @TempDir
    static Path home;

    @TempDir
    static Path logs;

    @TempDir
    static Path work;

    @Test
    void anAudioRunPrintsAndSavesVllmsRtfxAndReplayGivesTheSame() throws Exception {
        Tokenpulse tokenpulse = new Tokenpulse(home, logs);
        Path results = work.resolve("results");
        Tokenpulse.Result bench = tokenpulse.run(
                Tokenpulse.ROOT,
                Duration.ofMinutes(3),
                List.of(
                        "bench",
                        "--simulate",
                        "--simulate-profile",
                        "deterministic",
                        "--backend",
                        "openai-audio",
                        "--endpoint",
                        "/v1/audio/transcriptions",
                        "--dataset-name",
                        "random",
                        "--random-input-len",
                        "16",
                        "--random-output-len",
                        "4",
                        "--num-prompts",
                        Integer.toString(PROMPTS),
                        "--vllm-block",
                        "current",
                        "--metrics-port",
                        "0",
                        "--disable-tqdm",
                        "--data-dir",
                        work.resolve("data").toString(),
                        "--run-id",
                        RUN_ID,
                        "--save-result",
                        "--result-dir",
                        results.toString(),
                        "--result-filename",
                        "bench.json"));
        assertThat(bench.exitCode()).as(bench.toString()).isZero();
        bench.assertQuietStderr();

        ObjectMapper json = new ObjectMapper();
        JsonNode saved = json.readTree(results.resolve("bench.json").toFile());
        assertThat(saved.get("completed").asInt()).as(bench.toString()).isEqualTo(PROMPTS);
        double rtfx = saved.get("rtfx").asDouble();
        assertThat(rtfx)
                .as("6 tones of 5 s over the run's duration")
                .isCloseTo(PROMPTS * TONE_SECONDS / saved.get("duration").asDouble(), within(1e-9 * rtfx));
        List<String> names = new ArrayList<>();
        saved.fieldNames().forEachRemaining(names::add);
        assertThat(names.get(names.indexOf("rtfx") - 1))
                .as("vLLM's place for the key")
                .isEqualTo("max_concurrent_requests");

        String line = rtfxLine(bench);
        assertThat(previousLine(bench, line)).startsWith("Peak concurrent requests:");
        assertThat(Double.parseDouble(line.substring(RTFX_LABEL.length()).strip()))
                .as("printed with 2 decimals")
                .isCloseTo(rtfx, within(0.005 + 1e-9));

        Tokenpulse.Result replay = tokenpulse.run(
                Tokenpulse.ROOT,
                Duration.ofMinutes(2),
                List.of(
                        "replay",
                        "--run-id",
                        RUN_ID,
                        "--vllm-block",
                        "current",
                        "--data-dir",
                        work.resolve("data").toString(),
                        "--save-result",
                        "--result-dir",
                        results.toString(),
                        "--result-filename",
                        "replay.json"));
        assertThat(replay.exitCode()).as(replay.toString()).isZero();
        assertThat(rtfxLine(replay)).isEqualTo(line);
        assertThat(json.readTree(results.resolve("replay.json").toFile())
                        .get("rtfx")
                        .asDouble())
                .isEqualTo(rtfx);

        // compare shows it as its last column, with two decimals, as the block does
        Tokenpulse.Result compare = tokenpulse.run(
                Tokenpulse.ROOT,
                Duration.ofMinutes(1),
                List.of("compare", results.resolve("bench.json").toString(), "--format", "csv"));
        assertThat(compare.exitCode()).as(compare.toString()).isZero();
        compare.assertQuietStderr();
        assertThat(compare.stdoutLines().get(0)).endsWith(",P99 ITL (ms),RTFx");
        assertThat(compare.stdoutLines().get(1))
                .endsWith("," + line.substring(RTFX_LABEL.length()).strip());
    }

    private static String rtfxLine(Tokenpulse.Result run) {
        List<String> lines =
                run.stdoutLines().stream().filter(l -> l.startsWith(RTFX_LABEL)).toList();
        assertThat(lines).as(run.toString()).hasSize(1);
        return lines.get(0);
    }

    private static String previousLine(Tokenpulse.Result run, String line) {
        List<String> lines = run.stdoutLines();
        return lines.get(lines.indexOf(line) - 1);
    }
}
