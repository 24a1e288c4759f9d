package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DrainTest {

    @Test
    void anUninterruptedRunWaitsForEveryRequestInFlight() {
        RunTally tally = new RunTally();
        tally.requestStarted();
        tally.sendingEnded();
        Thread finisher = new Thread(() -> {
            sleep(50);
            tally.finished(true, "", 1);
        });
        finisher.start();

        Drain drain = new Drain(tally, Duration.ZERO, "run", false);

        assertThat(drain.awaitInFlight()).isTrue();
        assertThat(drain.interrupted()).isFalse();
    }

    @Test
    void probesStillInFlightWhenTheyStoppedAreWaitedForNoLongerThanTheDrainTimeout() {
        RunTally tally = new RunTally();
        tally.sendingEnded();
        tally.probeStarted();
        tally.probesStopped();
        Drain drain = new Drain(tally, Duration.ofMillis(20), "run", false);
        assertThat(drain.awaitInFlight()).isTrue();

        assertThat(drain.awaitProbes()).isFalse();
        tally.probeFinished(true, "");
        assertThat(drain.awaitProbes()).isTrue();
    }

    @Test
    void anInterruptedRunWaitsNoLongerThanTheDrainTimeout() {
        RunTally tally = new RunTally();
        tally.requestStarted();
        tally.sendingEnded();

        Drain drain = new Drain(tally, Duration.ofMillis(20), "run", true);

        assertThat(drain.awaitInFlight()).isFalse();
        assertThat(drain.interrupted()).isTrue();
    }

    @Test
    void anInterruptDuringTheWaitStartsTheDrainTimeout() {
        RunTally tally = new RunTally();
        tally.requestStarted();
        tally.sendingEnded();
        Thread.currentThread().interrupt();

        Drain drain = new Drain(tally, Duration.ofMillis(20), "run", false);

        assertThat(drain.awaitInFlight()).isFalse();
        assertThat(drain.interrupted()).isTrue();
    }

    @Test
    void theWaitForCancelledRequestsKeepsAnInterruptForLater() {
        RunTally tally = new RunTally();
        tally.sendingEnded();
        tally.probesStopped();
        Thread.currentThread().interrupt();

        new Drain(tally, Duration.ZERO, "run", true).awaitCancelled();

        assertThat(Thread.interrupted()).isTrue();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
