package io.tokenpulse.simulator.wire;

/**
 * What names a generation response in its events: the request's id (the prefix of the response's
 * ids), the model it names, and when it was created, in seconds since the epoch.
 */
public record ResponseName(String requestId, String model, long createdEpochSeconds) {}
