package io.tokenpulse.charts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.knowm.xchart.XYChart;

class ParetoChartTest {

    /** {@code a:50:100;b:20:300} → points. */
    private static List<ParetoChart.Point> points(String text) {
        return Arrays.stream(text.split(";"))
                .map(p -> p.split(":"))
                .map(p -> new ParetoChart.Point(p[0], Double.parseDouble(p[1]), Double.parseDouble(p[2])))
                .toList();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "one point is its own front           | a:50:100                      | a",
                "a trade-off keeps both, by per-user  | a:50:100;b:20:300             | b;a",
                "a point beaten on both axes drops    | a:50:100;b:20:300;c:19:250    | b;a",
                "faster and more throughput dominates | a:50:100;b:60:200             | b",
                "equal points both stay               | a:50:100;b:50:100             | b;a",
                "the saturated tail of a rate sweep   | r1:50:100;r2:48:190;r4:40:300;r8:10:290 | r4;r2;r1",
            })
    void theFrontHoldsThePointsNoOtherBeatsOnBothAxes(String why, String given, String front) {
        assertThat(ParetoChart.front(points(given)).stream().map(ParetoChart.Point::label))
                .containsExactly(front.split(";"));
    }

    @org.junit.jupiter.api.Test
    void everyPointGreyAndTheFrontAsALineOfItsOwn() throws IOException {
        List<ParetoChart.Point> points = points("r1:50:100;r2:48:190;r4:40:300;r8:10:290");

        XYChart chart = ParetoChart.panel(points);

        assertThat(chart.getSeries(ParetoChart.ALL).getXData()).containsExactly(50.0, 48.0, 40.0, 10.0);
        assertThat(chart.getSeries(ParetoChart.FRONT).getXData()).containsExactly(40.0, 48.0, 50.0);
        assertThat(chart.getSeries(ParetoChart.FRONT).getYData()).containsExactly(300.0, 190.0, 100.0);
        BufferedImage image =
                ImageIO.read(new ByteArrayInputStream(ParetoChart.png("sweep s1", points, ParetoChart.DEFAULT_SIZE)));
        assertThat(image.getWidth()).isEqualTo(1000);
        assertThat(image.getHeight()).isEqualTo(700);
        assertThatThrownBy(() -> ParetoChart.png("empty", List.of(), ParetoChart.DEFAULT_SIZE))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
