package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RunTallyTest {

    @Test
    void theRunEndsOnlyOnceSendingEndedAndEveryStartedRequestFinished() {
        RunTally tally = new RunTally();
        tally.requestStarted();
        tally.requestStarted();
        tally.finished(true, "", 10);
        tally.sendingEnded();
        assertThat(tally.allFinished()).isNotDone();

        tally.finished(false, "HTTP 500", 30);

        assertThat(tally.allFinished()).isDone();
        assertThat(tally.lastFinishedNs(0)).isEqualTo(30);
    }

    @Test
    void probesInFlightDoNotHoldTheRunsEndAndEndOnceStoppedAndFinished() {
        RunTally tally = new RunTally();
        tally.requestStarted();
        tally.probeStarted();
        tally.sendingEnded();
        tally.finished(true, "", 10);
        assertThat(tally.allFinished())
                .as("the run's requests ended, a probe is still out")
                .isDone();

        tally.probeStarted(); // probes go on through the drain until they are stopped
        tally.probeFinished(true, "");
        tally.probesStopped();
        assertThat(tally.probesFinished()).isNotDone();
        tally.probeFinished(false, "HTTP 503");

        assertThat(tally.probesFinished()).isDone();
        assertThat(tally.counts())
                .as("probes count in the totals")
                .isEqualTo(new RunTally.Counts(3, 2, 1, 0, java.util.Map.of("HTTP 503", 1L)));
        assertThat(tally.lastFinishedNs(0))
                .as("probes are in none of the run's times")
                .isEqualTo(10);
    }

    @Test
    void requestsThatNeverReportedTheirEndCountAsFailedSoTheCountsAddUp() {
        RunTally tally = new RunTally();
        for (int i = 0; i < 3; i++) {
            tally.requestStarted();
        }
        tally.finished(true, "", 1);

        RunTally.Counts counts = tally.counts();

        assertThat(counts.started()).isEqualTo(3);
        assertThat(counts.succeeded()).isEqualTo(1);
        assertThat(counts.failed()).isEqualTo(2);
        assertThat(counts.failureReasons()).containsEntry(RunTally.UNFINISHED_REASON, 2L);
    }

    @Test
    void distinctReasonsAreCappedSoALongRunStaysBounded() {
        RunTally tally = new RunTally();
        for (int i = 0; i < RunTally.MAX_REASONS + 50; i++) {
            tally.requestStarted();
            tally.finished(false, "request " + i + " failed", i);
        }

        RunTally.Counts counts = tally.counts();

        assertThat(counts.failureReasons()).hasSize(RunTally.MAX_REASONS + 1);
        assertThat(counts.failureReasons()).containsEntry(RunTally.OTHER_REASON, 50L);
        assertThat(counts.failed()).isEqualTo(RunTally.MAX_REASONS + 50);
    }
}
