package io.tokenpulse.aggregator.definitions;

/**
 * The rows of the side-by-side table: every metric one of the tools reports, in print order. A
 * tool that does not report a row leaves it out of its {@link ToolScores}.
 */
public enum ScoreRow {
    TTFT_MEAN("TTFT mean (ms)", Family.TTFT, Stat.MEAN),
    TTFT_MEDIAN("TTFT median (ms)", Family.TTFT, Stat.MEDIAN),
    TTFT_P99("TTFT P99 (ms)", Family.TTFT, Stat.P99),
    ITL_MEAN("ITL mean (ms)", Family.ITL, Stat.MEAN),
    ITL_MEDIAN("ITL median (ms)", Family.ITL, Stat.MEDIAN),
    ITL_P99("ITL P99 (ms)", Family.ITL, Stat.P99),
    TPOT_MEAN("TPOT mean (ms)", Family.TPOT, Stat.MEAN),
    TPOT_MEDIAN("TPOT median (ms)", Family.TPOT, Stat.MEDIAN),
    TPOT_P99("TPOT P99 (ms)", Family.TPOT, Stat.P99),
    E2EL_MEAN("E2EL mean (ms)", Family.E2EL, Stat.MEAN),
    E2EL_MEDIAN("E2EL median (ms)", Family.E2EL, Stat.MEDIAN),
    E2EL_P99("E2EL P99 (ms)", Family.E2EL, Stat.P99),
    OUTPUT_THROUGHPUT("Output token throughput (tok/s)", Family.OUTPUT_THROUGHPUT, Stat.VALUE),
    REQUEST_THROUGHPUT("Request throughput (req/s)", Family.REQUEST_THROUGHPUT, Stat.VALUE),
    DURATION("Duration for throughput (s)", Family.DURATION, Stat.VALUE),
    SUCCESSFUL("Successful requests", Family.REQUESTS, Stat.VALUE),
    FAILED("Failed requests", Family.REQUESTS, Stat.VALUE),
    INPUT_TOKENS("Total input tokens", Family.TOKENS, Stat.VALUE),
    OUTPUT_TOKENS("Total output tokens", Family.TOKENS, Stat.VALUE);

    /** What a row measures; a definition states one rule per family. */
    public enum Family {
        TTFT,
        ITL,
        TPOT,
        E2EL,
        OUTPUT_THROUGHPUT,
        REQUEST_THROUGHPUT,
        DURATION,
        REQUESTS,
        TOKENS
    }

    /** Which statistic of the family's values a row is. */
    public enum Stat {
        MEAN,
        MEDIAN,
        P99,
        VALUE
    }

    private final String label;
    private final Family family;
    private final Stat stat;

    ScoreRow(String label, Family family, Stat stat) {
        this.label = label;
        this.family = family;
        this.stat = stat;
    }

    public String label() {
        return label;
    }

    public Family family() {
        return family;
    }

    public Stat stat() {
        return stat;
    }

    /** The key in the JSON output: the enum name in lower case, e.g. {@code ttft_p99}. */
    public String key() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The mean, median and P99 rows of a latency family. */
    static ScoreRow[] distribution(Family family) {
        return java.util.Arrays.stream(values())
                .filter(r -> r.family == family && r.stat != Stat.VALUE)
                .toArray(ScoreRow[]::new);
    }
}
