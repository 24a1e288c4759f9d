package io.tokenpulse.aggregator.definitions;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * What one tool's definition reports for a run: a value per row it reports (ms, tok/s, req/s, s,
 * counts); rows it does not report are absent.
 */
public record ToolScores(String tool, Map<ScoreRow, Double> values) {

    public ToolScores {
        values = Collections.unmodifiableMap(new EnumMap<>(values));
    }

    public OptionalDouble get(ScoreRow row) {
        Double v = values.get(row);
        return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
    }
}
