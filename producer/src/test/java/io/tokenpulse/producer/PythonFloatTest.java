package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PythonFloatTest {

    @ParameterizedTest(name = "{0} prints as {1}")
    @CsvSource({
            "4.0, 4.0",
            "1, 1.0",
            "0.5, 0.5",
            "20.0, 20.0",
            "0.1, 0.1",
            "Infinity, inf",
            "10000000, 10000000.0",   // Java: 1.0E7
            "0.001, 0.001",           // Java: 0.001, Python too
            "0.0001, 0.0001",         // Java: 1.0E-4
            "123456.789, 123456.789",
    })
    void printsWhatPythonsStrPrints(double value, String expected) {
        assertThat(PythonFloat.repr(value)).isEqualTo(expected);
    }
}
