package io.tokenpulse.bench.loadgen;

import io.tokenpulse.simulator.SendListener;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The simulator's log of every streamed event it wrote: per x-request-id and event position, when
 * the model wanted it sent ({@code dueNs}) and the {@link System#nanoTime()} just before the write
 * ({@code sentNs}). Only the first {@code events} positions are kept (the token events; the usage
 * event and {@code [DONE]} follow them).
 *
 * <p>Threading: each request's row is written by the one simulator I/O thread serving it; read it
 * only after the run ended.
 */
final class SendLog implements SendListener {

    private final int events;
    private final Map<String, long[]> rows = new ConcurrentHashMap<>();

    SendLog(int events) {
        this.events = events;
    }

    @Override
    public void onSent(String requestId, int seq, long receivedNs, long dueNs, long sentNs) {
        if (seq >= events) {
            return;
        }
        long[] row = rows.computeIfAbsent(requestId, id -> new long[2 * events]);
        row[2 * seq] = dueNs;
        row[2 * seq + 1] = sentNs;
    }

    /** The row of {@code requestId}: {@code [due0, sent0, due1, sent1, ...]}, 0 where not sent; null if unknown. */
    long[] row(String requestId) {
        return rows.get(requestId);
    }

    /** A copy of the log so far; this log starts empty again. */
    SendLog take() {
        SendLog copy = new SendLog(events);
        copy.rows.putAll(rows);
        rows.keySet().removeAll(copy.rows.keySet());
        return copy;
    }

    /** Writes every row (for a log kept in another process), then clears the log. */
    void writeTo(DataOutputStream out) throws IOException {
        out.writeInt(events);
        out.writeInt(rows.size());
        for (Map.Entry<String, long[]> row : rows.entrySet()) {
            out.writeUTF(row.getKey());
            for (long value : row.getValue()) {
                out.writeLong(value);
            }
        }
        out.flush();
        rows.clear();
    }

    /** A log as {@link #writeTo} wrote it. */
    static SendLog readFrom(DataInputStream in) throws IOException {
        SendLog log = new SendLog(in.readInt());
        int count = in.readInt();
        for (int i = 0; i < count; i++) {
            String requestId = in.readUTF();
            long[] row = new long[2 * log.events];
            for (int k = 0; k < row.length; k++) {
                row[k] = in.readLong();
            }
            log.rows.put(requestId, row);
        }
        return log;
    }
}
