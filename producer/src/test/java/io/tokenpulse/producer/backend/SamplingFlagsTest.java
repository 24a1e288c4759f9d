package io.tokenpulse.producer.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.tokenpulse.producer.backend.BackendSettings.Sampling;
import org.junit.jupiter.api.Test;

/** The sampling flags a run was given, and the one refusal every backend that cannot send some makes. */
class SamplingFlagsTest {

    private static final Sampling ALL =
            new Sampling(0.5, 0.9, 5, 0.1, 2, true, 0.1, 0.2, 1.1, JsonNodeFactory.instance.objectNode());

    @Test
    void noFlagsGivenNamesNone() {
        assertThat(Sampling.GREEDY.givenFlags()).isEmpty();
    }

    @Test
    void everyFlagGivenIsNamedInTheRecordsOrder() {
        assertThat(ALL.givenFlags())
                .containsExactly(
                        "--temperature",
                        "--top-p",
                        "--top-k",
                        "--min-p",
                        "--logprobs",
                        "--ignore-eos",
                        "--frequency-penalty",
                        "--presence-penalty",
                        "--repetition-penalty",
                        "--extra-body");
    }

    @Test
    void theFlagsABackendSendsAreNotRefused() {
        Sampling sent = new Sampling(0.5, 0.9, null, null, null, false);
        RequestParts.refuseFlagsBut("b", sent, "cannot", "--temperature", "--top-p");
        RequestParts.refuseFlagsBut("b", Sampling.GREEDY, "cannot");
    }

    @Test
    void theOthersAreRefusedInOneLineThatSaysWhatToRemove() {
        assertThatThrownBy(() -> RequestParts.refuseFlagsBut(
                        "b", ALL, "cannot send them", "--temperature", "--top-k", "--extra-body"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("backend b cannot send them; remove --top-p --min-p --logprobs --ignore-eos"
                        + " --frequency-penalty --presence-penalty --repetition-penalty");
    }
}
