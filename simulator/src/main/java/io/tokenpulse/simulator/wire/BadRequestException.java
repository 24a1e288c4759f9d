package io.tokenpulse.simulator.wire;

/** A request the simulator refuses with 400; the message goes to the client as the error message. */
public final class BadRequestException extends Exception {
    public BadRequestException(String message) {
        super(message, null, false, false);
    }
}
