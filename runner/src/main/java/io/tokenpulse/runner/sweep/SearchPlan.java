package io.tokenpulse.runner.sweep;

import io.tokenpulse.runner.sweep.SweepFile.SearchResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A {@code sweep --search}'s set-up: the searched flag, the bench flags every probe shares, the SLO,
 * the loads to probe and the early stop. Each probe is the point {@code request_rate=4} (or {@code
 * max_concurrency=4}).
 *
 * @param flag {@code --request-rate} or {@code --max-concurrency}
 * @param search the loads to probe, told each verdict (stateful: one search per plan)
 * @param stopLimitMs the live P99 TTFT above which a point stops early; NaN: never (no ttft in the SLO)
 * @param stopWindows in this many consecutive 1 s windows; 0: never
 * @param maxPoints the most points the search probes (the progress lines' total)
 */
public record SearchPlan(
        String flag,
        List<String> baseArgs,
        SearchSlo slo,
        SaturationSearch search,
        double start,
        double stopLimitMs,
        int stopWindows,
        int maxPoints) {

    public SearchPlan {
        baseArgs = List.copyOf(baseArgs);
    }

    /** The searched parameter's name ({@code request_rate}). */
    public String param() {
        return SweepRows.param(flag);
    }

    /** The probe of {@code load}: the shared flags and the searched flag at that load. */
    public SweepPoint probe(double load) {
        String value = SaturationSearch.number(load);
        List<String> args = new ArrayList<>(baseArgs);
        args.addAll(List.of(flag, value));
        return new SweepPoint(param() + "=" + value, Map.of(param(), value), args);
    }

    /** A fresh early stop for one point, or null when the SLO has no TTFT or --search-stop-windows is 0. */
    SaturationStop early() {
        return stopWindows == 0 || Double.isNaN(stopLimitMs)
                ? null
                : new SaturationStop(stopLimitMs, stopWindows).start();
    }

    /** What the search found, with the line that ends the summary. */
    SearchResult result() {
        Optional<Double> best = search.best();
        OptionalDouble missed = search.lowestMiss();
        int points = search.probes().size();
        String over = "Search over " + param() + " (" + slo.describe() + ", " + points + " point"
                + (points == 1 ? "" : "s") + "): ";
        String summary;
        if (best.isPresent() && missed.isPresent()) {
            summary = over + "highest load that met the SLO: " + param() + "=" + SaturationSearch.number(best.get())
                    + " (the lowest that missed it: " + SaturationSearch.number(missed.getAsDouble()) + ")";
        } else if (best.isPresent()) {
            summary = over + "highest load that met the SLO: " + param() + "=" + SaturationSearch.number(best.get())
                    + "; no load probed missed it: raise --search-max-points or --search-start to find the limit";
        } else {
            summary = over + "no load met the SLO, down to " + param() + "=" + SaturationSearch.number(missed.orElse(0))
                    + ": lower --search-start";
        }
        return new SearchResult(
                param(),
                slo.limits(),
                best.map(SaturationSearch::number).orElse(null),
                missed.isPresent() ? SaturationSearch.number(missed.getAsDouble()) : null,
                summary);
    }
}
