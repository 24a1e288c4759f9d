package io.tokenpulse.cli.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Self-contained HTML pages: styles and scripts inline, so a page opens with no network. Charts use
 * uPlot, read from its webjar on the classpath and written into the page.
 */
final class Html {
    /** The webjar's folder is named after its version, which its pom.properties tells (pinned in the root pom). */
    private static final String UPLOT = "META-INF/resources/webjars/uplot/"
            + resource("META-INF/maven/org.webjars.npm/uplot/pom.properties")
                    .lines()
                    .filter(line -> line.startsWith("version="))
                    .findFirst()
                    .orElseThrow()
                    .substring("version=".length())
                    .strip()
            + "/dist/";

    /**
     * Fits a phone (390 px) to a wide screen: a table wider than the page scrolls inside its own box,
     * a chart is drawn no wider than the page (the script), an image shrinks, a long word breaks.
     */
    private static final String STYLE = """
            body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
            h1, h2, p { overflow-wrap: anywhere; }
            table:not(.u-legend) { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 13px;
                    display: block; width: max-content; max-width: 100%; overflow-x: auto; }
            table:not(.u-legend) :is(th, td) { border: 1px solid #ccc; padding: 3px 6px; text-align: right; }
            table:not(.u-legend) :is(th, td):first-child { text-align: left; }
            tr.baseline { background: #eef; }
            .charts { display: flex; flex-wrap: wrap; gap: 1em; }
            .chart { min-height: 40px; max-width: 100%; }
            .uplot { max-width: 100%; } /* its legend wraps under a narrow chart */
            img.windows, img.pareto { max-width: 100%; height: auto; }
            .missing { color: #a60; font-style: italic; }
            pre { background: #f6f6f6; padding: 0.5em; overflow-x: auto; }
            ul.why li { margin: 0.3em 0; }
            @media (max-width: 600px) { body { margin: 0.6em; } }
            """;

    private Html() {}

    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * A whole page.
     *
     * @param script JavaScript run after uPlot is loaded; empty for a page without charts (and without uPlot)
     */
    static String page(String title, String body, String script) {
        StringBuilder out = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>")
                .append(escape(title))
                .append("</title>\n<style>\n")
                .append(STYLE);
        if (!script.isEmpty()) {
            out.append(resource(UPLOT + "uPlot.min.css"));
        }
        out.append("\n</style>\n</head>\n<body>\n").append(body);
        if (!script.isEmpty()) {
            // "</script" inside the library or the data would end the element early
            out.append("\n<script>\n")
                    .append(resource(UPLOT + "uPlot.iife.min.js").replace("</script", "<\\/script"))
                    .append("\n</script>\n<script>\n")
                    .append(script)
                    .append("\n</script>\n");
        }
        return out.append("</body>\n</html>\n").toString();
    }

    private static String resource(String name) {
        try (InputStream in = Html.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the classpath (the uPlot webjar)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
