package io.tokenpulse.runner.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SaturationSearchTest {

    /** Runs a search against a server that meets the SLO up to {@code limit} and returns the loads probed. */
    private static List<String> probes(SaturationSearch search, double limit) {
        List<String> loads = new ArrayList<>();
        for (OptionalDouble next = search.next(); next.isPresent(); next = search.next()) {
            loads.add(SaturationSearch.number(next.getAsDouble()));
            search.record(next.getAsDouble(), next.getAsDouble() <= limit);
        }
        return loads;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                // raise 1, 2, 4, 8 (miss); bisect 6 (met), 7 (met): gap 1 ends it
                "concurrency limit 7          | true  | 1 | 2 | 8  | 7    | 1;2;4;8;6;7      | 7",
                // raise to 16 (miss); bisect 12, 10, 11: 11 met, gap 1 to 12
                "concurrency limit 11         | true  | 1 | 2 | 8  | 11   | 1;2;4;8;16;12;10;11 | 11",
                // rate: 1, 2, 4 (miss); 3 (miss), 2.5 (met), 2.75 (miss): the gap 0.25 is within 10 % of 2.5
                "rate limit 2.7               | false | 1 | 2 | 8  | 2.7  | 1;2;4;3;2.5;2.75 | 2.5",
                "rate limit 2.7, finer start  | false | 1.5 | 2 | 8 | 2.7 | 1.5;3;2.25;2.625;2.813 | 2.625",
                "max points bound the search  | false | 1 | 2 | 3  | 100  | 1;2;4            | 4",
                "the start already misses     | true  | 4 | 2 | 8  | 0    | 4;2;1            | ''",
                "rate start misses: halves    | false | 1 | 2 | 3  | 0.3  | 1;0.5;0.25       | 0.25",
            })
    void raisesUntilAMissThenBisects(
            String why,
            boolean integer,
            double start,
            double factor,
            int maxPoints,
            double limit,
            String expected,
            String best) {
        SaturationSearch search = new SaturationSearch(integer, start, factor, maxPoints);

        assertThat(probes(search, limit)).containsExactlyElementsOf(Arrays.asList(expected.split(";")));
        assertThat(search.best().map(SaturationSearch::number).orElse("")).isEqualTo(best);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "start 0         | 0 | 2 | 8 | --search-start must be a whole number > 0, got 0",
                "fraction        | 1.5 | 2 | 8 | --search-start must be a whole number > 0, got 1.5",
                "factor 1        | 1 | 1 | 8 | --search-factor must be > 1, got 1",
                "no points       | 1 | 2 | 0 | --search-max-points must be >= 1, got 0",
            })
    void badSettingsAreOneLineNamingTheFlag(String why, double start, double factor, int maxPoints, String message) {
        assertThatThrownBy(() -> new SaturationSearch(true, start, factor, maxPoints))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "a met load above a miss does not count | 1;2;4;3 | true;false;true;false | 1",
                "nothing missed: the highest probed     | 1;2;4   | true;true;true       | 4",
            })
    void theAnswerIsTheHighestMetLoadBelowTheLowestMiss(String why, String loads, String verdicts, String best) {
        SaturationSearch search = new SaturationSearch(true, 1, 2, 8);
        String[] l = loads.split(";");
        String[] v = verdicts.split(";");
        for (int i = 0; i < l.length; i++) {
            search.record(Double.parseDouble(l[i]), Boolean.parseBoolean(v[i]));
        }

        assertThat(search.best().map(SaturationSearch::number)).hasValue(best);
    }
}
