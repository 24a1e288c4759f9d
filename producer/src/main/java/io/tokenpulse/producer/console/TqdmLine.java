package io.tokenpulse.producer.console;

import java.time.Duration;
import java.util.function.LongSupplier;
import me.tongfei.progressbar.ProgressBarRenderer;
import me.tongfei.progressbar.ProgressState;

/**
 * Renders the progress bar as tqdm's default meter, the one vLLM prints:
 * {@code  42%|████▏     | 84/200 [00:41<00:57,  2.02it/s]}, or {@code 84it [00:41,  2.02it/s]}
 * when the total is unknown (duration mode). The rate is the average since the start (tqdm
 * smooths it, so mid-run values can differ slightly; the final line agrees). The progressbar
 * library draws its own style, hence this renderer.
 */
final class TqdmLine implements ProgressBarRenderer {

    private static final String BLOCKS = " ▏▎▍▌▋▊▉█";

    private final LongSupplier finished;

    /** @param finished the requests finished so far: counted apart from the library's state (see {@link Progress}) */
    TqdmLine(LongSupplier finished) {
        this.finished = finished;
    }

    @Override
    public String render(ProgressState progress, int maxLength) {
        long total = progress.isIndefinite() ? -1 : progress.getMax();
        return format(finished.getAsLong(), total, progress.getTotalElapsed(), maxLength);
    }

    /**
     * @param n requests finished
     * @param total requests planned, or -1 when unknown
     * @param width columns the whole line may take
     */
    static String format(long n, long total, Duration elapsed, int width) {
        double elapsedS = elapsed.toNanos() / 1e9;
        double rate = elapsedS > 0 && n > 0 ? n / elapsedS : Double.NaN;
        String rateText = rate(rate);
        if (total < 0) {
            return n + "it [" + interval(elapsedS) + ", " + rateText + "]";
        }
        double fraction = total == 0 ? 1.0 : Math.min(1.0, (double) n / total);
        String left = padded(Long.toString(Math.round(fraction * 100)), 3) + "%|";
        String remaining = Double.isNaN(rate) ? "?" : interval((total - n) / rate);
        String right = "| " + n + "/" + total + " [" + interval(elapsedS) + "<" + remaining + ", " + rateText + "]";
        int barWidth = Math.max(1, width - left.length() - right.length());
        return left + bar(fraction, barWidth) + right;
    }

    /** tqdm's Bar: full blocks, one partial block in eighths, then spaces. */
    static String bar(double fraction, int width) {
        int steps = BLOCKS.length() - 1;
        int eighths = (int) (fraction * width * steps);
        int full = eighths / steps;
        StringBuilder bar = new StringBuilder(width);
        bar.append(String.valueOf(BLOCKS.charAt(steps)).repeat(full));
        if (full < width) {
            bar.append(BLOCKS.charAt(eighths % steps));
            bar.append(" ".repeat(width - full - 1));
        }
        return bar.toString();
    }

    /** tqdm's rate: {@code 5.2f} it/s, or s/it when slower than one per second; {@code ?it/s} unknown. */
    static String rate(double perSecond) {
        if (Double.isNaN(perSecond)) {
            return "?it/s";
        }
        return perSecond < 1 ? twoDecimals(1 / perSecond) + "s/it" : twoDecimals(perSecond) + "it/s";
    }

    /**
     * {@code %5.2f} without {@link String#format}, whose pattern parsing was most of a redraw's CPU
     * (ten redraws a second); rounding a half away from zero, as the format does.
     */
    private static String twoDecimals(double value) {
        long hundredths = Math.round(value * 100);
        long cents = hundredths % 100;
        return padded(hundredths / 100 + (cents < 10 ? ".0" : ".") + cents, 5);
    }

    private static String padded(String text, int width) {
        return text.length() >= width ? text : " ".repeat(width - text.length()) + text;
    }

    private static String twoDigits(long value) {
        return value < 10 ? "0" + value : Long.toString(value);
    }

    /** tqdm's format_interval: {@code MM:SS}, or {@code H:MM:SS} from one hour on. */
    static String interval(double seconds) {
        long total = (long) seconds;
        long hours = total / 3600;
        long minutes = total / 60 % 60;
        long secs = total % 60;
        return (hours > 0 ? hours + ":" : "") + twoDigits(minutes) + ":" + twoDigits(secs);
    }
}
