package io.tokenpulse.aggregator.report;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The server section printed after the block when bench scraped the server's {@code /metrics}
 * ({@code --server-metrics}): one line per result key the scraped engine exposes, in the block's
 * layout. The keys are those of {@code scoring.ServerScoring}.
 */
public final class ServerLines {

    private static final Map<String, String> LABELS = new LinkedHashMap<>();

    static {
        LABELS.put("server_mean_running", "Server mean running requests:");
        LABELS.put("server_max_running", "Server max running requests:");
        LABELS.put("server_mean_waiting", "Server mean waiting requests:");
        LABELS.put("server_max_waiting", "Server max waiting requests:");
        LABELS.put("server_peak_kv_cache_usage", "Server peak KV cache usage:");
        LABELS.put("server_prefix_cache_hit_rate", "Server prefix cache hit rate:");
        LABELS.put("server_preemptions", "Server preemptions:");
        LABELS.put("server_mean_ttft_ms", "Server mean TTFT (ms):");
        LABELS.put("server_median_ttft_ms", "Server median TTFT (ms):");
        LABELS.put("server_p99_ttft_ms", "Server P99 TTFT (ms):");
        LABELS.put("server_ttft_gap_ms", "Client minus server mean TTFT (ms):");
        LABELS.put("server_mean_itl_ms", "Server mean ITL (ms):");
        LABELS.put("server_median_itl_ms", "Server median ITL (ms):");
        LABELS.put("server_p99_itl_ms", "Server P99 ITL (ms):");
        LABELS.put("server_spec_decode_acceptance_rate", "Server spec decode acceptance rate:");
        LABELS.put("server_spec_decode_acceptance_length", "Server spec decode acceptance length:");
    }

    private ServerLines() {}

    /** The section's title and lines; empty when nothing known was scraped. */
    public static String of(Map<String, Double> values) {
        StringBuilder text = new StringBuilder();
        LABELS.forEach((key, label) -> {
            Double value = values.get(key);
            if (value != null) {
                ConsoleReport.decimal(text, label, value);
            }
        });
        return text.isEmpty() ? "" : "------------Server (scraped /metrics)-------------\n" + text;
    }
}
