package io.tokenpulse.simulator;

/** The answer a connection is sending now (a stream or a pooled answer): what it can be told. */
interface ResponseInProgress {

    /** The client went away: stop, free what the request holds. */
    void cancel();
}
