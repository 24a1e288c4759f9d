package io.tokenpulse.bench.httpclient;

import java.nio.ByteBuffer;

/**
 * Counts SSE events in a response body as it arrives (an event ends with a blank line) and keeps
 * the arrival time of the read that completed each one. The bench needs no more of SSE than this.
 */
final class EventSplitter {

    final long[] arrivalsNs;
    int events;
    private boolean previousWasNewline;

    EventSplitter(int maxEvents) {
        arrivalsNs = new long[maxEvents];
    }

    void feed(ByteBuffer bytes, long arrivalNs) {
        for (int i = bytes.position(); i < bytes.limit(); i++) {
            boolean newline = bytes.get(i) == '\n';
            if (newline && previousWasNewline && events < arrivalsNs.length) {
                arrivalsNs[events++] = arrivalNs;
                previousWasNewline = false;
            } else {
                previousWasNewline = newline;
            }
        }
    }
}
