package io.tokenpulse.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.aggregator.report.ClientCpu;
import java.net.URI;
import org.junit.jupiter.api.Test;

class ClientCpuMeterTest {

    private static final ClientCpu HALF_A_CORE = new ClientCpu(3.0, 0.5, 400.0);

    @Test
    void aClientThatTookMoreThanItsShareOfTheServersHostWarnsOnce() {
        assertThat(ClientCpuMeter.warning(HALF_A_CORE, URI.create("http://127.0.0.1:8000"), 2))
                .hasValue("Warning: the server (127.0.0.1) is on this host and the client used 0.50 of its 2 cores"
                        + " (25 %, more than 10 %); the client's own CPU may have slowed the server.");
        assertThat(ClientCpuMeter.warning(HALF_A_CORE, URI.create("http://localhost:8000"), 2))
                .isPresent();
    }

    @Test
    void noWarningBelowTheShareOrForAServerElsewhere() {
        assertThat(ClientCpuMeter.warning(HALF_A_CORE, URI.create("http://127.0.0.1:8000"), 8))
                .as("6 % of 8 cores")
                .isEmpty();
        // 192.0.2.0/24 is reserved for documentation: never an address of this host.
        assertThat(ClientCpuMeter.warning(HALF_A_CORE, URI.create("http://192.0.2.7:8000"), 2))
                .isEmpty();
    }

    @Test
    void theMeterCountsThisProcesssCpu() {
        ClientCpuMeter meter = ClientCpuMeter.start();
        long spin = System.nanoTime() + 50_000_000L;
        long x = 0;
        while (System.nanoTime() < spin) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime());
        }
        ClientCpu cpu = meter.stop(1000);
        assertThat(cpu.clientStartupCpuS()).as("a JVM's start costs CPU").isPositive();
        // On a loaded machine the spinning thread gets an unknown share of a core: only its sign is sure.
        assertThat(cpu.clientCpuCores()).as("50 ms of spinning (%d)", x).isPositive();
        assertThat(cpu.clientCpuUsPerEvent()).isPositive();
    }
}
