package io.tokenpulse.producer.backend;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.tokenpulse.producer.sse.SseParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A recorded stream read by a backend's tracker through the SSE parser, one byte per read, each
 * read stamped with its byte index (so an event's arrival is where its data line ends).
 */
record StreamReplay(List<ResponseTracker.Step> steps, List<Long> arrivals, RequestOutcome outcome) {

    static String fixture(String name) {
        try (InputStream in = StreamReplay.class.getResourceAsStream("/io/tokenpulse/producer/sse/" + name)) {
            return new String(in.readAllBytes(), UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static StreamReplay of(String backend, String body) {
        ResponseTracker tracker = Backends.get(backend).newResponse();
        List<ResponseTracker.Step> steps = new ArrayList<>();
        List<Long> arrivals = new ArrayList<>();
        SseParser parser = new SseParser((data, offset, length, arrivalNs) -> {
            steps.add(tracker.onEvent(data, offset, length, arrivalNs));
            arrivals.add(arrivalNs);
        });
        byte[] bytes = body.getBytes(UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            parser.feed(bytes, i, 1, 1_000 + i);
        }
        return new StreamReplay(
                steps, arrivals, tracker.finish(200, parser.finish().doneSeen()));
    }

    /** {@code body} without its last event (the blank-line-separated block before the final blank line). */
    static String withoutLastEvent(String body) {
        String trimmed = body.stripTrailing();
        return trimmed.substring(0, trimmed.lastIndexOf("\n\n") + 2);
    }

    List<Integer> seqs() {
        return steps.stream().map(ResponseTracker.Step::seq).toList();
    }
}
