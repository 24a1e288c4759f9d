package io.tokenpulse.aggregator.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GoodputSloTest {

    private static final long MS = 1_000_000L;

    @Test
    void parsesPairsGivenAsSeparateArgumentsOrOneString() {
        GoodputSlo expected = new GoodputSlo(OptionalDouble.of(500), OptionalDouble.of(50.5), OptionalDouble.empty());
        assertThat(GoodputSlo.parse(List.of("ttft:500", "tpot:50.5"))).isEqualTo(expected);
        assertThat(GoodputSlo.parse(List.of("ttft:500 tpot:50.5"))).isEqualTo(expected);
        assertThat(GoodputSlo.parse(List.of()).enabled()).isFalse();
        assertThat(GoodputSlo.parse(List.of("e2el:inf")).e2elMs()).hasValue(Double.POSITIVE_INFINITY);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "unknown key          | itl:5       | unknown metric 'itl': use one of ttft, tpot, e2el",
                "no colon             | ttft500     | bad --goodput pair 'ttft500': write KEY:VALUE with KEY one of ttft, tpot, e2el",
                "two colons           | ttft:5:6    | bad --goodput pair",
                "not a number         | ttft:fast   | bad --goodput pair",
                "java-only number     | ttft:5d     | bad --goodput pair",
                "negative             | tpot:-1     | is negative",
                "repeated key         | ttft:1 ttft:2 | names ttft twice",
            })
    void badInputFailsWithOneLineSayingWhatToWrite(String why, String input, String message) {
        assertThatThrownBy(() -> GoodputSlo.parse(List.of(input)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message)
                .hasMessageNotContaining("\n");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                // why                               | slo                    | ttft | e2el | n | met
                "exactly at the TTFT SLO meets it    | ttft:100               | 100  | 500  | 5 | true",
                "1 ns over the TTFT SLO fails        | ttft:99.999999         | 100  | 500  | 5 | false",
                "TPOT (500-100)/4 = 100 meets 100    | tpot:100               | 100  | 500  | 5 | true",
                "TPOT 100 misses 99                  | tpot:99                | 100  | 500  | 5 | false",
                "n = 1: TPOT counts as 0             | tpot:0                 | 100  | 500  | 1 | true",
                "n = 0: TPOT counts as 0             | tpot:0                 | 100  | 500  | 0 | true",
                "every SLO must hold                 | ttft:200 e2el:400      | 100  | 500  | 5 | false",
                "all three hold                      | ttft:200 tpot:100 e2el:500 | 100 | 500 | 5 | true",
            })
    void requestMeetsEverySloGiven(String why, String slo, long ttftMs, long e2elMs, int n, boolean met) {
        RequestValues v = RequestValues.of(
                new RequestTiming(true, 0, 0, new long[] {ttftMs * MS}, e2elMs * MS, e2elMs * MS, 1, n, 0));
        assertThat(GoodputSlo.parse(List.of(slo)).isMetBy(v)).isEqualTo(met);
    }
}
