package io.tokenpulse.producer.publish;

import io.tokenpulse.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The key bytes of the requests in flight ({@code <run id>/<request index>} in UTF-8, as
 * {@link Topics#requestKey}) and the run id's UTF-8, kept while the run id stays the same (one per
 * publisher in practice): a request's chunks share one key array instead of building a String each.
 * Not thread-safe: the publisher's sender thread only.
 */
final class RequestKeys {
    /** Keys kept, by request index modulo this (requests in flight at once stay far below it). */
    private static final int SLOTS = 4096;

    private String runId;
    private byte[] runIdUtf8;
    private final int[] slotIndex = new int[SLOTS];
    private final byte[][] keys = new byte[SLOTS][];

    /**
     * The run id's UTF-8; a new run id forgets the keys kept.
     *
     * @param record the record's name, for the error a null run id gets (the serializer's words)
     */
    byte[] runId(String id, String record) {
        if (id == null) {
            throw new SerializationException("cannot write a " + record
                    + " record: null value for (non-nullable) string at " + record + ".run_id");
        }
        if (!id.equals(runId)) {
            runId = id;
            runIdUtf8 = id.getBytes(StandardCharsets.UTF_8);
            Arrays.fill(keys, null);
        }
        return runIdUtf8;
    }

    /** The request's key; the same array for all its records (never modify it). Call {@link #runId} first. */
    byte[] key(int requestIndex) {
        int slot = requestIndex & (SLOTS - 1);
        byte[] key = keys[slot];
        if (key == null || slotIndex[slot] != requestIndex) {
            key = Topics.requestKey(runId, requestIndex).getBytes(StandardCharsets.UTF_8);
            keys[slot] = key;
            slotIndex[slot] = requestIndex;
        }
        return key;
    }
}
