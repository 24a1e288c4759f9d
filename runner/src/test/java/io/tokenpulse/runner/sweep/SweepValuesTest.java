package io.tokenpulse.runner.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SweepValuesTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "list                      | 80,10000          | 80;10000",
                "doubling range            | 1,2,4..64x2       | 1;2;4;8;16;32;64",
                "step range                | 1..8+1            | 1;2;3;4;5;6;7;8",
                "default step 1            | 3..5              | 3;4;5",
                "end not reached exactly   | 1..10+4           | 1;5;9",
                "decimals are exact        | 0.1..0.3+0.1      | 0.1;0.2;0.3",
                "factor with decimal start | 0.5..4x2          | 0.5;1;2;4",
                "names                     | random,sharegpt   | random;sharegpt",
            })
    void expandsListsAndRanges(String why, String text, String expected) {
        assertThat(SweepValues.parse("--x", text)).containsExactlyElementsOf(Arrays.asList(expected.split(";")));
    }

    @Test
    void aPathWithDotsIsNotARange() {
        assertThat(SweepValues.isList("../data/file.json")).isFalse();
        assertThat(SweepValues.isList("4..8")).isTrue();
        assertThat(SweepValues.isList("a,b")).isTrue();
        assertThat(SweepValues.isList("42")).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "malformed range   | 1..x           | is malformed",
                "backwards         | 8..1           | starts after its end",
                "zero step         | 1..8+0         | never reaches its end",
                "factor 1          | 1..8x1         | never reaches its end",
                "empty item        | 1,,2           | has an empty item",
                "too many values   | 1..100000      | more than 1000 values",
            })
    void refusesWithAReason(String why, String text, String message) {
        assertThatThrownBy(() -> SweepValues.parse("--num-prompts", text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--num-prompts")
                .hasMessageContaining(message);
    }

    @Test
    void keepsTheOrderGiven() {
        assertThat(SweepValues.parse("--x", "8,1..2")).isEqualTo(List.of("8", "1", "2"));
    }
}
