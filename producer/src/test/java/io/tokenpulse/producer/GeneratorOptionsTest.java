package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class GeneratorOptionsTest {

    @Test
    void defaultsNeverStopDrainForThirtySecondsAndScrapeNothing() {
        GeneratorOptions defaults = GeneratorOptions.defaults();

        assertThat(defaults.stop().toCompletableFuture()).isNotDone();
        assertThat(defaults.drainTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(defaults.firstTokens()).isSameAs(FirstTokenListener.NONE);
        assertThat(defaults.serverScrapes()).isNull();
    }

    @Test
    void aWitherChangesOneSettingAndKeepsTheOthers() {
        GeneratorOptions defaults = GeneratorOptions.defaults();
        CompletableFuture<Void> stop = new CompletableFuture<>();

        GeneratorOptions changed = defaults.withStop(stop).withDrainTimeout(Duration.ZERO);

        assertThat(changed.stop()).isSameAs(stop);
        assertThat(changed.drainTimeout()).isZero();
        assertThat(changed.meters()).isSameAs(defaults.meters());
        assertThat(changed.http()).isSameAs(defaults.http());
    }

    @Test
    void onlyTheScrapesMayBeMissing() {
        assertThatThrownBy(() -> GeneratorOptions.defaults().withDrainTimeout(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("drainTimeout");
    }
}
