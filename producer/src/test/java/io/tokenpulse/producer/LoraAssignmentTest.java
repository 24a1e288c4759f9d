package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoraAssignmentTest {

    @Test
    void roundRobinCyclesThroughTheAdaptersInOrder() {
        LoraAssignment lora = new LoraAssignment(List.of("a", "b", "c"), LoraAssignment.Strategy.ROUND_ROBIN);
        assertThat(lora.assign(7, 42)).containsExactly("a", "b", "c", "a", "b", "c", "a");
    }

    @Test
    void randomIsDrawnFromTheSeedAndReproducible() {
        LoraAssignment lora = new LoraAssignment(List.of("a", "b"), LoraAssignment.Strategy.RANDOM);
        String[] first = lora.assign(200, 7);
        assertThat(lora.assign(200, 7)).containsExactly(first);
        assertThat(Arrays.equals(lora.assign(200, 8), first)).as("another seed").isFalse();
        assertThat(first).containsOnly("a", "b");
        long a = Arrays.stream(first).filter("a"::equals).count();
        assertThat(a).as("both adapters drawn about evenly").isBetween(70L, 130L);
    }

    @Test
    void badNamesAndStrategiesAreOneLineNamingTheFlag() {
        assertThatThrownBy(() -> LoraAssignment.Strategy.parse("sticky"))
                .hasMessage("--lora-assignment must be random or round-robin, got 'sticky'");
        assertThatThrownBy(() -> new LoraAssignment(List.of(), LoraAssignment.Strategy.RANDOM))
                .hasMessageStartingWith("--lora-modules needs at least one name");
        assertThat(LoraAssignment.Strategy.parse("round-robin")).isEqualTo(LoraAssignment.Strategy.ROUND_ROBIN);
    }
}
