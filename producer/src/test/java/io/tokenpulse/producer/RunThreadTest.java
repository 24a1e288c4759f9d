package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RunThreadTest {

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void aStopInterruptsTheRunUntilItStartsFinishing() {
        RunThread thread = new RunThread(Thread.currentThread());

        thread.stop();

        assertThat(Thread.currentThread().isInterrupted()).isTrue();
    }

    @Test
    void finishingClearsAnEarlierStopAndIgnoresLaterOnes() {
        RunThread thread = new RunThread(Thread.currentThread());
        thread.stop();

        thread.finishing();
        boolean afterFinishing = Thread.currentThread().isInterrupted();
        thread.stop();

        assertThat(afterFinishing).isFalse();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }
}
