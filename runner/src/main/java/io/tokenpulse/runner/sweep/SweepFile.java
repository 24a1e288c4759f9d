package io.tokenpulse.runner.sweep;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code DIR/sweep.json}, written after every point and read back by {@code --resume}: the report
 * helper reads it too, so keep its keys (snake_case of the components' names).
 *
 * @param args the sweep's own command line without --resume and --output-dir, so that
 *     {@code --resume DIR} alone runs it again (absent in folders of older versions)
 * @param search the outcome of {@code --search}, absent for a grid
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record SweepFile(
        String sweepId,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<String> args,
        List<String> swept,
        List<Entry> points,
        @JsonInclude(JsonInclude.Include.NON_NULL) SearchResult search) {

    /** The file's name in the sweep's folder. */
    public static final String NAME = "sweep.json";

    /** An entry's status: the point ran to its end. */
    public static final String DONE = "done";
    /** An entry's status: a search stopped the point past saturation. */
    public static final String STOPPED_EARLY = "stopped_early";
    /** An entry's status: the point's run failed. */
    public static final String FAILED = "failed";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * One run of one point.
     *
     * @param result the vLLM result file, relative to the sweep's folder
     * @param status {@code done}, {@code stopped_early} (a search point past saturation, see {@code
     *     reason}) or {@code failed}
     * @param wallS the seconds the run took in the sweep, set-up and report included
     * @param reason why a point stopped early; absent otherwise
     * @param sloMet whether a search point met the SLO; absent in a grid
     * @param sloMiss why a search point missed it, e.g. {@code P99 TTFT 2345.12 ms > 2000 ms}
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Entry(
            String name,
            Map<String, String> params,
            int run,
            String runId,
            String result,
            String status,
            double wallS,
            @JsonInclude(JsonInclude.Include.NON_NULL) String reason,
            @JsonInclude(JsonInclude.Include.NON_NULL) Boolean sloMet,
            @JsonInclude(JsonInclude.Include.NON_NULL) String sloMiss) {

        /** A search's verdict as summary.md and the HTML report show it; empty in a grid. */
        public Optional<String> verdict() {
            return sloMet == null ? Optional.empty() : Optional.of(verdict(sloMet, sloMiss));
        }

        /** "met the SLO", or "missed the SLO: " and why. */
        public static String verdict(boolean met, String miss) {
            return met ? "met the SLO" : "missed the SLO: " + miss;
        }

        /** This entry with a search's verdict: {@code miss} says why it missed the SLO, empty when it met it. */
        public Entry withVerdict(Optional<String> miss) {
            return new Entry(
                    name, params, run, runId, result, status, wallS, reason, miss.isEmpty(), miss.orElse(null));
        }
    }

    /**
     * What {@code --search} found.
     *
     * @param flag the searched parameter ({@code request_rate} or {@code max_concurrency})
     * @param slo the SLO's bounds ({@code ttft}, {@code itl} in ms, {@code failures} a fraction)
     * @param highestMet the highest load that met the SLO below the lowest that missed it; absent when none met it
     * @param lowestMissed the lowest load that missed it; absent when none did
     * @param summary the line printed at the end
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record SearchResult(
            String flag, Map<String, Double> slo, String highestMet, String lowestMissed, String summary) {}

    /** A point whose run finished: it ran to its end, or a search stopped it past saturation; false for null. */
    public static boolean finished(Entry entry) {
        return entry != null && (entry.status().equals(DONE) || entry.status().equals(STOPPED_EARLY));
    }

    /** Reads {@code json}; an unreadable file is an {@link IOException} saying why. */
    public static SweepFile read(Path json) throws IOException {
        return JSON.readValue(json.toFile(), SweepFile.class);
    }

    /** Written to a temporary file and moved, so an interrupted sweep never leaves half a sweep.json. */
    public void save(Path dir) throws IOException {
        Path tmp = dir.resolve(NAME + ".tmp");
        JSON.writeValue(tmp.toFile(), this);
        Files.move(tmp, dir.resolve(NAME), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** This sweep with {@code entries} as its points, in the order listed. */
    public SweepFile withPoints(List<Entry> entries) {
        return new SweepFile(sweepId, args, swept, entries, search);
    }

    /** This sweep with what its search found. */
    public SweepFile withSearch(SearchResult result) {
        return new SweepFile(sweepId, args, swept, points, result);
    }
}
