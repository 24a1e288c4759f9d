package io.tokenpulse.producer;

/**
 * Told of each benchmark request's first token as it arrives, long before the request completes: a
 * live signal of the server's queueing (e.g. {@code sweep --search}'s early stop past saturation).
 *
 * <p>Threading: called on a connection's I/O thread, after the chunk's arrival was stamped and its
 * record handed to the publisher; an implementation must return at once (append to a lock-free
 * queue, never lock, block or log), or it delays the arrival stamps of the next events on that thread.
 */
@FunctionalInterface
public interface FirstTokenListener {

    /** Listens to nothing: the default. */
    FirstTokenListener NONE = ttftNs -> {};

    /** @param ttftNs the request's time to first token (first timing event's arrival minus sent), in ns */
    void firstToken(long ttftNs);
}
