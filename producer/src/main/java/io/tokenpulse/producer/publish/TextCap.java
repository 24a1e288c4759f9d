package io.tokenpulse.producer.publish;

import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RequestFinished;
import java.nio.charset.StandardCharsets;

/**
 * Cuts a finished request's generated text to a bound in UTF-8 bytes, at a character boundary, and
 * ends it with a visible marker saying how much was kept, so that the record fits Kafka's record
 * limit instead of failing (and holding back its run's summary). Written by hand: the JDK has no
 * "longest prefix within N UTF-8 bytes", and the cut must not split a character.
 */
final class TextCap {
    static final String MARKER = "\n[tokenpulse: generated text truncated, %d of %d UTF-8 bytes kept]";

    private final int maxBytes;

    /** @param maxBytes the most UTF-8 bytes a kept text may have, marker included */
    TextCap(int maxBytes) {
        if (maxBytes < 256) {
            throw new IllegalArgumentException(
                    "the generated-text bound must leave room for its marker, got " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** {@code event} itself when its text fits (or it has none), else a copy with the text cut. */
    RequestEvent apply(RequestEvent event) {
        if (!(event.getEvent() instanceof RequestFinished finish) || finish.getGeneratedText() == null) {
            return event;
        }
        String text = finish.getGeneratedText();
        // A char is at most 3 UTF-8 bytes (a surrogate pair, 2 chars, is 4): short texts skip encoding.
        if ((long) text.length() * 3 <= maxBytes) {
            return event;
        }
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        if (utf8.length <= maxBytes) {
            return event;
        }
        int markerRoom = String.format(MARKER, maxBytes, utf8.length).getBytes(StandardCharsets.UTF_8).length;
        int cut = maxBytes - markerRoom;
        while (cut > 0 && (utf8[cut] & 0xC0) == 0x80) {
            cut--; // back off a continuation byte: the cut starts no character's tail
        }
        String kept = new String(utf8, 0, cut, StandardCharsets.UTF_8) + String.format(MARKER, cut, utf8.length);
        return RequestEvent.newBuilder(event)
                .setEvent(RequestFinished.newBuilder(finish)
                        .setGeneratedText(kept)
                        .build())
                .build();
    }
}
