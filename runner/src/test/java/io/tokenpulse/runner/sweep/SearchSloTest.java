package io.tokenpulse.runner.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.aggregator.report.ResultReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SearchSloTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "within every bound    | ttft:2000,itl:100,failures:0.01 | {\"completed\": 99, \"failed\": 1, \"p99_ttft_ms\": 2000, \"p99_itl_ms\": 99.5} | ''",
                "TTFT over             | ttft:2000,itl:100               | {\"p99_ttft_ms\": 2345.123, \"p99_itl_ms\": 150}                         | P99 TTFT 2345.12 ms > 2000 ms",
                "ITL over              | itl:100                         | {\"p99_ttft_ms\": 9999, \"p99_itl_ms\": 150}                             | P99 ITL 150.00 ms > 100 ms",
                "failures over         | failures:0.01                   | {\"completed\": 98, \"failed\": 2}                                       | failures 0.0200 > 0.01 (2 of 100 requests)",
                "nothing completed     | failures:0.5                    | {\"completed\": 0, \"failed\": 0}                                        | failures 1.0000 > 0.5 (0 of 0 requests)",
                "a figure missing      | ttft:10                         | {\"completed\": 1}                                                       | no p99_ttft_ms in the result",
            })
    void aPointMissesWhenAFigureIsOverItsBound(String why, String slo, String result, String miss) throws Exception {
        assertThat(SearchSlo.parse(slo)
                        .miss(ResultReader.read(JSON.readTree(result)))
                        .orElse(""))
                .isEqualTo(miss);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "unknown key        | tpot:50          | --slo: unknown key 'tpot'; use ttft and itl (P99, ms) and failures (a fraction), e.g. ttft:2000,itl:100,failures:0.01",
                "no number          | ttft:fast        | --slo: 'ttft:fast' needs KEY:NUMBER, a number >= 0 (ms)",
                "a fraction above 1 | failures:5       | --slo: 'failures:5' needs KEY:NUMBER, a number >= 0 and <= 1 (a fraction of requests)",
                "twice              | ttft:1,ttft:2    | --slo: 'ttft' is given twice",
            })
    void badInputIsOneLine(String why, String slo, String message) {
        assertThatThrownBy(() -> SearchSlo.parse(slo))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @org.junit.jupiter.api.Test
    void describesItsBoundsForTheSummaryLine() {
        assertThat(SearchSlo.parse("failures:0.01,ttft:2000,itl:100").describe())
                .isEqualTo("P99 TTFT <= 2000 ms, P99 ITL <= 100 ms, failures <= 0.01");
    }
}
