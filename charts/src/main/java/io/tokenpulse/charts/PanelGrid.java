package io.tokenpulse.charts;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import javax.imageio.ImageIO;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/** XChart panels in a grid under a header line, as one PNG: the layout {@link RunChart} and {@link SweepChart} share. */
final class PanelGrid {

    static {
        // Off-screen drawing only: without this a set but unreachable DISPLAY would make AWT try to connect.
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private static final Color HEADER_TEXT = new Color(0x33, 0x33, 0x33);

    private PanelGrid() {}

    /** The panels row by row, {@code columns} to a row, under {@code header}, as PNG bytes of exactly {@code size}. */
    static byte[] png(String header, List<XYChart> panels, int columns, RunChart.Size size) {
        int rows = (panels.size() + columns - 1) / columns;
        BufferedImage image = new BufferedImage(size.widthPx(), size.heightPx(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, size.widthPx(), size.heightPx());
            int headerPx = drawHeader(g, header, size);
            // Laid out here rather than with XChart's BitmapEncoder grid, which gives every cell the first
            // chart's size: cells of unequal width make the image exactly the size asked for.
            int gridHeightPx = size.heightPx() - headerPx;
            for (int i = 0; i < panels.size(); i++) {
                int column = i % columns;
                int row = i / columns;
                int x0 = size.widthPx() * column / columns;
                int x1 = size.widthPx() * (column + 1) / columns;
                int y0 = headerPx + gridHeightPx * row / rows;
                int y1 = headerPx + gridHeightPx * (row + 1) / rows;
                Graphics2D cell = (Graphics2D) g.create(x0, y0, x1 - x0, y1 - y0);
                try {
                    panels.get(i).paint(cell, x1 - x0, y1 - y0);
                } finally {
                    cell.dispose();
                }
            }
        } finally {
            g.dispose();
        }
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", png);
        } catch (IOException e) {
            throw new UncheckedIOException("PNG encoding failed in memory", e);
        }
        return png.toByteArray();
    }

    private static int drawHeader(Graphics2D g, String text, RunChart.Size size) {
        Font font = new Font(Font.SANS_SERIF, Font.BOLD, Math.max(14, size.heightPx() / 50));
        g.setFont(font);
        g.setColor(HEADER_TEXT);
        int heightPx = g.getFontMetrics().getHeight() * 2;
        g.drawString(text, 12, heightPx * 2 / 3);
        return heightPx;
    }

    /** An empty panel: white, legend inside top left, both axes from 0 (a latency that doubles should look doubled). */
    static XYChart panel(String title, String xTitle, String unit) {
        XYChart chart = new XYChartBuilder()
                .title(title)
                .xAxisTitle(xTitle)
                .yAxisTitle(unit)
                .build();
        Styler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.InsideNW);
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setMarkerSize(5);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setXAxisMin(0.0);
        return chart;
    }
}
