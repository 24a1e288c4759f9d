package io.tokenpulse.runner.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.runner.sweep.SweepFile.Entry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sweep.json is read back by {@code --resume} and {@code report --sweep}: its keys are a contract. */
class SweepFileTest {
    @TempDir
    Path dir;

    private static Entry point(String name) {
        return new Entry(
                name, Map.of("request_rate", "2"), 1, "s-0", "points/a.json", SweepFile.DONE, 3.5, null, null, null);
    }

    @Test
    void aSearchsVerdictIsSavedAsItsTwoKeysAndReadBack() throws IOException {
        Entry met = point("request_rate=2").withVerdict(Optional.empty());
        Entry missed = point("request_rate=4").withVerdict(Optional.of("P99 TTFT 2345.12 ms > 2000 ms"));
        new SweepFile("s", List.of("--search", "rate"), List.of("request_rate"), List.of(met, missed), null).save(dir);

        JsonNode saved = new ObjectMapper().readTree(dir.resolve(SweepFile.NAME).toFile());
        List<String> keys = new ArrayList<>();
        saved.get("points").get(1).fieldNames().forEachRemaining(keys::add);
        assertThat(keys)
                .containsExactly(
                        "name", "params", "run", "run_id", "result", "status", "wall_s", "slo_met", "slo_miss");
        SweepFile read = SweepFile.read(dir.resolve(SweepFile.NAME));
        assertThat(read.points())
                .extracting(Entry::verdict)
                .containsExactly(
                        Optional.of("met the SLO"), Optional.of("missed the SLO: P99 TTFT 2345.12 ms > 2000 ms"));
        assertThat(point("grid").verdict()).as("a grid's point has none").isEmpty();
    }
}
