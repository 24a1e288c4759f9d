package io.tokenpulse.runner.sweep;

import java.util.List;

/**
 * How a sweep ended: its file as saved, the points its summary lists (in plan order, a search's by
 * load), and the exit code.
 *
 * @param exitCode the highest of its points' ({@code bench}'s codes); 130/143 when a signal stopped it
 */
public record SweepOutcome(SweepFile file, List<SweepPoint> points, int exitCode) {

    /** The exit codes of a signal (130, 143): the sweep stops there and can be resumed. */
    public static final int INTERRUPTED_MIN = 128;

    public SweepOutcome {
        points = List.copyOf(points);
    }

    /** A signal stopped the sweep: {@code --resume} finishes it. */
    public boolean interrupted() {
        return exitCode >= INTERRUPTED_MIN;
    }
}
