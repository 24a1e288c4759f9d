package io.tokenpulse.schemas.python;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PythonFloatTest {

    /** Expected: Python 3's repr(float(x)). */
    @ParameterizedTest(name = "repr({0}) = {1}")
    @CsvSource({
        "4.0, 4.0",
        "0.1, 0.1",
        "1200.2134, 1200.2134",
        "1e-4, 0.0001",
        "1e-5, 1e-05",
        "1.5e-7, 1.5e-07",
        "1e15, 1000000000000000.0",
        "1e16, 1e+16",
        "12345678.9, 12345678.9",
        "3.9699999999999998, 3.9699999999999998",
        "-2.5, -2.5",
        "0.0, 0.0",
        "Infinity, inf",
    })
    void reprMatchesPython(double x, String python) {
        assertThat(PythonFloat.repr(x)).isEqualTo(python);
    }

    /** The lines the load generator prints before a run (vLLM prints str(float)). */
    @ParameterizedTest(name = "{0} prints as {1}")
    @CsvSource({
        "4.0, 4.0",
        "1, 1.0",
        "0.5, 0.5",
        "20.0, 20.0",
        "0.1, 0.1",
        "Infinity, inf",
        "10000000, 10000000.0", // Java: 1.0E7
        "0.001, 0.001", // Java: 0.001, Python too
        "0.0001, 0.0001", // Java: 1.0E-4
        "123456.789, 123456.789",
    })
    void printsWhatPythonsStrPrints(double value, String expected) {
        assertThat(PythonFloat.repr(value)).isEqualTo(expected);
    }

    /** The printed Namespace line (moved from the CLI's BenchCommandTest). */
    @Test
    void pythonFloatReprMatchesPython() {
        assertThat(PythonFloat.repr(4.0)).isEqualTo("4.0");
        assertThat(PythonFloat.repr(Double.POSITIVE_INFINITY)).isEqualTo("inf");
        assertThat(PythonFloat.repr(0.5)).isEqualTo("0.5");
        assertThat(PythonFloat.repr(1e-5)).isEqualTo("1e-05");
    }

    /** Expected: Python 3's format(x, ".2f"), which rounds the exact binary value half-even. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "98.3, 98.30",
        "0.125, 0.12", // exact tie: half-even
        "0.375, 0.38", // exact tie: half-even
        "1.005, 1.00", // binary value is just below 1.005
        "2.675, 2.67", // binary value is just below 2.675
        "1826.515, 1826.52", // binary value is just above
        "0, 0.00",
        "41893.8349, 41893.83",
    })
    void twoDecimalsMatchesPython(double x, String python) {
        assertThat(PythonFloat.twoDecimals(x)).isEqualTo(python);
    }

    @ParameterizedTest(name = "P{0}")
    @CsvSource({"99, 99", "99.9, 99.9", "50.0, 50", "99.99, 99.99", "0, 0", "100, 100"})
    void percentileWordIsIntegerWhenWhole(double p, String word) {
        assertThat(PythonFloat.intOrRepr(p)).isEqualTo(word);
    }
}
