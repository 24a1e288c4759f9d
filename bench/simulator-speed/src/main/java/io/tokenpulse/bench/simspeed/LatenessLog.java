package io.tokenpulse.bench.simspeed;

import io.tokenpulse.simulator.SendListener;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The simulator's send lateness per token event, in a histogram per measuring window. Two
 * readings of the same event: {@code sentNs − dueNs} (the simulator's stamp, taken just before the
 * write) and {@code now − dueNs} taken here, after the write and flush returned, i.e. once the
 * bytes are in the socket: the lateness the brief asks for, and the larger of the two.
 * Only the first {@code tokens} events of a response count (completions send no role event; the
 * last token and {@code [DONE]} share a write).
 *
 * <p>Threading: written by the simulator's event loop; {@link #take} from any one other thread
 * ({@link Recorder} is wait-free for its writer).
 */
final class LatenessLog implements SendListener {

    private static final long HIGHEST_NS = 3_600_000_000_000L;

    private final int tokens;
    private final Recorder afterWrite = new Recorder(HIGHEST_NS, 3);
    private final Recorder beforeWrite = new Recorder(HIGHEST_NS, 3);

    LatenessLog(int tokens) {
        this.tokens = tokens;
    }

    @Override
    public void onSent(String requestId, int seq, long receivedNs, long dueNs, long sentNs) {
        if (seq >= tokens) {
            return;
        }
        long flushedNs = System.nanoTime();
        afterWrite.recordValue(Math.max(0, flushedNs - dueNs));
        beforeWrite.recordValue(Math.max(0, sentNs - dueNs));
    }

    /** Both histograms since the last call (after-write first); the log starts a new window. */
    Histogram[] take() {
        return new Histogram[] {afterWrite.getIntervalHistogram(), beforeWrite.getIntervalHistogram()};
    }
}
