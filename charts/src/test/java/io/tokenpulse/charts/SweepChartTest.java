package io.tokenpulse.charts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;

class SweepChartTest {

    private static SweepChart.Point point(double x, String group, double ttftP99) {
        return new SweepChart.Point(
                x, group, Map.of("median_ttft_ms", ttftP99 / 2, "p99_ttft_ms", ttftP99, "output_throughput", 10 * x));
    }

    private static final List<SweepChart.Point> POINTS = List.of(
            point(4, "random_input_len=80", 40),
            point(1, "random_input_len=80", 10),
            point(1, "random_input_len=10000", 300),
            point(4, "random_input_len=10000", 900));

    @Test
    void oneLinePerPercentileAndGroupSortedByX() {
        List<XYChart> panels = SweepChart.panels("num_prompts", POINTS);

        XYChart ttft = panels.get(0);
        assertThat(ttft.getTitle()).isEqualTo("TTFT");
        assertThat(names(ttft))
                .containsExactly(
                        "P50 random_input_len=80",
                        "P99 random_input_len=80",
                        "P50 random_input_len=10000",
                        "P99 random_input_len=10000");
        assertThat(ttft.getSeries("P99 random_input_len=80").getXData()).containsExactly(1.0, 4.0);
        assertThat(ttft.getSeries("P99 random_input_len=80").getYData()).containsExactly(10.0, 40.0);
        assertThat(names(panels.get(1))).as("no TPOT key in any point: no line").isEmpty();
        assertThat(names(panels.get(3))).containsExactly("output random_input_len=80", "output random_input_len=10000");
    }

    private static List<String> names(XYChart chart) {
        return chart.getSeriesCollection().stream().map(s -> s.getName()).toList();
    }

    @Test
    void rendersAPngOfTheGivenSize() throws IOException {
        byte[] png = SweepChart.png("sweep s1", "num_prompts", POINTS, SweepChart.DEFAULT_SIZE);

        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        assertThat(image.getWidth()).isEqualTo(1200);
        assertThat(image.getHeight()).isEqualTo(900);
    }

    @Test
    void noPointIsAnError() {
        assertThatThrownBy(() -> SweepChart.png("s", "x", List.of(), SweepChart.DEFAULT_SIZE))
                .hasMessage("a sweep chart needs at least one point");
    }
}
