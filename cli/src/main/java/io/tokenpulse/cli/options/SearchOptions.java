package io.tokenpulse.cli.options;

import io.tokenpulse.runner.UserError;
import io.tokenpulse.runner.sweep.SaturationSearch;
import io.tokenpulse.runner.sweep.SearchPlan;
import io.tokenpulse.runner.sweep.SearchSlo;
import io.tokenpulse.runner.sweep.SweepRows;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code sweep --search} and its options: instead of a grid, the highest load that meets an SLO,
 * found by raising the load and bisecting ({@link SearchPlan}).
 */
public final class SearchOptions {

    @Option(
            names = "--search",
            paramLabel = "rate|concurrency",
            description =
                    "Instead of a grid, raise --request-rate (rate) or --max-concurrency (concurrency) from --search-start by --search-factor until a point misses --slo, then bisect; reports the highest load that met the SLO.")
    String search;

    @Option(
            names = "--slo",
            paramLabel = "KEY:VALUE,...",
            description =
                    "What --search must meet: ttft and itl bound the P99 in ms, failures the share of failed requests, e.g. ttft:2000,itl:100,failures:0.01.")
    String slo;

    @Option(
            names = "--search-start",
            defaultValue = "1",
            description = "The first load --search probes (req/s or concurrent requests; default: ${DEFAULT-VALUE}).")
    double searchStart;

    @Option(
            names = "--search-factor",
            defaultValue = "2",
            description = "How much --search raises the load until the SLO is missed (default: ${DEFAULT-VALUE}).")
    double searchFactor;

    @Option(
            names = "--search-max-points",
            defaultValue = "8",
            description = "At most this many points (raise and bisect) per search (default: ${DEFAULT-VALUE}).")
    int searchMaxPoints;

    @Option(
            names = "--search-stop-margin",
            defaultValue = "2",
            description =
                    "Stop a search point early when the live P99 TTFT of its first tokens exceeds this many times the SLO's ttft (default: ${DEFAULT-VALUE}).")
    double searchStopMargin;

    @Option(
            names = "--search-stop-windows",
            defaultValue = "3",
            description =
                    "... in this many consecutive 1 s windows; 0 never stops a point early (default: ${DEFAULT-VALUE}).")
    int searchStopWindows;

    /**
     * The search's set-up, checked before anything starts; null without --search.
     *
     * @param swept the parameters the sweep's flags list several values of
     * @param baseArgs the bench flags of the sweep's first point, which every probe shares
     * @param single whether the sweep is one point run once, the only sweep a search takes
     */
    public SearchPlan plan(List<String> swept, List<String> baseArgs, boolean single) {
        if (search == null) {
            if (slo != null) {
                throw UserError.usage("--slo is what --search must meet: add --search rate or --search concurrency");
            }
            return null;
        }
        String flag = switch (search) {
            case "rate" -> "--request-rate";
            case "concurrency" -> "--max-concurrency";
            default -> throw UserError.usage("--search must be rate or concurrency, got '" + search + "'");
        };
        if (slo == null) {
            throw UserError.usage("--search needs --slo, e.g. --slo ttft:2000,itl:100,failures:0.01");
        }
        String param = SweepRows.param(flag);
        if (swept.contains(param) || baseArgs.contains(flag)) {
            throw UserError.usage("--search " + search + " sets " + flag + " itself, from --search-start up: give "
                    + flag + " no " + (swept.contains(param) ? "list" : "value"));
        }
        if (!single) {
            throw UserError.usage("--search runs one search: give every other flag one value (no lists, several"
                    + " --bench-params or --serve-params rows, --num-runs); run one search per setting");
        }
        if (!(searchStopMargin > 0) || searchStopWindows < 0) {
            throw UserError.usage("--search-stop-margin must be > 0 and --search-stop-windows >= 0, got "
                    + searchStopMargin + " and " + searchStopWindows);
        }
        try {
            SearchSlo parsed = SearchSlo.parse(slo);
            return new SearchPlan(
                    flag,
                    baseArgs,
                    parsed,
                    new SaturationSearch(search.equals("concurrency"), searchStart, searchFactor, searchMaxPoints),
                    searchStart,
                    parsed.ttftMs().map(ms -> ms * searchStopMargin).orElse(Double.NaN),
                    searchStopWindows,
                    searchMaxPoints);
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        }
    }
}
