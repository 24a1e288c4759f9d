package io.tokenpulse.producer.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TqdmLineTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                // a vLLM run's last line: 200 in 99.2 s is 2.02 it/s; widths chosen for 10-column bars
                "done, 200 in 99.2 s      | 200 | 200 | 99200   | 49 | '100%|██████████| 200/200 [01:39<00:00,  2.02it/s]'",
                "nothing finished yet     | 0   | 200 | 500     | 39 | '  0%|          | 0/200 [00:00<?, ?it/s]'",
                // 50 of 200 in 25 s: 2 it/s, 75 s left; a quarter of 10 columns is 2 blocks and 4 eighths
                "a quarter, eighths shown | 50  | 200 | 25000   | 48 | ' 25%|██▌       | 50/200 [00:25<01:15,  2.00it/s]'",
                "slower than 1/s          | 1   | 10  | 4000    | 46 | ' 10%|█         | 1/10 [00:04<00:36,  4.00s/it]'",
                "hours, 4-column bar      | 10  | 20  | 3725000 | 46 | ' 50%|██  | 10/20 [1:02:05<1:02:05, 372.50s/it]'",
                "duration mode: no total  | 84  | -1  | 41500   | 40 | '84it [00:41,  2.02it/s]'",
                // rounded, not truncated; a rate wider than its 5 columns
                "a third                  | 1   | 3   | 3000    | 45 | ' 33%|███▎      | 1/3 [00:03<00:06,  3.00s/it]'",
                "fast: 12 345.68 it/s     | 1000 | 2000 | 81     | 54 | ' 50%|█████     | 1000/2000 [00:00<00:00, 12345.68it/s]'",
            })
    void rendersTqdmsDefaultMeter(String why, long n, long total, long elapsedMs, int width, String expected) {
        assertThat(TqdmLine.format(n, total, Duration.ofMillis(elapsedMs), width))
                .isEqualTo(expected);
    }
}
