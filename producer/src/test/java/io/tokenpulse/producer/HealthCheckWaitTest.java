package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class HealthCheckWaitTest {

    private static final long S = 1_000_000_000L;
    private static final URI LOCAL = URI.create("http://127.0.0.1:8000/health");

    @Test
    void saysEveryTenSecondsWhatItTriedWhatAnsweredAndWhatIsLeft() {
        var wait = new HealthCheck.Wait(URI.create("http://gpu-box:8000/health"), Duration.ofSeconds(600), 0);
        assertThat(wait.answered("HTTP 503", false, 5 * S)).isEmpty();
        assertThat(wait.answered("HTTP 503", false, 10 * S))
                .contains("Still waiting for http://gpu-box:8000/health: 2 tries in 10 s, last answer: HTTP 503;"
                        + " 590 s left (--ready-check-timeout-sec 600)");
        assertThat(wait.answered("HTTP 503", false, 11 * S)).isEmpty();
        assertThat(wait.answered("HTTP 503", false, 20 * S)).isPresent();
    }

    @Test
    void loopbackRefusingForThirtySecondsFailsWithTheFix() {
        var wait = new HealthCheck.Wait(LOCAL, Duration.ofSeconds(600), 0);
        wait.answered("connection refused", true, 0);
        wait.answered("connection refused", true, 29 * S);
        assertThatThrownBy(() -> wait.answered("connection refused", true, 30 * S))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("nothing is listening at 127.0.0.1:8000 (connection refused for 30 s)")
                .hasMessageContaining("--base-url");
    }

    @Test
    void anAnswerRestartsTheRefusedClock() {
        var wait = new HealthCheck.Wait(LOCAL, Duration.ofSeconds(600), 0);
        wait.answered("connection refused", true, 0);
        wait.answered("HTTP 503", false, 20 * S);
        wait.answered("connection refused", true, 25 * S);
        // 25 s refused since the last answer: still waiting (a progress line, no failure)
        assertThat(wait.answered("connection refused", true, 50 * S)).isPresent();
    }

    @Test
    void aTimeoutTheUserChoseOrARemoteHostIsWaitedInFull() {
        var chosen = new HealthCheck.Wait(LOCAL, Duration.ofSeconds(900), 0);
        chosen.answered("connection refused", true, 0);
        assertThat(chosen.answered("connection refused", true, 60 * S)).isPresent();
        var remote = new HealthCheck.Wait(URI.create("http://10.0.0.5:8000/health"), Duration.ofSeconds(600), 0);
        remote.answered("connection refused", true, 0);
        assertThat(remote.answered("connection refused", true, 60 * S)).isPresent();
    }
}
