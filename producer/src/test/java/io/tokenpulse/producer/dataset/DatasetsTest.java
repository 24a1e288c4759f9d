package io.tokenpulse.producer.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.tokenizers.TokenizerLoader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DatasetsTest {

    private static DatasetOptions named(String name) {
        return new DatasetOptions(name, null, PromptStyle.COMPLETION, DatasetOptions.Random.DEFAULTS,
                DatasetOptions.Sonnet.DEFAULTS);
    }

    @Test
    void registryListsTheSupportedNames() {
        assertThat(Datasets.names()).containsExactly("random", "sonnet");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sharegpt", "burstgpt", "hf", "custom"})
    void vllmDatasetsWeLackAreNotSupportedYet(String name) {
        assertThatThrownBy(() -> Datasets.create(named(name), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("dataset " + name + " is not supported yet; supported: random, sonnet");
    }

    @Test
    void unknownNameListsTheChoices() {
        assertThatThrownBy(() -> Datasets.create(named("poems"), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown --dataset-name 'poems'; choose one of: random, sonnet");
    }

    @Test
    void namesAreLookedUpNotGuessed() {
        Dataset random = Datasets.create(named("random"), new TokenizerLoader(Path.of("no-hub-cache")).load("gpt2"));

        assertThat(random.name()).isEqualTo("random");
    }
}
